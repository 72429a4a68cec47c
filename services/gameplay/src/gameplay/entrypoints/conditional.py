"""Conditional reads of game lists (HTTP ETag / If-None-Match), as pairing's section reads.

Every change of a game (a move, a join, a result, a time added, an arbiter's correction) is
stored under the game's version check and adds one to ``games.version``; a game list shows
nothing but its games' rows. So the (game_id, version) pairs of the games a page holds name
what it answers: its ETag is a digest of them, of the request's filters and page and of the
release. A client that sends the ETag back in ``If-None-Match`` gets ``304 Not Modified`` after
one narrow read of those pairs, without the rows being loaded or the boards built (the web
pages' cache, docs/adr/0010-portal-page-cache.md). A game added to or leaving the list changes
the pairs too.

The ETag of a full answer is made of the versions of the rows it shows, so an answer is never
tagged newer than what it shows.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from importlib import metadata
from typing import TYPE_CHECKING, Any

from fastapi import Request, Response

if TYPE_CHECKING:
    from ..service_layer.games import GameService

#: a round's games as its reads tag them: (game_id, version, a clock of the game runs)
RoundVersions = Sequence[tuple[str, int, bool]]


def _release() -> str:
    try:
        return metadata.version("gomoku-gameplay")
    except metadata.PackageNotFoundError:
        return "0"


#: a new release may answer in another shape: its ETags differ from the old release's
RELEASE = _release()


def etag(variant: str, request: Iterable[Any], versions: Iterable[tuple[str, int]]) -> str:
    """The ETag of a list answer: ``variant`` (which read), the request's filters and page, and
    the (game_id, version) of its games."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(repr((variant, tuple(request))).encode())
    for game_id, version in versions:
        digest.update(f"\0{game_id}\0{version}".encode())
    return f'"{RELEASE}.{variant}.{digest.hexdigest()}"'


def offered(request: Request) -> set[str] | None:
    """The ETags of the request's ``If-None-Match`` (None: an unconditional read)."""
    wanted = request.headers.get("if-none-match")
    if not wanted:
        return None
    return {part.strip().removeprefix("W/") for part in wanted.split(",")}


def not_modified(tags: set[str] | None, current: str) -> Response | None:
    """304 when the client holds the current answer, else None (the read answers in full)."""
    if tags is not None and current in tags:
        return Response(status_code=304, headers={"etag": current})
    return None


def round_etag(variant: str, asked: Sequence[Any], listed: RoundVersions, now: int | None = None) -> str:
    """The ETag of a read of one round's games (``asked`` starts with event, section, round):
    their (game_id, version); with ``now`` (the boards read, which shows the clocks as of now)
    a round whose clock runs is also tagged with the time of the answer."""
    shown = [(game_id, version) for game_id, version, _ in listed]
    if now is not None and any(ticking for _, _, ticking in listed):
        shown.append(("now", now))
    return etag(variant, asked, shown)


async def round_unchanged(
    request: Request, games: GameService, variant: str, asked: Sequence[Any], *, full_while_ticking: bool = False
) -> Response | None:
    """304 when the client holds the current answer of a read of one round's games (one narrow
    read of their versions), else None. ``full_while_ticking``: a round with a running clock is
    always answered in full (its boards change with time alone)."""
    tags = offered(request)
    if tags is None:
        return None
    event_code, section_id, round_no = asked[:3]
    listed = await games.views.round_versions(event_code, section_id, round_no)
    if full_while_ticking and any(ticking for _, _, ticking in listed):
        return None
    return not_modified(tags, round_etag(variant, asked, listed))
