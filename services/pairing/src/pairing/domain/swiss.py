"""Dutch Swiss pairing (FIDE C.04.3) behind a port, with our domain types at the boundary.

``SwissEngine`` is the port. ``GacruxDutch`` is the adapter over the MIT-licensed ``gacrux``
package (FIDE's reference checker, which agrees with bbpPairings). It is pure computation:
the adapter builds gacrux's in-memory tournament from our types (exactly what gacrux's own
TRF reader would build — a test proves it), renumbers start numbers to 1..n, and maps the
result back; nothing touches files or the network. Every pairing passes
:func:`.checker.check_round` before it leaves :func:`pair_swiss_round`: an illegal pairing
raises instead of being used.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from .checker import IllegalPairing, check_round
from .model import Board, Code, Colour, ForbiddenGroup, RoundPairing, Tournament, active_players
from .trf import export_trf


class NoLegalPairing(Exception):
    """No pairing of the field satisfies the absolute criteria (the arbiter must decide)."""


class SwissEngine(Protocol):
    def pair(
        self, t: Tournament, round_: int, participants: Sequence[int], topscorer_exemption: bool = False
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
        self, t: Tournament, round_: int, participants: Sequence[int], topscorer_exemption: bool = False
    ) -> list[tuple[int, int]]:
        from gacrux.gacruxexeptions import GacruxNoLegalPairing
        from gacrux.pairingdutch import pairing_dutch

        if round_ != t.rounds_done + 1:
            raise ValueError(f"can only pair round {t.rounds_done + 1}, not {round_} (PAIR-11)")
        view, to_new, to_old = _renumbered(_scorable_by_gacrux(t))
        participants = [to_new[p] for p in participants]
        if self.via_trf:
            tour = gacrux_tournament_via_trf(view)
        else:
            tour = gacrux_tournament(view)
        # gacrux exempts topscorers from the colour limits only when pairing its last round, so
        # announcing one round more switches the exemption off (PAIR-2: limits bind everyone).
        tour["numRounds"] = max(t.rounds_planned, round_) + (0 if topscorer_exemption else 1)
        tour["maxMeets"] = 1
        tour["topColor"] = "w" if t.top_seed_colour is Colour.FIRST else "b"
        present = set(participants)
        for c in tour["competitors"]:
            c["present"] = c["cid"] in present
        params = {"experimental": self.experimental, "verbose": 0, "top_color": tour["topColor"]}
        try:
            brackets = pairing_dutch(tour, round_, params).compute_pairing(False, 0)
        except GacruxNoLegalPairing as e:
            raise NoLegalPairing(str(e)) from e
        pairs = [p for b in brackets if b and "pairs" in b for p in b["pairs"]]
        pairs.sort(key=lambda p: p["board"])
        return [(to_old[int(p["w"])], to_old[int(p["b"])] if int(p["b"]) else 0) for p in pairs]


def _renumbered(t: Tournament) -> tuple[Tournament, dict[int, int], dict[int, int]]:
    """Start numbers 1..n in the same order (gacrux needs them contiguous)."""
    ids = sorted(p.id for p in t.players)
    if ids == list(range(1, len(ids) + 1)):
        same = {i: i for i in ids}
        return t, same, same
    to_new = {old: new for new, old in enumerate(ids, 1)}
    to_old = {new: old for old, new in to_new.items()}
    players = tuple(replace(p, id=to_new[p.id]) for p in t.players)
    history = {
        to_new[pid]: tuple(replace(e, opponent=None if e.opponent is None else to_new[e.opponent]) for e in h)
        for pid, h in t.history.items()
        if pid in to_new
    }
    forbidden = tuple(replace(g, players=tuple(to_new[x] for x in g.players if x in to_new)) for g in t.forbidden)
    return replace(t, players=players, history=history, forbidden=forbidden), to_new, to_old


def gacrux_tournament_via_trf(t: Tournament) -> dict:
    """gacrux's tournament structure, produced by its own TRF reader."""
    from gacrux.trf2json import trf2json

    chess = trf2json()
    chess.parse_file(export_trf(t), 0)
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


def gacrux_tournament(t: Tournament) -> dict:
    """The structure :func:`gacrux_tournament_via_trf` yields, built directly from our types."""
    from decimal import Decimal

    ps = t.points
    pab = ps.points(Code.PAIRING_BYE)
    score = {
        "W": Decimal(str(float(ps.win))),
        "D": Decimal(str(float(ps.draw))),
        "L": Decimal(str(float(ps.loss))),
        "F": "W",
        "H": "D",
        "Z": Decimal("0.0"),
        "P": "W" if pab == ps.win else Decimal(str(float(pab))),
        "A": "D",
        "U": "Z",
    }
    competitors = [
        {
            "cid": p.id,
            "profileId": p.id,
            "present": True,
            "gamePoints": Decimal(str(float(t.score(p.id)))),
            "rank": 0,
            "rating": {"list": "TRF", "rating": p.rating} if p.rating else None,
        }
        for p in sorted(t.players, key=lambda p: p.id)
    ]
    games = []
    done: set[tuple[int, int]] = set()
    for p in sorted(t.players, key=lambda p: p.id):
        for e in t.entries(p.id):
            res, played, rated = _GACRUX_RESULT[e.code]
            if e.opponent is None:
                games.append(
                    {
                        "id": len(games) + 1,
                        "round": e.round,
                        "white": {"cid": p.id, "result": res},
                        "black": None,
                        "played": played,
                        "rated": rated,
                    }
                )
                continue
            if (e.round, p.id) in done:
                continue
            other = t.entries(e.opponent)[e.round - 1]
            ores = _GACRUX_RESULT[other.code][0]
            me, them = {"cid": p.id, "result": res}, {"cid": e.opponent, "result": ores}
            # TRF 'b' puts the player on black; '-' (no colour) reads as white, like gacrux
            white, black = (them, me) if e.colour is Colour.SECOND else (me, them)
            games.append(
                {
                    "id": len(games) + 1,
                    "round": e.round,
                    "white": white,
                    "black": black,
                    "played": played,
                    "rated": rated,
                }
            )
            done.add((e.round, e.opponent))
    last_played = max((e.round for h in t.history.values() for e in h if e.played), default=0)
    extra = {}
    if t.forbidden:
        extra["prohibited"] = [
            {"firstRound": g.first_round, "lastRound": g.last_round, "competitors": list(g.players)}
            for g in t.forbidden
        ]
    return {
        **extra,
        "tournamentNo": 1,
        "tournamentType": "Tournament",
        "tournamentInfo": {"fullName": t.name or "Tournament"},
        "ratingList": "TRF",
        "numRounds": t.rounds_planned,
        "currentRound": last_played,
        "teamTournament": False,
        "rankOrder": ["PTS"],
        "competitors": competitors,
        "teamSize": 0,
        "scoreSystem": {"game": score, "match": {}},
        "gameList": games,
        "matchList": [],
        "timeControl": {"description": "", "encoded": ""},
        "topColor": "w" if t.top_seed_colour is Colour.FIRST else "b",
        "topColorExplicit": True,
    }


