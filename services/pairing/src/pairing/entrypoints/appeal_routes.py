"""Appeals over HTTP (AWD-10): staff record a unit's written appeal with the fee received and the
arbitration committee's decision; appeals are listed per event and per section (staff)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request

from gomoku_shared.api_docs import documented
from gomoku_shared.errors import NotFound
from gomoku_shared.pagination import PageIn, PageRequest, paged, sort_by
from gomoku_shared.params import PathId

from ..service_layer import appeals
from ..service_layer.commands import DecideAppeal, LodgeAppeal
from .api import SEC, AppealDeciding, AppealLodging, StaffReader, _load, _read
from .appeal_views import Appeal, AppealBody, AppealDecisionBody, AppealList

#: the order of an appeal list (its pages)
APPEAL_ORDER = sort_by("section_id", "lodged_at", "appeal_id")

router = APIRouter(tags=["appeals"])
SectionQ = Annotated[str | None, Query(min_length=1, max_length=64, description="only this section's appeals")]


async def _appeal_list(request: Request, event_code: str, section_id: str | None, page: PageRequest) -> dict:
    """One page of an event's appeals (of one section's where `section_id` is given)."""
    rows = await _read(request, lambda stored: stored.appeals(event_code, section_id))
    listed = {"event_code": event_code, "section_id": section_id, "appeals": [appeals.view(row) for row in rows]}
    return paged(listed, "appeals", APPEAL_ORDER, page)


@router.get("/v1/events/{event_code}/appeals", summary="Appeals of an event (staff; AWD-10)", **documented(AppealList))
async def list_event_appeals(
    event_code: PathId, request: Request, _principal: StaffReader, page: PageIn, section_id: SectionQ = None
) -> dict:
    return await _appeal_list(request, event_code, section_id, page)


@router.get(SEC + "/appeals", summary="Appeals of a section (staff; AWD-10)", **documented(AppealList))
async def list_section_appeals(
    event_code: PathId, section_id: PathId, request: Request, _principal: StaffReader, page: PageIn
) -> dict:
    await _load(request, event_code, section_id)
    return await _appeal_list(request, event_code, section_id, page)


@router.get(SEC + "/appeals/{appeal_id}", summary="One appeal and its decision (staff)", **documented(Appeal))
async def show_appeal(
    event_code: PathId, section_id: PathId, appeal_id: PathId, request: Request, _principal: StaffReader
) -> dict:
    row = await _read(request, lambda stored: stored.appeal(event_code, section_id, appeal_id))
    if row is None:
        raise NotFound("appeal_not_found", f"no appeal {appeal_id!r} in {section_id!r} of {event_code!r}")
    return appeals.view(row)


@router.post(
    SEC + "/appeals",
    summary="Record a unit's written appeal with the fee received (AWD-10, NY 十(四))",
    **documented(Appeal),
)
async def post_appeal(event_code: PathId, section_id: PathId, body: AppealBody, call: AppealLodging) -> dict:
    form = appeals.AppealForm(**body.model_dump())

    return await call.run(LodgeAppeal(event_code, section_id, form, call.principal), body)


@router.post(
    SEC + "/appeals/{appeal_id}/decision",
    summary="The arbitration committee's decision: upheld (fee refunded, result corrected) or rejected",
    **documented(Appeal),
)
async def post_appeal_decision(
    event_code: PathId, section_id: PathId, appeal_id: PathId, body: AppealDecisionBody, call: AppealDeciding
) -> dict:
    decision = appeals.Decision(
        upheld=body.upheld, reasons=body.reasons, result=body.result, expected_revision=body.expected_revision
    )
    return await call.run(DecideAppeal(event_code, section_id, appeal_id, decision, call.principal), body)
