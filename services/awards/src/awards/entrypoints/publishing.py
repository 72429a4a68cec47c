"""Staff-only writes of the awards service: publish (or republish) a section's awards (audited)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel

from gomoku_shared.auth import Principal, require
from gomoku_shared.pagination import PageIn, page

from ..service_layer import publishing
from ..service_layer.commands import PublishSection
from ..service_layer.handlers import handle
from ..service_layer.unit_of_work import SqlAwardsUnitOfWork
from .published import EventCode, SectionId

router = APIRouter(prefix="/v1/events", tags=["publishing"])
#: issue 29: the event's staff who may publish its awards (organiser, chief arbiter), the operator
Publisher = Annotated[Principal, Depends(require("operator", "arbiter", action="awards.publish"))]
#: the event's staff who may read it in full, the operator
StaffReader = Annotated[Principal, Depends(require("operator", "arbiter", action="event.read"))]


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
    #: who asked: a person's name, else the key id (never the key) (issue 29)
    actor: str
    #: their stable id: acct:<account>, or the key id
    actor_id: str | None = None
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
async def publish(event_code: EventCode, section_id: SectionId, request: Request, principal: Publisher) -> Publish:
    actor, actor_id = principal.actor or principal.role, principal.actor_id or principal.role
    async with request.app.state.runtime.transaction(correlation_id=event_code) as uow:
        answer = await handle(PublishSection(event_code, section_id, actor, actor_id), SqlAwardsUnitOfWork(uow))
    return Publish(**answer)


@router.get(
    "/{event_code}/sections/{section_id}/staff-actions",
    response_model=StaffActions,
    summary="The audit of staff publications of a section (staff; cursor pagination)",
)
async def staff_actions(
    event_code: EventCode, section_id: SectionId, request: Request, _p: StaffReader, paging: PageIn
) -> StaffActions:
    async with request.app.state.runtime.transaction(correlation_id=event_code) as uow:
        rows = await publishing.audit_of(SqlAwardsUnitOfWork(uow), event_code, section_id)
    # in the order they were taken: the audit row's id is the key
    shown, next_cursor = page(rows, lambda row: (row["id"],), paging.limit, paging.cursor)
    actions = [StaffAction(**{k: r[k] for k in StaffAction.model_fields}) for r in shown]
    return StaffActions(actions=actions, next_cursor=next_cursor)
