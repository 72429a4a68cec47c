"""Bot thinking benchmark: the compiled strategy core against the plain-Python reference, same run.

    .venv/bin/python -m bench.bots        (or ``make bench`` for every benchmark)

The inputs are the move decisions of whole bot games played offline (free and professional rules,
fixed seeds), so the positions are the ones a driver meets. Rows:
- the strategy calls of one move decision, ``lost_position`` then ``choose_move`` on a fresh
  ``Position`` (decisions/s);
- ``bots.decide``, the whole decision as the driver asks for it (the position built from the
  game's moves, the seeded generators, the strategy calls) (decisions/s).
Each figure is the best of ROUNDS rounds (the machine is shared; the best round is the least
disturbed); a round repeats its inputs for at least MIN_SECONDS. ``--quick``: a smoke run (a few
games, one short round; the figures are rough).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from gomoku_sim import strategy, thinking
from gomoku_sim.bots import BotAction, BotPolicy, GameView, decide
from gomoku_sim.offline import play_offline

SEED = 2026
ROUNDS = 3
MIN_SECONDS = 0.5


@dataclass(frozen=True)
class Sizes:
    games: int = 24
    rounds: int = ROUNDS
    min_seconds: float = MIN_SECONDS


QUICK = Sizes(games=4, rounds=1, min_seconds=0.05)


@dataclass(frozen=True)
class Decision:
    view: GameView
    player: str
    colour: int
    rng_seed: int


def decisions(games: int) -> list[Decision]:
    """Every move decision (phase play) of ``games`` offline bot games, in order."""
    out: list[Decision] = []
    policy = BotPolicy.quiet()
    for index in range(games):
        game = play_offline(f"bench-{index}", "p1", "p2", professional=bool(index % 2), seed=SEED, policy=policy)
        replay = play_offline(
            f"bench-{index}",
            "p1",
            "p2",
            professional=bool(index % 2),
            seed=SEED,
            policy=policy,
            max_actions=0,
        )
        for player, verb, body in game.actions:
            view = replay.view()
            if verb == "move" and view.phase == "play" and view.to_act == player:
                colour = view.colour_of(player) or (strategy.BLACK if view.ply % 2 == 0 else strategy.WHITE)
                out.append(Decision(view, player, colour, len(out)))
            replay.apply(player, BotAction(verb, body))
    return out


def strategy_calls(core: thinking.Core, cases: list[Decision]) -> Callable[[], int]:
    policy = BotPolicy()
    prepared = [
        (case.view.position().grid, case.view.professional, case.colour, case.view.forbidden, case.rng_seed)
        for case in cases
    ]

    def run() -> int:
        for grid, professional, colour, forbidden, rng_seed in prepared:
            pos = strategy.Position(grid, professional)  # fresh: the reference caches per position
            banned = forbidden if colour == strategy.BLACK else frozenset()
            core.lost_position(pos, colour, banned)
            core.choose_move(
                pos,
                colour,
                random.Random(rng_seed),
                forbidden=banned,
                noise=policy.noise,
                blunder_rate=policy.blunder_rate,
                miss_rate=policy.miss_rate,
            )
        return len(prepared)

    return run


def whole_decisions(core: thinking.Core, cases: list[Decision]) -> Callable[[], int]:
    policy = BotPolicy()

    def run() -> int:
        saved = thinking.CORE
        thinking.CORE = core
        try:
            for case in cases:
                decide(case.view, case.player, policy, SEED)
        finally:
            thinking.CORE = saved
        return len(cases)

    return run


def _rate(run: Callable[[], int], min_seconds: float, rounds: int) -> float:
    best = 0.0
    for _ in range(rounds):
        done = 0
        started = time.perf_counter()
        while True:
            done += run()
            elapsed = time.perf_counter() - started
            if elapsed >= min_seconds:
                break
        best = max(best, done / elapsed)
    return best


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bots", description=(__doc__ or "").split("\n", 1)[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: a few games, one short round")
    sizes = QUICK if parser.parse_args(argv).quick else Sizes()
    compiled = thinking.compiled()
    cases = decisions(sizes.games)
    stones = sum(len([m for m in case.view.moves if m is not None]) for case in cases) / max(1, len(cases))
    print(
        f"bots: compiled={thinking.COMPILED_MODULE}, reference=gomoku_sim.strategy, bots use {thinking.NAME}; "
        f"{len(cases)} move decisions of {sizes.games} offline games (mean {stones:.0f} stones), seed {SEED}"
    )
    rows = [
        (
            "lost_position + choose_move (decisions/s)",
            _rate(strategy_calls(compiled, cases), sizes.min_seconds, sizes.rounds),
            _rate(strategy_calls(strategy, cases), sizes.min_seconds, sizes.rounds),
        ),
        (
            "bots.decide, the whole decision (decisions/s)",
            _rate(whole_decisions(compiled, cases), sizes.min_seconds, sizes.rounds),
            _rate(whole_decisions(strategy, cases), sizes.min_seconds, sizes.rounds),
        ),
    ]
    print(f"{'metric':48s} {'compiled':>12s} {'reference':>12s} {'ratio':>8s}")
    for label, fast, slow in rows:
        print(f"{label:48s} {fast:12,.0f} {slow:12,.0f} {fast / slow:7.1f}x")


if __name__ == "__main__":
    main()
