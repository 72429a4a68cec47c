"""Pure rules of the domain: pairing outcomes (PAIR-4/5, PLAY-6, PLAY-7, PLAY-PLAYOFF), table-driven,
and the live game rebuilt from its log (the clocks: test_clocks.py)."""

from __future__ import annotations

import gc

import pytest

from gameplay.domain.live import LiveGame, Rules
from gameplay.domain.outcome import FinishedGame, after_game
from gameplay.engine import IllegalAction
from gameplay.engine.coords import BOARD_SIZE, POINTS


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
    log: list[tuple[str, str | None, dict]] = [
        ("opening", "first", {"stones": ["h8", "h9", "j10"], "n": 2}),
        ("swap", "second", {"swap": True}),
        ("move", "first", {"point": "a1"}),
        ("offers", "second", {"points": ["j9", "l12"]}),
        ("choose", "first", {"point": "l12"}),
    ]
    for kind, role, data in log:
        g.apply(kind, role, data)
    again = LiveGame(Rules("professional"), "ann", "ben", log)
    assert again.moves == g.moves == ["h8", "h9", "j10", "a1", "l12"]
    assert (again.black, again.phase, again.player(again.expected_role)) == ("ben", "move6", "ann")
    with pytest.raises(IllegalAction) as err:
        again.apply("move", "second", {"point": "c3"})
    assert err.value.code == "not_your_turn"


def test_a_move_keeps_one_object_the_collector_tracks_the_engines_action():
    """ADR 0003: what a live game keeps of each move fills the collector's young generation, whose
    passes then hold every request in flight. A move keeps its action, with the board's own point
    (no tuple of its own) and no copy of the stored action log."""
    games = [LiveGame(Rules("free"), "ann", "ben") for _ in range(50)]
    points = ["h8", "a1", "i8", "a2", "j8", "a3"]  # no five
    steps = [("first" if i % 2 == 0 else "second", {"point": point}) for i, point in enumerate(points)]
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        before = len(gc.get_objects())
        for role, data in steps:
            for game in games:
                game.apply("move", role, data)
        kept = len(gc.get_objects()) - before
    finally:
        if enabled:
            gc.enable()
    moves = len(steps) * len(games)
    assert moves <= kept < 2 * moves, kept  # before: four a move (two point tuples, a log entry)
    last = games[0].game.history[-1].point
    assert last is not None and last is POINTS[last[0] * BOARD_SIZE + last[1]]
