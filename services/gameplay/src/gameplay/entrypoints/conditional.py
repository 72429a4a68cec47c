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
from collections.abc import Iterable
from importlib import metadata
from typing import Any

from fastapi import Request, Response


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
