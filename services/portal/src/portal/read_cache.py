"""The pages' read cache (docs/adr/0010-portal-page-cache.md): answers the services have not
changed are not computed again, and a page whose answers have not changed is not drawn again.

Two layers, both exact (no time-to-live: every page view asks the services):

1. **Conditional upstream reads.** An answer that came with an ``ETag`` is kept (its bytes); the
   next read of the same path sends ``If-None-Match`` and a ``304 Not Modified`` is served from
   the kept bytes. The pairing service tags its section reads with the section's change counter,
   so an unchanged section costs it one indexed read instead of loading the section and computing
   standings and the cross table.
2. **Pages drawn once per input.** Every answer a request reads is recorded by a digest of its
   bytes (:func:`note`). A public page (:data:`MEMO_TEMPLATES`) or printout is kept under its
   template, language, URL and those digests; the same inputs give the same page, so it is served
   without rendering. A changed answer (a corrected result) has another digest: a new page.

A live game's page, its board and its tile are kept the same way: the game's view comes from its
feed (fetched once per change for every viewer), noted by a digest made once per fetch
(:func:`note_digest`), so each is drawn once per state of the game, not once per viewer and event
(issue 33: 1,000 spectators each loading the board after every move). The wall is not kept (its
boards' clocks are read as of each request). The players' titles are kept once per round
(``held_titles.live_titles``): a redraw after a move reads none.
"""

from __future__ import annotations

import contextvars
import hashlib
import json
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

#: the public templates whose page is a function of the request's reads, its URL and language
MEMO_TEMPLATES = frozenset(
    {
        "event.html",
        "section.html",
        "standings.html",
        "crosstable.html",
        "player.html",
        "team.html",
        "awards.html",
        "replay.html",
        # live pages: a followed game's view comes from its feed, noted by its digest (note_digest)
        "game.html",
        "board.html",
        "tile.html",
    }
)
#: answers kept for conditional reads, and pages kept, per portal process (least recently used go)
MAX_ANSWERS = 4096
MAX_PAGES = 1024

#: the digests of what the current request read; None: a read that cannot be keyed (a staff call)
_inputs: contextvars.ContextVar[list[str | None] | None] = contextvars.ContextVar("portal_inputs", default=None)


@dataclass(frozen=True)
class Kept:
    etag: str
    status: int
    headers: dict[str, str]
    content: bytes


class Lru:
    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[Any, Any] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def get(self, key: Any) -> Any:
        value = self.items.get(key)
        if value is None:
            self.misses += 1
            return None
        self.hits += 1
        self.items.move_to_end(key)
        return value

    def put(self, key: Any, value: Any) -> None:
        self.items[key] = value
        self.items.move_to_end(key)
        while len(self.items) > self.size:
            self.items.popitem(last=False)


def note(service: str, path: str, content: bytes) -> None:
    """Record an answer the current request read (by its bytes' digest)."""
    note_digest(answer_digest(service, path, content))


def answer_digest(service: str, path: str, content: bytes) -> str:
    """The digest by which an answer is an input of a page: its bytes, where it was read."""
    digest = hashlib.blake2b(content, digest_size=16)
    digest.update(f"\0{service}\0{path}".encode())
    return digest.hexdigest()


def note_digest(digest: str) -> None:
    """Record an input of the current request by a digest made once for every request that reads
    it (a followed game's view, kept by its feed)."""
    reads = _inputs.get()
    if reads is not None:
        reads.append(digest)


def digest_of(*values: Any) -> str:
    """A digest of JSON-like values (a game's view and its players' names)."""
    text = json.dumps(values, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def note_unkeyed() -> None:
    """The current request read something a kept page must not be keyed on (a person's own call)."""
    reads = _inputs.get()
    if reads is not None:
        reads.append(None)


def request_key(*parts: str) -> tuple[str, ...] | None:
    """The key of what the current request would draw: its parts and every read so far; None
    when a read cannot be keyed or the request is not tracked."""
    reads = _inputs.get()
    if reads is None or None in reads:
        return None
    return (*parts, *sorted(r for r in reads if r is not None))


class Pages:
    """Pages and printouts kept by :func:`request_key`."""

    def __init__(self, size: int = MAX_PAGES) -> None:
        self.kept = Lru(size)

    def drawn(self, key: tuple[str, ...] | None, draw: Callable[[], Any]) -> Any:
        if key is None:
            return draw()
        page = self.kept.get(key)
        if page is None:
            page = draw()
            self.kept.put(key, page)
        return page

    def stats(self) -> dict[str, int]:
        return {"pages_kept": len(self.kept.items), "page_hits": self.kept.hits, "page_misses": self.kept.misses}


class TrackReads:
    """ASGI middleware: each HTTP request gets its own record of reads (tasks it starts with
    ``asyncio.gather`` share it)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        token = _inputs.set([])
        try:
            await self.app(scope, receive, send)
        finally:
            _inputs.reset(token)
