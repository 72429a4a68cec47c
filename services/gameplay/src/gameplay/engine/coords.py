"""Board coordinates, standard notation and the symmetries of the 15x15 board (PLAY-1, PLAY-2).

A point is ``(x, y)``, 0-based: x = column (a = 0), y = row - 1 (row 1 at the bottom), so
``(7, 7)`` is ``h8``, the centre.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

Point = tuple[int, int]

BOARD_SIZE = 15  # PLAY-1: the board is 15x15 under every track
COLUMNS = "abcdefghijklmno"
CENTRE: Point = (7, 7)
PASS = "pass"
#: every point of the board, at ``x * BOARD_SIZE + y``: a game keeps these, not a tuple of its own
#: per move (made at start-up, they are frozen out of the collector's young generation there)
POINTS: tuple[Point, ...] = tuple((x, y) for x in range(BOARD_SIZE) for y in range(BOARD_SIZE))

_NOTATION = re.compile(r"^([a-o])(1[0-5]|[1-9])$")


def on_board(point: Point) -> bool:
    x, y = point
    return 0 <= x < BOARD_SIZE and 0 <= y < BOARD_SIZE


def as_point(value: object, what: str = "point") -> Point:
    """Validate and normalise a point given as a 2-sequence of ints (tuple, list) or notation."""
    if isinstance(value, str):
        return from_notation(value)
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise ValueError(f"{what} must be an (x, y) pair or notation like 'h8', not {value!r}")
    x, y = value
    if isinstance(x, bool) or isinstance(y, bool) or not isinstance(x, int) or not isinstance(y, int):
        raise ValueError(f"{what} coordinates must be integers, not {value!r}")
    if not on_board((x, y)):
        raise ValueError(f"{what} {value!r} is off the {BOARD_SIZE}x{BOARD_SIZE} board")
    return POINTS[x * BOARD_SIZE + y]


def to_notation(point: Point) -> str:
    """``(7, 7) -> "h8"``."""
    x, y = as_point(point)
    return f"{COLUMNS[x]}{y + 1}"


def from_notation(text: str) -> Point:
    """``"h8" -> (7, 7)``; case and surrounding blanks are ignored."""
    if not isinstance(text, str):
        raise ValueError(f"notation must be a string, not {text!r}")
    match = _NOTATION.match(text.strip().lower())
    if not match:
        raise ValueError(f"{text!r} is not a point on the board (columns a-o, rows 1-15)")
    return POINTS[COLUMNS.index(match.group(1)) * BOARD_SIZE + int(match.group(2)) - 1]


def format_moves(moves: Iterable[Point | None]) -> str:
    """Standard move list ``"h8 h9 j10"``; ``None`` is written as ``pass``."""
    return " ".join(PASS if m is None else to_notation(m) for m in moves)


def parse_moves(text: str) -> list[Point | None]:
    """Inverse of :func:`format_moves` (blank or comma separated)."""
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    return [None if t.lower() == PASS else from_notation(t) for t in tokens]


# The 8 symmetries of the square (dihedral group D4) acting on an offset (dx, dy).
_D4 = (
    lambda dx, dy: (dx, dy),
    lambda dx, dy: (-dy, dx),
    lambda dx, dy: (-dx, -dy),
    lambda dx, dy: (dy, -dx),
    lambda dx, dy: (-dx, dy),
    lambda dx, dy: (dx, -dy),
    lambda dx, dy: (dy, dx),
    lambda dx, dy: (-dy, -dx),
)
SYMMETRY_COUNT = len(_D4)


def transform_offset(offset: Point, symmetry: int) -> Point:
    return _D4[symmetry](*offset)


def transform(point: Point, symmetry: int, centre: Point = CENTRE) -> Point:
    """Image of ``point`` under ``symmetry`` (0..7, 0 = identity) about ``centre``."""
    dx, dy = _D4[symmetry](point[0] - centre[0], point[1] - centre[1])
    return (centre[0] + dx, centre[1] + dy)


def shape_key(coloured: Sequence[tuple[int, int, str]]) -> tuple:
    """Canonical form of a set of coloured stones up to rotation, reflection and translation.

    Used to decide when two fifth-move offers are equivalent (PLAY-2 step 4): the board edge
    is ignored, so only the relative shape of the stones counts.
    """
    best: tuple | None = None
    for mapping in _D4:
        moved = [(*mapping(x, y), c) for x, y, c in coloured]
        left = min(p[0] for p in moved)
        bottom = min(p[1] for p in moved)
        key = tuple(sorted((x - left, y - bottom, c) for x, y, c in moved))
        if best is None or key < best:
            best = key
    return best if best is not None else ()
