"""``pairing-engine IN.trf -p [OUT]`` — pair the next round, JaVaFo/bbpPairings convention.

OUT (stdout if omitted) gets the number of pairs on the first line, then one
``first second`` pair of start numbers per line (the first moves first), a bye as ``id 0``.
Byes already written in IN for the round to be paired (``0000 - H|Z|F|U``) are honoured and
those players are not paired. Exit status: 0 paired, 1 no legal pairing, 2 bad input.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing's own, without importing typing: pairing-engine's start-up (ADR 0013)
if TYPE_CHECKING:
    from typing import NoReturn

    from pairing.adapters.dutch.fast import FastGacruxDutch
    from pairing.domain.model import Code, Tournament

# The pairing modules are imported inside main and run: ``run`` pauses the cyclic collector
# before they load (see there).


def _split_preassigned(tournament: Tournament) -> tuple[Tournament, dict[int, Code]]:
    """A last round holding only byes is the next round's pre-assigned byes (TRF convention)."""
    from pairing.domain.frozen import replace
    from pairing.domain.model import Code

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


_EXEMPTION = "--topscorer-exemption"


def _plain_arguments(argv: list[str]) -> tuple[str, str, bool] | None:
    """(IN, OUT, exemption) of the usual command lines, ``IN -p [OUT]`` with
    ``--topscorer-exemption`` first or last, read as argparse reads them; None for any other
    line (argparse reads it, with its messages). argparse and what it imports cost about a
    tenth of a pairing process."""
    exemption = bool(argv) and (argv[0] == _EXEMPTION or argv[-1] == _EXEMPTION)
    rest = argv[1:] if argv and argv[0] == _EXEMPTION else argv
    rest = rest[:-1] if rest and rest[-1] == _EXEMPTION else rest
    if len(rest) not in (2, 3) or rest[1] not in ("-p", "--pair") or rest[0].startswith("-"):
        return None
    if len(rest) == 3 and rest[2].startswith("-"):
        return None
    return rest[0], rest[2] if len(rest) == 3 else "-", exemption


def _arguments(argv: list[str]) -> tuple[str, str, bool]:
    """(IN, OUT or ``-`` for stdout, whether the topscorer exemption applies)."""
    plain = _plain_arguments(argv)
    return plain if plain is not None else _argparse_arguments(argv)


def _argparse_arguments(argv: list[str]) -> tuple[str, str, bool]:
    """:func:`_arguments` read by argparse (any command line; ``--help``, errors)."""
    import argparse

    parser = argparse.ArgumentParser(prog="pairing-engine", description=(__doc__ or "").splitlines()[0])
    parser.add_argument("input", help="tournament in FIDE TRF-16")
    parser.add_argument("-p", "--pair", nargs="?", const="-", metavar="OUT", help="write the next round's pairing")
    parser.add_argument(
        _EXEMPTION,
        action="store_true",
        help="apply FIDE's final-round topscorer colour exemption (off: PAIR-2 limits are absolute)",
    )
    args = parser.parse_args(argv)
    if args.pair is None:
        parser.error("nothing to do: give -p [OUT]")
    return args.input, args.pair, args.topscorer_exemption


def main(argv: list[str] | None = None, engine: FastGacruxDutch | None = None) -> int:
    """Pair the round of the command line ``argv`` (the process's when None) with ``engine``
    (a fresh :class:`FastGacruxDutch` when None); the exit status."""
    source, target, exemption = _arguments(sys.argv[1:] if argv is None else argv)
    from pairing.adapters.dutch.fast import FastGacruxDutch
    from pairing.domain.checker import IllegalPairing
    from pairing.domain.model import Code
    from pairing.domain.swiss import ByeRules, NoLegalPairing, pair_swiss_round
    from pairing.domain.trf import TrfError, import_trf

    try:
        # bytes decoded at once: latin-1 is built into str, a text stream would import its codec
        # (import_trf reads \r, \n and \r\n line ends alike, as a text stream would give them)
        with open(source, "rb") as stream:
            text = stream.read().decode("latin-1")
    except OSError as error:
        print(f"pairing-engine: cannot read {source}: {error.strerror}", file=sys.stderr)
        return 2
    try:
        tournament = import_trf(text)
    except TrfError as error:
        print(f"pairing-engine: {source}: {error}", file=sys.stderr)
        return 2
    tournament, pre = _split_preassigned(tournament)
    rnd = tournament.rounds_done + 1
    if rnd > tournament.rounds_planned:
        print(
            f"pairing-engine: {source}: all {tournament.rounds_planned} rounds are paired "
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
            topscorer_exemption=exemption,
            engine=engine or FastGacruxDutch(),
        )
    except NoLegalPairing as error:
        print(f"pairing-engine: round {rnd}: no legal pairing: {error}", file=sys.stderr)
        return 1
    except IllegalPairing as error:
        print(f"pairing-engine: round {rnd}: engine produced an illegal pairing, refused: {error}", file=sys.stderr)
        return 1
    pairs = pairing.pairs()
    out = f"{len(pairs)}\n" + "".join(f"{first} {second}\n" for first, second in pairs)
    if target == "-":
        sys.stdout.write(out)
    else:
        with open(target, "w") as stream:
            stream.write(out)
    return 0


def run() -> NoReturn:
    """The ``pairing-engine`` command: :func:`main` in a process that ends when it has answered.

    The cyclic collector stays paused (the process lives a few tens of milliseconds), the
    round's structures are kept, and the process exits without tearing the interpreter down:
    freeing the structures, then every module and object, would cost about a fifth of the run.
    The output is flushed first; an error or ``SystemExit`` (argparse's) leaves the usual way.
    """
    import gc as garbage_collector
    import os

    garbage_collector.disable()
    from pairing.adapters.dutch.fast import FastGacruxDutch

    engine = FastGacruxDutch(keep_structures=True)  # freed by the exit, not one by one
    code = main(engine=engine)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run())
