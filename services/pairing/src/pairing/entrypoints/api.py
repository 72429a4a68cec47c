"""HTTP API of the pairing service: public reads (sections, rounds, standings, cross table, TRF,
ties) and the arbiter's actions (results, pairings before a round starts, byes, withdrawals, tie
decisions), each audited. Paths follow docs/api.md."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, FastAPI, Query, Request, Response
from fastapi.responses import PlainTextResponse
from pydantic import BaseModel

from gomoku_shared.api_docs import documented, text_too
from gomoku_shared.auth import KeyRing, Principal, require
from gomoku_shared.contracts.common import Entrant
from gomoku_shared.errors import NotFound
from gomoku_shared.event_access import EventAccessDirectory, authorize
from gomoku_shared.idempotency import IdemKey, IdempotencyStore, keyed_request, keyed_transaction
from gomoku_shared.pagination import PageIn, paged, sort_by
from gomoku_shared.params import PathId, RoundNo
from gomoku_shared.runtime import ServiceRuntime
from gomoku_shared.service import service_app

from ..domain.aggregate import Section
from ..service_layer import handlers, queries, reads, schedule
from ..service_layer.commands import (
    AddBye,
    CorrectPairings,
    DecideTie,
    DelayRound,
    EnterResult,
    LateEntry,
    PublishRound,
    SetHold,
    StaffCommand,
    Withdraw,
)
from ..service_layer.pool import Pairer
from ..service_layer.unit_of_work import PairingUnitOfWork, SqlPairingUnitOfWork
from . import views
from .bodies import ByeBody, DecisionBody, DelayBody, HoldBody, LateEntryBody, PairingsBody, ResultBody, WithdrawalBody
from .conditional import not_modified, tag
from .csv_answers import crosstable_csv, standings_csv

SEC = "/v1/events/{event_code}/sections/{section_id}"
# The round routes take `n`: the path parameter's public name (docs/api.md, the OpenAPI document).
TableFormat = Literal["json", "csv"]
Action = Callable[[PairingUnitOfWork], Awaitable[Any]]

router = APIRouter(tags=["pairing"])


def _with_text(model: type[BaseModel], media_type: str) -> dict:
    """``responses=`` of an answer in JSON (``model``) or, on request, text."""
    return {200: {"model": model, **text_too(media_type)[200]}}


def _runtime(request: Request) -> ServiceRuntime:
    return request.app.state.runtime


def _pairer(request: Request) -> Pairer:
    return request.app.state.pairer


async def _read(request: Request, read: Callable[[reads.Reads], Awaitable[Any]]) -> Any:
    """Run a read of the service layer's reads on one session (no transaction kept open)."""
    return await reads.read(_runtime(request), read)


async def _load(request: Request, event_code: str, section_id: str) -> Section:
    state = await _read(request, lambda stored: stored.section(event_code, section_id))
    if state is None:
        raise NotFound("section_not_found", f"no section {section_id!r} in event {event_code!r}")
    return state


async def _act(
    request: Request, principal: Principal, key: str | None, correlation: str, action: Action, body: BaseModel | None
) -> Any:
    """Run an arbiter action in one transaction; an Idempotency-Key is bound to the request
    (gomoku_shared.idempotency): a retry replays the stored answer, another request with the
    same key is refused."""
    store: IdempotencyStore = request.app.state.idempotency
    return await keyed_transaction(
        lambda: _runtime(request).transaction(correlation_id=correlation),
        store,
        keyed_request(request, principal, key, body),
        lambda uow: action(SqlPairingUnitOfWork(uow)),
    )


@dataclass(frozen=True)
class ArbiterRequest:
    """Who asks for an arbiter's action (staff), and with which Idempotency-Key."""

    request: Request
    principal: Principal
    key: str | None

    @property
    def pairer(self) -> Pairer:
        return _pairer(self.request)

    async def act(self, correlation: str, action: Action, body: BaseModel | None) -> Any:
        return await _act(self.request, self.principal, self.key, correlation, action, body)

    async def run(self, command: StaffCommand, body: BaseModel | None) -> Any:
        """The command's use case (:func:`handlers.handle`), the staff's action on its event (``act``)."""
        return await self.act(command.event_code, lambda uow: handlers.handle(command, uow, self.pairer), body)


