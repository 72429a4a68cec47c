"""Small Swiss fields keep the regulation's rounds (PAIR-1, SZ 九(一)): thousands of random events.

    .venv/bin/python -m bench.small_swiss [--events N] [--seed S]

Plays N whole events (default 3,000) spread over every field of 6–16 entrants with the seeds'
Swiss rounds (5 professional, 7 free; only where a round robin is not shorter), with random
results, through ``pair_swiss_round`` (the Dutch system with its look-ahead). Every event must
pair every round; each is then checked independently: no rematch, at most one pairing-allocated
bye each, colour limits (no colour three times running, difference within ±2). Prints how many
events, rounds and look-ahead corrections there were (rounds where the Dutch pairing had no
completion and another was taken), and the CPU time; exits 1 on any stall or violation.
The unit test (services/pairing/tests/unit/test_small_swiss_completion.py) runs a few hundred.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence

from pairing.adapters.dutch.fast import FastGacruxDutch
from pairing.domain import swiss
from pairing.domain.checker import colour_history, colour_violation
from pairing.domain.lookahead import Repair
from pairing.domain.model import Code, Colour, Outcome, Player, RoundPairing, Tournament, record_round
from pairing.domain.swiss import NoLegalPairing, pair_swiss_round

OUTCOMES = (Outcome.FIRST_WINS, Outcome.SECOND_WINS, Outcome.DRAW)
FIELDS = [(n, rounds) for n in range(6, 17) for rounds in (5, 7) if rounds <= (n - 1 if n % 2 == 0 else n)]


def _violations(t: Tournament) -> list[str]:
    out = []
    for player in t.players:
        entries = t.entries(player.id)
        opponents = [entry.opponent for entry in entries if entry.opponent is not None]
        if len(opponents) != len(set(opponents)):
            out.append(f"rematch for {player.id}")
        if sum(entry.code is Code.PAIRING_BYE for entry in entries) > 1:
            out.append(f"two byes for {player.id}")
        history: list[Colour] = []
        for colour in colour_history(t, player.id):
            if colour_violation(history, colour):
                out.append(f"colours of {player.id}")
            history.append(colour)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.small_swiss", description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=20261206)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    corrected = 0
    original = swiss.keep_completable

    def counting(t: Tournament, pairing: RoundPairing, participants: Sequence[int], repair: Repair) -> RoundPairing:
        nonlocal corrected
        kept = original(t, pairing, participants, repair)
        corrected += kept != pairing
        return kept

    # counts the rounds where the look-ahead replaced the Dutch pairing (the bench's own figure)
    setattr(swiss, "keep_completable", counting)  # noqa: B010
    failures: list[str] = []
    rounds_paired = 0
    engine = FastGacruxDutch()  # the service's Dutch engine
    started = time.process_time()
    for index in range(args.events):
        n, planned = FIELDS[index % len(FIELDS)]
        t = Tournament(
            tuple(Player(i, rating=2000 - i) for i in range(1, n + 1)),
            rounds_planned=planned,
            top_seed_colour=rng.choice(list(Colour)),
        )
        try:
            for _ in range(planned):
                pairing = pair_swiss_round(t, engine=engine)
                t = record_round(t, pairing, {i: rng.choice(OUTCOMES) for i in range(len(pairing.boards))})
                rounds_paired += 1
        except NoLegalPairing as error:
            failures.append(f"event {index} ({n} entrants, {planned} rounds) stalled: {error}")
            continue
        failures += [f"event {index}: {problem}" for problem in _violations(t)]
    spent = time.process_time() - started
    print(f"small Swiss fields: {args.events} events over {len(FIELDS)} (entrants, rounds) fields")
    print(f"  rounds paired: {rounds_paired}; look-ahead corrections: {corrected}; CPU {spent:.1f} s")
    print(f"  stalls or violations: {len(failures)}")
    for failure in failures[:10]:
        print("   ", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
