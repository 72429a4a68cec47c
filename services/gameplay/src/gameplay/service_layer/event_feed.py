"""The per-event stream's feed: one reader of the stream events per process, shared by every
viewer of every event on this replica (no polling per viewer).

Events carry a stream-wide id from a database sequence. Two transactions may commit out of id
order, so an id seen before a smaller one is held back until the gap fills (or, a rolled back
insert, until it has stayed open for ``gap_grace_s``): up to ``horizon`` every event is known, and
a viewer's cursor (the id of the last event it got) resumes without gaps or duplicates on any
replica. The latest released events stay in memory; a viewer further behind reads its event's
events below the horizon from the database, page by page.

The reader runs while there are viewers and ``linger_s`` after the last one left, so a viewer
who reconnects (or a one-off read, ``live=False``) finds the buffer warm instead of the reader
starting over (re-reading its start window). It stops itself between two polls, never in the
middle of a read; ``close`` (the service stopping) ends it at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from .unit_of_work import Units

log = logging.getLogger(__name__)

#: how far below the latest id the feed starts: transactions still in flight when it starts
#: hold ids at most this far back (a group commit writes far fewer)
START_WINDOW = 2000
PAGE = 500


@dataclass(frozen=True)
class FeedConfig:
    poll_s: float = 0.1
    gap_grace_s: float = 2.0
    buffer_size: int = 5000
    #: a waiting viewer wakes this often to send a keep-alive (and notice a closed client)
    idle_s: float = 5.0
    #: the reader keeps reading this long after the last viewer left
    linger_s: float = 15.0


@dataclass(frozen=True)
class StreamView:
    """What one viewer follows: an event (optionally one section, one round), as a partner
    (``partner_id``: the games of its own players only) or as anyone else (None: every game)."""

    event_code: str
    partner_id: str | None = None
    section_id: str | None = None
    round: int | None = None

    def shows(self, row: dict[str, Any]) -> bool:
        if self.partner_id is not None and self.partner_id not in (row["partner_a"], row["partner_b"]):
            return False
        if self.section_id is not None and row["section_id"] != self.section_id:
            return False
        return self.round is None or row["round"] == self.round


class EventFeed:
    def __init__(self, units: Units, config: FeedConfig | None = None) -> None:
        self.units = units
        self.config = config or FeedConfig()
        #: every event with an id up to here is released (in ``buffer`` or older than ``floor``)
        self.horizon = 0
        #: ``buffer`` holds every event with an id in (floor, horizon]
        self.floor = 0
        self.buffer: deque[dict[str, Any]] = deque()
        #: events read but not released yet, with when they were read
        self._pending: dict[int, tuple[dict[str, Any], float]] = {}
        self._changed = asyncio.Condition()
        self._ready = asyncio.Event()
        self._viewers = 0
        #: when the last viewer left (monotonic seconds)
        self._left_at = 0.0
        self._task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ the shared reader

    async def _run(self) -> None:
        self._pending.clear()
        self.buffer.clear()
        async with self.units.reading() as uow:
            self.horizon = self.floor = max(0, await uow.event_log.latest_id() - START_WINDOW)
        while not self._unwatched():
            try:
                more = await self._poll()
            except Exception:  # the database away for a while: viewers wait, the feed reads on
                log.exception("event feed: reading the stream events failed")
                more = False
            if not more:
                self._ready.set()
                await asyncio.sleep(self.config.poll_s)

    def _unwatched(self) -> bool:
        """No viewer for ``linger_s``: the reader may stop."""
        return self._viewers == 0 and time.monotonic() - self._left_at >= self.config.linger_s

    async def _poll(self) -> bool:
        """Read what is new, release what is known; True when a full page came (read on)."""
        scanned = max([self.horizon, *self._pending])
        async with self.units.reading() as uow:
            rows = await uow.event_log.after(scanned, PAGE)
        now = time.monotonic()
        for row in rows:
            self._pending[row["id"]] = (row, now)
        released = self._release()
        if released:
            async with self._changed:
                self._changed.notify_all()
        return len(rows) == PAGE

    def _release(self) -> bool:
        released = False
        while self._pending:
            following = self._pending.pop(self.horizon + 1, None)
            if following is None:
                # a gap: a transaction not committed yet, or an insert rolled back; given up
                # once the event after it has waited out the grace (old gaps all at once)
                after_gap = min(self._pending)
                if time.monotonic() - self._pending[after_gap][1] < self.config.gap_grace_s:
                    break
                self.horizon = after_gap - 1
                continue
            self.buffer.append(following[0])
            self.horizon = following[0]["id"]
            released = True
        while len(self.buffer) > self.config.buffer_size:
            self.floor = self.buffer.popleft()["id"]
        return released

    async def _join(self) -> None:
        self._viewers += 1
        if self._task is None or self._task.done():
            self._ready.clear()
            self._task = asyncio.create_task(self._run(), name="gameplay-event-feed")
        await self._ready.wait()

    def _leave(self) -> None:
        self._viewers -= 1
        if self._viewers == 0:
            self._left_at = time.monotonic()

    async def close(self) -> None:
        """Stop the reader now (the service stops)."""
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    # ------------------------------------------------------------------ viewers

    async def follow(self, view: StreamView, since: int, *, live: bool = True) -> AsyncIterator[dict[str, Any] | None]:
        """The viewed events after ``since`` in id order, then the live ones (``live``) or the
        end; ``None`` when nothing was sent for ``idle_s`` (a keep-alive)."""
        await self._join()
        try:
            cursor = since
            last_sent = time.monotonic()
            while True:
                behind = cursor < self.floor
                if behind:  # older than the buffer: from the database, up to where it begins
                    async with self.units.reading() as uow:
                        rows = await uow.event_log.of_event(view.event_code, cursor, self.floor, PAGE)
                    cursor = rows[-1]["id"] if len(rows) == PAGE else self.floor
                else:
                    rows = self._released_after(cursor, view.event_code)
                    cursor = max(cursor, self.horizon)
                for row in rows:
                    if view.shows(row):
                        last_sent = time.monotonic()
                        yield row
                if behind:
                    continue
                if not live:
                    return
                # quiet for this viewer, though other games' events may come (a filtered view)
                if not await self._wait_past(cursor) or time.monotonic() - last_sent >= self.config.idle_s:
                    last_sent = time.monotonic()
                    yield None
        finally:
            self._leave()

    def _released_after(self, cursor: int, event_code: str) -> list[dict[str, Any]]:
        """The buffered events of ``event_code`` after ``cursor``, read from the newest end (a
        live viewer is near it)."""
        newer = []
        for row in reversed(self.buffer):
            if row["id"] <= cursor:
                break
            if row["event_code"] == event_code:
                newer.append(row)
        newer.reverse()
        return newer

    async def _wait_past(self, cursor: int) -> bool:
        """Until the horizon passes ``cursor``; False after ``idle_s`` without."""
        async with self._changed:
            try:
                await asyncio.wait_for(
                    self._changed.wait_for(lambda: self.horizon > cursor), timeout=self.config.idle_s
                )
            except TimeoutError:
                return False
        return True
