"""Plain-Python rules core: the obviously-correct, slow oracle for the Cython core (PLAY-3).

Protocol (shared with ``_core``; see ``backend.py``)::

    classify(black, white, point) -> "five" | "overline" | "double_four" | "double_three" | "none"
    forbidden_points(black, white) -> {(x, y): kind}
    line_length(stones, point) -> int

Every definition below is written straight from the RIF rules' wording of PLAY-3, with no
pattern tables, so that it can be read against the rule:

* five: the new black stone completes a run of exactly five. It wins even when the same move
  also makes an overline, a double four or a double three elsewhere.
* overline: a run of six or more through the new stone.
* four: a line where one more black stone makes exactly five. Fours are told apart by their
  four stones, so a straight four (``.XXXX.``) is one four while ``X.XXX.X``, ``XX.XX.XX``
  and ``XXX.X.XXX`` are two fours on one line.
* three: a line where one more black stone makes a straight four (an unbroken four whose both
  ends make exactly five) through the new stone, where that extra stone neither makes a five
  nor is itself forbidden -- decided by calling ``classify`` again with the new stone placed.
* order: overline > double four (two or more fours) > double three (two or more threes).
  Hence 4-3-3 is a double three, 4-4-3 a double four, and 4-3 is legal.
"""

from __future__ import annotations

from collections.abc import Iterable

from .coords import BOARD_SIZE, Point

FIVE = "five"
OVERLINE = "overline"
DOUBLE_FOUR = "double_four"
DOUBLE_THREE = "double_three"
NONE = "none"
FORBIDDEN_KINDS = frozenset({OVERLINE, DOUBLE_FOUR, DOUBLE_THREE})

DIRECTIONS: tuple[Point, ...] = ((1, 0), (0, 1), (1, 1), (1, -1))


# -- input validation -------------------------------------------------------------------------


def _point(value: object, what: str) -> Point:
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise ValueError(f"{what} must be an (x, y) pair, not {value!r}")
    x, y = value
    if isinstance(x, bool) or isinstance(y, bool) or not isinstance(x, int) or not isinstance(y, int):
        raise ValueError(f"{what} coordinates must be integers, not {value!r}")
    if not (0 <= x < BOARD_SIZE and 0 <= y < BOARD_SIZE):
        raise ValueError(f"{what} {value!r} is off the {BOARD_SIZE}x{BOARD_SIZE} board")
    return (x, y)


def _stones(values: Iterable[object], what: str) -> set[Point]:
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise ValueError(f"{what} must be a collection of (x, y) points, not {values!r}")
    points = [_point(v, f"{what} stone") for v in values]
    out = set(points)
    if len(out) != len(points):
        dup = next(p for p in points if points.count(p) > 1)
        raise ValueError(f"{what} stone {dup!r} is listed twice")
    return out


def _position(black: Iterable[object], white: Iterable[object]) -> tuple[set[Point], set[Point]]:
    black_stones = _stones(black, "black")
    white_stones = _stones(white, "white")
    both = black_stones & white_stones
    if both:
        raise ValueError(f"points hold both a black and a white stone: {sorted(both)}")
    return black_stones, white_stones


# -- geometry ---------------------------------------------------------------------------------


def _on_board(x: int, y: int) -> bool:
    return 0 <= x < BOARD_SIZE and 0 <= y < BOARD_SIZE


def _segment(stones: set[Point], point: Point, direction: Point) -> list[Point]:
    """The unbroken run of ``stones`` along ``d`` that contains ``point`` (point counted)."""
    dx, dy = direction
    run = [point]
    x, y = point[0] - dx, point[1] - dy
    while _on_board(x, y) and (x, y) in stones:
        run.insert(0, (x, y))
        x, y = x - dx, y - dy
    x, y = point[0] + dx, point[1] + dy
    while _on_board(x, y) and (x, y) in stones:
        run.append((x, y))
        x, y = x + dx, y + dy
    return run


def _empty(black: set[Point], white: set[Point], point: Point) -> bool:
    return _on_board(*point) and point not in black and point not in white


def _line_points(origin: Point, direction: Point, reach: int) -> list[Point]:
    """On-board points of the line through ``p`` along ``d`` within ``reach`` of it, p excluded."""
    out = []
    for step in range(-reach, reach + 1):
        candidate = (origin[0] + step * direction[0], origin[1] + step * direction[1])
        if step != 0 and _on_board(*candidate):
            out.append(candidate)
    return out


def _with(stones: set[Point], point: Point, action, *args):
    """Run ``fn`` with ``p`` temporarily added to ``stones`` (restored afterwards)."""
    stones.add(point)
    try:
        return action(*args)
    finally:
        stones.discard(point)


# -- shapes -----------------------------------------------------------------------------------


