"""``pairing-engine IN.trf -p [OUT]`` — pair the next round, JaVaFo/bbpPairings convention.

OUT (stdout if omitted) gets the number of pairs on the first line, then one
``first second`` pair of start numbers per line (the first moves first), a bye as ``id 0``.
Byes already written in IN for the round to be paired (``0000 - H|Z|F|U``) are honoured and
those players are not paired. Exit status: 0 paired, 1 no legal pairing, 2 bad input.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace

from pairing.adapters.dutch.fast import FastGacruxDutch
from pairing.domain.checker import IllegalPairing
from pairing.domain.model import Code, Tournament
from pairing.domain.swiss import ByeRules, NoLegalPairing, pair_swiss_round
from pairing.domain.trf import TrfError, import_trf


def _split_preassigned(tournament: Tournament) -> tuple[Tournament, dict[int, Code]]:
    """A last round holding only byes is the next round's pre-assigned byes (TRF convention)."""
    done = tournament.rounds_done
    if done == 0:
        return tournament, {}
    last = {pid: entries[done - 1] for pid, entries in tournament.history.items() if len(entries) >= done}
    if any(entry.opponent is not None for entry in last.values()):
        return tournament, {}
    byes: dict[int, Code] = {pid: entry.code for pid, entry in last.items() if entry.code is not Code.ABSENT}
    if not byes:
        return tournament, {}
    history = {pid: entries[: done - 1] for pid, entries in tournament.history.items()}
    return replace(tournament, history=history), byes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="pairing-engine", description=__doc__.splitlines()[0])
    parser.add_argument("input", help="tournament in FIDE TRF-16")
    parser.add_argument("-p", "--pair", nargs="?", const="-", metavar="OUT", help="write the next round's pairing")
    parser.add_argument(
        "--topscorer-exemption",
        action="store_true",
        help="apply FIDE's final-round topscorer colour exemption (off: PAIR-2 limits are absolute)",
    )
    args = parser.parse_args(argv)
    if args.pair is None:
        parser.error("nothing to do: give -p [OUT]")
    try:
        with open(args.input, encoding="latin-1") as stream:
            text = stream.read()
    except OSError as error:
        print(f"pairing-engine: cannot read {args.input}: {error.strerror}", file=sys.stderr)
        return 2
    try:
        tournament = import_trf(text)
    except TrfError as error:
        print(f"pairing-engine: {args.input}: {error}", file=sys.stderr)
        return 2
    tournament, pre = _split_preassigned(tournament)
    rnd = tournament.rounds_done + 1
    if rnd > tournament.rounds_planned:
        print(
            f"pairing-engine: {args.input}: all {tournament.rounds_planned} rounds are paired "
            "(record 142 / XXR gives the number of rounds)",
            file=sys.stderr,
        )
        return 2
    forced = [pid for pid, code in pre.items() if code in (Code.FULL_BYE, Code.PAIRING_BYE)]
    half = [pid for pid, code in pre.items() if code is Code.HALF_BYE]
    zero = [pid for pid, code in pre.items() if code in (Code.ZERO_BYE, Code.FORFEIT_LOSS)]
    try:
        pairing = pair_swiss_round(
            tournament,
            rnd,
            requested_byes=half,
            absent=zero,
            forced_byes=forced,
            bye_rules=ByeRules(requested=Code.HALF_BYE, forced=Code.FULL_BYE),
            topscorer_exemption=args.topscorer_exemption,
            engine=FastGacruxDutch(),
        )
    except NoLegalPairing as error:
        print(f"pairing-engine: round {rnd}: no legal pairing: {error}", file=sys.stderr)
        return 1
    except IllegalPairing as error:
        print(f"pairing-engine: round {rnd}: engine produced an illegal pairing, refused: {error}", file=sys.stderr)
        return 1
    pairs = pairing.pairs()
    out = f"{len(pairs)}\n" + "".join(f"{first} {second}\n" for first, second in pairs)
    if args.pair == "-":
        sys.stdout.write(out)
    else:
        with open(args.pair, "w") as stream:
            stream.write(out)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
