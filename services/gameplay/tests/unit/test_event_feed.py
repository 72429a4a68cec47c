"""The per-event stream's shared feed (service_layer.event_feed): ids committed out of order are
held back until the gap fills, and a viewer behind the in-memory buffer reads the rest from the
database, so a cursor resumes without gaps or repeats (PLAY-8 live broadcast)."""

from __future__ import annotations

import asyncio
import time

from gameplay_kit import pairing, round_paired

from gameplay.service_layer.event_feed import EventFeed, FeedConfig, StreamView


def _row(event_id: int, code: str = "EV") -> tuple[dict, float]:
    """A pending event as the feed holds it: the row and when it was read."""
    return {"id": event_id, "event_code": code, "partner_a": "pa", "partner_b": None}, time.monotonic()


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
    feed = EventFeed(units=None, config=FeedConfig(gap_grace_s=60))  # type: ignore[arg-type]
    a_minute_ago = time.monotonic() - 61
    feed._pending = {2: (_row(2)[0], a_minute_ago), 4: (_row(4)[0], a_minute_ago), 6: _row(6)}
    feed._release()
    # both old gaps given up at once; the one before an event just read still held
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
    everything = [row["id"] async for row in games.feed.follow(StreamView("EV"), 0, live=False)]
    assert len(everything) >= 6 and everything == sorted(set(everything))
    small = EventFeed(games.units, FeedConfig(buffer_size=2))
    got = [row["id"] async for row in small.follow(StreamView("EV"), 0, live=False)]
    assert small.floor > 0 and got == everything
    resumed = [row["id"] async for row in small.follow(StreamView("EV"), everything[1], live=False)]
    assert resumed == everything[2:]
    # partners: the kit's pairings have pa's first and pb's second players
    assert [row["id"] async for row in small.follow(StreamView("EV", "pa"), 0, live=False)] == everything
    assert [row["id"] async for row in small.follow(StreamView("EV", "nobody"), 0, live=False)] == []
    assert [row["id"] async for row in small.follow(StreamView("OTHER"), 0, live=False)] == []
    await small.close()


async def test_the_reader_outlives_its_last_viewer_by_the_linger_then_stops_itself(gp):
    """A viewer who comes back within ``linger_s`` finds the same reader and its buffer (no
    restart, no window read again); past the linger the reader ends between two polls, and a
    later viewer starts a new one that shows the same events."""
    await gp.publish(round_paired(pairing("p1", "alice", "bob")))
    await gp.settle()
    await gp.api.join_both("EV.main.S1.r1.p1.g1", "alice", "bob")
    games = gp.service.extras["games"]
    lingering = EventFeed(games.units, FeedConfig(linger_s=3600))
    everything = [row["id"] async for row in lingering.follow(StreamView("EV"), 0, live=False)]
    reader = lingering._task
    resumed = [row["id"] async for row in lingering.follow(StreamView("EV"), everything[0], live=False)]
    assert lingering._task is reader and reader is not None and not reader.done()
    assert resumed == everything[1:]
    await lingering.close()
    assert reader.done()

    brief = EventFeed(games.units, FeedConfig(linger_s=0, poll_s=0.01))
    assert [row["id"] async for row in brief.follow(StreamView("EV"), 0, live=False)] == everything
    first = brief._task
    assert first is not None
    await asyncio.wait_for(first, timeout=30)  # ends by itself: no viewer, no linger
    assert [row["id"] async for row in brief.follow(StreamView("EV"), 0, live=False)] == everything
    assert brief._task is not first
    await brief.close()
