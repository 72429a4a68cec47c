"""PLAY-6 two-game rounds, PAIR-5 round points, PLAY-PLAYOFF playoffs and their clock
configuration (the clocks themselves: services/gameplay/tests/unit/test_clocks.py)."""

from __future__ import annotations

import pytest

from gameplay.engine import (
    ClockConfig,
    PairGame,
    Playoff,
    PlayoffConfig,
    two_game_round_points,
)
from gameplay.engine.rounds import RoundPointsTable

PLAYOFF = PlayoffConfig(pair_clock=ClockConfig(5 * 60, 3), single_clock=ClockConfig(3 * 60, 2))


def test_play5_bad_configuration_refused():
    """A clock configuration needs positive time and a non-negative increment."""
    for args in [(0,), (-5,), (60, -1), (float("inf"),)]:
        with pytest.raises(ValueError):
            ClockConfig(*args)


# -- PAIR-5 / PLAY-6 --------------------------------------------------------------------------

W_A, W_B, DRAW = PairGame("a"), PairGame("b"), PairGame(None)
ROUND_TABLE = [
    # (case, game 1, game 2, points a, points b)
    ("2W", W_A, W_A, 2, 0),
    ("1W+1D", W_A, DRAW, 2, 0),
    ("1D+1W", DRAW, W_B, 0, 2),
    ("1W+1L", W_A, W_B, 1, 1),
    ("2D", DRAW, DRAW, 1, 1),
    ("2L", W_B, W_B, 0, 2),
    ("1L+1D", W_B, DRAW, 0, 2),
    ("time forfeit in game 2 is one loss", W_A, PairGame("b", "time_forfeit"), 1, 1),
]


@pytest.mark.parametrize("case,g1,g2,a,b", ROUND_TABLE, ids=[c[0] for c in ROUND_TABLE])
def test_pair5_two_game_round_points(case, g1, g2, a, b):
    """PAIR-5: 2W or 1W+1D -> 2; 1W+1L or 2D -> 1; 2L or 1L+1D -> 0."""
    result = two_game_round_points(g1, g2)
    assert (result.a, result.b) == (a, b)
    assert result.forfeited_by is None


@pytest.mark.parametrize("flagged,winner", [("a", "b"), ("b", "a")])
def test_play6_time_forfeit_in_game_1_loses_the_round(flagged, winner):
    """PLAY-6: a player whose flag falls in game 1 loses the whole round (both games), even if
    game 2 was played and won by that player."""
    g1 = PairGame(winner, "time_forfeit")
    for g2 in (None, PairGame(flagged), DRAW):
        result = two_game_round_points(g1, g2)
        assert getattr(result, flagged) == 0 and getattr(result, winner) == 2
        assert result.forfeited_by == flagged
        assert all(g.winner == winner for g in result.games)


def test_pair5_round_needs_game_2_without_forfeit():
    """PAIR-5: both games count unless game 1 was lost on time."""
    with pytest.raises(ValueError):
        two_game_round_points(W_A, None)
    with pytest.raises(ValueError):
        PairGame(None, "time_forfeit")


def test_pair5_round_points_are_configuration():
    """PAIR-5: the round-point values come from configuration."""
    result = two_game_round_points(W_A, DRAW, RoundPointsTable(win=3, draw=1, loss=0))
    assert (result.a, result.b) == (3, 0)


# -- PLAY-PLAYOFF -----------------------------------------------------------------------------


def test_playoff_pair_decides():
    """PLAY-PLAYOFF: two games at 5 min + 3 s, each player moving first once."""
    playoff = Playoff(PLAYOFF)
    g1 = playoff.next_game()
    assert (g1.number, g1.stage, g1.first_mover, g1.clock) == (1, "pair", "a", ClockConfig(300, 3))
    g2 = playoff.record("a")
    assert (g2.number, g2.stage, g2.first_mover) == (2, "pair", "b")
    assert playoff.record(None) is None
    assert playoff.winner == "a"


@pytest.mark.parametrize("pair", [("a", "b"), (None, None), ("b", "a")])
def test_playoff_level_pair_goes_to_sudden_death_singles(pair):
    """PLAY-PLAYOFF: a level pair (1W+1L or two draws) is followed by single games at
    3 min + 2 s until one is won; drawn singles do not decide."""
    playoff = Playoff(PLAYOFF)
    for w in pair:
        playoff.record(w)
    assert playoff.winner is None
    g3 = playoff.next_game()
    assert (g3.number, g3.stage, g3.clock) == (3, "single", ClockConfig(180, 2))
    g4 = playoff.record(None)
    assert (g4.number, g4.stage) == (4, "single") and g4.first_mover != g3.first_mover
    assert playoff.record("b") is None
    assert playoff.winner == "b"
    with pytest.raises(ValueError):
        playoff.record("a")


def test_play4_game_both_flags_via_apply_flags():
    """PLAY-4: both flags down -> draw."""
    from gameplay.engine import Game, Reason, RuleSet, reference

    game = Game(RuleSet.free(), reference)
    assert game.apply_flags(["black", "white"]).reason is Reason.DRAW_BOTH_FLAGS
