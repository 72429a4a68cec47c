"""A stored section seen through the domain: the Tournament (or TeamTournament) it is, replayed
from its completed rounds. Pure functions of a :class:`Section`; the next round's pairing is
in :mod:`.round_pairing`, the standings in :mod:`.standings`.
"""

from __future__ import annotations

from typing import Any

from gomoku_shared.contracts.common import Entrant, SectionRules
from gomoku_shared.contracts.events import DecidedOutcome

from ..domain import (
    Board,
    ByeRules,
    Code,
    MatchPoints,
    Outcome,
    Player,
    PointSystem,
    RoundPairing,
    Team,
    TeamTournament,
    Tournament,
    forbidden_from_units,
    record_round,
    record_team_round,
)
from ..domain.aggregate import Section
from ..domain.teams import as_tournament

MEMBER_BASE = 1000  # team member ids inside the domain: team start number × 1000 + board

FORFEITS = (Outcome.FIRST_FORFEIT_WIN, Outcome.SECOND_FORFEIT_WIN, Outcome.DOUBLE_FORFEIT)


#: the friendly name of each outcome (the API's results and result.decided's outcome)
RESULT_NAMES: dict[Outcome, DecidedOutcome] = {
    Outcome.FIRST_WINS: "first_wins",
    Outcome.SECOND_WINS: "second_wins",
    Outcome.DRAW: "draw",
    Outcome.FIRST_FORFEIT_WIN: "first_forfeit_win",
    Outcome.SECOND_FORFEIT_WIN: "second_forfeit_win",
    Outcome.DOUBLE_FORFEIT: "double_forfeit",
}
#: friendly result names accepted by the arbiter API, and the domain's own values
RESULTS: dict[str, Outcome] = {
    **{name: outcome for outcome, name in RESULT_NAMES.items()},
    **{outcome.value: outcome for outcome in Outcome},
}


def result_name(outcome: Outcome) -> DecidedOutcome:
    return RESULT_NAMES[outcome]


# ---------------------------------------------------------------- configuration


def points(state: Section) -> PointSystem:
    configured = state.rules.points
    return PointSystem(win=configured.win, draw=configured.draw, loss=configured.loss)


def round_points(rules: SectionRules, outcome: Outcome) -> tuple[float, float]:
    """(first, second) points of a pairing's outcome under the section's point system (PAIR-4)."""
    system = PointSystem(win=rules.points.win, draw=rules.points.draw, loss=rules.points.loss)
    first_code, second_code = outcome.codes()
    return float(system.points(first_code)), float(system.points(second_code))


def bye_rules() -> ByeRules:
    # requested byes score a draw, arbiter-forced byes a win (FIDE defaults; seeds are silent)
    return ByeRules(requested=Code.HALF_BYE, forced=Code.FULL_BYE)


def seeding(entrants: list[Entrant]) -> list[Entrant]:
    """Start numbers: rating (highest first), then the order registration listed them."""
    return [entrant for _, entrant in sorted(enumerate(entrants), key=lambda x: (-x[1].rating, x[0]))]


def members(entrant: Entrant) -> list[Any]:
    """A team's members in board order (REG-9)."""
    return [member for _, member in sorted(enumerate(entrant.members), key=lambda x: (x[1].board or x[0] + 1, x[0]))]


# ---------------------------------------------------------------- domain views


def players(state: Section) -> tuple[Player, ...]:
    out = []
    for start_no, row in sorted(state.entrants.items()):
        entrant: Entrant = row["entrant"]
        out.append(
            Player(
                id=start_no,
                name=entrant.name,
                rating=entrant.rating,
                gender=entrant.gender or "",
                unit=entrant.unit,
                entry_round=row["entry_round"],
                withdrawn_after=row["withdrawn_after"],
            )
        )
    return tuple(out)


