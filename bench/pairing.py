"""Pairing benchmark: one late Swiss round (round 6 of 7) for 128 players, and 8 sections of
128 paired one after the other in-process.

    .venv/bin/python -m bench.pairing

Rows (ms per round, best and median of REPEAT runs):
- baseline: our port feeding gacrux through its own TRF reader (the first version);
- gacrux reference: our port building gacrux's structure directly, gacrux's engine as published
  (``GacruxDutch()``, the reference the tests hold the fast engine to);
- pair_swiss_round: the service's path, the fast engine (the adapter ``FastGacruxDutch``, same
  pairings) + absolute-criteria check;
- gacrux engine alone on a prepared structure (the floor for an adapter over the reference);
- 8 sections: eight different 128-player sections, one round each, total time;
- 8 sections in the service's process pool (``pairing.service_layer.pool.Pairer``, one worker
  per core, warmed up): wall time, since the work happens in the workers (pickling included);
- 1,024 players: one late round (round 6) of one 1,024-player section (its set-up pairs five
  rounds of 1,024 first, not timed; ``python -m bench.pairing --no-big`` leaves it out).
``--quick``: a smoke run of a few seconds (2 sections of 32 players, one run per row, no 1,024
round; the figures are rough).
Goals (issue 18, bbpPairings' figure on this machine): <= 46 ms per 128-player late round,
<= 370 ms for 8 sections, <= 2 s for a 1,024-player round. The machine is shared:
times are CPU time of this process (wall time is printed too, for the record). Deterministic seeds; the
histories (rounds 1-5) are built with the same engine before timing.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from typing import Any

from pairing.adapters.dutch.fast import FastGacruxDutch
from pairing.domain import swiss
from pairing.domain.model import Outcome, Player, RoundPairing, Tournament, record_round
from pairing.domain.swiss import GacruxDutch

PLAYERS = 128
ROUNDS = 7
PLAYED = 5
SECTIONS = 8
REPEAT = 7
GOAL_ROUND_MS = 46
GOAL_SECTIONS_MS = 370
GOAL_BIG_MS = 2000
BIG_PLAYERS = 1024
_OUTCOMES = [Outcome.FIRST_WINS] * 5 + [Outcome.SECOND_WINS] * 4 + [Outcome.DRAW] * 2 + [Outcome.FIRST_FORFEIT_WIN]
_FAST = FastGacruxDutch()


def pair_swiss_round(t: Tournament, **options: Any) -> RoundPairing:
    """The service's path: the domain's pairing with the fast adapter, unless given an engine."""
    options.setdefault("engine", _FAST)
    return swiss.pair_swiss_round(t, **options)


def section(seed: int, size: int = PLAYERS) -> Tournament:
    rng = random.Random(seed)
    players = tuple(Player(i, f"P{i}", rating=2600 - 7 * i) for i in range(1, size + 1))
    t = Tournament(players=players, rounds_planned=ROUNDS)
    for _ in range(PLAYED):
        rp = pair_swiss_round(t)
        t = record_round(t, rp, {i: rng.choice(_OUTCOMES) for i in range(len(rp.boards))})
    return t


def _time(fn, repeat=REPEAT) -> list[float]:
    """CPU ms of this process per run: on a shared host wall time also counts other jobs."""
    out = []
    for _ in range(repeat):
        t0 = time.process_time()
        w0 = time.perf_counter()
        fn()
        out.append((time.process_time() - t0) * 1000)
        _WALL.append((time.perf_counter() - w0) * 1000)
    return out


_WALL: list[float] = []


def _engine_only(t: Tournament):
    """gacrux's Dutch engine on a prepared structure: the floor no adapter can go below."""
    import copy

    from gacrux.pairingdutch import pairing_dutch

    from pairing.domain.swiss import gacrux_tournament

    proto = gacrux_tournament(t)
    proto["numRounds"], proto["maxMeets"] = ROUNDS + 1, 1

    def run():
        pairing_dutch(copy.deepcopy(proto), PLAYED + 1, {"experimental": [], "verbose": 0}).compute_pairing(False, 0)

    return run


