"""PLAY-5 clocks (sudden death, Fischer), PLAY-6 two-game rounds, PLAY-PLAYOFF playoffs.

Time is driven by hand (``ref_time``); the clock numbers come from the seed presets in
RULES.md PLAY-5 and are passed in as configuration."""

from __future__ import annotations

import pytest

from gameplay.engine import (
    ClockConfig,
    ClockError,
    ClockSnapshot,
    GameClock,
    PairGame,
    Playoff,
    PlayoffConfig,
    two_game_round_points,
)
from gameplay.engine.rounds import RoundPointsTable

SZ_FREE = ClockConfig(15 * 60)  # 15 min sudden death
SZ_PRO_ADULT = ClockConfig(30 * 60, 15)  # 30 min + 15 s
PLAYOFF = PlayoffConfig(pair_clock=ClockConfig(5 * 60, 3), single_clock=ClockConfig(3 * 60, 2))


def test_play5_sudden_death_runs_only_the_side_to_move(ref_time):
    """PLAY-5: sudden death -- only the running side's time goes down, nothing is added."""
    clock = GameClock(SZ_FREE, ref_time)
    clock.start("black")
    ref_time.advance(40)
    assert clock.remaining("black") == 900 - 40 and clock.remaining("white") == 900
    assert clock.press("black") == "white"
    ref_time.advance(100)
    assert clock.readings() == {"black": 860, "white": 800}
    assert clock.config.kind == "sudden_death"


def test_play5_fischer_increment_after_each_move(ref_time):
    """PLAY-5: Fischer -- each completed move adds the increment (每走一步加N秒)."""
    clock = GameClock(SZ_PRO_ADULT, ref_time)
    clock.start("black")
    ref_time.advance(10)
    clock.press("black")
    assert clock.remaining("black") == 1800 - 10 + 15
    ref_time.advance(2)
    clock.press("white")
    assert clock.remaining("white") == 1800 - 2 + 15
    assert clock.config.kind == "fischer"


def test_play5_flag_falls_for_the_running_side(ref_time):
    """PLAY-5: the server sees the flag fall; the late move is refused; that side loses."""
    clock = GameClock(ClockConfig(60), ref_time)
    clock.start("black")
    ref_time.advance(59.5)
    assert not clock.flag_status().any
    ref_time.advance(0.5)
    status = clock.flag_status()
    assert status.flagged == ("black",) and status.loser == "black" and not status.both
    assert clock.remaining("black") == 0
    with pytest.raises(ClockError) as info:
        clock.press("black")
    assert info.value.code == "flagged"


def test_play4_both_flags_is_a_draw(ref_time):
    """PLAY-4: when both flags are down the verdict is a draw (here: restored after an outage
    with both readings exhausted)."""
    clock = GameClock(ClockConfig(60), ref_time)
    clock.start("black")
    ref_time.advance(30)
    clock.press("black")
    snap = clock.snapshot()
    assert snap.remaining == {"black": 30, "white": 60} and snap.running == "white"
    restored = GameClock.restore(
        ClockConfig(60), ref_time, ClockSnapshot({"black": 0.0, "white": -1.0}, None, None, snap.moves)
    )
    status = restored.flag_status()
    assert status.both and status.loser is None and set(status.flagged) == {"black", "white"}


def test_play5_pause_resume_and_arbiter_time(ref_time):
    """PLAY-5: pause stops the running clock; an arbiter may add (or deduct) time."""
    clock = GameClock(ClockConfig(300, 3), ref_time, sides=("first", "second"))
    clock.start("first")
    ref_time.advance(20)
    clock.pause()
    ref_time.advance(500)
    assert clock.remaining("first") == 280 and clock.is_paused and clock.running is None
    clock.resume()
    ref_time.advance(5)
    assert clock.remaining("first") == 275
    assert clock.add_time("second", 60) == 360
    assert clock.add_time("first", -10) == 265
    with pytest.raises(ClockError):
        clock.add_time("first", 0)


@pytest.mark.parametrize(
    "action,code",
    [
        (lambda c: c.press("white"), "not_running"),
        (lambda c: c.start("white"), "already_started"),
        (lambda c: c.remaining("red"), "bad_side"),
        (lambda c: c.resume(), "not_paused"),
    ],
)
def test_play5_clock_misuse_refused(ref_time, action, code):
    """PLAY-5: only the running side presses; the clock starts once."""
    clock = GameClock(SZ_FREE, ref_time)
    clock.start("black")
    with pytest.raises(ClockError) as info:
        action(clock)
    assert info.value.code == code


def test_play5_stop_freezes_readings(ref_time):
    """PLAY-5/PLAY-8: at the end of the game the readings are frozen for the record."""
    clock = GameClock(SZ_FREE, ref_time)
    clock.start("black")
    ref_time.advance(12)
    assert clock.stop() == {"black": 888, "white": 900}
    ref_time.advance(100)
    assert clock.readings() == {"black": 888, "white": 900}


def test_play5_bad_configuration_refused():
    """PLAY-5: a clock needs positive time and a non-negative increment."""
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


@pytest.mark.parametrize(
    "elapsed,reason,winner_player",
    [
        (100, None, None),
        (301, "time_forfeit", "second"),
    ],
)
def test_play5_flag_ends_the_game_for_the_server(ref_time, elapsed, reason, winner_player):
    """PLAY-5: the server applies the clock's verdict to the game (sides are the players)."""
    from gameplay.engine import OpeningProtocol, RuleSet, reference

    proto = OpeningProtocol(rules=RuleSet.professional(), core=reference)
    clock = GameClock(ClockConfig(300, 3), ref_time, sides=("first", "second"))
    clock.start("first")
    ref_time.advance(elapsed)
    result = proto.apply_flags(clock.flag_status().flagged)
    assert (result and result.reason.value) == reason
    assert proto.winner_player() == winner_player


def test_play4_game_both_flags_via_apply_flags():
    """PLAY-4: both flags down -> draw."""
    from gameplay.engine import Game, Reason, RuleSet, reference

    game = Game(RuleSet.free(), reference)
    assert game.apply_flags(["black", "white"]).reason is Reason.DRAW_BOTH_FLAGS
