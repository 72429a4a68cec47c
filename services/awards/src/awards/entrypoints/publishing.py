"""Staff-only writes of the awards service: publish (or republish) a section's awards (audited)."""

from __future__ import annotations

from datetime import datetime

from fastapi import APIRouter, Request
from pydantic import BaseModel

from gomoku_shared.auth import Staff

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
    actions: list[StaffAction]


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
    summary="The audit of staff publications of a section (staff)",
)
async def staff_actions(event_code: EventCode, section_id: SectionId, request: Request, _p: Staff) -> StaffActions:
    async with request.app.state.runtime.transaction(correlation_id=event_code) as uow:
        rows = await publishing.audit_of(uow, event_code, section_id)
    return StaffActions(actions=[StaffAction(**{k: r[k] for k in StaffAction.model_fields}) for r in rows])