def _scorable_by_gacrux(t: Tournament) -> Tournament:
    """The same tournament written so gacrux scores every round as we do.

    gacrux scores byes by letter (F = win, H = draw, Z = 0, U = record 162 ``P``) and forfeits
    as win/zero, so a bye configured with another value is written with the letter worth the
    same points (all are unplayed, non-pairing byes, so nothing else changes for pairing).
    """
    ps = t.points
    by_value = {ps.win: Code.FULL_BYE, ps.draw: Code.HALF_BYE, 0: Code.ZERO_BYE}
    if ps.points(Code.FORFEIT_WIN) != ps.win or ps.points(Code.FORFEIT_LOSS) != 0 or ps.loss != 0:
        raise ValueError("the gacrux Dutch engine needs forfeit win = win, forfeit loss = loss = 0")
    changed = False
    history = {}
    for pid, h in t.history.items():
        new = []
        for e in h:
            if e.code in (Code.FULL_BYE, Code.HALF_BYE, Code.ZERO_BYE):
                code = by_value.get(ps.points(e.code))
                if code is None:
                    raise ValueError(f"a bye worth {ps.points(e.code)} points cannot be expressed to gacrux")
                if code is not e.code:
                    e = replace(e, code=code)
                    changed = True
            new.append(e)
        history[pid] = tuple(new)
    return replace(t, history=history) if changed else t


@dataclass(frozen=True)
class ByeRules:
    """How requested byes score (REG/PAIR config): HALF_BYE or ZERO_BYE, per event."""

    requested: Code = Code.HALF_BYE
    forced: Code = Code.FULL_BYE  # arbiter-forced bye (e.g. FULL_BYE, or PAIRING_BYE)


def forbidden_from_units(t: Tournament, first_round: int, last_round: int) -> tuple[ForbiddenGroup, ...]:
    """Players of the same unit kept apart (the event decides whether and in which rounds)."""
    units: dict[str, list[int]] = {}
    for p in t.players:
        if p.unit:
            units.setdefault(p.unit, []).append(p.id)
    return tuple(
        ForbiddenGroup(first_round, last_round, tuple(ids)) for _, ids in sorted(units.items()) if len(ids) > 1
    )


def pair_swiss_round(
    t: Tournament,
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
    past rounds are never re-paired. ``topscorer_exemption`` turns on FIDE's final-round
    exemption from the colour limits (off by default: PAIR-2 makes them absolute). Raises :class:`NoLegalPairing` if the absolute criteria
    cannot be met, :class:`IllegalPairing` if the engine ever returned an illegal pairing.
    """
    r = t.rounds_done + 1 if round_ is None else round_
    if r != t.rounds_done + 1:
        raise ValueError(f"round {r} cannot be paired: round {t.rounds_done + 1} is next (PAIR-11)")
    if r > t.rounds_planned:
        raise ValueError(f"round {r} exceeds the {t.rounds_planned} rounds planned")
    byes: dict[int, Code] = {}
    for pid in absent:
        byes[pid] = Code.ZERO_BYE
    for pid in requested_byes:
        byes[pid] = bye_rules.requested
    for pid in forced_byes:
        byes[pid] = bye_rules.forced
    participants = active_players(t, r, exclude=byes)
    byes = {pid: c for pid, c in byes.items() if pid in {p.id for p in t.players}}
    if not participants:
        return RoundPairing(r, (), byes)
    if len(participants) == 1:
        # gacrux needs two players; a lone player gets the bye only if still eligible
        pid = participants[0]
        if any(e.code in (Code.PAIRING_BYE, Code.FORFEIT_WIN) for e in t.entries(pid)):
            raise NoLegalPairing(f"round {r}: only player {pid} is left and already had a bye")
        pairs = [(pid, 0)]
    else:
        pairs = (engine or GacruxDutch()).pair(t, r, participants, topscorer_exemption)
    boards = tuple(Board(a, b) for a, b in pairs if b)
    for a, b in pairs:
        if not b:
            byes[a] = Code.PAIRING_BYE
    rp = RoundPairing(r, boards, byes)
    problems = check_round(t, rp, participants, topscorer_exemption)
    if problems:
        raise IllegalPairing(problems)
    return rp
