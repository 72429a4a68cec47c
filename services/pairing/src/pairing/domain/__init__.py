"""Pure domain of the pairing service: no I/O, no framework imports.

The service layer keeps a :class:`Tournament` per section (immutable; every change returns a
new one) and calls these functions. Every number of the regulations arrives as configuration
(``PointSystem``, ``ByeRules``, ``TiebreakConfig``, ``MatchPoints``, the tiebreak order, the
decisive places).

Building a section
    ``Tournament(players=(Player(id=1, name=..., gender="m", unit=...), ...), rounds_planned=7,
    points=PointSystem(), forbidden=forbidden_from_units(t, 1, 7))``
    ``add_player(t, player)`` — late entry; ``withdraw(t, pid, after_round)`` — withdrawal.

Pairing a round (PAIR-1..3, PAIR-11)
    The format and the number of rounds (PAIR-1) are registration's: they arrive in the rules.
    ``pair_swiss_round(t, requested_byes=[...], forced_byes=[...], absent=[...],
    bye_rules=ByeRules(requested=Code.HALF_BYE), topscorer_exemption=False) -> RoundPairing``
    — Dutch system; raises ``NoLegalPairing`` (arbiter decides) and never returns a pairing that
    fails ``check_round`` (``IllegalPairing``). A field not guaranteed its planned rounds
    (more than ⌈n/2⌉) is paired with a look-ahead (``lookahead.keep_completable`` over
    ``completion.completion``): each round leaves the rest of the event pairable. ``check_round`` also validates an arbiter's
    manual correction before it is published.
    ``pair_round_robin(seeds, r, double=False) -> RoundPairing`` — Berger tables.
    ``RoundPairing.boards`` are ``Board(first, second)``: ``first`` moves first (black).

Recording results
    ``record_round(t, pairing, {board_index: Outcome}) -> Tournament`` — refuses an incomplete
    round. Two-game rounds (PAIR-5) are scored by gameplay: their outcome is recorded like any other.

Standings (PAIR-6..8, PAIR-10, AWD-8)
    ``compute_tiebreaks(t, names, TiebreakConfig(edition=Edition.FIDE_2024, round_robin=False))``
    ``standings(t, order)`` / ``standings_by_gender(t, order)`` -> ``[StandingRow]`` with shared
    places; ``cross_table`` (JSON-able; the API writes the CSV forms).
    ``ties_needing_decision(rows, decisive_places, playoffs_allowed)`` -> ``[TieGroup]``;
    ``apply_playoff(rows, group, finishing_order)``.

Teams (PAIR-9, PAIR-10)
    ``TeamTournament``/``Team``; ``pair_team_swiss_round``, ``pair_team_round_robin``,
    ``board_assignments(first_team, second_team)``, ``record_team_round(tt, pairing,
    {match_index: [(gp_first, gp_second) per board]})``, ``team_standings(tt, order)``,
    ``board_one_players`` (playoff when still tied).

Interop
    ``export_trf(t)`` / ``import_trf(text)`` (TRF-16 with 142/152/162/260); CLI
    ``pairing-engine IN.trf -p OUT``.
"""

from __future__ import annotations

import sys
import types

TYPE_CHECKING = False  # typing's own, without importing typing: pairing-engine's start-up (ADR 0013)

# Each public name is imported from its module on first use (PEP 562): a process that only
# pairs (``pairing-engine``, the pairing workers) does not import teams, tiebreaks, standings
# and the rest it never calls. The names, by module (the block below gives type checkers the
# same names; a test holds the two equal):
_EXPORTS_BY_MODULE: dict[str, tuple[str, ...]] = {
    "berger": ("berger_round", "berger_table", "pair_round_robin"),
    "checker": ("IllegalPairing", "check_round"),
    "model": (
        "Board",
        "Code",
        "Colour",
        "ForbiddenGroup",
        "Outcome",
        "Player",
        "PointSystem",
        "ResultError",
        "RoundEntry",
        "RoundPairing",
        "Tournament",
        "active_players",
        "add_player",
        "record_round",
        "withdraw",
    ),
    "playoffs": ("ARBITER", "PLAYOFF", "TieGroup", "apply_playoff", "ties_needing_decision"),
    "ranking": ("StandingRow", "rank"),
    "scoring": ("MatchPoints",),
    "standings": (
        "ORDER_ROUND_ROBIN",
        "ORDER_SWISS",
        "ORDER_SZ_ONLINE",
        "cross_table",
        "standings",
        "standings_by_gender",
    ),
    "swiss": ("ByeRules", "GacruxDutch", "NoLegalPairing", "SwissEngine", "forbidden_from_units", "pair_swiss_round"),
    "teams": (
        "ORDER_TEAM_ROUND_ROBIN",
        "ORDER_TEAM_SWISS",
        "Team",
        "TeamMatchResult",
        "TeamRound",
        "TeamTournament",
        "board_assignments",
        "board_one_players",
        "pair_team_round_robin",
        "pair_team_swiss_round",
        "record_team_round",
        "team_standings",
        "team_values",
    ),
    "tiebreaks": ("INDIVIDUAL_TIEBREAKS", "Edition", "TiebreakConfig", "compute_tiebreaks"),
    "trf": ("TrfError", "export_trf", "import_trf"),
}
_EXPORTS = {name: module for module, names in _EXPORTS_BY_MODULE.items() for name in names}

if TYPE_CHECKING:
    from .berger import berger_round, berger_table, pair_round_robin
    from .checker import IllegalPairing, check_round
    from .model import (
        Board,
        Code,
        Colour,
        ForbiddenGroup,
        Outcome,
        Player,
        PointSystem,
        ResultError,
        RoundEntry,
        RoundPairing,
        Tournament,
        active_players,
        add_player,
        record_round,
        withdraw,
    )
    from .playoffs import ARBITER, PLAYOFF, TieGroup, apply_playoff, ties_needing_decision
    from .ranking import StandingRow, rank
    from .scoring import MatchPoints
    from .standings import (
        ORDER_ROUND_ROBIN,
        ORDER_SWISS,
        ORDER_SZ_ONLINE,
        cross_table,
        standings,
        standings_by_gender,
    )
    from .swiss import ByeRules, GacruxDutch, NoLegalPairing, SwissEngine, forbidden_from_units, pair_swiss_round
    from .teams import (
        ORDER_TEAM_ROUND_ROBIN,
        ORDER_TEAM_SWISS,
        Team,
        TeamMatchResult,
        TeamRound,
        TeamTournament,
        board_assignments,
        board_one_players,
        pair_team_round_robin,
        pair_team_swiss_round,
        record_team_round,
        team_standings,
        team_values,
    )
    from .tiebreaks import INDIVIDUAL_TIEBREAKS, Edition, TiebreakConfig, compute_tiebreaks
    from .trf import TrfError, export_trf, import_trf


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module  # here: a process that only pairs never needs it

    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value  # the next read finds it directly
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))


class _Package(types.ModuleType):
    """Keeps an exported name that is also a module's name (``standings``) the exported
    function: importing the module would otherwise set the package's attribute to it, as
    the eager imports this replaces never let it."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in _EXPORTS and isinstance(value, types.ModuleType) and value.__name__ == f"{__name__}.{name}":
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


__all__ = sorted(_EXPORTS)
