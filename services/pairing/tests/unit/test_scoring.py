"""PAIR-5 two-game rounds, PAIR-9 team match points and board colours."""

import pytest

from pairing.domain.model import Board, Outcome
from pairing.domain.scoring import (
    MatchPoints,
    TwoGamePoints,
    match_points,
    two_game_movers,
    two_game_round_outcome,
    two_game_round_points,
)
from pairing.domain.teams import Team, board_assignments


@pytest.mark.parametrize(
    "g1,g2,points",
    [
        ("W", "W", 2),
        ("W", "D", 2),
        ("D", "W", 2),
        ("W", "L", 1),
        ("L", "W", 1),
        ("D", "D", 1),
        ("L", "L", 0),
        ("L", "D", 0),
        ("D", "L", 0),
    ],
)
def test_pair5_two_game_round_points_table(g1, g2, points):
    assert two_game_round_points(g1, g2) == points


@pytest.mark.parametrize(
    "g1,g2,outcome",
    [
        ("W", "D", Outcome.FIRST_WINS),
        ("W", "L", Outcome.DRAW),
        ("D", "D", Outcome.DRAW),
        ("L", "D", Outcome.SECOND_WINS),
        ("L", "L", Outcome.SECOND_WINS),
    ],
)
def test_pair5_round_outcome_used_for_pairing(g1, g2, outcome):
    assert two_game_round_outcome(g1, g2) is outcome


def test_pair5_first_coloured_player_moves_first_in_game_one_then_swap():
    g1, g2 = two_game_movers(Board(7, 3))
    assert g1 == (7, 3) and g2 == (3, 7)


def test_pair5_table_is_configuration():
    lenient = TwoGamePoints({4: 3, 3: 2, 2: 1, 1: 1, 0: 0})
    assert two_game_round_points("L", "D", lenient) == 1
    with pytest.raises(ValueError):
        two_game_round_points("X", "W")


@pytest.mark.parametrize("a,b,expected", [(4, 2, (2, 0)), (3, 3, (1, 1)), (1, 5, (0, 2)), (6, 0, (2, 0))])
def test_pair9_match_points(a, b, expected):
    assert match_points(a, b) == expected


def test_pair9_match_points_configurable():
    assert match_points(3, 3, MatchPoints(win=3, draw=1, loss=0)) == (1, 1)
    assert match_points(4, 2, MatchPoints(win=3, draw=1, loss=0)) == (3, 0)


def test_pair9_first_listed_team_moves_first_on_boards_1_and_3():
    a = Team(1, "A", (11, 12, 13))
    b = Team(2, "B", (21, 22, 23))
    assert board_assignments(a, b) == [(1, 11, 21), (2, 22, 12), (3, 13, 23)]