def _fours(black: set[Point], white: set[Point], placed: Point, direction: Point) -> int:
    """Number of distinct fours through ``p`` (already placed) on the line along ``d``."""
    four_sets = set()
    for candidate in _line_points(placed, direction, 4):
        if not _empty(black, white, candidate):
            continue
        run = _with(black, candidate, _segment, black, candidate, direction)
        if len(run) == 5 and placed in run:
            four_sets.add(frozenset(run) - {candidate})
    return len(four_sets)


def _is_straight_four(black: set[Point], white: set[Point], run: list[Point], direction: Point) -> bool:
    if len(run) != 4:
        return False
    ends = (
        (run[0][0] - direction[0], run[0][1] - direction[1]),
        (run[-1][0] + direction[0], run[-1][1] + direction[1]),
    )
    for end in ends:
        if not _empty(black, white, end):
            return False
        if len(_with(black, end, _segment, black, end, direction)) != 5:
            return False
    return True


def _is_three(black: set[Point], white: set[Point], placed: Point, direction: Point) -> bool:
    """True when one more black stone on this line makes a straight four through ``p``,
    that stone makes no five and is not itself forbidden (``p`` already placed)."""
    for extra in _line_points(placed, direction, 4):
        if not _empty(black, white, extra):
            continue
        black.add(extra)
        try:
            run = _segment(black, extra, direction)
            straight = placed in run and _is_straight_four(black, white, run, direction)
        finally:
            black.discard(extra)
        if straight and _classify(black, white, extra) == NONE:
            return True
    return False


def _classify(black: set[Point], white: set[Point], point: Point) -> str:
    """Kind of a black stone on the empty point ``p``; ``black`` is restored on return."""
    black.add(point)
    try:
        lengths = [len(_segment(black, point, d)) for d in DIRECTIONS]
        if 5 in lengths:
            return FIVE
        if max(lengths) >= 6:
            return OVERLINE
        if sum(_fours(black, white, point, d) for d in DIRECTIONS) >= 2:
            return DOUBLE_FOUR
        if sum(1 for d in DIRECTIONS if _is_three(black, white, point, d)) >= 2:
            return DOUBLE_THREE
        return NONE
    finally:
        black.discard(point)


# -- protocol ---------------------------------------------------------------------------------


def classify(black: Iterable[Point], white: Iterable[Point], point: Point) -> str:
    """What a black stone on the empty ``point`` would be: five, overline, double_four,
    double_three or none (PLAY-3)."""
    black_stones, white_stones = _position(black, white)
    spot = _point(point, "point")
    if spot in black_stones or spot in white_stones:
        raise ValueError(f"point {spot} is not empty")
    return _classify(black_stones, white_stones, spot)


def forbidden_points(black: Iterable[Point], white: Iterable[Point]) -> dict[Point, str]:
    """Every empty point where a black stone would be forbidden, with the kind of foul."""
    black_stones, white_stones = _position(black, white)
    out: dict[Point, str] = {}
    for x in range(BOARD_SIZE):
        for y in range(BOARD_SIZE):
            spot = (x, y)
            if spot in black_stones or spot in white_stones:
                continue
            kind = _classify(black_stones, white_stones, spot)
            if kind in FORBIDDEN_KINDS:
                out[spot] = kind
    return out


def line_length(stones: Iterable[Point], point: Point) -> int:
    """Longest unbroken run of ``stones`` through ``point`` in any direction, point counted."""
    run_stones = _stones(stones, "stones")
    spot = _point(point, "point")
    run_stones.add(spot)
    return max(len(_segment(run_stones, spot, d)) for d in DIRECTIONS)


class KeptBoard:
    """The protocol's kept board (``_core.KeptBoard``) written plainly: the stones in sets, each
    question answered from scratch by the functions above."""

    def __init__(self) -> None:
        self._black: set[Point] = set()
        self._white: set[Point] = set()
        self._placed: list[tuple[Point, bool]] = []

    def place(self, point: Point, black: bool) -> None:
        spot = _point(point, "point")
        if spot in self._black or spot in self._white:
            raise ValueError(f"point {spot} is occupied")
        (self._black if black else self._white).add(spot)
        self._placed.append((spot, bool(black)))

    def undo(self) -> Point:
        if not self._placed:
            raise ValueError("no stone to take back")
        spot, black = self._placed.pop()
        (self._black if black else self._white).discard(spot)
        return spot

    def classify(self, point: Point) -> str:
        return classify(self._black, self._white, point)

    def forbidden_points(self) -> dict[Point, str]:
        return forbidden_points(self._black, self._white)

    def forbidden_count(self) -> int:
        return len(self.forbidden_points())

    def moves(self) -> list[tuple[Point, bool]]:
        return list(self._placed)
