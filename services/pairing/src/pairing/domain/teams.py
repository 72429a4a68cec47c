"""Team competitions of 3-board teams (PAIR-9, PAIR-10): pairing, board colours, scoring.

A team match is scored from game points per board; match points (次分) follow PAIR-9. Team
Swiss pairs teams with the same Dutch port as individuals, the teams' match points being the
score and the first-listed team holding the "first" colour; team round robin uses Berger.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .berger import pair_round_robin
from .model import Code, Colour, Player, PointSystem, RoundEntry, RoundPairing, Tournament
from .ranking import StandingRow, rank
from .scoring import MatchPoints, code_for_match
from .swiss import SwissEngine, pair_swiss_round
from .tiebreaks import TiebreakConfig, compute_tiebreaks

TB_MP = "MP"
TB_OMP = "OMP"  # opponents' match points (Buchholz on match points)
TB_OMP_M1 = "OMP/M1"  # median of it
TB_GP = "GP"  # total game points 团体总局分
TB_SB_MP = "SB"  # Sonneborn-Berger on match points
ORDER_TEAM_SWISS = (TB_OMP, TB_OMP_M1, TB_GP, "B1", "B2", "B3")
ORDER_TEAM_ROUND_ROBIN = (TB_GP, TB_SB_MP, "B1", "B2", "B3")


@dataclass(frozen=True)
class Team:
    id: int
    name: str
    members: tuple[int, ...]  # player ids in the fixed board order (REG-9)
    unit: str | None = None


@dataclass(frozen=True)
class TeamMatchResult:
    first: int  # first-listed team
    second: int
    board_points: tuple[tuple[float, float], ...]  # game points (first team, second team) per board
    forfeit: bool = False  # whole match forfeited (no colour, no rematch ban)


@dataclass(frozen=True)
class TeamRound:
    round: int
    matches: tuple[TeamMatchResult, ...]
    byes: Mapping[int, Code] = field(default_factory=dict)


@dataclass(frozen=True)
class TeamTournament:
    teams: tuple[Team, ...]
    rounds_planned: int
    rounds: tuple[TeamRound, ...] = ()
    match_points: MatchPoints = MatchPoints()
    game_points_win: float = 2  # per game, PAIR-9 (2/1/0)
    bye_board_points: float = 2  # game points per board credited for a team bye
    boards: int = 3
    top_seed_colour: Colour = Colour.FIRST


def board_assignments(first: Team, second: Team) -> list[tuple[int, int, int]]:
    """(board, first mover, second mover) for a match (PAIR-9): the first-listed team moves first
    on odd boards (1 and 3), the other team on even boards (2)."""
    out = []
    for board, (first_member, second_member) in enumerate(zip(first.members, second.members), 1):
        out.append((board, first_member, second_member) if board % 2 == 1 else (board, second_member, first_member))
    return out


def _forfeited(code: Code) -> Code:
    return Code.FORFEIT_WIN if code is Code.WIN else Code.FORFEIT_LOSS


def as_tournament(teams: TeamTournament) -> Tournament:
    """Teams as competitors scored by match points, for the Swiss engine and tiebreaks."""
    match_points = teams.match_points
    history: dict[int, list[RoundEntry]] = {team.id: [] for team in teams.teams}
    for rnd in teams.rounds:
        seen = set()
        for match in rnd.matches:
            first_points = sum(first for first, _ in match.board_points)
            second_points = sum(second for _, second in match.board_points)
            first_code = code_for_match(first_points, second_points)
            second_code = code_for_match(second_points, first_points)
            if match.forfeit:
                first_code, second_code = _forfeited(first_code), _forfeited(second_code)
            history[match.first].append(RoundEntry(rnd.round, match.second, Colour.FIRST, first_code))
            history[match.second].append(RoundEntry(rnd.round, match.first, Colour.SECOND, second_code))
            seen |= {match.first, match.second}
        for team_id in history:
            if team_id not in seen:
                history[team_id].append(RoundEntry(rnd.round, None, None, rnd.byes.get(team_id, Code.ABSENT)))
    players = tuple(Player(id=team.id, name=team.name, unit=team.unit) for team in teams.teams)
    return Tournament(
        players=players,
        rounds_planned=teams.rounds_planned,
        history={team_id: tuple(entries) for team_id, entries in history.items()},
        points=PointSystem(win=match_points.win, draw=match_points.draw, loss=match_points.loss),
        top_seed_colour=teams.top_seed_colour,
    )


def pair_team_swiss_round(teams: TeamTournament, engine: SwissEngine | None = None, **options: Any) -> RoundPairing:
    """Next round of a team Swiss: boards are matches (first = first-listed team)."""
    return pair_swiss_round(as_tournament(teams), engine=engine, **options)


def pair_team_round_robin(teams: TeamTournament, round_: int) -> RoundPairing:
    """Round ``round_`` of a team round robin (Berger, teams in their listed order)."""
    return pair_round_robin([team.id for team in teams.teams], round_)


def record_team_round(
    teams: TeamTournament,
    pairing: RoundPairing,
    board_points: Mapping[int, Sequence[tuple[float, float]]],
    forfeits: Sequence[int] = (),
) -> TeamTournament:
    """Append a round; ``board_points[i]`` are the (first team, second team) points of match i."""
    if pairing.round != len(teams.rounds) + 1:
        raise ValueError(f"round {pairing.round} recorded but round {len(teams.rounds) + 1} is next")
    matches = []
    for index, match in enumerate(pairing.boards):
        points = tuple((first, second) for first, second in board_points[index])
        if len(points) != teams.boards:
            raise ValueError(f"match {index + 1}: {len(points)} boards given, {teams.boards} expected")
        matches.append(TeamMatchResult(match.first, match.second, points, index in forfeits))
    played = TeamRound(pairing.round, tuple(matches), dict(pairing.byes))
    return replace(teams, rounds=teams.rounds + (played,))


def team_values(teams: TeamTournament, cfg: TiebreakConfig = TiebreakConfig()) -> dict[int, dict[str, float]]:
    """MP, OMP, OMP/M1, SB (on match points), GP and B1..Bn for every team (PAIR-10)."""
    competitors = as_tournament(teams)
    tiebreaks = compute_tiebreaks(competitors, ("BH", "BH/M1", "SB"), cfg)
    out: dict[int, dict[str, float]] = {}
    for team in teams.teams:
        boards = [0.0] * teams.boards
        for rnd in teams.rounds:
            for match in rnd.matches:
                for board, (first, second) in enumerate(match.board_points):
                    if match.first == team.id:
                        boards[board] += first
                    elif match.second == team.id:
                        boards[board] += second
            code = rnd.byes.get(team.id)
            if code is not None and competitors.points.points(code) == competitors.points.win:
                boards = [points + teams.bye_board_points for points in boards]
        values = tiebreaks[team.id]
        row = {
            TB_MP: values["PTS"],
            TB_OMP: values["BH"],
            TB_OMP_M1: values["BH/M1"],
            TB_SB_MP: values["SB"],
            TB_GP: sum(boards),
        }
        row.update({f"B{board + 1}": points for board, points in enumerate(boards)})
        out[team.id] = row
    return out


def team_standings(
    teams: TeamTournament, order: Sequence[str] = ORDER_TEAM_SWISS, cfg: TiebreakConfig = TiebreakConfig()
) -> list[StandingRow]:
    """Match points first, then ``order`` (PAIR-10). A tie left over is settled by a playoff
    between the board-1 players (see :func:`board_one_players`)."""
    values = team_values(teams, cfg)
    keys = [TB_MP] + [key for key in order if key != TB_MP]
    return rank([team.id for team in teams.teams], values, keys, {team.id: team.name for team in teams.teams})


def board_one_players(teams: TeamTournament, team_ids: Sequence[int]) -> list[int]:
    by_id = {team.id: team for team in teams.teams}
    return [by_id[team_id].members[0] for team_id in team_ids]
