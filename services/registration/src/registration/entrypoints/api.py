"""HTTP API of the registration service (docs/api.md; OpenAPI at /docs).

Partner keys see and act only on the players they registered (another partner's records answer 404); staff see
all. ID numbers and document references are never returned (masked); POSTs that create honour `Idempotency-Key`.

Each route is declared as it is: a command run through ``handlers.handle`` (``Call.run``) or a
read of the service layer (``Call.read``), in the order of the OpenAPI document; the events and
their owners here, the rest in the modules ``_router`` adds.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, FastAPI, Query
from fastapi.responses import JSONResponse

from gomoku_shared.api_docs import documented
from gomoku_shared.auth import KeyRing
from gomoku_shared.event_access import EventAccessDirectory
from gomoku_shared.idempotency import IdempotencyStore
from gomoku_shared.pagination import PageIn, paged
from gomoku_shared.params import PathId
from gomoku_shared.runtime import ServiceRuntime
from gomoku_shared.service import service_app

from .. import presets
from ..service_layer import commands, event_list, owners, queries
from ..service_layer import forms as f
from ..service_layer.state import RegistrationState
from . import schemas as s
from . import views as v
from .access import READER, STAFF, Call, calling, keyed_write
from .document_routes import add_document_routes
from .entry_routes import add_entry_routes
from .fee_routes import add_fee_routes
from .routers import more_routers
from .schemas import form
from .stage_routes import add_stage_routes

#: issue 29: the organisation whose events a list shows
Organisation = Annotated[
    str | None,
    Query(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$", description="an organisation's id"),
]
EventWords = Annotated[str | None, Query(min_length=1, max_length=64, description="a part of a name (en/zh) or code")]


#: who creates events: the operator's keys, or a staff account (authorised in the service layer)
EventCreator = Annotated[Call, Depends(calling(("operator", "arbiter"), people=True))]
#: the public event description: every reader, staff accounts too (issue 29)
Reader = Annotated[Call, Depends(calling(READER, people=True))]
Configurer = Annotated[Call, Depends(calling(STAFF, "event.configure"))]
StaffReader = Annotated[Call, Depends(calling(STAFF, "event.read"))]


def _router() -> APIRouter:
    router = APIRouter(prefix="/v1")
    for add in (_event_routes, _owner_routes, add_entry_routes, add_stage_routes, add_fee_routes, add_document_routes):
        add(router)
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
    async def create_event(body: s.EventIn, call: EventCreator) -> JSONResponse:
        answer = await call.run(commands.CreateEvent(form(body, f.EventIn), call.principal), body)
        call.request.app.state.event_access.forget(body.event_code)
        return answer

    @router.get(
        "/events/{event_code}",
        tags=["events"],
        summary="An event: its owner, stages, sections, caps, windows",
        **documented(v.EventView),
    )
    async def get_event(event_code: PathId, call: Reader) -> dict:
        return await call.read(lambda reads, state: queries.get_event(reads, state, event_code))

    @router.get(
        "/events",
        tags=["events"],
        summary="The events, newest first, as the home page lists them (issues 28, 29); `q`: by name or code",
        **documented(v.EventList),
    )
    async def list_events(call: Reader, page: PageIn, organisation: Organisation = None, q: EventWords = None) -> dict:
        found = await call.read(
            lambda reads, state: event_list.list_events(reads, state, organisation=organisation, q=q)
        )
        return paged(found, "events", event_list.newest_first, page)


def _owner_routes(router: APIRouter) -> None:
    """Issue 29: the partner apps an event's organiser chose."""

    @router.put(
        "/events/{event_code}/partners",
        **keyed_write(v.EventPartners, 200),
        tags=["events"],
        summary="Choose the partner apps that may register entries and act in the event (null: every partner); "
        "audited, emits event.access_changed (issue 29)",
    )
    async def choose_partners(event_code: PathId, body: s.PartnersIn, call: Configurer) -> JSONResponse:
        return await call.run(commands.ChoosePartners(event_code, form(body, f.PartnersIn)), body, status=200)

    @router.get(
        "/events/{event_code}/partners",
        tags=["events"],
        summary="The partner apps chosen for the event and who chose them when (issue 29)",
        **documented(v.EventPartners),
    )
    async def event_partners(event_code: PathId, call: StaffReader) -> dict:
        return await call.read(lambda reads, state: owners.partners_view(reads, state, event_code))


def create_api(
    runtime: ServiceRuntime,
    keyring: KeyRing,
    context: RegistrationState,
    idempotency_store: IdempotencyStore,
    event_access: EventAccessDirectory,
) -> FastAPI:
    """The API; the stores on the service's tables (the keys of writes, who may act on an event:
    issue 29) come from the composition root."""
    app = service_app(
        runtime,
        keyring,
        title="Gomoku registration service",
        description="Events from presets, entries, eligibility with evidence, teams, check-in, section closing and merging.",
    )
    app.state.registration = context
    app.state.idempotency = idempotency_store
    app.state.event_access = event_access
    for router in (_router(), *more_routers()):
        app.include_router(router)
    return app
