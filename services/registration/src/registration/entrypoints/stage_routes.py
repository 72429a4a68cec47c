"""The routes of units (REG-3), the quota-exemption list (REG-16) and stages (check-in, closing,
seeded players): each a command run through ``handlers.handle`` or a read of the service layer."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse

from gomoku_shared.pagination import PageIn, paged, sort_by
from gomoku_shared.params import PathId

from ..service_layer import commands, exemptions, queries
from ..service_layer import forms as f
from . import schemas as s
from . import views as v
from .access import ANYONE, REGISTRANT, STAFF, Call, calling, documented, keyed_write
from .schemas import form

Registrant = Annotated[Call, Depends(calling(REGISTRANT))]
EventReader = Annotated[Call, Depends(calling(ANYONE, "event.read"))]
StaffReader = Annotated[Call, Depends(calling(STAFF, "event.read"))]
Configurer = Annotated[Call, Depends(calling(STAFF, "event.configure"))]
CheckInRecorder = Annotated[Call, Depends(calling(STAFF, "checkin.record"))]
StageManager = Annotated[Call, Depends(calling(STAFF, "entries.manage"))]


def add_stage_routes(router: APIRouter) -> None:
    _unit_routes(router)
    _stage_routes(router)


def _unit_routes(router: APIRouter) -> None:
    @router.post(
        "/events/{event_code}/units",
        **keyed_write(v.UnitDetail),
        tags=["units"],
        summary="A unit with its leader and coaches (REG-3)",
    )
    async def add_unit(event_code: PathId, body: s.UnitIn, call: Registrant) -> JSONResponse:
        return await call.run(commands.AddUnit(event_code, form(body, f.UnitIn)), body)

    @router.post(
        "/events/{event_code}/units/{unit_id}/officials",
        **keyed_write(v.UnitDetail),
        tags=["units"],
        summary="Name a leader, coach or acting leader of a unit (REG-3)",
    )
    async def add_official(event_code: PathId, unit_id: PathId, body: s.OfficialIn, call: Registrant) -> JSONResponse:
        return await call.run(commands.AddOfficial(event_code, unit_id, form(body, f.OfficialIn)), body)

    @router.get(
        "/events/{event_code}/units", tags=["units"], summary="Units (a partner sees its own)", **documented(v.Units)
    )
    async def list_units(event_code: PathId, call: EventReader, page: PageIn) -> dict:
        found = await call.read(lambda reads, state: queries.list_units(reads, state, call.principal, event_code))
        return paged(found, "units", sort_by("unit_id"), page)

    @router.post(
        "/events/{event_code}/quota-exemptions",
        **keyed_write(v.ExemptionList, 201, 409),
        tags=["units"],
        summary="Load the list a delegation-quota exemption is checked against (REG-16, NY 七(三)): "
        "the previous edition's final places by section",
    )
    async def load_exemption_list(event_code: PathId, body: s.ExemptionListIn, call: Configurer) -> JSONResponse:
        return await call.run(commands.LoadExemptionList(event_code, form(body, f.ExemptionListIn)), body)

    @router.get(
        "/events/{event_code}/quota-exemptions",
        tags=["units"],
        summary="The list in force and every load of it (REG-16)",
        **documented(v.ExemptionList),
    )
    async def exemption_list(event_code: PathId, call: StaffReader) -> dict:
        return await call.read(lambda reads, state: exemptions.get_list(reads, state, event_code))


def _stage_routes(router: APIRouter) -> None:
    @router.post(
        "/events/{event_code}/stages/{stage}/check-in",
        **keyed_write(v.CheckInReport, 200),
        tags=["stages"],
        summary="Check entries in and mark no-shows (REG-11)",
    )
    async def check_in(event_code: PathId, stage: PathId, body: s.CheckInIn, call: CheckInRecorder) -> JSONResponse:
        return await call.run(commands.CheckIn(event_code, stage, form(body, f.CheckInIn)), body, status=200)

    @router.post(
        "/events/{event_code}/stages/{stage}/close",
        **keyed_write(v.ClosedStage, 200),
        tags=["stages"],
        summary="Close a stage: merge/cancel sections (REG-12), emit one section.closed per section",
    )
    async def close(
        event_code: PathId, stage: PathId, call: StageManager, body: s.CloseIn | None = None
    ) -> JSONResponse:
        body = s.CloseIn() if body is None else body  # an empty body stands for the body's defaults
        return await call.run(commands.CloseStage(event_code, stage, form(body, f.CloseIn)), body, status=200)

    @router.get(
        "/events/{event_code}/stages/{stage}",
        tags=["stages"],
        summary="Stage status: open | awaiting_qualifiers | ready | closed, with per-section counts",
        **documented(v.StageView),
    )
    async def stage_status(event_code: PathId, stage: PathId, call: EventReader) -> dict:
        return await call.read(lambda reads, state: queries.stage_view(reads, state, event_code, stage))

    @router.post(
        "/events/{event_code}/stages/{stage}/seeded",
        **keyed_write(v.SeededList),
        tags=["stages"],
        summary="Players seeded straight into a qualification stage (EVT-6, SZ: Shenzhen Cup top 4)",
    )
    async def seeded(event_code: PathId, stage: PathId, body: s.SeededIn, call: StageManager) -> JSONResponse:
        return await call.run(commands.SeedPlayers(event_code, stage, form(body, f.SeededIn)), body)
