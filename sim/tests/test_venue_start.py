"""EVT-7 at the venue: the simulation never sends an over-the-board game's recorder step or slip
before its round's scheduled start (gameplay refuses them with 409 not_started) — it moves the
clock to the start first, and a round still ahead waits while an earlier round is at the board."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from gomoku_sim.schedule import at_round_start

NOW = datetime(2023, 6, 21, 12, 0, tzinfo=UTC)
START = NOW + timedelta(hours=13)


class Clock:
    """The SimClock's surface: ``current`` (None until first set), ``now()`` and ``set()``."""

    def __init__(self, current: datetime | None) -> None:
        self.current = current
        self.sets: list[datetime] = []

    async def now(self) -> datetime:
        return NOW

    async def set(self, when: datetime) -> datetime:
        self.sets.append(when)
        self.current = when
        return when


@pytest.mark.parametrize(
    ("current", "starts", "earliest", "plays", "sets"),
    [
        (NOW, None, None, True, []),  # no scheduled start
        (START, START, START, True, []),  # the round has started
        (NOW, START, START, True, [START]),  # the clock moves to the start first
        (None, START, START, True, [START]),  # the clock not read yet: asked, never assumed past
        (None, START, NOW, False, []),  # an earlier round is still at the board
    ],
)
async def test_evt7_nt_the_venue_plays_a_game_only_from_its_rounds_start(current, starts, earliest, plays, sets):
    """EVT-7 (NT 十二(五)): at_round_start decides when the venue may step a game."""
    clock = Clock(current)
    game = {"game_id": "NT.final.mixed.r1.p1.g1", "starts_at": starts.isoformat() if starts else None}
    assert await at_round_start(clock, game, earliest) is plays
    assert clock.sets == sets
