"""Recomputing a federation's ratings (issue 32: 100,000 games in under 10 s), in-process.

    .venv/bin/python -m bench.ratings            # 100,000 games, 5,000 players, 24 monthly periods
    .venv/bin/python -m bench.ratings --quick    # 10,000 games

Rows (CPU s of this process, best of REPEAT):
- group only: reading the games and grouping them by period and player (the floor: the work any
  recomputation does before the first rating is computed);
- recompute: ``awards.domain.ratings.rate_history`` over every period from the first game, as a
  correction makes the awards service do;
- one period: the last month alone on the ratings before it (what a new period costs).
Ratios are to the group-only row of the same run. Deterministic for the seed.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict

from awards.domain.ratings import GlickoParams, RatedGame, rate_history, rate_period

GOAL_S = 10.0
REPEAT = 3


def federation(games: int, players: int, periods: int, seed: int = 32) -> list[tuple[str, list[RatedGame]]]:
    rng = random.Random(seed)
    strength = [rng.gauss(0, 300) for _ in range(players)]
    out: list[tuple[str, list[RatedGame]]] = []
    per = games // periods
    for p in range(periods):
        batch = []
        for _ in range(per):
            a, b = rng.sample(range(players), 2)
            chance = 1 / (1 + 10 ** ((strength[b] - strength[a]) / 400))
            roll = rng.random()
            score = 1.0 if roll < chance * 0.95 else 0.5 if roll < chance else 0.0
            batch.append(RatedGame(f"p{a}", f"p{b}", score))
        out.append((f"{2025 + p // 12}-{p % 12 + 1:02d}", batch))
    return out


def _cpu(fn) -> float:
    best = float("inf")
    for _ in range(REPEAT):
        started = time.process_time()
        fn()
        best = min(best, time.process_time() - started)
    return best


def _group(periods) -> None:
    for _, games in periods:
        played = defaultdict(list)
        for g in games:
            played[g.first].append((g.second, g.score))
            played[g.second].append((g.first, 1.0 - g.score))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    games, players = (10_000, 1_000) if args.quick else (100_000, 5_000)
    params = GlickoParams()
    periods = federation(games, players, 24)
    group = _cpu(lambda: _group(periods))
    whole = _cpu(lambda: rate_history(periods, params))
    before = rate_history(periods[:-1], params)[-1][1]
    last = _cpu(lambda: rate_period(before, periods[-1][1], params))
    print(f"{games:,} games, {players:,} players, {len(periods)} periods (Glicko-2, tau {params.tau})")
    print(f"{'row':<14}{'CPU s':>10}{'ratio':>10}")
    for name, value in (("group only", group), ("recompute", whole), ("one period", last)):
        print(f"{name:<14}{value:>10.3f}{value / group:>9.1f}x")
    if not args.quick:
        verdict = "met" if whole < GOAL_S else "NOT met"
        print(f"goal: recompute < {GOAL_S:.0f} s for 100,000 games: {verdict} ({whole:.2f} s)")


if __name__ == "__main__":
    main()
