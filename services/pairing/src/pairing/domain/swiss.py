"""Dutch Swiss pairing (FIDE C.04.3) behind a port, with our domain types at the boundary.

``SwissEngine`` is the port. ``GacruxDutch`` pairs with the MIT-licensed ``gacrux`` package as
published (FIDE's reference checker, which agrees with bbpPairings): the pure-Python reference,
and what ``pair_swiss_round`` uses unless given an engine. The service pairs with the adapter
``pairing.adapters.dutch.fast.FastGacruxDutch``, the same algorithm with its hot spots compiled
(ADR 0013); the tests hold it to this reference. Both are pure computation: they build
gacrux's in-memory tournament from our types (exactly what gacrux's own
TRF reader would build — a test proves it), renumbers start numbers to 1..n, and maps the
result back; nothing touches files or the network. Every pairing passes
:func:`.checker.check_round` before it leaves :func:`pair_swiss_round`: an illegal pairing
raises instead of being used.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .checker import IllegalPairing, check_round
from .frozen import Record, record, replace
from .lookahead import keep_completable, needs_lookahead
from .model import Board, Code, Colour, ForbiddenGroup, RoundEntry, RoundPairing, Tournament, active_players
from .trf import export_trf

TYPE_CHECKING = False  # typing's own, without importing typing: pairing-engine's start-up (ADR 0013)
if TYPE_CHECKING:
    from contextlib import AbstractContextManager
    from typing import Any, Protocol
else:
    Protocol = object  # the port is structural: only type checkers read it as a Protocol


class NoLegalPairing(Exception):
    """No pairing of the field satisfies the absolute criteria (the arbiter must decide)."""


class SwissEngine(Protocol):
    def pair(
        self, tournament: Tournament, round_: int, participants: Sequence[int], topscorer_exemption: bool = False
    ) -> list[tuple[int, int]]:
        """Return (first, second) per board, and (pid, 0) for the pairing-allocated bye.

        ``topscorer_exemption``: apply FIDE's final-round topscorer colour exemption (C.04.3
        A.7/C.3); when False the colour limits bind every player in every round (PAIR-2).
        """
        ...


class GacruxDutch:
    """Dutch system via ``gacrux.pairingdutch`` (deterministic: the top colour comes from the
    tournament, never from a random draw)."""

    def __init__(self, experimental: Iterable[str] = (), via_trf: bool = False):
        self.experimental = list(experimental)
        # via_trf: hand gacrux TRF text to parse (slow: its reader is quadratic in games);
        # default: build the same in-memory structure directly (tests prove they are equal).
        self.via_trf = via_trf

    def pair(
        self, tournament: Tournament, round_: int, participants: Sequence[int], topscorer_exemption: bool = False
    ) -> list[tuple[int, int]]:
        from gacrux.gacruxexeptions import GacruxNoLegalPairing

        tour, to_old = self.round_structure(tournament, round_, participants, topscorer_exemption)
        params = {"experimental": self.experimental, "verbose": 0, "top_color": tour["topColor"]}
        engine = self.algorithm()
        with self.pairing_scope():
            run = engine(tour, round_, params)
            try:
                brackets = run.compute_pairing(False, 0)
            except GacruxNoLegalPairing as error:
                raise NoLegalPairing(str(error)) from error
            pairs = [pair for bracket in brackets if bracket and "pairs" in bracket for pair in bracket["pairs"]]
            pairs.sort(key=lambda pair: pair["board"])
            paired = [(to_old[int(pair["w"])], to_old[int(pair["b"])] if int(pair["b"]) else 0) for pair in pairs]
            self.done_with(run, brackets)
            del run, brackets, pairs
        return paired

    def done_with(self, *structures: object) -> None:
        """Hands over the round's structures (gacrux's engine and its brackets) before they are
        freed; nothing here (an adapter may keep them)."""

    def algorithm(self) -> Any:
        """gacrux's engine class that pairs the round: as published here (an adapter replaces it
        with one computing the same values faster)."""
        from .gacrux_import import pairing_dutch  # gacrux's engine without networkx's import

        return pairing_dutch

    def pairing_scope(self) -> AbstractContextManager[object]:
        """What the pairing of one round runs inside (nothing here)."""
        return _NO_SCOPE

    def round_structure(
        self, tournament: Tournament, round_: int, participants: Sequence[int], topscorer_exemption: bool = False
    ) -> tuple[dict, dict[int, int]]:
        """gacrux's tournament structure for pairing ``round_``, and our ids by gacrux's."""
        if round_ != tournament.rounds_done + 1:
            raise ValueError(f"can only pair round {tournament.rounds_done + 1}, not {round_} (PAIR-11)")
        view, to_new, to_old = _renumbered(_scorable_by_gacrux(tournament))
        if self.via_trf:
            tour = gacrux_tournament_via_trf(view)
        else:
            tour = gacrux_tournament(view)
        # gacrux exempts topscorers from the colour limits only when pairing its last round, so
        # announcing one round more switches the exemption off (PAIR-2: limits bind everyone).
        tour["numRounds"] = max(tournament.rounds_planned, round_) + (0 if topscorer_exemption else 1)
        tour["maxMeets"] = 1
        tour["topColor"] = "w" if tournament.top_seed_colour is Colour.FIRST else "b"
        present = {to_new[pid] for pid in participants}
        for competitor in tour["competitors"]:
            competitor["present"] = competitor["cid"] in present
        return tour, to_old


class _NoScope:
    """``contextlib.nullcontext()`` without importing contextlib (pairing-engine's start-up)."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exception: object) -> None:
        return None


_NO_SCOPE = _NoScope()


def _renumbered(tournament: Tournament) -> tuple[Tournament, dict[int, int], dict[int, int]]:
    """Start numbers 1..n in the same order (gacrux needs them contiguous)."""
    ids = sorted(player.id for player in tournament.players)
    if ids == list(range(1, len(ids) + 1)):
        same = {pid: pid for pid in ids}
        return tournament, same, same
    to_new = {old: new for new, old in enumerate(ids, 1)}
    to_old = {new: old for old, new in to_new.items()}
    players = tuple(replace(player, id=to_new[player.id]) for player in tournament.players)
    history = {
        to_new[pid]: tuple(
            replace(entry, opponent=None if entry.opponent is None else to_new[entry.opponent]) for entry in entries
        )
        for pid, entries in tournament.history.items()
        if pid in to_new
    }
    forbidden = tuple(
        replace(group, players=tuple(to_new[pid] for pid in group.players if pid in to_new))
        for group in tournament.forbidden
    )
    return replace(tournament, players=players, history=history, forbidden=forbidden), to_new, to_old


def gacrux_tournament_via_trf(tournament: Tournament) -> dict:
    """gacrux's tournament structure, produced by its own TRF reader."""
    from gacrux.trf2json import trf2json

    chess = trf2json()
    chess.parse_file(export_trf(tournament), 0)
    if chess.chessjson["status"]["code"] > 400:
        raise ValueError(f"gacrux rejected the tournament: {chess.chessjson['status']}")
    return chess.get_tournament(1)


# How gacrux's TRF reader records one round of one player: (result letter, played, rated).
_GACRUX_RESULT = {
    Code.WIN: ("W", True, True),
    Code.DRAW: ("D", True, True),
    Code.LOSS: ("L", True, True),
    Code.FORFEIT_WIN: ("W", False, False),
    Code.FORFEIT_LOSS: ("Z", False, False),
    Code.PAIRING_BYE: ("P", True, False),
    Code.FULL_BYE: ("W", False, False),
    Code.HALF_BYE: ("D", False, False),
    Code.ZERO_BYE: ("Z", False, False),
    Code.ABSENT: ("Z", False, False),
}


def gacrux_tournament(tournament: Tournament) -> dict:
    """The structure :func:`gacrux_tournament_via_trf` yields, built directly from our types."""
    from decimal import Decimal

    system = tournament.points
    pab = system.points(Code.PAIRING_BYE)
    # every player's entries and each code's points, read once (the same values as
    # ``tournament.entries`` and ``tournament.score``, summed in the same order)
    entries = {player.id: tournament.entries(player.id) for player in tournament.players}
    points_of = {code: system.points(code) for code in Code}
    score = {
        "W": Decimal(str(float(system.win))),
        "D": Decimal(str(float(system.draw))),
        "L": Decimal(str(float(system.loss))),
        "F": "W",
        "H": "D",
        "Z": Decimal("0.0"),
        "P": "W" if pab == system.win else Decimal(str(float(pab))),
        "A": "D",
        "U": "Z",
    }
    competitors = [
        {
            "cid": player.id,
            "profileId": player.id,
            "present": True,
            "gamePoints": Decimal(str(float(sum(points_of[entry.code] for entry in entries[player.id])))),
            "rank": 0,
            "rating": {"list": "TRF", "rating": player.rating} if player.rating else None,
        }
        for player in sorted(tournament.players, key=lambda player: player.id)
    ]
    every_entry = (entry for entries in tournament.history.values() for entry in entries)
    last_played = max((entry.round for entry in every_entry if entry.played), default=0)
    extra = {}
    if tournament.forbidden:
        extra["prohibited"] = [
            {"firstRound": group.first_round, "lastRound": group.last_round, "competitors": list(group.players)}
            for group in tournament.forbidden
        ]
    return {
        **extra,
        "tournamentNo": 1,
        "tournamentType": "Tournament",
        "tournamentInfo": {"fullName": tournament.name or "Tournament"},
        "ratingList": "TRF",
        "numRounds": tournament.rounds_planned,
        "currentRound": last_played,
        "teamTournament": False,
        "rankOrder": ["PTS"],
        "competitors": competitors,
        "teamSize": 0,
        "scoreSystem": {"game": score, "match": {}},
        "gameList": _gacrux_games(tournament, entries),
        "matchList": [],
        "timeControl": {"description": "", "encoded": ""},
        "topColor": "w" if tournament.top_seed_colour is Colour.FIRST else "b",
        "topColorExplicit": True,
    }


def _gacrux_games(tournament: Tournament, entries: dict[int, tuple[RoundEntry, ...]]) -> list[dict[str, Any]]:
    """gacrux's game list: one game per pairing (listed once), one per bye or absence
    (``entries``: every player's ``tournament.entries``)."""
    games: list[dict[str, Any]] = []
    done: set[tuple[int, int]] = set()
    for player in sorted(tournament.players, key=lambda player: player.id):
        for entry in entries[player.id]:
            result, played, rated = _GACRUX_RESULT[entry.code]
            if entry.opponent is None:
                games.append(
                    {
                        "id": len(games) + 1,
                        "round": entry.round,
                        "white": {"cid": player.id, "result": result},
                        "black": None,
                        "played": played,
                        "rated": rated,
                    }
                )
                continue
            if (entry.round, player.id) in done:
                continue
            other = entries[entry.opponent][entry.round - 1]
            mine = {"cid": player.id, "result": result}
            theirs = {"cid": entry.opponent, "result": _GACRUX_RESULT[other.code][0]}
            # TRF 'b' puts the player on black; '-' (no colour) reads as white, like gacrux
            white, black = (theirs, mine) if entry.colour is Colour.SECOND else (mine, theirs)
            games.append(
                {
                    "id": len(games) + 1,
                    "round": entry.round,
                    "white": white,
                    "black": black,
                    "played": played,
                    "rated": rated,
                }
            )
            done.add((entry.round, entry.opponent))
    return games


def _scorable_by_gacrux(tournament: Tournament) -> Tournament:
    """The same tournament written so gacrux scores every round as we do.

    gacrux scores byes by letter (F = win, H = draw, Z = 0, U = record 162 ``P``) and forfeits
    as win/zero, so a bye configured with another value is written with the letter worth the
    same points (all are unplayed, non-pairing byes, so nothing else changes for pairing).
    """
    system = tournament.points
    by_value = {system.win: Code.FULL_BYE, system.draw: Code.HALF_BYE, 0: Code.ZERO_BYE}
    if system.points(Code.FORFEIT_WIN) != system.win or system.points(Code.FORFEIT_LOSS) != 0 or system.loss != 0:
        raise ValueError("the gacrux Dutch engine needs forfeit win = win, forfeit loss = loss = 0")
    changed = False
    history = {}
    byes = (Code.FULL_BYE, Code.HALF_BYE, Code.ZERO_BYE)  # read once, not per entry
    for pid, entries in tournament.history.items():
        new = []
        for entry in entries:
            if entry.code in byes:
                code = by_value.get(system.points(entry.code))
                if code is None:
                    raise ValueError(f"a bye worth {system.points(entry.code)} points cannot be expressed to gacrux")
                if code is not entry.code:
                    entry = replace(entry, code=code)
                    changed = True
            new.append(entry)
        history[pid] = tuple(new)
    return replace(tournament, history=history) if changed else tournament


@record(frozen=True)
class ByeRules(Record):
    """How requested byes score (REG/PAIR config): HALF_BYE or ZERO_BYE, per event."""

    requested: Code = Code.HALF_BYE
    forced: Code = Code.FULL_BYE  # arbiter-forced bye (e.g. FULL_BYE, or PAIRING_BYE)

    def __init__(self, requested: Code = Code.HALF_BYE, forced: Code = Code.FULL_BYE) -> None:
        self.__dict__.update(requested=requested, forced=forced)


def forbidden_from_units(tournament: Tournament, first_round: int, last_round: int) -> tuple[ForbiddenGroup, ...]:
    """Players of the same unit kept apart (the event decides whether and in which rounds)."""
    units: dict[str, list[int]] = {}
    for player in tournament.players:
        if player.unit:
            units.setdefault(player.unit, []).append(player.id)
    return tuple(
        ForbiddenGroup(first_round, last_round, tuple(ids)) for _, ids in sorted(units.items()) if len(ids) > 1
    )


def _with_pairs(rnd: int, byes: dict[int, Code], pairs: Sequence[tuple[int, int]]) -> RoundPairing:
    boards = tuple(Board(first, second) for first, second in pairs if second)
    allocated = {first: Code.PAIRING_BYE for first, second in pairs if not second}
    return RoundPairing(rnd, boards, {**byes, **allocated})


def pair_swiss_round(
    tournament: Tournament,
    round_: int | None = None,
    *,
    requested_byes: Iterable[int] = (),
    forced_byes: Iterable[int] = (),
    absent: Iterable[int] = (),
    bye_rules: ByeRules = ByeRules(),
    engine: SwissEngine | None = None,
    topscorer_exemption: bool = False,
) -> RoundPairing:
    """Pair the next Swiss round (PAIR-2).

    * ``requested_byes`` get ``bye_rules.requested`` (half or zero point, per event config);
    * ``forced_byes`` (arbiter) get ``bye_rules.forced``;
    * ``absent`` players (not checked in, REG-11) are not paired and get ``ZERO_BYE``;
    * withdrawn players and entries before their ``entry_round`` are skipped;
    past rounds are never re-paired; a field too small to be guaranteed its planned rounds is
    paired so that the remaining rounds can still be paired (PAIR-1, :mod:`.lookahead`).
    ``topscorer_exemption`` turns on FIDE's final-round
    exemption from the colour limits (off by default: PAIR-2 makes them absolute). Raises :class:`NoLegalPairing` if the absolute criteria
    cannot be met, :class:`IllegalPairing` if the engine ever returned an illegal pairing.
    """
    rnd = tournament.rounds_done + 1 if round_ is None else round_
    if rnd != tournament.rounds_done + 1:
        raise ValueError(f"round {rnd} cannot be paired: round {tournament.rounds_done + 1} is next (PAIR-11)")
    if rnd > tournament.rounds_planned:
        raise ValueError(f"round {rnd} exceeds the {tournament.rounds_planned} rounds planned")
    byes: dict[int, Code] = {}
    for pid in absent:
        byes[pid] = Code.ZERO_BYE
    for pid in requested_byes:
        byes[pid] = bye_rules.requested
    for pid in forced_byes:
        byes[pid] = bye_rules.forced
    participants = active_players(tournament, rnd, exclude=byes)
    known = {player.id for player in tournament.players}
    byes = {pid: code for pid, code in byes.items() if pid in known}
    if not participants:
        return RoundPairing(rnd, (), byes)
    if len(participants) == 1:
        # gacrux needs two players; a lone player gets the bye only if still eligible
        pid = participants[0]
        if any(entry.code in (Code.PAIRING_BYE, Code.FORFEIT_WIN) for entry in tournament.entries(pid)):
            raise NoLegalPairing(f"round {rnd}: only player {pid} is left and already had a bye")
        pairs = [(pid, 0)]
    else:
        pairs = (engine or GacruxDutch()).pair(tournament, rnd, participants, topscorer_exemption)
    pairing = _with_pairs(rnd, byes, pairs)
    if len(participants) > 1 and needs_lookahead(tournament, rnd):
        dutch = engine or GacruxDutch()

        def repair(apart: tuple[tuple[int, int], ...]) -> RoundPairing | None:
            kept_apart = tuple(ForbiddenGroup(rnd, rnd, pair) for pair in apart)
            try:
                again = dutch.pair(
                    replace(tournament, forbidden=tournament.forbidden + kept_apart),
                    rnd,
                    participants,
                    topscorer_exemption,
                )
            except NoLegalPairing:
                return None
            return _with_pairs(rnd, byes, again)

        pairing = keep_completable(tournament, pairing, participants, repair)
    problems = check_round(tournament, pairing, participants, topscorer_exemption)
    if problems:
        raise IllegalPairing(problems)
    return pairing
