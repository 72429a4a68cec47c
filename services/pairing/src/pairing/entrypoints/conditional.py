"""Conditional reads of a section (HTTP ETag / If-None-Match).

Every transaction that locks a section to change it adds one to the section's version
(``tournaments.version``, see ``SectionRepository._touched``), so the version names what the
section's public reads answer. A read sends it as its ETag; a client that sends the ETag back
in ``If-None-Match`` gets ``304 Not Modified`` after one indexed read of that number, without
the section being loaded or its standings computed (the web pages' cache,
docs/adr/0010-portal-page-cache.md).

The ETag is taken from the loaded section's own row (read before the rest of it), so an answer
is never newer-tagged than what it shows: a change committed while the answer was read makes
the next conditional read a full one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from importlib import metadata
from typing import Any

from fastapi import Request, Response

from ..domain.aggregate import Section
from ..service_layer.reads import Reads

Reader = Callable[[Request, Callable[[Reads], Awaitable[Any]]], Awaitable[Any]]


def _release() -> str:
    try:
        return metadata.version("gomoku-pairing")
    except metadata.PackageNotFoundError:
        return "0"


#: a new release may answer in another shape: its ETags differ from the old release's
RELEASE = _release()


def etag(version: int, variant: str) -> str:
    return f'"{RELEASE}.{variant}.{version}"'


def tag(response: Response, state: Section, variant: str) -> None:
    """Put the section's ETag on the answer about to be sent."""
    response.headers["etag"] = etag(int(state.row.get("version") or 0), variant)


async def not_modified(
    request: Request, read: Reader, event_code: str, section_id: str, variant: str
) -> Response | None:
    """304 when the client's ``If-None-Match`` names the section's current version, else None
    (the read goes on and answers in full, 404 included)."""
    wanted = request.headers.get("if-none-match")
    if not wanted:
        return None
    version = await read(request, lambda stored: stored.version(event_code, section_id))
    if version is None:
        return None
    current = etag(version, variant)
    offered = {part.strip().removeprefix("W/") for part in wanted.split(",")}
    if current in offered:
        return Response(status_code=304, headers={"etag": current})
    return None
