"""Team competitions of 3-board teams (PAIR-9, PAIR-10): pairing, board colours, scoring.

A team match is scored from game points per board; match points (次分) follow PAIR-9. Team
Swiss pairs teams with the same Dutch port as individuals, the teams' match points being the
score and the first-listed team holding the "first" colour; team round robin uses Berger.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

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
    for b, (x, y) in enumerate(zip(first.members, second.members), 1):
        out.append((b, x, y) if b % 2 == 1 else (b, y, x))
    return out


def as_tournament(tt: TeamTournament) -> Tournament:
    """Teams as competitors scored by match points, for the Swiss engine and tiebreaks."""
    mp = tt.match_points
    history: dict[int, list[RoundEntry]] = {t.id: [] for t in tt.teams}
    for rnd in tt.rounds:
        seen = set()
        for m in rnd.matches:
            a = sum(x for x, _ in m.board_points)
            b = sum(y for _, y in m.board_points)
            ca, cb = code_for_match(a, b), code_for_match(b, a)
            if m.forfeit:
                ca = Code.FORFEIT_WIN if ca is Code.WIN else Code.FORFEIT_LOSS
                cb = Code.FORFEIT_WIN if cb is Code.WIN else Code.FORFEIT_LOSS
            history[m.first].append(RoundEntry(rnd.round, m.second, Colour.FIRST, ca))
            history[m.second].append(RoundEntry(rnd.round, m.first, Colour.SECOND, cb))
            seen |= {m.first, m.second}
        for tid in history:
            if tid not in seen:
                history[tid].append(RoundEntry(rnd.round, None, None, rnd.byes.get(tid, Code.ABSENT)))
    players = tuple(Player(id=t.id, name=t.name, unit=t.unit) for t in tt.teams)
    return Tournament(
        players=players,
        rounds_planned=tt.rounds_planned,
        history={k: tuple(v) for k, v in history.items()},
        points=PointSystem(win=mp.win, draw=mp.draw, loss=mp.loss),
        top_seed_colour=tt.top_seed_colour,
    )


def pair_team_swiss_round(tt: TeamTournament, engine: SwissEngine | None = None, **kw) -> RoundPairing:
    """Next round of a team Swiss: boards are matches (first = first-listed team)."""
    return pair_swiss_round(as_tournament(tt), engine=engine, **kw)


def pair_team_round_robin(tt: TeamTournament, round_: int) -> RoundPairing:
    """Round ``round_`` of a team round robin (Berger, teams in their listed order)."""
    return pair_round_robin([t.id for t in tt.teams], round_)


def record_team_round(
    tt: TeamTournament,
    pairing: RoundPairing,
    board_points: Mapping[int, Sequence[tuple[float, float]]],
    forfeits: Sequence[int] = (),
) -> TeamTournament:
    """Append a round; ``board_points[i]`` are the (first team, second team) points of match i."""
    if pairing.round != len(tt.rounds) + 1:
        raise ValueError(f"round {pairing.round} recorded but round {len(tt.rounds) + 1} is next")
    matches = []
    for i, b in enumerate(pairing.boards):
        pts = tuple(tuple(x) for x in board_points[i])
        if len(pts) != tt.boards:
            raise ValueError(f"match {i + 1}: {len(pts)} boards given, {tt.boards} expected")
        matches.append(TeamMatchResult(b.first, b.second, pts, i in forfeits))
    return replace(tt, rounds=tt.rounds + (TeamRound(pairing.round, tuple(matches), dict(pairing.byes)),))


def team_values(tt: TeamTournament, cfg: TiebreakConfig = TiebreakConfig()) -> dict[int, dict[str, float]]:
    """MP, OMP, OMP/M1, SB (on match points), GP and B1..Bn for every team (PAIR-10)."""
    t = as_tournament(tt)
    tb = compute_tiebreaks(t, ("BH", "BH/M1", "SB"), cfg)
    out: dict[int, dict[str, float]] = {}
    for team in tt.teams:
        boards = [0.0] * tt.boards
        for rnd in tt.rounds:
            for m in rnd.matches:
                for k, (x, y) in enumerate(m.board_points):
                    if m.first == team.id:
                        boards[k] += x
                    elif m.second == team.id:
                        boards[k] += y
            code = rnd.byes.get(team.id)
            if code is not None and t.points.points(code) == t.points.win:
                boards = [b + tt.bye_board_points for b in boards]
        row = {
            TB_MP: tb[team.id]["PTS"],
            TB_OMP: tb[team.id]["BH"],
            TB_OMP_M1: tb[team.id]["BH/M1"],
            TB_SB_MP: tb[team.id]["SB"],
            TB_GP: sum(boards),
        }
        row.update({f"B{k + 1}": v for k, v in enumerate(boards)})
        out[team.id] = row
    return out


def team_standings(
    tt: TeamTournament, order: Sequence[str] = ORDER_TEAM_SWISS, cfg: TiebreakConfig = TiebreakConfig()
) -> list[StandingRow]:
    """Match points first, then ``order`` (PAIR-10). A tie left over is settled by a playoff
    between the board-1 players (see :func:`board_one_players`)."""
    values = team_values(tt, cfg)
    keys = [TB_MP] + [k for k in order if k != TB_MP]
    return rank([t.id for t in tt.teams], values, keys, {t.id: t.name for t in tt.teams})


def board_one_players(tt: TeamTournament, team_ids: Sequence[int]) -> list[int]:
    by_id = {t.id: t for t in tt.teams}
    return [by_id[i].members[0] for i in team_ids]
