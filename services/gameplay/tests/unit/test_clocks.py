"""PLAY-5 server clocks (``domain.clocks.ClockState``, what every game stores): sudden death,
Fischer increments, flag falls, stopping at the end, the arbiter's time corrections; PLAY-4
both flags down. Time is integer epoch milliseconds from the service clock; the numbers are
the seed presets' (SZ 2022: 15 min sudden death, 30 min + 15 s)."""

from __future__ import annotations

from gameplay.domain.clocks import ClockState
from gameplay.domain.live import LiveGame, Rules
from gameplay.engine import OpeningProtocol, RuleSet, reference


def test_play5_sudden_death_charges_only_the_running_side():
    clock = ClockState(60_000, 60_000).start("first", 0)
    assert clock.readings(10_000) == {"first": 50_000, "second": 60_000}
    clock = clock.complete("first", "second", 10_000)
    assert clock.readings(25_000) == {"first": 50_000, "second": 45_000}
    assert clock.flag_due_ms == 10_000 + 60_000
    assert clock.flagged(70_000) == ["second"] and clock.flagged(69_999) == []


def test_play5_sudden_death_adds_nothing():
    """SZ 2022 free rules: 15 minutes for the game, nothing added per move."""
    clock = ClockState(900_000, 900_000).start("first", 0)
    assert clock.remaining("first", 40_000) == 860_000 and clock.remaining("second", 40_000) == 900_000
    clock = clock.complete("first", "second", 40_000)
    assert clock.running == "second"
    assert clock.readings(140_000) == {"first": 860_000, "second": 800_000}


def test_play5_fischer_increment_after_each_completed_move():
    """SZ 2022 professional adults: 30 minutes + 15 seconds per completed move (每走一步加N秒)."""
    clock = ClockState(1_800_000, 1_800_000, increment_ms=15_000).start("first", 0)
    clock = clock.complete("first", "second", 10_000)
    assert clock.remaining("first", 10_000) == 1_800_000 - 10_000 + 15_000
    clock = clock.complete("second", "first", 12_000)
    assert clock.remaining("second", 12_000) == 1_800_000 - 2_000 + 15_000


def test_play5_fischer_increment_when_the_same_side_acts_twice():
    """The opening has steps where one side acts twice (white chooses move 5, then plays 6)."""
    clock = ClockState(300_000, 300_000, increment_ms=30_000).start("second", 0)
    clock = clock.complete("second", "second", 5_000)
    assert clock.readings(5_000)["second"] == 325_000 and clock.running == "second"
    clock = clock.complete("second", "first", 7_000)
    assert clock.readings(7_000) == {"first": 300_000, "second": 353_000}


def test_play5_the_flag_falls_for_the_running_side_only():
    clock = ClockState(60_000, 60_000).start("first", 0)
    assert clock.flagged(59_500) == []
    assert clock.flagged(60_000) == ["first"]
    assert clock.readings(61_000) == {"first": 0, "second": 60_000}  # never shown below zero
    assert clock.remaining("first", 61_000) == -1_000  # but known to be down


def test_play4_both_flags_down_is_a_draw():
    """PLAY-4: both readings exhausted (e.g. an arbiter's deduction on a stopped clock)."""
    clock = ClockState(0, -1_000)
    assert clock.flagged(5_000) == ["first", "second"]
    live = LiveGame(Rules(), "p1", "p2")
    live.apply("both_flags", "first", {})
    assert live.is_over and live.winner_role() is None and live.result is not None
    assert live.result.reason.value == "draw_both_flags"


def test_play5_stop_freezes_the_readings_and_the_arbiter_adds_time():
    clock = ClockState(60_000, 60_000).start("first", 0).add("second", 30_000, 1_000)
    assert clock.readings(1_000) == {"first": 59_000, "second": 90_000}
    clock = clock.add("first", -10_000, 1_000)
    assert clock.readings(1_000)["first"] == 49_000
    clock = clock.stop(2_000)
    assert clock.running is None and clock.flag_due_ms is None
    assert clock.readings(99_000) == {"first": 48_000, "second": 90_000}


def test_play5_a_fallen_flag_ends_the_game_for_the_server():
    """The server applies the clock's verdict to the engine (sides are the players)."""
    for elapsed, reason, winner in [(100_000, None, None), (301_000, "time_forfeit", "second")]:
        proto = OpeningProtocol(rules=RuleSet.professional(), core=reference)
        clock = ClockState(300_000, 300_000, increment_ms=3_000).start("first", 0)
        result = proto.apply_flags(clock.flagged(elapsed))
        assert (result and result.reason.value) == reason
        assert proto.winner_player() == winner
