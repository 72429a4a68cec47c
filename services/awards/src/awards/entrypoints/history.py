"""The publication history of an event and of a section: every awards.published, current and
superseded, a page at a time (cursor pagination in section, revision order)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from gomoku_shared.pagination import PageIn, PageRequest, page

from ..adapters.repository import Publication
from . import schemas as s
from .results import EventCode, Repo, SectionId, _event, _meta, _publication

router = APIRouter(prefix="/v1/events", tags=["results"])


@router.get(
    "/{event_code}/publications",
    response_model=s.PublicationHistory,
    summary="Publication history: every awards.published, current and superseded",
)
async def publication_history(
    event_code: EventCode, repo: Repo, page: PageIn, section_id: Annotated[str | None, Query(max_length=100)] = None
) -> s.PublicationHistory:
    await _event(repo, event_code)
    return _history(event_code, await repo.publications(event_code, section_id), page)


def _history(event_code: str, pubs: list[Publication], request: PageRequest) -> s.PublicationHistory:
    """A page of publications in (section, revision) order."""
    listed, next_cursor = page(pubs, lambda p: (p.section_id, p.revision), request.limit, request.cursor)
    entries = [s.PublicationEntry(publication=_meta(p), payload=p.payload) for p in listed]
    return s.PublicationHistory(event_code=event_code, publications=entries, next_cursor=next_cursor)


@router.get(
    "/{event_code}/sections/{section_id}/publications",
    response_model=s.PublicationHistory,
    summary="Publication history of one section (current + superseded)",
)
async def section_history(
    event_code: EventCode, section_id: SectionId, repo: Repo, page: PageIn
) -> s.PublicationHistory:
    await _publication(repo, event_code, section_id, None)
    return _history(event_code, await repo.publications(event_code, section_id), page)
