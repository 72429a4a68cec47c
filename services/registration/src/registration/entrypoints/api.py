"""HTTP API of the registration service (docs/api.md; OpenAPI at /docs).

Partner keys see and act only on the players they registered (another partner's records answer 404); staff see
all. ID numbers and document references are never returned (masked); POSTs that create honour `Idempotency-Key`.

Most routes are declared as data (`routes.Command`, `routes.Read`), in the order of the OpenAPI
document; the two commands that name no event yet (creating one, deciding a change) are written out.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, FastAPI, Query, Request
from fastapi.responses import JSONResponse

from gomoku_shared import idempotency
from gomoku_shared.api_docs import documented
from gomoku_shared.auth import KeyRing, Principal, require
from gomoku_shared.event_access import EventAccessDirectory
from gomoku_shared.pagination import sort_by
from gomoku_shared.params import PathId
from gomoku_shared.runtime import ServiceRuntime
from gomoku_shared.service import service_app

from .. import presets
from ..adapters import orm
from ..service_layer import changes, closing, entries, events, evidence, exemptions, owners, queries, stages, units
from ..service_layer import schemas as s
from ..service_layer.event_list import list_events, newest_first
from ..service_layer.state import RegistrationState
from . import views as v
from .access import ANYONE, READER, REGISTRANT, STAFF, keyed_write
from .access import read as _read
from .access import run as _run
from .access import state_of as _state
from .document_routes import add_document_routes
from .fee_routes import add_fee_routes
from .routers import more_routers
from .routes import Command, Read, add_routes, filter_of, text_filter

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


#: issue 29: the organisation whose events a list shows
Organisation = Annotated[
    str | None,
    Query(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$", description="an organisation's id"),
]
EventWords = Annotated[str | None, Query(min_length=1, max_length=64, description="a part of a name (en/zh) or code")]


async def _event_of_change(request: Request) -> str | None:
    """The event a change request belongs to (the staff check of its decision, issue 29)."""
    return await _read(request, lambda repos, _state: changes.change_event(repos, request.path_params["change_id"]))


#: who creates events: the operator's keys, or a staff account (authorised in the service layer)
EventCreator = Annotated[Principal, Depends(require("operator", "arbiter", people=True))]
ChangeDecider = Annotated[Principal, Depends(require(*STAFF, action="entries.manage", event=_event_of_change))]


def _router() -> APIRouter:
    router = APIRouter(prefix="/v1")
    for add in (
        _event_routes,
        _owner_routes,
        _entry_routes,
        _entry_update_routes,
        _change_routes,
        _evidence_routes,
        _unit_routes,
        _stage_routes,
    ):
        add(router)
    add_fee_routes(router)
    add_document_routes(router)
    return router


def _event_routes(router: APIRouter) -> None:
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
        summary="Create an event from a preset plus overrides, owned by an organisation; emits event.configured "
        "and event.access_changed (the operator's key, or a staff account with event.create there)",
    )
    async def create_event(body: s.EventIn, request: Request, principal: EventCreator) -> JSONResponse:
        answer = await _run(
            request,
            principal,
            None,
            lambda uow, _: events.create_event(uow, _state(request), principal, body),
            body=body,
        )
        request.app.state.event_access.forget(body.event_code)
        return answer

    add_routes(
        router,
        "events",
        [
            Read(
                "get_event",
                "/events/{event_code}",
                queries.get_event,
                v.EventView,
                "An event: its owner, stages, sections, caps, windows",
                action=None,
                who=READER,
                people=True,
                personal=False,
            ),
            Read(
                "list_events",
                "/events",
                list_events,
                v.EventList,
                "The events, newest first, as the home page lists them (issues 28, 29); `q`: by name or code",
                action=None,
                who=READER,
                people=True,
                personal=False,
                filters=(filter_of("organisation", Organisation), filter_of("q", EventWords)),
                pages=("events", newest_first),
            ),
        ],
    )


def _owner_routes(router: APIRouter) -> None:
    """Issue 29: the partner apps an event's organiser chose."""
    add_routes(
        router,
        "events",
        [
            Command(
                "choose_partners",
                "/events/{event_code}/partners",
                owners.choose_partners,
                s.PartnersIn,
                STAFF,
                v.EventPartners,
                "Choose the partner apps that may register entries and act in the event (null: every partner); "
                "audited, emits event.access_changed (issue 29)",
                action="event.configure",
                status=200,
                method="PUT",
            ),
            Read(
                "event_partners",
                "/events/{event_code}/partners",
                owners.partners_view,
                v.EventPartners,
                "The partner apps chosen for the event and who chose them when (issue 29)",
                who=STAFF,
                personal=False,
            ),
        ],
    )