def _caller(action: str) -> Callable[..., ArbiterRequest]:
    """The caller of a write route taking ``action`` (a ``staff_roles.ACTIONS`` name): the
    request, the staff member and the Idempotency-Key header. Issue 29: a staff member acts only
    in the events where they hold one of the action's roles (the event of the path)."""
    guard = require("operator", "arbiter", action=action)

    def caller(request: Request, key: str | None = IdemKey, principal: Principal = Depends(guard)) -> ArbiterRequest:
        return ArbiterRequest(request, principal, key)

    return caller


#: the callers of the write routes, by what they do (issue 29, gomoku_shared.staff_roles)
ResultEntry = Annotated[ArbiterRequest, Depends(_caller("results.enter"))]
Correction = Annotated[ArbiterRequest, Depends(_caller("results.correct"))]
RoundsPairing = Annotated[ArbiterRequest, Depends(_caller("rounds.pair"))]
AppealLodging = Annotated[ArbiterRequest, Depends(_caller("appeals.lodge"))]
AppealDeciding = Annotated[ArbiterRequest, Depends(_caller("appeals.decide"))]
#: staff reads in full (audits, appeals): the event's staff who may read it, and the operator
StaffReader = Annotated[Principal, Depends(require("operator", "arbiter", action="event.read"))]


async def _correction_check(call: ArbiterRequest, event_code: str) -> Callable[[], object] | None:
    """Issue 29: changing a result that stands is a correction (``results.correct``); the check
    runs in the action, under the section's lock, where the stored result is known."""
    principal = call.principal
    if principal.role == "operator" and principal.person is None:
        return None  # the platform operator's keys act on every event
    directory: EventAccessDirectory = call.request.app.state.event_access
    access = await directory.get(event_code)
    return lambda: authorize(principal, "results.correct", access)


# ---------------------------------------------------------------- reads


@router.get(
    "/v1/events/{event_code}/sections",
    summary="Sections of an event with status and current round",
    **documented(views.SectionList),
)
async def list_sections(event_code: PathId, request: Request, page: PageIn) -> dict:
    rows = await _read(request, lambda stored: stored.sections_of_event(event_code))
    return paged(queries.section_list(event_code, rows), "sections", sort_by("section_id"), page)


@router.get(
    SEC, summary="A section: rules, entrants with start numbers, rounds, ties", **documented(views.SectionDetail)
)
async def section_detail(event_code: PathId, section_id: PathId, request: Request, response: Response) -> Any:
    if unchanged := await not_modified(request, _read, event_code, section_id, "section"):
        return unchanged
    state = await _load(request, event_code, section_id)
    tag(response, state, "section")
    return queries.section_detail(state)


@router.get(
    SEC + "/rounds/{n}",
    summary="Pairings of a round with their results (drafts included)",
    **documented(views.RoundView),
)
async def get_round(event_code: PathId, section_id: PathId, n: RoundNo, request: Request, response: Response) -> Any:
    if unchanged := await not_modified(request, _read, event_code, section_id, f"round{n}"):
        return unchanged
    state = await _load(request, event_code, section_id)
    games = await _read(request, lambda stored: stored.games(event_code, section_id))
    answer = queries.round_view(state, n, games)
    tag(response, state, f"round{n}")
    return answer


def _table_route(path: str, summary: str, view: type[BaseModel]) -> Callable[[Any], Any]:
    """A section's table: JSON, or CSV with ``?format=csv``."""
    return router.get(SEC + path, summary=summary, response_model=None, responses=_with_text(view, "text/csv"))


async def _table(
    request: Request,
    response: Response,
    event_code: str,
    section_id: str,
    format: TableFormat,
    table: Callable[[Section], dict],
    to_csv: Callable[[dict], str],
    name: str,
) -> Any:
    """A section's table as JSON or CSV, tagged with the section's version (a 304 when the
    client has it already)."""
    if unchanged := await not_modified(request, _read, event_code, section_id, f"{name}.{format}"):
        return unchanged
    state = await _load(request, event_code, section_id)
    answer = table(state)
    if format == "csv":
        text = PlainTextResponse(to_csv(answer), media_type="text/csv")
        tag(text, state, f"{name}.csv")
        return text
    tag(response, state, f"{name}.json")
    return answer


