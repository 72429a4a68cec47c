"""Spectator fan-out: one upstream subscription per game per portal process, shared by all of
the process's viewers of that game (issue 15, spectator scale) — and where the page knows the
game's round, one subscription per round: gameplay's round stream carries every game of it.

A ``GameFeed`` reads the gameplay service's event stream of one game once, keeps every event it
has seen (a game has a few hundred), and hands each event, encoded once, to the queue of every
viewer. A viewer who connects late or reconnects with ``Last-Event-ID`` gets the stored events
after its sequence number from memory, then the live ones. Gameplay sees one stream per game
whatever the number of viewers; the board a viewer's page fetches after an event comes from the
feed's view (``GameFeed.view``): read from gameplay once, then brought up to date by the stream's
events themselves (``followed_view``: a move carries what it changes), and read again only after
an event it cannot apply (the game's start or end, an opening step, a gap in sequence numbers).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any

from gomoku_shared.clock import Clock, SystemClock

from . import clocks_now, read_cache
from .followed_view import applied

log = logging.getLogger("portal.fanout")

#: opens the upstream stream of a game from a sequence number: an async context of byte chunks
StreamOpener = Callable[[str, int], AbstractAsyncContextManager[AsyncIterator[bytes]]]
#: a round: event code, section id, round number
RoundKey = tuple[str, str, int]
#: opens the upstream stream of a round from a stream-wide id: an async context of JSON texts
RoundOpener = Callable[[RoundKey, int], AbstractAsyncContextManager[AsyncIterator[str]]]
ViewFetcher = Callable[[str], Awaitable[dict[str, Any]]]

#: how many unsent events a viewer may fall behind before its stream is ended (it reconnects
#: with Last-Event-ID and catches up from memory; a stuck client must not hold memory forever)
VIEWER_BACKLOG = 512
#: seconds before an upstream that failed is opened again
RETRY_S = 0.5


@dataclass(frozen=True)
class Frame:
    """One Server-Sent Event, kept as the bytes every viewer is sent."""

    kind: str
    seq: int | None
    wire: bytes
    data: dict[str, Any]


class SseParser:
    """Server-Sent Events from a byte stream (the format of the WHATWG spec: fields per line,
    an event ends at a blank line)."""

    def __init__(self) -> None:
        self._buffer = b""

    def feed(self, chunk: bytes) -> list[tuple[str, str | None, str]]:
        """(event, id, data) of every complete event in the bytes so far."""
        self._buffer += chunk.replace(b"\r\n", b"\n")
        events = []
        while b"\n\n" in self._buffer:
            block, self._buffer = self._buffer.split(b"\n\n", 1)
            kind, event_id, data = "message", None, []
            for line in block.decode("utf-8", "replace").split("\n"):
                if not line or line.startswith(":"):
                    continue
                field, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if field == "event":
                    kind = value
                elif field == "id":
                    event_id = value
                elif field == "data":
                    data.append(value)
            if data:
                events.append((kind, event_id, "\n".join(data)))
        return events


def encode(kind: str, seq: int | None, data: str) -> bytes:
    head = f"id: {seq}\n" if seq is not None else ""
    return f"{head}event: {kind}\ndata: {data}\n\n".encode()


class GameFeed:
    def __init__(
        self, game_id: str, opener: StreamOpener, fetch_view: ViewFetcher, hub: FeedHub, round: RoundKey | None = None
    ) -> None:
        self.game_id = game_id
        #: fed by its round's stream (no stream of its own) when set
        self.round = round
        self._open = opener
        self._fetch_view = fetch_view
        self._hub = hub
        self.frames: list[Frame] = []  # every stored event, in sequence order
        self.viewers: set[asyncio.Queue[Frame | None]] = set()
        self.finished = False
        #: the game's view as of the last stored event (None: to be read from gameplay)
        self._view: dict[str, Any] | None = None
        self.view_digest = ""
        self._digested: dict[str, Any] | None = None  # the view ``view_digest`` is of
        self._view_lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._linger: asyncio.TimerHandle | None = None

    @property
    def last_seq(self) -> int:
        return (self.frames[-1].seq or 0) if self.frames else 0

    def start(self) -> None:
        if self.round is not None:
            self._hub.round_feed(self.round).start()
        elif self._task is None:
            self._task = asyncio.create_task(self._follow(), name=f"feed {self.game_id}")

    @property
    def following(self) -> bool:
        if self.round is not None:
            rf = self._hub.rounds.get(self.round)
            return rf is not None and rf.running
        return self._task is not None and not self._task.done()

    async def _follow(self) -> None:
        """Read the upstream stream until the game ends; reopen it after an error from the last
        sequence number stored (gameplay's streams resume exactly there)."""
        while not self.finished:
            try:
                self._hub.upstream_opened += 1
                async with self._open(self.game_id, self.last_seq) as chunks:
                    parser = SseParser()
                    async for chunk in chunks:
                        for kind, event_id, data in parser.feed(chunk):
                            self._take(kind, event_id, data)
                        if self.finished:
                            break
                if not self.finished:
                    await asyncio.sleep(RETRY_S)  # the stream ended early (a restart upstream)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the service is away for a moment: viewers wait, not fail
                log.warning("feed %s: upstream stream failed (%s); retrying", self.game_id, type(exc).__name__)
                await asyncio.sleep(RETRY_S)
        self._broadcast(None)

    def _take(self, kind: str, event_id: str | None, data: str) -> None:
        seq = int(event_id) if event_id and event_id.isascii() and event_id.isdigit() else None
        if seq is not None and seq <= self.last_seq:
            return  # already stored (a reopened stream repeats nothing, but be sure)
        try:
            message = json.loads(data)
        except ValueError:
            return
        frame = Frame(kind, seq, encode(kind, seq, data), message if isinstance(message, dict) else {})
        if seq is not None:
            self.frames.append(frame)
            self._bring_view(frame)
        self._broadcast(frame)
        if kind == "finished":
            self.finished = True
            if self.round is not None:
                self._broadcast(None)  # the round goes on; this game's viewers are done

    def _broadcast(self, frame: Frame | None) -> None:
        for queue in list(self.viewers):
            try:
                queue.put_nowait(frame)
            except asyncio.QueueFull:
                # too far behind: end that viewer's stream (it resumes from its last id)
                self.viewers.discard(queue)
                with contextlib.suppress(asyncio.QueueEmpty):
                    queue.get_nowait()
                queue.put_nowait(None)

    def after(self, since: int) -> list[Frame]:
        return [f for f in self.frames if (f.seq or 0) > since]

    def clock_now(self) -> bytes | None:
        """A ``clock`` event of the game's clocks as of now (``clocks_now``), from the view held or
        the round's kept boards, whichever shows the last event stored; None if neither can."""
        kept = self._hub.rounds.get(self.round) if self.round is not None else None
        board = clocks_now.board_in(kept.boards[0] if kept and kept.boards else None, self.game_id)
        return clocks_now.clock_event(self.game_id, (self._view, board), self.last_seq, self._hub.now_ms())

    def join(self) -> asyncio.Queue[Frame | None]:
        queue: asyncio.Queue[Frame | None] = asyncio.Queue(VIEWER_BACKLOG)
        self.viewers.add(queue)
        if self._linger is not None:
            self._linger.cancel()
            self._linger = None
        self.start()
        return queue

    def leave(self, queue: asyncio.Queue[Frame | None]) -> None:
        self.viewers.discard(queue)
        self.linger()

    def linger(self) -> None:
        """Without viewers, the feed is dropped after the hub's linger time unless one joins."""
        if not self.viewers and self._linger is None:
            self._linger = asyncio.get_running_loop().call_later(self._hub.linger_s, self._hub.drop, self.game_id)

    def _bring_view(self, frame: Frame) -> None:
        """The held view after a stored event: applied to it, or dropped (read again when asked)."""
        if self._view is None or (frame.seq or 0) <= int(self._view.get("seq") or 0):
            return  # nothing held, or a view read after this event already shows it
        self._view = applied(self._view, frame.data)
        if self._view is not None:
            self._hub.views_applied += 1

    @property
    def held(self) -> dict[str, Any] | None:
        """The view held, as of the event it says (``seq``), without reading one."""
        return self._view

    def hold(self, read: dict[str, Any]) -> None:
        """A view read from gameplay elsewhere (a page loaded before the game's stream was open):
        held unless the feed holds a view as new."""
        if self._view is None or int(read.get("seq") or 0) > int(self._view.get("seq") or 0):
            self._view = self._caught_up(read)

    def _caught_up(self, read: dict[str, Any]) -> dict[str, Any] | None:
        """A view just read with the events stored meanwhile applied; None if one cannot be."""
        view: dict[str, Any] | None = read
        for frame in self.after(int(read.get("seq") or 0)):
            if view is None:
                break
            view = applied(view, frame.data)
        return view

    async def view(self) -> dict[str, Any]:
        """The game view: read from gameplay when none is held (or the game is not followed),
        otherwise the held one, which the stream's events keep up to date; whatever the viewers."""
        async with self._view_lock:
            view = self._view
            if view is None or not self.following:
                read = await self._fetch_view(self.game_id)
                self._hub.views_read += 1
                # held only if it shows every stored event: otherwise the next load reads again
                self._view = self._caught_up(read)
                view = read if self._view is None else self._view
            if self._digested is not view:
                #: made once per state of the game: the pages drawn from it are keyed on it
                self.view_digest = read_cache.digest_of("view", view)
                self._digested = view
            return view

    async def close(self) -> None:
        if self._linger is not None:
            self._linger.cancel()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        self._broadcast(None)


class RoundFeed:
    """One upstream stream for every game of a round: each message goes to its game's feed
    (created on the way, so a game's history is there before its first viewer comes)."""

    def __init__(self, key: RoundKey, opener: RoundOpener, hub: FeedHub) -> None:
        self.key = key
        self._open = opener
        self._hub = hub
        self.last_id = 0
        #: the round's boards as last read for its wall, and their digest (``wall_boards``)
        self.boards: tuple[dict[str, Any], str] | None = None
        #: when they were read (``time.monotonic``): kept at most ``wall_boards.MAX_AGE_S``
        self.boards_read_at = 0.0
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._follow(), name=f"round feed {self.key}")

    async def _follow(self) -> None:
        while True:
            try:
                self._hub.upstream_opened += 1
                async with self._open(self.key, self.last_id) as texts:
                    async for text in texts:
                        self._take(text)
                await asyncio.sleep(RETRY_S)  # the stream ended (a restart upstream): resume
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("round feed %s: upstream stream failed (%s); retrying", self.key, type(exc).__name__)
                await asyncio.sleep(RETRY_S)

    def _take(self, text: str) -> None:
        try:
            message = json.loads(text)
        except ValueError:
            return
        if not isinstance(message, dict) or not message.get("game_id"):
            return
        self.last_id = max(self.last_id, int(message.get("id") or 0))
        seq = message.get("seq")
        feed = self._hub.feed(str(message["game_id"]), self.key)
        feed._take(str(message.get("kind") or "message"), None if seq is None else str(seq), text)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task


