"""A simple threat-aware Gomoku move chooser (pure: board in, point out).

Priority ladder, for the side to move:
1. complete five (black under professional rules: exactly five; six is an overline foul);
2. block the opponent's five;
3. make a four that cannot be stopped (two or more winning points);
4. stop the opponent's open three (a point where the opponent would get two winning points);
5. otherwise the best point by a window score (attack + defence), with seeded noise.

Black never plays a point listed in ``forbidden`` (the server's map, or
``gameplay.engine.forbidden_points`` offline). The only randomness is the ``random.Random``
passed in, so a decision is a function of the position and that generator's seed.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from itertools import chain, compress
from operator import itemgetter

SIZE = 15
BLACK = 1
WHITE = 2
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))
Point = tuple[int, int]

# score of a 5-cell window holding k of one colour and none of the other
_WINDOW = (0, 1, 12, 160, 2500, 0)


@dataclass(frozen=True)
class Position:
    """A board: ``grid[x][y]`` is 0 (empty), 1 (black) or 2 (white)."""

    grid: tuple[tuple[int, ...], ...]
    professional: bool = False

    @classmethod
    def from_stones(cls, black: Iterable[Point], white: Iterable[Point], *, professional: bool = False) -> Position:
        grid = [[0] * SIZE for _ in range(SIZE)]
        for x, y in black:
            grid[x][y] = BLACK
        for x, y in white:
            grid[x][y] = WHITE
        return cls(tuple(tuple(c) for c in grid), professional)

    @classmethod
    def from_moves(cls, moves: Iterable[Point | None], *, professional: bool = False) -> Position:
        """Stones from a move list (black first; ``None`` is a pass)."""
        black: list[Point] = []
        white: list[Point] = []
        for ply, move in enumerate(moves):
            if move is not None:
                (black if ply % 2 == 0 else white).append(move)
        return cls.from_stones(black, white, professional=professional)

    def at(self, p: Point) -> int:
        return self.grid[p[0]][p[1]]

    def empty(self, p: Point) -> bool:
        return 0 <= p[0] < SIZE and 0 <= p[1] < SIZE and self.grid[p[0]][p[1]] == 0

    @property
    def stone_count(self) -> int:
        return sum(1 for col in self.grid for v in col if v)

    def with_stone(self, p: Point, colour: int) -> Position:
        grid = [list(c) for c in self.grid]
        grid[p[0]][p[1]] = colour
        return Position(tuple(tuple(c) for c in grid), self.professional)

    # A bot looks at one position several times in one decision (is it lost, where can either side
    # win, the move itself): what depends only on the stones is computed once per position.
    @cached_property
    def scores(self) -> WindowScores:
        return WindowScores(self)

    @cached_property
    def near_one(self) -> list[Point]:
        return candidates(self, 1)

    @cached_property
    def near_two(self) -> list[Point]:
        return candidates(self, 2)


def _inside(x: int, y: int) -> bool:
    return 0 <= x < SIZE and 0 <= y < SIZE


def run_length(pos: Position, p: Point, colour: int, d: tuple[int, int]) -> int:
    """Length of the run of ``colour`` through ``p`` along ``d`` if ``colour`` stood on ``p``."""
    length = 1
    grid = pos.grid
    for sign in (1, -1):
        x, y = p[0] + sign * d[0], p[1] + sign * d[1]
        while 0 <= x < SIZE and 0 <= y < SIZE and grid[x][y] == colour:
            length += 1
            x, y = x + sign * d[0], y + sign * d[1]
    return length


def makes_five(pos: Position, p: Point, colour: int) -> bool:
    """Would ``colour`` on the empty point ``p`` win? Black under professional rules needs
    exactly five (PLAY-3); everyone else five or more (PLAY-1)."""
    exact = pos.professional and colour == BLACK
    for d in DIRECTIONS:
        length = run_length(pos, p, colour, d)
        if length == 5 or (length > 5 and not exact):
            return True
    return False


def _near(radius: int) -> list[tuple[int, ...]]:
    """For each cell (flat index), the cells within ``radius`` of it on the board."""
    return [
        tuple(
            (x + dx) * SIZE + y + dy
            for dx in range(-radius, radius + 1)
            for dy in range(-radius, radius + 1)
            if _inside(x + dx, y + dy)
        )
        for x in range(SIZE)
        for y in range(SIZE)
    ]


_NEAR = {1: _near(1), 2: _near(2)}
_CELLS = range(SIZE * SIZE)
_POINTS = [divmod(c, SIZE) for c in _CELLS]


def candidates(pos: Position, radius: int = 2) -> list[Point]:
    """Empty points within ``radius`` of a stone (the centre on an empty board), sorted."""
    cells = list(chain.from_iterable(pos.grid))
    near = _NEAR.get(radius) or _near(radius)
    out: set[int] = set().union(*map(near.__getitem__, compress(_CELLS, cells)))
    if not out:
        return [(7, 7)]
    return [_POINTS[c] for c in sorted(out) if not cells[c]]


def winning_points(pos: Position, colour: int, among: Iterable[Point] | None = None) -> list[Point]:
    """Empty points where ``colour`` would complete five now. Only a point that completes a
    window of four of ``colour`` and none of the other can (``WindowScores.four_gaps``), so the
    run lengths are counted only there."""
    pts = pos.near_one if among is None else among
    gaps = pos.scores.four_gaps(colour)
    return [p for p in pts if p in gaps and pos.empty(p) and makes_five(pos, p, colour)]


def _wins_after(pos: Position, p: Point, colour: int) -> int:
    """Number of distinct winning points ``colour`` has after playing ``p`` (on lines through p)."""
    after = pos.with_stone(p, colour)
    found: set[Point] = set()
    for d in DIRECTIONS:
        for sign in (1, -1):
            for step in range(1, 5):
                neighbour = (p[0] + sign * step * d[0], p[1] + sign * step * d[1])
                if not _inside(*neighbour):
                    break
                stone = after.at(neighbour)
                if stone == 0:
                    if makes_five(after, neighbour, colour):
                        found.add(neighbour)
                elif stone != colour:
                    break
    return len(found)


def point_score(pos: Position, p: Point, colour: int) -> int:
    """Sum over the 5-cell windows through ``p`` that ``colour`` could still fill."""
    grid = pos.grid
    total = 0
    for dx, dy in DIRECTIONS:
        for start in range(-4, 1):
            own = 0
            ok = True
            for step in range(start, start + 5):
                x, y = p[0] + step * dx, p[1] + step * dy
                if not _inside(x, y):
                    ok = False
                    break
                stone = grid[x][y]
                if stone == colour:
                    own += 1
                elif stone != 0:
                    ok = False
                    break
            if ok:
                total += _WINDOW[min(own + 1, 4)] if own + 1 < 5 else 100000
    return total


def _windows() -> tuple[list[tuple[int, ...]], dict[Point, tuple[int, ...]]]:
    """Every 5-cell window on the board (flat cell indices x * SIZE + y), and for each point the
    windows through it (in all four directions)."""
    wins: list[tuple[int, ...]] = []
    for dx, dy in DIRECTIONS:
        for x in range(SIZE):
            for y in range(SIZE):
                if _inside(x + 4 * dx, y + 4 * dy):
                    wins.append(tuple((x + k * dx) * SIZE + y + k * dy for k in range(5)))
    through: dict[Point, list[int]] = {(x, y): [] for x in range(SIZE) for y in range(SIZE)}
    for index, window in enumerate(wins):
        for cell in window:
            through[divmod(cell, SIZE)].append(index)
    return wins, {p: tuple(v) for p, v in through.items()}


_WINDOWS, _THROUGH = _windows()
#: for each point, a getter of the values of the windows through it (every point has at least two)
_PICK = {p: itemgetter(*ids) for p, ids in _THROUGH.items()}
# a window's cells summed with black = 1 and white = 8 give b + 8w: what it is worth to black
# (no white stone in it) and to white (no black stone in it)
_CODE = (0, 1, 8)
_FOR_BLACK = [0] * 46
_FOR_WHITE = [0] * 46
for _b in range(6):
    for _w in range(6 - _b):
        _FOR_BLACK[_b + 8 * _w] = 0 if _w else (_WINDOW[_b + 1] if _b < 4 else 100000)
        _FOR_WHITE[_b + 8 * _w] = 0 if _b else (_WINDOW[_w + 1] if _w < 4 else 100000)


class WindowScores:
    """The window values of one position, computed once; ``of(p)`` is ``both_scores(pos, p)``."""

    __slots__ = ("black", "white", "_cells", "_sums", "_fours")

    def __init__(self, pos: Position) -> None:
        code = _CODE
        cells = [code[v] for col in pos.grid for v in col]
        sums = [cells[a] + cells[b] + cells[c] + cells[d] + cells[e] for a, b, c, d, e in _WINDOWS]
        for_black, for_white = _FOR_BLACK, _FOR_WHITE
        self.black = [for_black[s] for s in sums]
        self.white = [for_white[s] for s in sums]
        self._cells, self._sums = cells, sums
        self._fours: dict[int, frozenset[Point]] = {}

    def of(self, p: Point) -> tuple[int, int]:
        pick = _PICK[p]
        return sum(pick(self.black)), sum(pick(self.white))

    def four_gaps(self, colour: int) -> frozenset[Point]:
        """The empty points that complete a window of four ``colour`` stones and none of the
        other: exactly the empty points whose window score for ``colour`` is 100000 or more, the
        only points where ``colour`` can make five."""
        found = self._fours.get(colour)
        if found is None:
            four = 4 if colour == BLACK else 32  # a window's sum is b + 8w
            cells = self._cells
            found = frozenset(
                divmod(cell, SIZE)
                for window, total in zip(_WINDOWS, self._sums, strict=True)
                if total == four
                for cell in window
                if not cells[cell]
            )
            self._fours[colour] = found
        return found


def both_scores(pos: Position, p: Point) -> tuple[int, int]:
    """(point_score for black, point_score for white): over the 5-cell windows through ``p``
    that lie on the board, a window free of white scores for black by its black stones, and
    the other way round."""
    return pos.scores.of(p)


def evaluate(pos: Position, p: Point, colour: int) -> int:
    """Attack value of ``p`` for ``colour`` plus (slightly less) its defensive value."""
    black_score, white_score = both_scores(pos, p)
    return (black_score * 12 + white_score * 8) if colour == BLACK else (white_score * 12 + black_score * 8)


@dataclass(frozen=True)
class Choice:
    point: Point
    why: str  # win, block_five, open_four, block_three, score, only_forbidden


def choose_move(
    pos: Position,
    colour: int,
    rng: random.Random,
    *,
    forbidden: Collection[Point] | Mapping[Point, str] = (),
    noise: float = 0.0,
    blunder_rate: float = 0.0,
    miss_rate: float = 0.0,
    miss_four_rate: float = 0.0,
) -> Choice:
    """The move for ``colour`` (the side to move). ``noise`` (0..1) perturbs scores,
    ``blunder_rate`` is the chance of taking a random point among the top eight, ``miss_rate``
    the chance of overlooking the opponent's open three (weaker players end games sooner)."""
    other = WHITE if colour == BLACK else BLACK
    banned = set(forbidden) if colour == BLACK else set()
    cands = [p for p in pos.near_two if p not in banned]
    if not cands:  # every nearby point is forbidden: any legal empty point
        cands = [(x, y) for x in range(SIZE) for y in range(SIZE) if pos.empty((x, y)) and (x, y) not in banned]
        if not cands:
            return Choice(pos.near_two[0], "only_forbidden")
    scored = []
    scores = pos.scores
    for p in cands:
        black_score, white_score = scores.of(p)
        a, d = (black_score, white_score) if colour == BLACK else (white_score, black_score)
        scored.append((a, d, p))
    # 1. win
    for a, _d, p in scored:
        if a >= 100000 and makes_five(pos, p, colour):
            return Choice(p, "win")
    value = {p: a * 12 + d * 8 for a, d, p in scored}
    # 2. block five (a point we cannot play is no block)
    threats = [p for _a, d, p in scored if d >= 100000 and makes_five(pos, p, other)]
    if threats and not (miss_four_rate and rng.random() < miss_four_rate):
        return Choice(max(threats, key=lambda q: (value[q], q)), "block_five")
    # 3. an unstoppable four
    fours = [p for a, _d, p in scored if a >= 2500 and _wins_after(pos, p, colour) >= 2]
    if fours:
        return Choice(max(fours, key=lambda q: (value[q], q)), "open_four")
    # 4. the opponent's open three
    danger = [p for _a, d, p in scored if d >= 2500 and _wins_after(pos, p, other) >= 2]
    if danger and not (miss_rate and rng.random() < miss_rate):
        return Choice(max(danger, key=lambda q: (value[q], q)), "block_three")
    # 5. heuristic
    ranked = sorted(((value[p] * (1.0 + noise * rng.random()), p) for p in cands), reverse=True)
    if blunder_rate and rng.random() < blunder_rate:
        return Choice(ranked[rng.randrange(min(8, len(ranked)))][1], "score")
    return Choice(ranked[0][1], "score")


def lost_position(pos: Position, colour: int, forbidden: Collection[Point] = ()) -> bool:
    """The opponent (of ``colour``, to move) has two winning points we cannot both cover."""
    other = WHITE if colour == BLACK else BLACK
    wins = winning_points(pos, other)
    if len(wins) >= 2:
        return True
    if len(wins) == 1 and colour == BLACK and wins[0] in set(forbidden):
        return not winning_points(pos, colour)
    return False