@_table_route("/standings", "Standings with every tiebreak value (JSON or ?format=csv)", views.Standings)
async def get_standings(
    event_code: PathId, section_id: PathId, request: Request, response: Response, format: TableFormat = Query("json")
) -> Any:
    return await _table(
        request, response, event_code, section_id, format, queries.standings, standings_csv, "standings"
    )


@_table_route("/crosstable", "Cross table (JSON or ?format=csv)", views.CrossTable)
async def get_crosstable(
    event_code: PathId, section_id: PathId, request: Request, response: Response, format: TableFormat = Query("json")
) -> Any:
    return await _table(
        request, response, event_code, section_id, format, queries.crosstable, crosstable_csv, "crosstable"
    )


@router.get(
    SEC + "/trf",
    summary="FIDE TRF-16 export (teams: teams as competitors)",
    response_model=None,
    response_class=PlainTextResponse,
    responses=text_too("text/plain"),
)
async def get_trf(event_code: PathId, section_id: PathId, request: Request) -> Any:
    state = await _load(request, event_code, section_id)
    return PlainTextResponse(queries.trf(state), media_type="text/plain")


@router.get(
    SEC + "/ties",
    summary="Ties on places that matter (PAIR-8): playoffs and arbiter decisions",
    **documented(views.Ties),
)
async def get_ties(event_code: PathId, section_id: PathId, request: Request, response: Response) -> Any:
    if unchanged := await not_modified(request, _read, event_code, section_id, "ties"):
        return unchanged
    state = await _load(request, event_code, section_id)
    tag(response, state, "ties")
    return queries.ties(state)


@router.get(
    SEC + "/byes", summary="Requested and forced byes of rounds not yet paired or published", **documented(views.Byes)
)
async def get_byes(event_code: PathId, section_id: PathId, request: Request) -> dict:
    return queries.bye_requests(await _load(request, event_code, section_id))


@router.get(SEC + "/audit", summary="Arbiter audit records (staff)", **documented(views.Audit))
async def get_audit(
    event_code: PathId, section_id: PathId, request: Request, _principal: StaffReader, page: PageIn
) -> dict:
    rows = await _read(request, lambda stored: stored.audit(event_code, section_id))
    return paged(queries.audit_view(rows), "audit", sort_by("id"), page)


# ---------------------------------------------------------------- the arbiter's actions


@router.post(
    SEC + "/rounds/{n}/results",
    summary="Enter or correct a result (audited; PAIR-11, AWD-8); a stale expected_revision: 409 stale_revision",
    **documented(views.ResultEntered),
)
async def post_result(event_code: PathId, section_id: PathId, n: RoundNo, body: ResultBody, call: ResultEntry) -> dict:
    may_correct = await _correction_check(call, event_code)
    command = EnterResult(
        event_code,
        section_id,
        n,
        body.pairing_id,
        body.result,
        call.principal,
        body.note,
        body.expected_revision,
        may_correct,
    )
    return await call.run(command, body)


@router.put(
    SEC + "/rounds/{n}/pairings",
    summary="Correct a draft round's pairings (checked, audited)",
    **documented(views.RoundStatus),
)
async def put_pairings(
    event_code: PathId, section_id: PathId, n: RoundNo, body: PairingsBody, call: RoundsPairing
) -> dict:
    boards = [(board.first, board.second) for board in body.boards]
    byes = [(bye.entrant_id, bye.kind) for bye in body.byes]
    return await call.run(CorrectPairings(event_code, section_id, n, boards, byes, call.principal), body)


@router.post(
    SEC + "/rounds/{n}/publish", summary="Publish a reviewed draft round (then final)", **documented(views.RoundStatus)
)
async def post_publish(event_code: PathId, section_id: PathId, n: RoundNo, call: RoundsPairing) -> dict:
    return await call.run(PublishRound(event_code, section_id, n, call.principal), None)


