"""The 15×15 board of a game view as drawing instructions for the template (no rules here:
stones, their order, the last move, the fifth-move offers and black's forbidden points are read
from what gameplay returns; the winning five of a replay is the line of the winner's stones
through their last move, drawn when gameplay's record says the game was won by five)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SIZE = 15
CELL = 32
MARGIN = 36
LETTERS = "abcdefghijklmno"
STARS = ("h8", "d4", "d12", "l4", "l12")
#: phases in which the fifth-move offers are still open (black offered, white has not chosen)
OFFER_PHASES = ("choose",)


@dataclass(frozen=True)
class Stone:
    x: float
    y: float
    colour: str
    number: int
    last: bool
    point: str = ""


@dataclass(frozen=True)
class Mark:
    x: float
    y: float
    point: str
    kind: str = ""


def xy(point: str) -> tuple[float, float] | None:
    """Screen position of a point such as ``h8`` (column letter, row number; row 1 at the bottom)."""
    if len(point) < 2 or point[0] not in LETTERS or not point[1:].isdigit():
        return None
    col, row = LETTERS.index(point[0]), int(point[1:])
    if not 1 <= row <= SIZE:
        return None
    return MARGIN + col * CELL, MARGIN + (SIZE - row) * CELL


def _marks(points: Any) -> list[Mark]:
    """Marks at points given as a list or as a ``{point: kind}`` mapping."""
    items = points.items() if isinstance(points, dict) else ((p, "") for p in points or ())
    marks = []
    for point, kind in items:
        pos = xy(str(point))
        if pos:
            marks.append(Mark(pos[0], pos[1], str(point), str(kind or "")))
    return marks


def grid() -> dict[str, Any]:
    span = 2 * MARGIN + (SIZE - 1) * CELL
    return {
        "span": span,
        "lines": [MARGIN + i * CELL for i in range(SIZE)],
        "start": MARGIN,
        "end": MARGIN + (SIZE - 1) * CELL,
        "cell": CELL,
        "letters": [(MARGIN + i * CELL, LETTERS[i].upper()) for i in range(SIZE)],
        "numbers": [(MARGIN + (SIZE - r) * CELL, r) for r in range(1, SIZE + 1)],
        "stars": [xy(p) for p in STARS],
    }


def layout(view: dict[str, Any]) -> dict[str, Any]:
    """A live game view: the stones now, numbered in the order they were played."""
    moves = list(view.get("moves") or [])
    number = {p: i + 1 for i, p in enumerate(moves)}
    last = moves[-1] if moves else None
    stones = []
    for stone in view.get("board") or []:
        point = str(stone.get("point", ""))
        pos = xy(point)
        if pos:
            stones.append(
                Stone(pos[0], pos[1], stone.get("colour", "black"), number.get(point, 0), point == last, point)
            )
    opening = view.get("opening") or {}
    offers = _marks(opening.get("offers")) if view.get("phase") in OFFER_PHASES else []
    return {
        **grid(),
        "stones": stones,
        "forbidden": _marks(view.get("forbidden")),
        "offers": offers,
        "move_count": len(moves),
        "last": last if last and xy(last) else None,
    }


def replay(record: dict[str, Any]) -> dict[str, Any]:
    """A game record (gameplay's ``record?format=json``): every stone with the ply it came at,
    so the page shows the position after any ply by hiding the later ones."""
    stones = []
    plies: list[dict[str, Any]] = []
    for move in record.get("moves") or []:
        point = str(move.get("move", ""))
        ply = int(move.get("ply") or len(plies) + 1)
        plies.append({"ply": ply, "colour": move.get("colour"), "move": point, "clock": move.get("clock") or {}})
        pos = xy(point)
        if pos:
            stones.append(Stone(pos[0], pos[1], move.get("colour", "black"), ply, False, point))
    return {
        **grid(),
        "stones": stones,
        "forbidden": [],
        "offers": [],
        "plies": plies,
        "move_count": len(plies),
        "five": winning_five(record),
    }


#: the four lines through a point: across, up, and the two diagonals
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


def _cell(point: str) -> tuple[int, int] | None:
    if xy(point) is None:
        return None
    return LETTERS.index(point[0]), int(point[1:])


def winning_five(record: dict[str, Any]) -> dict[str, Any] | None:
    """The winning line of a game gameplay's record says was won by five (``result.reason ==
    "five"``): the longest run of the winner's stones through the winner's last move (five, or
    more where an overline wins). None for any other ending, or when the record has no such run."""
    result = record.get("result") or {}
    winner = result.get("winner")
    if result.get("reason") != "five" or winner not in ("black", "white"):
        return None
    mine = [m for m in record.get("moves") or [] if m.get("colour") == winner]
    if not mine:
        return None
    cells = {c for c in (_cell(str(m.get("move", ""))) for m in mine) if c}
    last = _cell(str(mine[-1].get("move", "")))
    if last is None:
        return None
    best: list[tuple[int, int]] = []
    for dx, dy in DIRECTIONS:
        run = [last]
        for sign in (1, -1):
            col, row = last[0] + sign * dx, last[1] + sign * dy
            while (col, row) in cells:
                run.append((col, row))
                col, row = col + sign * dx, row + sign * dy
        if len(run) > len(best):
            best = sorted(run)
    if len(best) < 5:
        return None
    points = [f"{LETTERS[col]}{row}" for col, row in best]
    ends = [xy(points[0]), xy(points[-1])]
    return {
        "ply": int(mine[-1].get("ply") or 0),
        "points": points,
        "rings": [xy(p) for p in points],
        "start": ends[0],
        "end": ends[1],
    }
