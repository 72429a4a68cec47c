"""The 15×15 board of a game view as drawing instructions for the template (no rules here:
stones, their order and the last move are read from the game view gameplay returns)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SIZE = 15
CELL = 32
MARGIN = 36
LETTERS = "abcdefghijklmno"


@dataclass(frozen=True)
class Stone:
    x: float
    y: float
    colour: str
    number: int
    last: bool


def xy(point: str) -> tuple[float, float] | None:
    """Screen position of a point such as ``h8`` (column letter, row number; row 1 at the bottom)."""
    if len(point) < 2 or point[0] not in LETTERS or not point[1:].isdigit():
        return None
    col, row = LETTERS.index(point[0]), int(point[1:])
    if not 1 <= row <= SIZE:
        return None
    return MARGIN + col * CELL, MARGIN + (SIZE - row) * CELL


def layout(view: dict[str, Any]) -> dict[str, Any]:
    moves = list(view.get("moves") or [])
    number = {p: i + 1 for i, p in enumerate(moves)}
    stones = []
    board = view.get("board") or []
    last = moves[-1] if moves else None
    for s in board:
        pos = xy(str(s.get("point", "")))
        if pos:
            stones.append(
                Stone(pos[0], pos[1], s.get("colour", "black"), number.get(s["point"], 0), s["point"] == last)
            )
    forbidden = []
    for p in view.get("forbidden") or {}:
        pos = xy(str(p))
        if pos:
            forbidden.append(pos)
    offers = [xy(p) for p in ((view.get("opening") or {}).get("offers") or []) if xy(p)]
    span = 2 * MARGIN + (SIZE - 1) * CELL
    lines = [MARGIN + i * CELL for i in range(SIZE)]
    stars = [xy(p) for p in ("h8", "d4", "d12", "l4", "l12")]
    return {
        "span": span,
        "lines": lines,
        "start": MARGIN,
        "end": MARGIN + (SIZE - 1) * CELL,
        "cell": CELL,
        "letters": [(MARGIN + i * CELL, LETTERS[i].upper()) for i in range(SIZE)],
        "numbers": [(MARGIN + (SIZE - r) * CELL, r) for r in range(1, SIZE + 1)],
        "stars": stars,
        "stones": stones,
        "forbidden": forbidden,
        "offers": offers,
        "move_count": len(moves),
        "last": last,
    }
