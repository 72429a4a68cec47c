"""Pure rules of the service layer: server clocks (PLAY-5) and pairing outcomes (PAIR-4/5,
PLAY-6, PLAY-7, PLAY-PLAYOFF), table-driven."""

from __future__ import annotations

import pytest

from gameplay.domain.clocks import ClockState
from gameplay.domain.live import LiveGame, Rules
from gameplay.domain.outcome import FinishedGame, after_game
from gameplay.engine import IllegalAction


def test_play5_sudden_death_charges_only_the_running_side():
    c = ClockState(60_000, 60_000).start("first", 0)
    assert c.readings(10_000) == {"first": 50_000, "second": 60_000}
    c = c.complete("first", "second", 10_000)
    assert c.readings(25_000) == {"first": 50_000, "second": 45_000}
    assert c.flag_due_ms == 10_000 + 60_000
    assert c.flagged(70_000) == ["second"] and c.flagged(69_999) == []


def test_play5_fischer_increment_after_each_completed_action_and_same_side_twice():
    """The opening has steps where one side acts twice (white chooses move 5, then plays 6)."""
    c = ClockState(300_000, 300_000, increment_ms=30_000).start("second", 0)
    c = c.complete("second", "second", 5_000)
    assert c.readings(5_000)["second"] == 325_000 and c.running == "second"
    c = c.complete("second", "first", 7_000)
    assert c.readings(7_000) == {"first": 300_000, "second": 353_000}


def test_play5_stop_and_arbiter_time():
    c = ClockState(60_000, 60_000).start("first", 0).add("second", 30_000, 1_000)
    assert c.readings(1_000) == {"first": 59_000, "second": 90_000}
    c = c.stop(2_000)
    assert c.running is None and c.flag_due_ms is None and c.readings(99_000)["first"] == 58_000


@pytest.mark.parametrize(
    "g1,g2,points",
    [
        # PAIR-5: 2W or 1W+1D -> 2; 1W+1L or 2D -> 1; 2L or 1L+1D -> 0 (points of a, b)
        (("a", "five"), ("a", "five"), (2, 0)),
        (("a", "five"), (None, "draw_agreement"), (2, 0)),
        (("a", "five"), ("b", "five"), (1, 1)),
        ((None, "draw_passes"), (None, "draw_agreement"), (1, 1)),
        (("b", "resignation"), ("b", "five"), (0, 2)),
        (("b", "forbidden"), (None, "draw_full_board"), (0, 2)),
        (("a", "five"), ("b", "time_forfeit"), (1, 1)),  # a flag in game 2 is an ordinary loss
    ],
)
def test_pair5_two_game_round_points(g1, g2, points):
    nxt = after_game("two_game", [FinishedGame(*g1)])
    assert (nxt.game_no, nxt.first_mover) == (2, "b")
    out = after_game("two_game", [FinishedGame(*g1), FinishedGame(*g2)])
    assert (out.a_points, out.b_points) == points


@pytest.mark.parametrize(
    "g1,points",
    [
        (("a", "time_forfeit"), (2, 0)),  # PLAY-6: b's flag fell in game 1: b loses the round
        (("b", "time_forfeit"), (0, 2)),
        (("a", "no_show"), (2, 0)),  # decision: a no-show forfeits the round
    ],
)
def test_play6_play7_game_one_forfeits_end_the_round(g1, points):
    out = after_game("two_game", [FinishedGame(*g1)])
    assert out.game_no is None and (out.a_points, out.b_points) == points


def test_play7_double_forfeit_scores_nothing():
    out = after_game("single", [FinishedGame(None, "no_show", double_forfeit=True)])
    assert (out.a_points, out.b_points) == (0, 0)


@pytest.mark.parametrize(
    "winners,expected",
    [
        (["a", "a"], (None, (2, 0))),
        (["a", "b"], ((3, "a", "single"), None)),
        ([None, None], ((3, "a", "single"), None)),
        (["a", "b", None], ((4, "b", "single"), None)),
        (["a", "b", None, "b"], (None, (0, 2))),
        (["b"], ((2, "b", "pair"), None)),
    ],
)
def test_play_playoff_sequence(winners, expected):
    """PLAY-PLAYOFF: a pair of games (each moves first once), then single games until one is won."""
    out = after_game("playoff", [FinishedGame(w, "five" if w else "draw_agreement") for w in winners])
    following, points = expected
    if following:
        assert (out.game_no, out.first_mover, out.stage) == following
    else:
        assert (out.a_points, out.b_points) == points


def test_live_game_rebuilds_identically_from_its_log():
    """Any replica rebuilds the same state from the stored action log (PLAY-2 steps included)."""
    g = LiveGame(Rules("professional"), "ann", "ben")
    for kind, role, data in [
        ("opening", "first", {"stones": ["h8", "h9", "j10"], "n": 2}),
        ("swap", "second", {"swap": True}),
        ("move", "first", {"point": "a1"}),
        ("offers", "second", {"points": ["j9", "l12"]}),
        ("choose", "first", {"point": "l12"}),
    ]:
        g.apply(kind, role, data)
    again = LiveGame(Rules("professional"), "ann", "ben", list(g.log))
    assert again.moves == g.moves == ["h8", "h9", "j10", "a1", "l12"]
    assert (again.black, again.phase, again.player(again.expected_role)) == ("ben", "move6", "ann")
    with pytest.raises(IllegalAction) as err:
        again.apply("move", "second", {"point": "c3"})
    assert err.value.code == "not_your_turn"