def stored_round(state: Section, rnd: int) -> RoundPairing:
    """A stored round as the domain's RoundPairing (teams: one board per match)."""
    seen: dict[int, Board] = {}
    for pairing in state.pairings.get(rnd, []):
        seen.setdefault(pairing["match_no"], Board(pairing["first_no"], pairing["second_no"]))
    byes = {bye["start_no"]: Code(bye["code"]) for bye in state.byes.get(rnd, [])}
    return RoundPairing(rnd, tuple(seen[match_no] for match_no in sorted(seen)), byes)


def tournament(state: Section, upto: int | None = None) -> Tournament:
    """The individual tournament: completed rounds replayed onto the stored players (once per
    state of the section)."""
    return state.view(("tournament", upto), lambda: _replayed(state, upto))


def _replayed(state: Section, upto: int | None) -> Tournament:
    rules = state.rules
    replayed = Tournament(
        players=players(state), rounds_planned=rules.rounds, points=points(state), name=state.row["name"]
    )
    if rules.separate_units:
        replayed = Tournament(
            players=replayed.players,
            rounds_planned=replayed.rounds_planned,
            points=replayed.points,
            name=replayed.name,
            forbidden=forbidden_from_units(replayed, 1, rules.rounds),
        )
    for rnd in state.complete_rounds():
        if upto is not None and rnd > upto:
            break
        outcomes = {index: Outcome(pairing["outcome"]) for index, pairing in enumerate(state.pairings.get(rnd, []))}
        replayed = record_round(replayed, stored_round(state, rnd), outcomes)
    return replayed


def teams(state: Section) -> tuple[Team, ...]:
    out = []
    for start_no, row in sorted(state.entrants.items()):
        entrant: Entrant = row["entrant"]
        boards = range(1, len(members(entrant)) + 1)
        out.append(
            Team(
                id=start_no,
                name=entrant.name,
                members=tuple(start_no * MEMBER_BASE + board for board in boards),
                unit=entrant.unit,
            )
        )
    return tuple(out)


def board_game_points(state: Section, pairing: dict) -> tuple[float, float]:
    """(first-listed team, other team) game points of one board."""
    first_points, second_points = pairing["first_points"], pairing["second_points"]
    team_of_first_mover = pairing["first_team"]
    first_listed = state.entrants[pairing["first_no"]]["entrant_id"]
    if team_of_first_mover == first_listed:
        return first_points, second_points
    return second_points, first_points


def matches_of(state: Section, rnd: int) -> dict[int, list[dict]]:
    """A team round's boards by match number."""
    by_match: dict[int, list[dict]] = {}
    for pairing in state.pairings.get(rnd, []):
        by_match.setdefault(pairing["match_no"], []).append(pairing)
    return by_match


def team_tournament(state: Section, upto: int | None = None) -> TeamTournament:
    """The team tournament: completed rounds replayed onto the teams (once per state of the
    section)."""
    return state.view(("team_tournament", upto), lambda: _team_replayed(state, upto))


def _team_replayed(state: Section, upto: int | None) -> TeamTournament:
    match_points, game_points = state.rules.match_points, state.rules.points
    replayed = TeamTournament(
        teams=teams(state),
        rounds_planned=state.rules.rounds,
        match_points=MatchPoints(match_points.win, match_points.draw, match_points.loss),
        game_points_win=game_points.win,
        bye_board_points=game_points.win,
        boards=state.rules.boards,
    )
    for rnd in state.complete_rounds():
        if upto is not None and rnd > upto:
            break
        by_match = matches_of(state, rnd)
        board_points, forfeits = {}, []
        for index, match_no in enumerate(sorted(by_match)):
            boards = sorted(by_match[match_no], key=lambda pairing: pairing["board"])
            board_points[index] = [board_game_points(state, pairing) for pairing in boards]
            if all(Outcome(pairing["outcome"]) in FORFEITS for pairing in boards):
                forfeits.append(index)
        replayed = record_team_round(replayed, stored_round(state, rnd), board_points, forfeits)
    return replayed


def as_competitors(state: Section) -> Tournament:
    """The section with its competitors as players: the individual tournament, or the teams
    scored by match points (cross table, TRF, checking a team pairing)."""
    if state.team:
        return as_tournament(team_tournament(state))
    return tournament(state)
