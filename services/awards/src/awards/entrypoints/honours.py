"""Honours over HTTP (AWD-9, NY 十一(三)): public reads of the honours in force and their certificate
data (a coach's name masked); staff (operator, arbiter) record the organiser's choice, revoke it,
read the register and print the certificate data with names in full, and choose a unit honour's
recipient from the event's registered units."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Request
from pydantic import BaseModel, Field, model_validator

from gomoku_shared.auth import Principal, require
from gomoku_shared.errors import NotFound
from gomoku_shared.text import Line, Prose

from ..service_layer import honours as service
from ..service_layer.commands import RecordHonour, RevokeHonour
from ..service_layer.handlers import handle
from ..service_layer.queries import AwardsReads, reads_in, reads_of
from ..service_layer.unit_of_work import SqlAwardsUnitOfWork
from .schemas import _Out

router = APIRouter(prefix="/v1/events", tags=["honours"])
EventCode = Annotated[str, Path(min_length=1, max_length=100, description="event code, e.g. ny-2022")]
HonourId = Annotated[str, Path(min_length=1, max_length=32, description="honour id, e.g. h1")]
HonourKind = Literal["organisation", "sportsmanship", "coach"]


class HonourBody(BaseModel):
    """One honour: a unit (organisation), an entrant (sportsmanship) or a coach by name."""

    kind: HonourKind
    #: the unit's registration id (``GET .../honours/units`` lists them), never a typed name
    unit_id: Line | None = Field(default=None, min_length=1, max_length=200, pattern=r"\S")
    entrant_id: Line | None = Field(default=None, min_length=1, max_length=200)
    coach_name: Line | None = Field(default=None, min_length=1, max_length=200, pattern=r"\S")
    #: the coach's unit, as the certificate names it
    coach_unit: Line | None = Field(default=None, min_length=1, max_length=300)
    citation: Prose = Field(default="", max_length=2000)

    @model_validator(mode="after")
    def _one_recipient(self) -> HonourBody:
        given = [name for name in ("unit_id", "entrant_id", "coach_name") if getattr(self, name) is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of unit_id, entrant_id, coach_name")
        if self.coach_unit is not None and self.coach_name is None:
            raise ValueError("coach_unit goes with coach_name")
        return self


class RevokeBody(BaseModel):
    reason: Prose = Field(min_length=1, max_length=2000)


class HonourGiven(_Out):
    kind: str
    name: str
    name_zh: str | None
    max_recipients: int | None


class Honour(_Out):
    honour_id: str
    kind: str
    honour_name: str
    honour_name_zh: str | None
    recipient_kind: Literal["unit", "entrant", "coach"]
    recipient_id: str | None
    recipient_name: str = Field(description="a coach's name masked in public answers")
    unit_name: str | None
    section_id: str | None
    citation: str
    status: Literal["awarded", "revoked"]
    awarded_at: str
    revoked_at: str | None
    revoked_reason: str | None
    #: issue 29, staff answers only: who recorded and who revoked (acct:<account> or the key id) and their names
    awarded_by: str | None = None
    awarded_by_name: str | None = None
    revoked_by: str | None = None
    revoked_by_name: str | None = None


class Honours(_Out):
    """AWD-9: the honours the event gives and those awarded (revoked ones left out)."""

    event_code: str
    event_name: str | None
    given: list[HonourGiven]
    honours: list[Honour]


class HonourCertificate(_Out):
    honour_id: str
    kind: str
    event_name: str | None
    recipient_kind: str
    name: str
    unit_name: str | None
    section_id: str | None
    honour_name: str
    honour_name_zh: str | None
    citation: str
    #: the certificate's lines: the honour's name (Chinese first), then the citation
    lines: list[str]


class HonourCertificates(_Out):
    event_code: str
    event_name: str | None
    rows: list[HonourCertificate]


class RegisteredUnit(_Out):
    unit_id: str = Field(description="the unit's registration id")
    name: str = Field(description="the unit's registered name, as certificates show it")


class RegisteredUnits(_Out):
    """The units registered for the event that a unit honour may name (those with entrants in the
    published results)."""

    event_code: str
    units: list[RegisteredUnit]


async def _repo(request: Request) -> AsyncIterator[AwardsReads]:
    async for reads in reads_of(request.app.state.runtime):
        yield reads


Repo = Annotated[AwardsReads, Depends(_repo)]
#: issue 29: the event's staff who may grant honours (administrator, organiser), the operator
Granter = Annotated[Principal, Depends(require("operator", "arbiter", action="honours.grant"))]
#: the event's staff who may read it in full (names, the register), the operator
StaffReader = Annotated[Principal, Depends(require("operator", "arbiter", action="event.read"))]


async def _event(repo: AwardsReads, event_code: str) -> tuple[Any, dict[str, Any]]:
    row = await repo.event(event_code)
    if row is None:
        raise NotFound("event_not_found", f"no results for event {event_code!r}", {"event_code": event_code})
    return row, service.honour_rules(json.loads(row.config) if row.config else None)


async def _in_force(repo: AwardsReads, event_code: str) -> tuple[Any, dict[str, Any], list[dict[str, Any]]]:
    """The event, the honours it gives (by kind) and the honours in force (not revoked)."""
    event, given = await _event(repo, event_code)
    return event, given, await repo.honours(event_code, active_only=True)


def _honours(
    event_code: str, event: Any, given: dict[str, Any], rows: list[dict[str, Any]], *, full_names: bool = False
) -> Honours:
    """The honours the event gives and ``rows`` (names in full for staff: ``full_names``)."""
    return Honours(
        event_code=event_code,
        event_name=event.name,
        given=[
            HonourGiven(kind=r.kind, name=r.name, name_zh=r.name_zh, max_recipients=r.max_recipients)
            for r in given.values()
        ],
        honours=[Honour(**service.view(row, given.get(row["kind"]), full_names=full_names)) for row in rows],
    )


@router.get("/{event_code}/honours", response_model=Honours, summary="Honours of an event (AWD-9, NY 十一(三))")
async def list_honours(event_code: EventCode, repo: Repo) -> Honours:
    event, given, rows = await _in_force(repo, event_code)
    return _honours(event_code, event, given, rows)


@router.get(
    "/{event_code}/honours/certificates",
    response_model=HonourCertificates,
    summary="Certificate data of the honours in force, ready for printing (AWD-9)",
)
async def honour_certificates(event_code: EventCode, repo: Repo) -> HonourCertificates:
    return await _certificates(repo, event_code, full_names=False)


@router.get(
    "/{event_code}/honours/register/certificates",
    response_model=HonourCertificates,
    summary="Certificate data of the honours in force with names in full, for the organiser to print (staff)",
)
async def honour_certificates_in_full(event_code: EventCode, repo: Repo, _principal: StaffReader) -> HonourCertificates:
    # masking is for public answers: the organiser prints the coach's name as it is
    return await _certificates(repo, event_code, full_names=True)


async def _certificates(repo: AwardsReads, event_code: str, *, full_names: bool) -> HonourCertificates:
    event, given, rows = await _in_force(repo, event_code)
    return HonourCertificates(
        event_code=event_code,
        event_name=event.name,
        rows=[
            HonourCertificate(**service.certificate(row, given.get(row["kind"]), event.name, full_names=full_names))
            for row in rows
        ],
    )


@router.get(
    "/{event_code}/honours/units",
    response_model=RegisteredUnits,
    summary="The event's registered units a unit honour may name (staff)",
)
async def honour_units(event_code: EventCode, repo: Repo, _principal: StaffReader) -> RegisteredUnits:
    await _event(repo, event_code)
    units = await service.event_units(repo, event_code)
    return RegisteredUnits(
        event_code=event_code,
        units=[RegisteredUnit(unit_id=uid, name=name) for uid, name in sorted(units.items(), key=lambda u: u[1])],
    )


@router.get(
    "/{event_code}/honours/register",
    response_model=Honours,
    summary="Every honour recorded, revoked ones too, with full names (staff)",
)
async def honour_register(event_code: EventCode, repo: Repo, _principal: StaffReader) -> Honours:
    event, given = await _event(repo, event_code)
    rows = await repo.honours(event_code)
    return _honours(event_code, event, given, rows, full_names=True)


@router.post("/{event_code}/honours", response_model=Honour, summary="Record an honour the organiser chose (staff)")
async def post_honour(event_code: EventCode, body: HonourBody, request: Request, principal: Granter) -> Honour:
    form = service.HonourForm(**body.model_dump())
    async with request.app.state.runtime.transaction(correlation_id=event_code) as uow:
        row = await handle(RecordHonour(event_code, form, principal), SqlAwardsUnitOfWork(uow))
        config = await reads_in(uow).config(event_code)
    return Honour(**service.view(row, service.honour_rules(config).get(row["kind"]), full_names=True))


@router.post(
    "/{event_code}/honours/{honour_id}/revoke",
    response_model=Honour,
    summary="Revoke an honour, with the reason (staff)",
)
async def revoke_honour(
    event_code: EventCode, honour_id: HonourId, body: RevokeBody, request: Request, principal: Granter
) -> Honour:
    async with request.app.state.runtime.transaction(correlation_id=event_code) as uow:
        row = await handle(RevokeHonour(event_code, honour_id, body.reason, principal), SqlAwardsUnitOfWork(uow))
        config = await reads_in(uow).config(event_code)
    return Honour(**service.view(row, service.honour_rules(config).get(row["kind"]), full_names=True))
