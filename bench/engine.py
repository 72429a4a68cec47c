"""Rules-engine benchmark: the compiled core against the plain-Python reference, same run.

    .venv/bin/python -m bench.engine        (or ``make bench`` for every benchmark)

Rows:
- classify on points that reach the recursive three check (calls/s);
- forbidden_points from a stone list, typical mid-game positions of 20-60 stones (positions/s);
- random self-play with every move legality-checked: a random empty point, black's checked
  with classify (forbidden ones rejected, another point drawn), white's with line_length;
  a game stops on a five or a full board (moves/s).
A second table, the kept board against the previous implementation in the same run (µs):
- classification per position on a board the game keeps (``KeptBoard.forbidden_count``: its
  suspect cells) against the previous step (``KeptBoard._forbidden_count_scan``: every cell with
  4 black stones within 5, the same board, no loading either);
- ``forbidden_points`` from a stone list (packed suspect filter) against
  ``_forbidden_points_scan`` (the previous filter; both read the lists with the same loader, so
  this ratio is the filter's alone);
- per move in a game: the same legality-checked self-play, each move placed on a KeptBoard and
  black's judged there, against judging black's from the stone lists (what a game did before).
Deterministic: fixed seeds, the same inputs for both cores. Each figure is the best of
ROUNDS rounds (the machine is shared; the best round is the least disturbed); a compiled
round repeats its inputs for at least MIN_SECONDS since that core is ~1000x faster.
``--quick``: a second's smoke run (fewer positions and games, one round each; the figures are
rough).
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass
from pathlib import Path

from gameplay.engine import backend

SEED = 2026
SIZE = 15
FORBIDDEN = frozenset({"overline", "double_four", "double_three"})
MIN_SECONDS = 0.3
ROUNDS = 3
TARGET_POSITIONS_PER_S = 30_000
TARGET_RATIO = 200
#: issue 33, goal 4 (µs): a position on a kept board, a position from a stone list
TARGET_KEPT_US = 0.4
TARGET_LIST_US = 1.0


def midgame_positions(core, count: int, rng: random.Random) -> list[tuple[list, list]]:
    """Final positions of local random games (moves within 2 of a stone, black legal)."""
    out: list[tuple[list, list]] = []
    while len(out) < count:
        length = rng.randint(20, 60)
        black: list = [(7, 7)]
        white: list = []
        occupied = {(7, 7)}
        while len(occupied) < length:
            ax, ay = rng.choice(black + white)
            p = (ax + rng.randint(-2, 2), ay + rng.randint(-2, 2))
            if not (0 <= p[0] < SIZE and 0 <= p[1] < SIZE) or p in occupied:
                continue
            if len(black) == len(white):
                if core.classify(black, white, p) in FORBIDDEN:
                    continue
                black.append(p)
            else:
                white.append(p)
            occupied.add(p)
        out.append((black, white))
    return out


def recursive_points(core, positions) -> list[tuple[list, list, tuple[int, int]]]:
    """(black, white, point) where judging the point reaches the recursive three check."""
    found = []
    for black, white in positions:
        occupied = set(black) | set(white)
        for x in range(SIZE):
            for y in range(SIZE):
                if (x, y) not in occupied and core._needs_recursion(black, white, (x, y)):
                    found.append((black, white, (x, y)))
    return found


@dataclass(frozen=True)
class Sizes:
    positions: int = 300
    ref_positions: int = 40
    ref_points: int = 150
    games: int = 100
    ref_games: int = 3
    rounds: int = ROUNDS
    min_seconds: float = MIN_SECONDS


QUICK = Sizes(positions=40, ref_positions=5, ref_points=20, games=5, ref_games=1, rounds=1, min_seconds=0.0)


def _rate(run, items, min_seconds: float, rounds: int = ROUNDS) -> float:
    """Items per second: best of ``rounds`` rounds, each repeating ``run(items)`` for
    at least ``min_seconds`` (one pass when 0)."""
    best = 0.0
    for _ in range(rounds):
        done = 0
        started = time.perf_counter()
        while True:
            run(items)
            done += len(items)
            elapsed = time.perf_counter() - started
            if elapsed >= min_seconds:
                break
        best = max(best, done / elapsed)
    return best


def _self_play_rate(core, games: int, rounds: int = ROUNDS) -> float:
    """Moves per second of ``self_play_moves``, best of ``rounds`` (same games each round)."""
    best = 0.0
    for _ in range(rounds):
        moves, seconds = self_play_moves(core, games, SEED)
        best = max(best, moves / seconds)
    return best


def classify_all(core):
    def run(items):
        for black, white, p in items:
            core.classify(black, white, p)

    return run


def forbidden_all(core):
    def run(items):
        for black, white in items:
            core.forbidden_points(black, white)

    return run


def self_play_moves(core, games: int, seed: int) -> tuple[int, float]:
    """Play ``games`` random games; return (moves played, seconds)."""
    rng = random.Random(seed)
    moves = 0
    started = time.perf_counter()
    for _ in range(games):
        empty = [(x, y) for x in range(SIZE) for y in range(SIZE)]
        black: list = []
        white: list = []
        black_to_move = True
        while empty:
            if black_to_move:
                tried = 0
                while tried < len(empty):
                    i = rng.randrange(tried, len(empty))
                    empty[tried], empty[i] = empty[i], empty[tried]
                    kind = core.classify(black, white, empty[tried])
                    if kind not in FORBIDDEN:
                        break
                    tried += 1
                else:
                    break  # every empty point forbidden for black
                p = empty.pop(tried)
                black.append(p)
                over = kind == "five"
            else:
                p = empty.pop(rng.randrange(len(empty)))
                over = core.line_length(white, p) >= 5
                white.append(p)
            moves += 1
            if over:
                break
            black_to_move = not black_to_move
    return moves, time.perf_counter() - started


def kept_boards(core, positions) -> list:
    """A KeptBoard per position, its stones placed alternately as in a game."""
    boards = []
    for black, white in positions:
        board = core.KeptBoard()
        for i in range(max(len(black), len(white))):
            if i < len(black):
                board.place(black[i], True)
            if i < len(white):
                board.place(white[i], False)
        boards.append(board)
    return boards


def count_all(method: str):
    def run(items):
        for board in items:
            getattr(board, method)()

    return run


def scan_all(core):
    def run(items):
        for black, white in items:
            core._forbidden_points_scan(black, white)

    return run


def self_play_kept_moves(core, games: int, seed: int) -> tuple[int, float]:
    """``self_play_moves`` on a KeptBoard: the same games (same seed, same verdicts), each move
    placed on the board and black's judged there instead of from the stone lists."""
    rng = random.Random(seed)
    moves = 0
    started = time.perf_counter()
    for _ in range(games):
        empty = [(x, y) for x in range(SIZE) for y in range(SIZE)]
        board = core.KeptBoard()
        white: list = []
        black_to_move = True
        while empty:
            if black_to_move:
                tried = 0
                while tried < len(empty):
                    i = rng.randrange(tried, len(empty))
                    empty[tried], empty[i] = empty[i], empty[tried]
                    kind = board.classify(empty[tried])
                    if kind not in FORBIDDEN:
                        break
                    tried += 1
                else:
                    break
                p = empty.pop(tried)
                board.place(p, True)
                over = kind == "five"
            else:
                p = empty.pop(rng.randrange(len(empty)))
                over = core.line_length(white, p) >= 5
                white.append(p)
                board.place(p, False)
            moves += 1
            if over:
                break
            black_to_move = not black_to_move
    return moves, time.perf_counter() - started


