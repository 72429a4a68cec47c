"""The per-event stream's shared feed (service_layer.event_feed): ids committed out of order are
held back until the gap fills, and a viewer behind the in-memory buffer reads the rest from the
database, so a cursor resumes without gaps or repeats (PLAY-8 live broadcast)."""

from __future__ import annotations

from gameplay_kit import pairing, round_paired

from gameplay.service_layer.event_feed import EventFeed, FeedConfig


def _row(event_id: int, code: str = "EV") -> dict:
    return {"id": event_id, "event_code": code, "partner_a": "pa", "partner_b": None}


def test_an_event_after_a_gap_waits_for_the_gap_to_fill():
    feed = EventFeed(units=None, config=FeedConfig(gap_grace_s=3600))  # type: ignore[arg-type]
    feed._pending = {1: _row(1), 3: _row(3)}
    feed._release()
    assert feed.horizon == 1 and [row["id"] for row in feed.buffer] == [1]
    feed._pending[2] = _row(2)  # the slower transaction commits
    feed._release()
    assert feed.horizon == 3 and [row["id"] for row in feed.buffer] == [1, 2, 3]


def test_a_gap_that_stays_open_past_the_grace_is_skipped():
    """An insert rolled back leaves its id unused for ever."""
    feed = EventFeed(units=None, config=FeedConfig(gap_grace_s=0))  # type: ignore[arg-type]
    feed._pending = {2: _row(2), 4: _row(4)}
    feed._release()
    assert feed.horizon == 4 and [row["id"] for row in feed.buffer] == [2, 4]


def test_the_buffer_keeps_the_newest_and_raises_its_floor():
    feed = EventFeed(units=None, config=FeedConfig(buffer_size=2))  # type: ignore[arg-type]
    feed._pending = {n: _row(n) for n in range(1, 6)}
    feed._release()
    assert (feed.floor, feed.horizon, [row["id"] for row in feed.buffer]) == (3, 5, [4, 5])


async def test_a_viewer_behind_the_buffer_reads_the_database_then_the_buffer(gp):
    await gp.publish(round_paired(pairing("p1", "alice", "bob"), pairing("p2", "carol", "dave")))
    await gp.settle()
    for gid, players in (("EV.main.S1.r1.p1.g1", ("alice", "bob")), ("EV.main.S1.r1.p2.g1", ("carol", "dave"))):
        await gp.api.join_both(gid, *players)
    games = gp.service.extras["games"]
    everything = [row["id"] async for row in games.feed.follow("EV", 0, None, live=False)]
    assert len(everything) >= 6 and everything == sorted(set(everything))
    small = EventFeed(games.units, FeedConfig(buffer_size=2))
    got = [row["id"] async for row in small.follow("EV", 0, None, live=False)]
    assert small.floor > 0 and got == everything
    resumed = [row["id"] async for row in small.follow("EV", everything[1], None, live=False)]
    assert resumed == everything[2:]
    # partners: the kit's pairings have pa's first and pb's second players
    assert [row["id"] async for row in small.follow("EV", 0, "pa", live=False)] == everything
    assert [row["id"] async for row in small.follow("EV", 0, "nobody", live=False)] == []
    assert [row["id"] async for row in small.follow("OTHER", 0, None, live=False)] == []