_WORKERS = max(2, os.cpu_count() or 2)


def _pooled(sections: list[Tournament], repeat: int = 3) -> list[float]:
    """Wall ms to pair the sections concurrently in the service's worker pool."""
    from pairing.service_layer.pool import Pairer
    from pairing.service_layer.round_pairing import PairJob

    jobs = [PairJob("individual", "swiss", PLAYED + 1, t, (), (), tuple(p.id for p in t.players)) for t in sections]
    pairer = Pairer(workers=_WORKERS)
    try:
        pairer.run_many(jobs[:_WORKERS])  # start the workers and import gacrux in them (not timed)
        out = []
        for _ in range(repeat):
            w0 = time.perf_counter()
            got = pairer.run_many(jobs)
            out.append((time.perf_counter() - w0) * 1000)
        assert got == [pair_swiss_round(t) for t in sections], "the pool must pair exactly as in-process"
        return out
    finally:
        pairer.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.pairing", description=(__doc__ or "").split("\n", 1)[0])
    parser.add_argument("--no-big", action="store_true", help="leave out the 1,024-player round")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 2 sections of 32, one run per row")
    args = parser.parse_args(argv)
    players, count, repeat = (32, 2, 1) if args.quick else (PLAYERS, SECTIONS, REPEAT)
    t0 = time.perf_counter()
    sections = [section(1000 + s, players) for s in range(count)]
    print(
        f"setup: {count} sections x {players} players, rounds 1-{PLAYED} paired "
        f"({time.perf_counter() - t0:.1f} s, not timed); load average {os.getloadavg()[0]:.2f}"
    )
    via_trf = GacruxDutch(via_trf=True)
    base = _time(lambda: pair_swiss_round(sections[0], engine=via_trf), repeat)
    reference = _time(lambda: pair_swiss_round(sections[0], engine=GacruxDutch()), repeat)
    ours = _time(lambda: pair_swiss_round(sections[0]), repeat)
    floor = _time(_engine_only(sections[0]), repeat)
    per_section = [min(_time(lambda s=s: pair_swiss_round(s), repeat=min(3, repeat))) for s in sections]
    eight = _time(lambda: [pair_swiss_round(s) for s in sections], repeat=min(3, repeat))
    pooled = _pooled(sections, min(3, repeat))
    b = statistics.median(base)
    rows = [
        ("baseline: port via gacrux TRF reader", base, GOAL_ROUND_MS),
        ("gacrux reference (direct structure)", reference, GOAL_ROUND_MS),
        ("pair_swiss_round (fast engine)", ours, GOAL_ROUND_MS),
        ("gacrux engine alone (floor)", floor, GOAL_ROUND_MS),
        (f"{count} sections, 1 round each", eight, GOAL_SECTIONS_MS),
        (f"{count} sections, pool x{_WORKERS} (wall)", pooled, GOAL_SECTIONS_MS),
    ]
    if not (args.no_big or args.quick):
        big = section(2000, BIG_PLAYERS)
        rows.append((f"{BIG_PLAYERS} players, 1 round", _time(lambda: pair_swiss_round(big), repeat=1), GOAL_BIG_MS))
    print(f"{'case':40} {'best ms':>9} {'median ms':>10} {'x baseline':>11} {'goal ms':>8} {'meets':>6}")
    for name, times, goal in rows:
        med = statistics.median(times)
        print(f"{name:40} {min(times):9.1f} {med:10.1f} {med / b:11.2f} {goal:8d} {'yes' if med <= goal else 'NO':>6}")
    print(f"wall-clock median over all timed runs: {statistics.median(_WALL):.0f} ms (host load shows here)")
    print(
        "per section, best ms: "
        + ", ".join(f"{x:.0f}" for x in per_section)
        + f"  (worst {max(per_section):.0f}, goal {GOAL_ROUND_MS})"
    )


if __name__ == "__main__":
    main()