class FeedHub:
    """The feeds of one portal process, by game id (and the round streams feeding them)."""

    def __init__(
        self,
        opener: StreamOpener,
        fetch_view: ViewFetcher,
        linger_s: float = 30.0,
        round_opener: RoundOpener | None = None,
        clock: Clock | None = None,
    ) -> None:
        self._open = opener
        self._open_round = round_opener
        self._fetch_view = fetch_view
        self.linger_s = linger_s
        #: the time the clocks sent first on a stream are read at (gameplay's clock in one process)
        self.clock = clock or SystemClock()
        self.feeds: dict[str, GameFeed] = {}
        self.rounds: dict[RoundKey, RoundFeed] = {}
        #: upstream streams opened since start (a test and the bench read it)
        self.upstream_opened = 0
        #: followed games' views read from gameplay, and brought up to date by an event instead
        self.views_read = 0
        self.views_applied = 0
        #: loads of a round's wall answered from its kept boards and the feeds (``wall_boards``)
        self.walls_assembled = 0
        #: set when the process is told to stop: every viewer's stream ends (see ``end_streams``)
        self.ending = False

    def feed(self, game_id: str, round: RoundKey | None = None) -> GameFeed:
        """A game's feed; given its round (and a round opener), fed by the round's stream."""
        by_round = round if self._open_round is not None else None
        feed = self.feeds.get(game_id)
        if feed is None:
            feed = self.feeds[game_id] = GameFeed(game_id, self._open, self._fetch_view, self, by_round)
        elif feed.round is None and by_round is not None and feed._task is None:
            feed.round = by_round  # not started yet: the round's stream will feed it
        return feed

    def expect(self, game_id: str, round: RoundKey, view: dict[str, Any]) -> None:
        """A game's page was loaded before any stream of its round was open here (``view``: the
        view it read): its round is followed from now on, with that view as its feed's first, so
        that the next pages of its games are drawn from their feeds instead of reading gameplay
        once per viewer; dropped after the linger time if no viewer comes."""
        if self._open_round is None:
            return  # one stream per game: opened by its first viewer
        feed = self.feed(game_id, round)
        feed.hold(view)
        feed.start()
        feed.linger()

    def now_ms(self) -> int:
        return int(self.clock.now().timestamp() * 1000)

    def round_feed(self, key: RoundKey) -> RoundFeed:
        assert self._open_round is not None
        rf = self.rounds.get(key)
        if rf is None:
            rf = self.rounds[key] = RoundFeed(key, self._open_round, self)
        return rf

    def drop(self, game_id: str) -> None:
        feed = self.feeds.get(game_id)
        if feed is None or feed.viewers:
            return
        if feed.round is None:
            del self.feeds[game_id]
            asyncio.ensure_future(feed.close())
            return
        # a round's games go together: the round stream stops when none of them has a viewer
        mates = [f for f in self.feeds.values() if f.round == feed.round]
        if any(f.viewers for f in mates):
            return
        for mate in mates:
            del self.feeds[mate.game_id]
        rf = self.rounds.pop(feed.round, None)
        if rf is not None:
            asyncio.ensure_future(rf.close())

    def stats(self) -> dict[str, int]:
        return {
            "games": len(self.feeds),
            "following": sum(1 for f in self.feeds.values() if f.following),
            "rounds": sum(1 for r in self.rounds.values() if r.running),
            "viewers": sum(len(f.viewers) for f in self.feeds.values()),
            "upstream_opened": self.upstream_opened,
            "views_read": self.views_read,
            "views_applied": self.views_applied,
            "walls_assembled": self.walls_assembled,
        }

    def end_streams(self) -> None:
        """End every viewer's stream now (the process was told to stop): the server then stops
        at once instead of waiting out its grace period for streams that never end and cancelling
        them, one logged error each. A browser's EventSource reconnects, to another replica, from
        its last event id; a board wall's stream ends without its "done" (the games go on)."""
        self.ending = True
        for feed in self.feeds.values():
            feed._broadcast(None)

    async def aclose(self) -> None:
        for rf in list(self.rounds.values()):
            await rf.close()
        self.rounds.clear()
        for feed in list(self.feeds.values()):
            await feed.close()
        self.feeds.clear()

    async def watch(self, game_id: str, since: int, round: RoundKey | None = None) -> AsyncIterator[bytes]:
        """One viewer's stream of one game: its clocks as of now, stored events after ``since``,
        then the live ones; ends after ``finished``."""
        feed = self.feed(game_id, round)
        queue = feed.join()
        try:
            if (clocks := feed.clock_now()) is not None:
                yield clocks  # the page shows them as of the view it was drawn from
            # events stored before joining are sent from memory; the queue holds only later ones
            sent = since
            for frame in feed.after(since):
                sent = frame.seq or sent
                yield frame.wire
                if frame.kind == "finished":
                    return
            if feed.finished:
                return
            while (live := await queue.get()) is not None:
                if live.seq is not None:
                    if live.seq <= sent:
                        continue
                    sent = live.seq
                yield live.wire
                if live.kind == "finished":
                    return
        finally:
            feed.leave(queue)

    async def watch_many(self, game_ids: list[str], round: RoundKey | None = None) -> AsyncIterator[bytes]:
        """One viewer's stream of several games (a round's board wall): first each game's last
        sequence number (``event: state``; the page refreshes a board it drew from older data) and
        their clocks as of now, then every live event of any of them (clock events as they come)."""
        merged: asyncio.Queue[Frame | None] = asyncio.Queue(VIEWER_BACKLOG)
        joined: list[tuple[GameFeed, asyncio.Queue[Frame | None]]] = []
        pumps: list[asyncio.Task[None]] = []

        async def pump(queue: asyncio.Queue[Frame | None]) -> None:
            while (frame := await queue.get()) is not None:
                await merged.put(frame)
            await merged.put(None)  # this game's stream ended

        try:
            for game_id in game_ids:
                feed = self.feed(game_id, round)
                queue = feed.join()
                joined.append((feed, queue))
                pumps.append(asyncio.create_task(pump(queue)))
            # a feed just started has stored nothing yet and says 0: its stored events then come
            # as live ones, which the page compares with the sequence number it drew
            state = {feed.game_id: feed.last_seq for feed, _ in joined}
            yield encode("state", None, json.dumps(state))
            for feed, _ in joined:
                if (clocks := feed.clock_now()) is not None:
                    yield clocks
            running = sum(1 for feed, _ in joined if not feed.finished)
            while running:
                frame = await merged.get()
                if frame is None and self.ending:
                    return  # the process stops: the page reconnects, not "done"
                if frame is None:
                    running -= 1
                else:
                    yield frame.wire
            yield encode("done", None, "{}")  # every game is over: the page stops listening
        finally:
            for task in pumps:
                task.cancel()
            for feed, queue in joined:
                feed.leave(queue)