@router.get(
    SEC + "/round-times",
    summary="Every round's scheduled, delayed and actual start (EVT-7)",
    **documented(views.RoundTimes),
)
async def get_round_times(event_code: PathId, section_id: PathId, request: Request) -> dict:
    state = await _load(request, event_code, section_id)
    return schedule.round_times(state, state.delays)


@router.post(
    SEC + "/rounds/{n}/delay",
    summary="Delay a round's start (EVT-7): audited; round.rescheduled moves the games' start",
    **documented(views.RoundDelayed),
)
async def post_delay(event_code: PathId, section_id: PathId, n: RoundNo, body: DelayBody, call: RoundsPairing) -> dict:
    return await call.run(DelayRound(event_code, section_id, n, body.starts_at, body.reason, call.principal), body)


@router.post(
    SEC + "/rounds/{n}/delay-slot",
    summary="Delay round n of the section's whole time slot (EVT-7): every section scheduled then, together",
    **documented(views.SlotDelayed),
)
async def post_delay_slot(
    event_code: PathId, section_id: PathId, n: RoundNo, body: DelayBody, call: RoundsPairing
) -> dict:
    command = DelayRound(event_code, section_id, n, body.starts_at, body.reason, call.principal, slot=True)
    return await call.run(command, body)


@router.post(
    SEC + "/hold", summary="Hold the next rounds as drafts for review before publishing", **documented(views.HoldSet)
)
async def post_hold(event_code: PathId, section_id: PathId, body: HoldBody, call: RoundsPairing) -> dict:
    return await call.run(SetHold(event_code, section_id, body.hold, call.principal), body)


@router.post(
    SEC + "/byes",
    summary="Requested (half point) or forced (full point) bye for a coming round",
    **documented(views.ByeAdded),
)
async def post_bye(event_code: PathId, section_id: PathId, body: ByeBody, call: RoundsPairing) -> dict:
    command = AddBye(event_code, section_id, body.entrant_id, body.kind, body.round, call.principal)
    return await call.run(command, body)


@router.post(
    SEC + "/withdrawals", summary="Withdraw a player (not paired after the given round)", **documented(views.Withdrawn)
)
async def post_withdrawal(event_code: PathId, section_id: PathId, body: WithdrawalBody, call: RoundsPairing) -> dict:
    command = Withdraw(event_code, section_id, body.entrant_id, body.after_round, body.reason, call.principal)
    return await call.run(command, body)


@router.post(
    SEC + "/entrants",
    summary="Late entry (Swiss): paired from the next unpublished round",
    **documented(views.LateEntry),
)
async def post_late_entry(event_code: PathId, section_id: PathId, body: LateEntryBody, call: RoundsPairing) -> dict:
    entrant = Entrant(**body.model_dump())
    return await call.run(LateEntry(event_code, section_id, entrant, call.principal), body)


@router.post(
    SEC + "/ties/{tie_id}/decision", summary="The arbiter's order for a tie (PAIR-8)", **documented(views.TieDecided)
)
async def post_decision(
    event_code: PathId, section_id: PathId, tie_id: PathId, body: DecisionBody, call: Correction
) -> dict:
    command = DecideTie(event_code, section_id, tie_id, body.order, call.principal, body.expected_revision)
    return await call.run(command, body)


def create_api(
    runtime: ServiceRuntime,
    keyring: KeyRing,
    pairer: Pairer,
    event_access: EventAccessDirectory,
    idempotency_store: IdempotencyStore,
) -> FastAPI:
    """The app (``event_access``, ``idempotency_store``: on the service's own tables, built by
    the composition root)."""
    app = service_app(
        runtime,
        keyring,
        title="Gomoku pairing service",
        description="Swiss (FIDE Dutch) and round-robin (Berger) pairing, results, standings with tiebreaks, playoffs, the round lifecycle.",
    )
    app.state.pairer = pairer
    app.state.idempotency = idempotency_store
    # issue 29: who owns each event (event.access_changed), for require(..., action=...)
    app.state.event_access = event_access
    app.include_router(router)
    return app
