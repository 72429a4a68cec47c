"""Staff-only writes of the awards service: publish (or republish) a section's awards (audited)."""

from __future__ import annotations

from datetime import datetime

from fastapi import APIRouter, Request
from pydantic import BaseModel

from gomoku_shared.auth import Staff
from gomoku_shared.pagination import PageIn, page

from ..service_layer import publishing
from .published import EventCode, SectionId

router = APIRouter(prefix="/v1/events", tags=["publishing"])


class Publish(BaseModel):
    event_code: str
    section_id: str
    #: True when a new revision was published; False when the current one already says the same
    published: bool
    #: the current revision after the request
    revision: int | None


class StaffAction(BaseModel):
    at: datetime
    action: str
    #: the person's role and key id (never the key)
    actor: str
    revision: int | None
    published: bool


class StaffActions(BaseModel):
    #: oldest first (the order they were taken)
    actions: list[StaffAction]
    #: the cursor of the next page (``limit`` given); null on the last
    next_cursor: str | None = None


@router.post(
    "/{event_code}/sections/{section_id}/publish",
    response_model=Publish,
    summary="Publish or republish a section's awards from its final standings (staff; audited; AWD-8)",
)
async def publish(event_code: EventCode, section_id: SectionId, request: Request, principal: Staff) -> Publish:
    actor = f"{principal.role}:{principal.key_id or principal.partner_id or '?'}"
    async with request.app.state.runtime.transaction(correlation_id=event_code) as uow:
        answer = await publishing.publish_section(uow, event_code, section_id, actor)
    return Publish(**answer)


@router.get(
    "/{event_code}/sections/{section_id}/staff-actions",
    response_model=StaffActions,
    summary="The audit of staff publications of a section (staff; cursor pagination)",
)
async def staff_actions(
    event_code: EventCode, section_id: SectionId, request: Request, _p: Staff, paging: PageIn
) -> StaffActions:
    async with request.app.state.runtime.transaction(correlation_id=event_code) as uow:
        rows = await publishing.audit_of(uow, event_code, section_id)
    # in the order they were taken: the audit row's id is the key
    shown, next_cursor = page(rows, lambda row: (row["id"],), paging.limit, paging.cursor)
    actions = [StaffAction(**{k: r[k] for k in StaffAction.model_fields}) for r in shown]
    return StaffActions(actions=actions, next_cursor=next_cursor)
