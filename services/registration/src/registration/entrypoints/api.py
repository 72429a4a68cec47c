"""HTTP API of the registration service (docs/api.md; OpenAPI at /docs).

Partner keys see and act only on the players they registered (another partner's records answer
404); staff (operator, arbiter) see all. ID numbers and document references are never returned
(masked / "[protected]"). POSTs that create honour `Idempotency-Key`.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.responses import JSONResponse

from gomoku_shared import idempotency
from gomoku_shared.api_docs import documented
from gomoku_shared.auth import KeyRing
from gomoku_shared.pagination import PageIn, paged, sort_by
from gomoku_shared.params import PathId
from gomoku_shared.runtime import ServiceRuntime
from gomoku_shared.service import lifespan_for
from gomoku_shared.web import create_app

from .. import presets
from ..adapters import orm
from ..service_layer import changes, closing, entries, events, evidence, queries, stages, units
from ..service_layer import schemas as s
from ..service_layer.state import RegistrationState
from . import views as v
from .access import Anyone, Arbiter, OperatorKey, Reader, Registrant, keyed_write
from .access import command as _command
from .access import read as _read
from .access import run as _run
from .access import state_of as _state
from .fee_routes import add_fee_routes
from .schedule_api import schedule_router

#: a partner's own user id for a player (``PlayerIn.external_id``)
ExternalId = Annotated[
    str | None,
    Query(
        min_length=1,
        max_length=200,
        description="A partner's own user id for a player: that partner's entries of the player "
        "(no other caller's players match)",
    ),
]


def _router() -> APIRouter:
    router = APIRouter(prefix="/v1")
    for add_routes in (
        _event_routes,
        _entry_routes,
        _change_routes,
        _evidence_routes,
        _unit_routes,
        _stage_routes,
        add_fee_routes,
    ):
        add_routes(router)
    return router


def _event_routes(router: APIRouter) -> None:
    # ------------------------------------------------------------------ presets / events
    @router.get(
        "/presets",
        tags=["events"],
        summary="Event presets shipped with the service (EVT-1..6)",
        **documented(v.Presets),
    )
    async def list_presets() -> dict:
        out = []
        for pid in presets.list_presets():
            cfg = presets.load(pid)
            out.append({"id": pid, "name": cfg.name, "name_zh": cfg.name_zh})
        return {"presets": out}

    @router.post(
        "/events",
        **keyed_write(v.EventView, 201, 404),
        tags=["events"],
        summary="Create an event from a preset plus overrides; emits event.configured",
    )
    async def create_event(body: s.EventIn, request: Request, principal: OperatorKey) -> JSONResponse:
        return await _run(
            request,
            principal,
            None,
            lambda uow, _: events.create_event(uow, _state(request), principal, body),
            body=body,
        )

    @router.get(
        "/events/{event_code}",
        tags=["events"],
        summary="An event: stages, sections, caps, windows",
        **documented(v.EventView),
    )
    async def get_event(event_code: PathId, request: Request, _: Reader) -> dict:
        return await _read(request, lambda repos, state: queries.get_event(repos, state, event_code))


def _entry_routes(router: APIRouter) -> None:
    # ------------------------------------------------------------------ entries
    @router.post(
        "/events/{event_code}/entries",
        **keyed_write(v.SubmittedEntry),
        tags=["entries"],
        summary="Register one player (REG-1..8, REG-13); Idempotency-Key honoured",
    )
    async def submit_entry(
        event_code: PathId, body: s.EntryIn, request: Request, principal: Registrant
    ) -> JSONResponse:
        return await _command(request, principal, event_code, lambda cmd: entries.register_player(cmd, body), body=body)

    @router.post(
        "/events/{event_code}/entries/bulk",
        **keyed_write(v.BulkReport),
        tags=["entries"],
        summary="Bulk registration for partner platforms: all or nothing, with a per-row report",
    )
    async def submit_bulk(event_code: PathId, body: s.BulkIn, request: Request, principal: Registrant) -> JSONResponse:
        return await _command(request, principal, event_code, lambda cmd: entries.register_bulk(cmd, body), body=body)

    @router.post(
        "/events/{event_code}/teams",
        **keyed_write(v.SubmittedEntry),
        tags=["entries"],
        summary="Register a team with its board order fixed at registration (REG-9)",
    )
    async def submit_team(event_code: PathId, body: s.TeamIn, request: Request, principal: Registrant) -> JSONResponse:
        return await _command(request, principal, event_code, lambda cmd: entries.register_team(cmd, body), body=body)

    @router.get(
        "/events/{event_code}/entries",
        tags=["entries"],
        **documented(v.Entries),
        summary="Entries (a partner sees only its own; ID numbers masked)",
    )
    async def list_entries(
        event_code: PathId,
        request: Request,
        principal: Anyone,
        page: PageIn,
        stage: str | None = Query(None, max_length=64),
        section_id: str | None = Query(None, max_length=100),
        status: str | None = Query(None, max_length=40),
        external_id: ExternalId = None,
    ) -> dict:
        filters = {"stage": stage, "section_id": section_id, "status": status, "external_id": external_id}
        found = await _read(
            request, lambda repos, st: queries.list_entries(repos, st, principal, event_code, **filters)
        )
        return paged(found, "entries", sort_by("stage", "section_id", "entry_id"), page)

    @router.get(
        "/events/{event_code}/entries/{entry_id}",
        tags=["entries"],
        summary="One entry with its decisions",
        **documented(v.EntryView),
    )
    async def get_entry(event_code: PathId, entry_id: PathId, request: Request, principal: Anyone) -> dict:
        return await _read(
            request, lambda repos, state: queries.get_entry(repos, state, principal, event_code, entry_id)
        )

    @router.post(
        "/events/{event_code}/entries/{entry_id}/withdraw",
        **keyed_write(v.WithdrawnEntry, 200),
        tags=["entries"],
        summary="Withdraw an entry with a written reason (REG-10); the waiting list moves up (REG-2)",
    )
    async def withdraw(
        event_code: PathId, entry_id: PathId, body: s.WithdrawIn, request: Request, principal: Anyone
    ) -> JSONResponse:
        return await _command(
            request, principal, event_code, lambda cmd: entries.withdraw(cmd, entry_id, body), status=200, body=body
        )

    @router.post(
        "/events/{event_code}/entries/{entry_id}/facts",
        **keyed_write(v.CorrectedEntry, 200),
        tags=["entries"],
        summary="Correct declared facts; the entry is judged again, refused ones too (REG-18)",
    )
    async def correct_facts(
        event_code: PathId, entry_id: PathId, body: s.FactsCorrectionIn, request: Request, principal: Anyone
    ) -> JSONResponse:
        return await _command(
            request,
            principal,
            event_code,
            lambda cmd: evidence.correct_facts(cmd, entry_id, body),
            status=200,
            body=body,
        )

    @router.post(
        "/events/{event_code}/entries/{entry_id}/review",
        **keyed_write(v.EntryView, 200),
        tags=["review"],
        summary="Arbiter settles an entry pending review (wildcard, host quota)",
    )
    async def review(
        event_code: PathId, entry_id: PathId, body: s.DecisionIn, request: Request, principal: Arbiter
    ) -> JSONResponse:
        return await _command(
            request, principal, event_code, lambda cmd: entries.review(cmd, entry_id, body), status=200, body=body
        )


def _change_routes(router: APIRouter) -> None:
    # ------------------------------------------------------------------ changes
    @router.post(
        "/events/{event_code}/entries/{entry_id}/changes",
        **keyed_write(v.ChangeView),
        tags=["changes"],
        summary="Request a change (REG-10: arbiter approval after the close, none in the freeze; REG-9)",
    )
    async def request_change(
        event_code: PathId, entry_id: PathId, body: s.ChangeIn, request: Request, principal: Anyone
    ) -> JSONResponse:
        return await _command(
            request, principal, event_code, lambda cmd: changes.request_change_cmd(cmd, entry_id, body), body=body
        )

    @router.get(
        "/events/{event_code}/changes",
        tags=["changes"],
        summary="Change requests (a partner sees its own)",
        **documented(v.Changes),
    )
    async def list_changes(event_code: PathId, request: Request, principal: Anyone, page: PageIn) -> dict:
        found = await _read(request, lambda repos, state: queries.list_changes(repos, state, principal, event_code))
        return paged(found, "changes", sort_by("change_id"), page)

    @router.post(
        "/changes/{change_id}/decision",
        **keyed_write(v.ChangeView, 200),
        tags=["changes"],
        summary="Arbiter approves or refuses a change",
    )
    async def decide_change(
        change_id: PathId, body: s.DecisionIn, request: Request, principal: Arbiter
    ) -> JSONResponse:
        return await _run(
            request,
            principal,
            None,
            lambda uow, _: changes.decide_change_cmd(uow, _state(request), principal, change_id, body),
            status=200,
            body=body,
        )


def _evidence_routes(router: APIRouter) -> None:
    # ------------------------------------------------------------------ evidence
    @router.post(
        "/events/{event_code}/evidence",
        **keyed_write(v.UploadedEvidence),
        tags=["evidence"],
        summary="Upload an evidence record for one of the caller's own entries or players (REG-6, REG-8); "
        "the document is stored encrypted; the player's entries are judged again (REG-18)",
    )
    async def upload_evidence(
        event_code: PathId, body: s.EvidenceUploadIn, request: Request, principal: Anyone
    ) -> JSONResponse:
        return await _command(
            request, principal, event_code, lambda cmd: evidence.upload_evidence(cmd, body), body=body
        )

    @router.get(
        "/events/{event_code}/evidence",
        tags=["evidence"],
        summary="Evidence records (a partner sees its own)",
        **documented(v.EvidenceList),
    )
    async def list_evidence(
        event_code: PathId,
        request: Request,
        principal: Anyone,
        page: PageIn,
        status: str | None = Query(None, max_length=20),
    ) -> dict:
        found = await _read(
            request, lambda repos, state: queries.list_evidence(repos, state, principal, event_code, status)
        )
        return paged(found, "evidence", sort_by("evidence_id"), page)

    @router.post(
        "/evidence/{evidence_id}/decision",
        **keyed_write(v.EvidenceDecision, 200),
        tags=["evidence"],
        summary="Arbiter approves or rejects evidence; the player's entries are judged again (REG-6)",
    )
    async def decide_evidence(
        evidence_id: PathId, body: s.DecisionIn, request: Request, principal: Arbiter
    ) -> JSONResponse:
        code = await _read(request, lambda repos, _context: evidence.evidence_event(repos, evidence_id))
        # an event command like the others: the event is locked first and this process's
        # snapshot of it is reused and kept (an arbiter approves evidence one record at a time)
        return await _command(
            request,
            principal,
            code,
            lambda cmd: evidence.decide_evidence(cmd, evidence_id, body),
            status=200,
            body=body,
        )


def _unit_routes(router: APIRouter) -> None:
    # ------------------------------------------------------------------ units
    @router.post(
        "/events/{event_code}/units",
        **keyed_write(v.UnitDetail),
        tags=["units"],
        summary="A unit with its leader and coaches (REG-3)",
    )
    async def add_unit(event_code: PathId, body: s.UnitIn, request: Request, principal: Registrant) -> JSONResponse:
        return await _command(request, principal, event_code, lambda cmd: units.add_unit(cmd, body), body=body)

    @router.post(
        "/events/{event_code}/units/{unit_id}/officials",
        **keyed_write(v.UnitDetail),
        tags=["units"],
        summary="Name a leader, coach or acting leader of a unit (REG-3)",
    )
    async def add_official(
        event_code: PathId, unit_id: PathId, body: s.OfficialIn, request: Request, principal: Registrant
    ) -> JSONResponse:
        return await _command(
            request, principal, event_code, lambda cmd: units.add_official(cmd, unit_id, body), body=body
        )

    @router.get(
        "/events/{event_code}/units", tags=["units"], summary="Units (a partner sees its own)", **documented(v.Units)
    )
    async def list_units(event_code: PathId, request: Request, principal: Anyone, page: PageIn) -> dict:
        found = await _read(request, lambda repos, state: queries.list_units(repos, state, principal, event_code))
        return paged(found, "units", sort_by("unit_id"), page)


def _stage_routes(router: APIRouter) -> None:
    # ------------------------------------------------------------------ stages
    @router.post(
        "/events/{event_code}/stages/{stage}/check-in",
        **keyed_write(v.CheckInReport, 200),
        tags=["stages"],
        summary="Check entries in and mark no-shows (REG-11)",
    )
    async def check_in(
        event_code: PathId, stage: PathId, body: s.CheckInIn, request: Request, principal: Arbiter
    ) -> JSONResponse:
        return await _command(
            request, principal, event_code, lambda cmd: stages.check_in(cmd, stage, body), status=200, body=body
        )

    @router.post(
        "/events/{event_code}/stages/{stage}/close",
        **keyed_write(v.ClosedStage, 200),
        tags=["stages"],
        summary="Close a stage: merge/cancel sections (REG-12), emit one section.closed per section",
    )
    async def close(
        event_code: PathId, stage: PathId, request: Request, principal: OperatorKey, body: s.CloseIn | None = None
    ) -> JSONResponse:
        body = body or s.CloseIn()
        return await _command(
            request, principal, event_code, lambda cmd: closing.close_stage_cmd(cmd, stage, body), status=200, body=body
        )

    @router.get(
        "/events/{event_code}/stages/{stage}",
        tags=["stages"],
        **documented(v.StageView),
        summary="Stage status: open | awaiting_qualifiers | ready | closed, with per-section counts",
    )
    async def stage_status(event_code: PathId, stage: PathId, request: Request, principal: Anyone) -> dict:
        return await _read(request, lambda repos, state: queries.stage_view(repos, state, event_code, stage))

    @router.post(
        "/events/{event_code}/stages/{stage}/seeded",
        **keyed_write(v.SeededList),
        tags=["stages"],
        summary="Players seeded straight into a qualification stage (EVT-6, SZ: Shenzhen Cup top 4)",
    )
    async def seeded(
        event_code: PathId, stage: PathId, body: s.SeededIn, request: Request, principal: OperatorKey
    ) -> JSONResponse:
        return await _command(
            request, principal, event_code, lambda cmd: stages.post_seeded(cmd, stage, body), body=body
        )


def create_api(runtime: ServiceRuntime, keyring: KeyRing, context: RegistrationState | None = None) -> FastAPI:
    app = create_app(
        "registration",
        title="Gomoku registration service",
        description="Events from presets, entries, eligibility with evidence, teams, check-in, section closing and merging.",
        lifespan=lifespan_for(runtime),
        keyring=keyring,
        ready_checks={"database": runtime.db_ready, "bus": runtime.bus_ready},
        clock=runtime.clock,
    )
    app.state.runtime = runtime
    app.state.registration = context
    app.state.idempotency = idempotency.for_runtime(runtime, orm.idempotency_keys)
    app.include_router(_router())
    app.include_router(schedule_router())
    return app