def _entry_routes(router: APIRouter) -> None:
    add_routes(
        router,
        "entries",
        [
            Command(
                "submit_entry",
                "/events/{event_code}/entries",
                entries.register_player,
                s.EntryIn,
                REGISTRANT,
                v.SubmittedEntry,
                "Register one player (REG-1..8, REG-13); Idempotency-Key honoured",
            ),
            Command(
                "submit_bulk",
                "/events/{event_code}/entries/bulk",
                entries.register_bulk,
                s.BulkIn,
                REGISTRANT,
                v.BulkReport,
                "Bulk registration for partner platforms: all or nothing, with a per-row report",
            ),
            Command(
                "submit_team",
                "/events/{event_code}/teams",
                entries.register_team,
                s.TeamIn,
                REGISTRANT,
                v.SubmittedEntry,
                "Register a team with its board order fixed at registration (REG-9)",
            ),
            Read(
                "list_entries",
                "/events/{event_code}/entries",
                queries.list_entries,
                v.Entries,
                "Entries (a partner sees only its own; ID numbers masked)",
                filters=(
                    text_filter("stage", 64),
                    text_filter("section_id", 100),
                    text_filter("status", 40),
                    filter_of("external_id", ExternalId),
                ),
                pages=("entries", sort_by("stage", "section_id", "seq", "entry_id")),
            ),
            Read(
                "get_entry",
                "/events/{event_code}/entries/{entry_id}",
                queries.get_entry,
                v.EntryView,
                "One entry with its decisions",
            ),
        ],
    )


def _entry_update_routes(router: APIRouter) -> None:
    """What happens to an entry after it was made: withdrawn, its facts corrected, reviewed."""
    add_routes(
        router,
        "entries",
        [
            Command(
                "withdraw",
                "/events/{event_code}/entries/{entry_id}/withdraw",
                entries.withdraw,
                s.WithdrawIn,
                ANYONE,
                v.WithdrawnEntry,
                "Withdraw an entry with a written reason (REG-10); the waiting list moves up (REG-2)",
                action="entries.manage",
                status=200,
            ),
            Command(
                "correct_facts",
                "/events/{event_code}/entries/{entry_id}/facts",
                evidence.correct_facts,
                s.FactsCorrectionIn,
                ANYONE,
                v.CorrectedEntry,
                "Correct declared facts; the entry is judged again, refused ones too (REG-18)",
                action="entries.manage",
                status=200,
            ),
        ],
    )
    add_routes(
        router,
        "review",
        [
            Command(
                "review",
                "/events/{event_code}/entries/{entry_id}/review",
                entries.review,
                s.DecisionIn,
                STAFF,
                v.EntryView,
                "Arbiter settles an entry pending review (wildcard, host quota)",
                action="evidence.review",
                status=200,
            )
        ],
    )