def _best_us(run, items, rounds: int, chunk: int = 20) -> float:
    """µs per item: each chunk of ``chunk`` items timed ``rounds`` times, its best kept, the
    bests summed. Chunks take microseconds, so on a shared machine most rounds of each run
    undisturbed and the sum is the undisturbed cost (one long timing almost never is)."""
    total = 0.0
    for start in range(0, len(items), chunk):
        part = items[start : start + chunk]
        best = float("inf")
        for _ in range(rounds):
            started = time.perf_counter()
            run(part)
            best = min(best, time.perf_counter() - started)
        total += best
    return total / len(items) * 1e6


def _best_move_us(play, core, games: int, rounds: int) -> float:
    """µs per move of ``play`` (a self-play function): each game (its own seed) timed
    ``rounds`` times, its best kept."""
    moves = 0
    total = 0.0
    for game in range(games):
        best = float("inf")
        for _ in range(rounds):
            played, seconds = play(core, 1, SEED + game)
            best = min(best, seconds)
        moves += played
        total += best
    return total / moves * 1e6


def kept_rows(compiled, positions, sizes: Sizes) -> list[tuple[str, float, float, float | None]]:
    """(row, this µs, previous µs, goal µs or None): the kept board against the previous path."""
    boards = kept_boards(compiled, positions)
    rounds = 40 if sizes.rounds > 1 else 5
    scan = _best_us(count_all("_forbidden_count_scan"), boards, rounds)
    return [
        (
            "classification, position on a kept board",
            _best_us(count_all("forbidden_count"), boards, rounds),
            scan,
            TARGET_KEPT_US,
        ),
        ("forbidden_points dict, kept board", _best_us(count_all("forbidden_points"), boards, rounds), scan, None),
        (
            "forbidden_points from a stone list",
            _best_us(forbidden_all(compiled), positions, rounds),
            _best_us(scan_all(compiled), positions, rounds),
            TARGET_LIST_US,
        ),
        (
            "per move in a game (self-play)",
            _best_move_us(self_play_kept_moves, compiled, sizes.games, max(rounds // 4, 3)),
            _best_move_us(self_play_moves, compiled, sizes.games, max(rounds // 4, 3)),
            None,
        ),
    ]


def print_kept_rows(rows: list[tuple[str, float, float, float | None]]) -> None:
    width = max(len(r[0]) for r in rows)
    print()
    print("kept board against the previous implementation, same run (µs per position or move):")
    print(f"{'path':<{width}}  {'this µs':>8}  {'previous µs':>11}  {'speed-up':>8}  goal")
    for name, this, previous, goal in rows:
        verdict = "" if goal is None else f"<= {goal} µs {'met' if this <= goal else 'NOT met'}"
        print(f"{name:<{width}}  {this:>8.3f}  {previous:>11.3f}  {previous / this:>7.1f}x  {verdict}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.engine", description=(__doc__ or "").split("\n", 1)[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: small inputs, one round")
    sizes = QUICK if parser.parse_args(argv).quick else Sizes()
    compiled = backend.load("cython")
    reference = backend.load("python")
    rng = random.Random(SEED)
    positions = midgame_positions(compiled, sizes.positions, rng)
    stones = sum(len(b) + len(w) for b, w in positions) / len(positions)
    points = recursive_points(compiled, positions)
    ref_points = points[: sizes.ref_points]
    ref_positions = positions[: sizes.ref_positions]

    rows = []
    fast = _rate(classify_all(compiled), points, sizes.min_seconds, sizes.rounds)
    slow = _rate(classify_all(reference), ref_points, 0.0, sizes.rounds)
    rows.append(("classify, recursive-check points (calls/s)", fast, slow))
    fast = _rate(forbidden_all(compiled), positions, sizes.min_seconds, sizes.rounds)
    slow = _rate(forbidden_all(reference), ref_positions, 0.0, sizes.rounds)
    rows.append(("forbidden_points, mid-game stone list (positions/s)", fast, slow))
    rows.append(
        (
            "random self-play, legality-checked (moves/s)",
            _self_play_rate(compiled, sizes.games, sizes.rounds),
            _self_play_rate(reference, sizes.ref_games, sizes.rounds),
        )
    )

    print(
        f"engine: compiled={compiled.__name__} ({Path(compiled.__file__ or '?').name}), "
        f"reference={reference.__name__}; seed {SEED}"
    )
    print(
        f"inputs: {len(positions)} positions, {stones:.1f} stones on average; "
        f"{len(points)} recursive-check points; reference timed on {len(ref_positions)} positions, "
        f"{len(ref_points)} points, {sizes.ref_games} games; best of {sizes.rounds} rounds"
    )
    width = max(len(r[0]) for r in rows)
    print(f"{'metric':<{width}}  {'compiled':>12}  {'reference':>10}  {'ratio':>7}")
    for name, fast, slow in rows:
        print(f"{name:<{width}}  {fast:>12,.0f}  {slow:>10,.1f}  {fast / slow:>6,.0f}x")
    fp = rows[1]
    print(
        f"targets: forbidden_points >= {TARGET_POSITIONS_PER_S:,}/s "
        f"({'met' if fp[1] >= TARGET_POSITIONS_PER_S else 'NOT met'}), "
        f"compiled >= {TARGET_RATIO}x reference ({'met' if fp[1] / fp[2] >= TARGET_RATIO else 'NOT met'})"
    )
    print_kept_rows(kept_rows(compiled, positions, sizes))


if __name__ == "__main__":
    main()
