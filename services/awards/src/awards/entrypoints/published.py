"""What every results route shares: the path and query parameters, the repository of one
request, the stored publication a route reads (with the 404 that says why there is none), its
metadata, and lists as CSV."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterable, Sequence
from typing import Annotated, Any

from fastapi import Depends, Path, Query, Request
from fastapi.responses import Response

from gomoku_shared.csv_text import csv_text
from gomoku_shared.errors import NotFound
from gomoku_shared.pagination import PageRequest, page

from ..service_layer.queries import AwardsReads, Publication, reads_of
from . import schemas as s

EventCode = Annotated[str, Path(min_length=1, max_length=100, description="event code, e.g. da-2023")]
SectionId = Annotated[str, Path(min_length=1, max_length=100, description="section id, e.g. open")]
RevisionQ = Annotated[int | None, Query(ge=1, le=10_000, description="a given publication (default: current)")]
CSV: dict[int | str, Any] = {200: {"content": {"text/csv": {"schema": {"type": "string"}}}, "description": "UTF-8 CSV"}}


async def _repo(request: Request) -> AsyncIterator[AwardsReads]:
    async for reads in reads_of(request.app.state.runtime):
        yield reads


Repo = Annotated[AwardsReads, Depends(_repo)]


async def known_event(repo: AwardsReads, event_code: str) -> Any:
    row = await repo.event(event_code)
    if row is None:
        raise NotFound("event_not_found", f"no results for event {event_code!r}", {"event_code": event_code})
    return row


async def publication(repo: AwardsReads, event_code: str, section_id: str, revision: int | None) -> Publication:
    await known_event(repo, event_code)
    pub = (
        await repo.publication(event_code, section_id, revision)
        if revision is not None
        else await repo.current_publication(event_code, section_id)
    )
    if pub is not None:
        return pub
    details = {"event_code": event_code, "section_id": section_id}
    if revision is not None and await repo.current_publication(event_code, section_id) is not None:
        raise NotFound(
            "publication_not_found",
            f"section {section_id!r} has no publication {revision}",
            {**details, "revision": revision},
        )
    if await repo.current_result(event_code, section_id) is not None:
        raise NotFound(
            "not_published", f"results of {section_id!r} are in; awards wait for the event configuration", details
        )
    raise NotFound("section_not_found", f"no published results for section {section_id!r} of {event_code!r}", details)


async def _requested_publication(
    event_code: EventCode, section_id: SectionId, repo: Repo, revision: RevisionQ = None
) -> Publication:
    return await publication(repo, event_code, section_id, revision)


#: the publication a section route reads: the current one, or ``?revision=N``
Published = Annotated[Publication, Depends(_requested_publication)]


def meta(pub: Publication) -> s.PublicationMeta:
    return s.PublicationMeta(
        event_code=pub.event_code,
        section_id=pub.section_id,
        stage=pub.stage,
        kind=pub.kind,
        revision=pub.revision,
        supersedes=pub.supersedes,
        superseded=pub.superseded,
        superseded_by=pub.superseded_by,
        source_revision=pub.source_revision,
        published_at=pub.published_at,
    )


def history(event_code: str, pubs: Sequence[Publication], request: PageRequest) -> s.PublicationHistory:
    """A page of publications in (section, revision) order."""
    listed, next_cursor = page(pubs, lambda p: (p.section_id, p.revision), request.limit, request.cursor)
    entries = [s.PublicationEntry(publication=meta(p), payload=p.payload) for p in listed]
    return s.PublicationHistory(event_code=event_code, publications=entries, next_cursor=next_cursor)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return "; ".join(_cell(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    return str(value)


def csv_response(columns: Sequence[str], rows: Iterable[dict[str, Any]], filename: str) -> Response:
    return Response(
        csv_text(columns, ([_cell(row.get(c)) for c in columns] for row in rows)),
        media_type="text/csv; charset=utf-8",
        headers={"content-disposition": f'attachment; filename="{filename}"'},
    )


def fields(model: type[s._Out]) -> list[str]:
    return list(model.model_fields)
