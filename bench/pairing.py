"""Pairing benchmark: one late Swiss round (round 6 of 7) for 128 players, and 8 sections of
128 paired one after the other in-process.

    .venv/bin/python -m bench.pairing

Rows (ms per round, best and median of REPEAT runs):
- baseline: gacrux's Dutch engine called directly on its own parsed tournament (no adapter);
- pair_swiss_round: our port (TRF built from domain types + gacrux + absolute-criteria check);
- 8 sections: eight different 128-player sections, one round each, total time.
Goals: <= 120 ms per 128-player late round, <= 1 s for 8 sections. Deterministic seeds; the
histories (rounds 1-5) are built with the same engine before timing.
"""
from __future__ import annotations

import random
import statistics
import time

from pairing.domain.model import Outcome, Player, Tournament, record_round
from pairing.domain.swiss import pair_swiss_round
from pairing.domain.trf import export_trf

PLAYERS = 128
ROUNDS = 7
PLAYED = 5
SECTIONS = 8
REPEAT = 5
GOAL_ROUND_MS = 120
GOAL_SECTIONS_MS = 1000
_OUTCOMES = [Outcome.FIRST_WINS] * 5 + [Outcome.SECOND_WINS] * 4 + [Outcome.DRAW] * 2 + [Outcome.FIRST_FORFEIT_WIN]


def section(seed: int) -> Tournament:
    rng = random.Random(seed)
    players = tuple(Player(i, f"P{i}", rating=2600 - 7 * i) for i in range(1, PLAYERS + 1))
    t = Tournament(players=players, rounds_planned=ROUNDS)
    for _ in range(PLAYED):
        rp = pair_swiss_round(t)
        t = record_round(t, rp, {i: rng.choice(_OUTCOMES) for i in range(len(rp.boards))})
    return t


def _time(fn, repeat=REPEAT) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def _gacrux_direct(t: Tournament):
    from gacrux.pairingdutch import pairing_dutch
    from gacrux.trf2json import trf2json

    chess = trf2json()
    chess.parse_file(export_trf(t), 0)
    proto = chess.get_tournament(1)
    proto["numRounds"], proto["maxMeets"] = ROUNDS + 1, 1

    def run():
        import copy
        tour = copy.deepcopy(proto)
        pairing_dutch(tour, PLAYED + 1, {"experimental": [], "verbose": 0}).compute_pairing(False, 0)
    return run


def main() -> None:
    t0 = time.perf_counter()
    sections = [section(1000 + s) for s in range(SECTIONS)]
    print(f"setup: {SECTIONS} sections x {PLAYERS} players, rounds 1-{PLAYED} paired "
          f"({time.perf_counter() - t0:.1f} s, not timed)")
    base = _time(_gacrux_direct(sections[0]))
    ours = _time(lambda: pair_swiss_round(sections[0]))
    eight = _time(lambda: [pair_swiss_round(s) for s in sections], repeat=2)
    b = statistics.median(base)
    rows = [
        ("baseline: gacrux direct, 1 round", min(base), statistics.median(base), GOAL_ROUND_MS),
        ("pair_swiss_round, 1 round", min(ours), statistics.median(ours), GOAL_ROUND_MS),
        (f"{SECTIONS} sections, 1 round each", min(eight), statistics.median(eight), GOAL_SECTIONS_MS),
    ]
    print(f"{'case':38} {'best ms':>9} {'median ms':>10} {'x baseline':>11} {'goal ms':>8} {'meets':>6}")
    for name, best, med, goal in rows:
        print(f"{name:38} {best:9.1f} {med:10.1f} {med / b:11.2f} {goal:8d} {'yes' if med <= goal else 'NO':>6}")
    print(f"per round in the 8-section run: {statistics.median(eight) / SECTIONS:.1f} ms")


if __name__ == "__main__":
    main()
