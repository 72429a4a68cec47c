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

from pairing.domain.checker import IllegalPairing
from pairing.domain.model import Code
from pairing.domain.swiss import ByeRules, NoLegalPairing, pair_swiss_round
from pairing.domain.trf import TrfError, import_trf


def _split_preassigned(t):
    """A last round holding only byes is the next round's pre-assigned byes (TRF convention)."""
    r = t.rounds_done
    if r == 0:
        return t, {}
    last = {pid: h[r - 1] for pid, h in t.history.items() if len(h) >= r}
    if any(e.opponent is not None for e in last.values()):
        return t, {}
    byes = {pid: e.code for pid, e in last.items() if e.code is not Code.ABSENT}
    if not byes:
        return t, {}
    history = {pid: h[: r - 1] for pid, h in t.history.items()}
    return replace(t, history=history), byes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="pairing-engine", description=__doc__.splitlines()[0])
    ap.add_argument("input", help="tournament in FIDE TRF-16")
    ap.add_argument("-p", "--pair", nargs="?", const="-", metavar="OUT", help="write the next round's pairing")
    ap.add_argument(
        "--topscorer-exemption",
        action="store_true",
        help="apply FIDE's final-round topscorer colour exemption (off: PAIR-2 limits are absolute)",
    )
    args = ap.parse_args(argv)
    if args.pair is None:
        ap.error("nothing to do: give -p [OUT]")
    try:
        with open(args.input, encoding="latin-1") as f:
            text = f.read()
    except OSError as e:
        print(f"pairing-engine: cannot read {args.input}: {e.strerror}", file=sys.stderr)
        return 2
    try:
        t = import_trf(text)
    except TrfError as e:
        print(f"pairing-engine: {args.input}: {e}", file=sys.stderr)
        return 2
    t, pre = _split_preassigned(t)
    r = t.rounds_done + 1
    if r > t.rounds_planned:
        print(
            f"pairing-engine: {args.input}: all {t.rounds_planned} rounds are paired "
            "(record 142 / XXR gives the number of rounds)",
            file=sys.stderr,
        )
        return 2
    forced = [pid for pid, c in pre.items() if c in (Code.FULL_BYE, Code.PAIRING_BYE)]
    half = [pid for pid, c in pre.items() if c is Code.HALF_BYE]
    zero = [pid for pid, c in pre.items() if c in (Code.ZERO_BYE, Code.FORFEIT_LOSS)]
    try:
        rp = pair_swiss_round(
            t,
            r,
            requested_byes=half,
            absent=zero,
            forced_byes=forced,
            bye_rules=ByeRules(requested=Code.HALF_BYE, forced=Code.FULL_BYE),
            topscorer_exemption=args.topscorer_exemption,
        )
    except NoLegalPairing as e:
        print(f"pairing-engine: round {r}: no legal pairing: {e}", file=sys.stderr)
        return 1
    except IllegalPairing as e:
        print(f"pairing-engine: round {r}: engine produced an illegal pairing, refused: {e}", file=sys.stderr)
        return 1
    pairs = rp.pairs()
    out = f"{len(pairs)}\n" + "".join(f"{a} {b}\n" for a, b in pairs)
    if args.pair == "-":
        sys.stdout.write(out)
    else:
        with open(args.pair, "w") as f:
            f.write(out)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
