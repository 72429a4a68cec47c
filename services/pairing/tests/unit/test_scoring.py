"""PAIR-9 team match points and board colours, through the team tournament production replays.

PAIR-5 two-game round points are gameplay's (gameplay.engine.rounds, tested there): pairing
receives the round's outcome (tests/unit/test_lifecycle.py pairs on it)."""

import pytest

from pairing.domain.model import Board, RoundPairing
from pairing.domain.scoring import MatchPoints
from pairing.domain.teams import Team, TeamTournament, board_assignments, record_team_round, team_values

FIRST = Team(1, "A", (1001, 1002, 1003))
SECOND = Team(2, "B", (2001, 2002, 2003))


def _match_points(boards: list[tuple[float, float]], system: MatchPoints = MatchPoints()) -> tuple[float, float]:
    """(first-listed team, other team) match points of one match with these board game points."""
    tournament = TeamTournament(teams=(FIRST, SECOND), rounds_planned=1, match_points=system)
    tournament = record_team_round(tournament, RoundPairing(1, (Board(1, 2),), {}), {0: boards})
    values = team_values(tournament)
    return values[1]["MP"], values[2]["MP"]


@pytest.mark.parametrize(
    "boards,expected",
    [
        ([(2, 0), (2, 0), (0, 2)], (2, 0)),  # 4:2 game points
        ([(1, 1), (2, 0), (0, 2)], (1, 1)),  # 3:3
        ([(0, 2), (1, 1), (0, 2)], (0, 2)),  # 1:5
        ([(2, 0), (2, 0), (2, 0)], (2, 0)),  # 6:0
    ],
)
def test_pair9_match_points(boards, expected):
    assert _match_points(boards) == expected


def test_pair9_match_points_configurable():
    three_one_zero = MatchPoints(win=3, draw=1, loss=0)
    assert _match_points([(1, 1), (2, 0), (0, 2)], three_one_zero) == (1, 1)
    assert _match_points([(2, 0), (2, 0), (0, 2)], three_one_zero) == (3, 0)


def test_pair9_first_listed_team_moves_first_on_boards_1_and_3():
    assert board_assignments(FIRST, SECOND) == [(1, 1001, 2001), (2, 2002, 1002), (3, 1003, 2003)]