def _change_routes(router: APIRouter) -> None:
    add_routes(
        router,
        "changes",
        [
            Command(
                "request_change",
                "/events/{event_code}/entries/{entry_id}/changes",
                changes.request_change_cmd,
                s.ChangeIn,
                ANYONE,
                v.ChangeView,
                "Request a change (REG-10: arbiter approval after the close, none in the freeze; REG-9)",
                action="entries.manage",
            ),
            Read(
                "list_changes",
                "/events/{event_code}/changes",
                queries.list_changes,
                v.Changes,
                "Change requests (a partner sees its own)",
                pages=("changes", sort_by("change_id")),
            ),
        ],
    )

    @router.post(
        "/changes/{change_id}/decision",
        **keyed_write(v.ChangeView, 200),
        tags=["changes"],
        summary="Arbiter approves or refuses a change",
    )
    async def decide_change(
        change_id: PathId, body: s.DecisionIn, request: Request, principal: ChangeDecider
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
    add_routes(
        router,
        "evidence",
        [
            Command(
                "upload_evidence",
                "/events/{event_code}/evidence",
                evidence.upload_evidence,
                s.EvidenceUploadIn,
                ANYONE,
                v.UploadedEvidence,
                "Upload an evidence record for one of the caller's own entries or players (REG-6, REG-8); "
                "the document is stored encrypted; the player's entries are judged again (REG-18)",
                action="evidence.review",
            ),
            Read(
                "list_evidence",
                "/events/{event_code}/evidence",
                queries.list_evidence,
                v.EvidenceList,
                "Evidence records (a partner sees its own)",
                filters=(text_filter("status", 20),),
                pages=("evidence", sort_by("evidence_id")),
            ),
            # an event command like the others: the event is locked first and this process's
            # snapshot of it is reused and kept (an arbiter approves evidence one record at a time)
            Command(
                "decide_evidence",
                "/evidence/{evidence_id}/decision",
                evidence.decide_evidence,
                s.DecisionIn,
                STAFF,
                v.EvidenceDecision,
                "Arbiter approves or rejects evidence; the player's entries are judged again (REG-6)",
                action="evidence.review",
                status=200,
                event_of=evidence.evidence_event,
            ),
        ],
    )


def _unit_routes(router: APIRouter) -> None:
    add_routes(
        router,
        "units",
        [
            Command(
                "add_unit",
                "/events/{event_code}/units",
                units.add_unit,
                s.UnitIn,
                REGISTRANT,
                v.UnitDetail,
                "A unit with its leader and coaches (REG-3)",
            ),
            Command(
                "add_official",
                "/events/{event_code}/units/{unit_id}/officials",
                units.add_official,
                s.OfficialIn,
                REGISTRANT,
                v.UnitDetail,
                "Name a leader, coach or acting leader of a unit (REG-3)",
            ),
            Read(
                "list_units",
                "/events/{event_code}/units",
                queries.list_units,
                v.Units,
                "Units (a partner sees its own)",
                pages=("units", sort_by("unit_id")),
            ),
            Command(
                "load_exemption_list",
                "/events/{event_code}/quota-exemptions",
                exemptions.load_list,
                s.ExemptionListIn,
                STAFF,
                v.ExemptionList,
                "Load the list a delegation-quota exemption is checked against (REG-16, NY 七(三)): "
                "the previous edition's final places by section",
                action="event.configure",
                errors=(409,),
            ),
            Read(
                "exemption_list",
                "/events/{event_code}/quota-exemptions",
                exemptions.get_list,
                v.ExemptionList,
                "The list in force and every load of it (REG-16)",
                who=STAFF,
                personal=False,
            ),
        ],
    )


def _stage_routes(router: APIRouter) -> None:
    add_routes(
        router,
        "stages",
        [
            Command(
                "check_in",
                "/events/{event_code}/stages/{stage}/check-in",
                stages.check_in,
                s.CheckInIn,
                STAFF,
                v.CheckInReport,
                "Check entries in and mark no-shows (REG-11)",
                action="checkin.record",
                status=200,
            ),
            Command(
                "close",
                "/events/{event_code}/stages/{stage}/close",
                closing.close_stage_cmd,
                s.CloseIn,
                STAFF,
                v.ClosedStage,
                "Close a stage: merge/cancel sections (REG-12), emit one section.closed per section",
                action="entries.manage",
                status=200,
                body_optional=True,
            ),
            Read(
                "stage_status",
                "/events/{event_code}/stages/{stage}",
                queries.stage_view,
                v.StageView,
                "Stage status: open | awaiting_qualifiers | ready | closed, with per-section counts",
                personal=False,
            ),
            Command(
                "seeded",
                "/events/{event_code}/stages/{stage}/seeded",
                stages.post_seeded,
                s.SeededIn,
                STAFF,
                v.SeededList,
                "Players seeded straight into a qualification stage (EVT-6, SZ: Shenzhen Cup top 4)",
                action="entries.manage",
            ),
        ],
    )


def create_api(runtime: ServiceRuntime, keyring: KeyRing, context: RegistrationState | None = None) -> FastAPI:
    app = service_app(
        runtime,
        keyring,
        title="Gomoku registration service",
        description="Events from presets, entries, eligibility with evidence, teams, check-in, section closing and merging.",
    )
    app.state.registration = context
    app.state.idempotency = idempotency.for_runtime(runtime, orm.idempotency_keys)
    app.state.event_access = EventAccessDirectory.on_table(runtime.sessionmaker, orm.event_access)  # issue 29
    for router in (_router(), *more_routers()):
        app.include_router(router)
    return app
