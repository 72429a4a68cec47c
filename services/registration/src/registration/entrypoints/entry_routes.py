"""The routes of entries (made, withdrawn, corrected, reviewed), their change requests and their
evidence: each a command run through ``handlers.handle`` or a read of the service layer."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse

from gomoku_shared.pagination import PageIn, paged, sort_by
from gomoku_shared.params import PathId

from ..service_layer import changes, commands, evidence, queries
from ..service_layer import forms as f
from . import schemas as s
from . import views as v
from .access import (
    ANYONE,
    REGISTRANT,
    STAFF,
    Call,
    calling,
    documented,
    event_finder,
    event_named_by,
    keyed_write,
    read,
)
from .schemas import form

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

Registrant = Annotated[Call, Depends(calling(REGISTRANT))]
EntriesManager = Annotated[Call, Depends(calling(ANYONE, "entries.manage"))]
EvidenceHolder = Annotated[Call, Depends(calling(ANYONE, "evidence.review"))]
Reviewer = Annotated[Call, Depends(calling(STAFF, "evidence.review"))]
EvidenceReviewer = Annotated[
    Call, Depends(calling(STAFF, "evidence.review", event_finder(evidence.evidence_event, "evidence_id")))
]
EventReader = Annotated[Call, Depends(calling(ANYONE, "event.read"))]


async def _event_of_change(request: Request) -> str | None:
    """The event a change request belongs to (the staff check of its decision, issue 29)."""
    return await read(request, lambda reads, _state: changes.change_event(reads, request.path_params["change_id"]))


ChangeDecider = Annotated[Call, Depends(calling(STAFF, "entries.manage", _event_of_change))]


def add_entry_routes(router: APIRouter) -> None:
    for add in (_entry_routes, _entry_update_routes, _change_routes, _evidence_routes):
        add(router)


def _entry_routes(router: APIRouter) -> None:
    @router.post(
        "/events/{event_code}/entries",
        **keyed_write(v.SubmittedEntry),
        tags=["entries"],
        summary="Register one player (REG-1..8, REG-13); Idempotency-Key honoured",
    )
    async def submit_entry(event_code: PathId, body: s.EntryIn, call: Registrant) -> JSONResponse:
        return await call.run(commands.SubmitEntry(event_code, form(body, f.EntryIn)), body)

    @router.post(
        "/events/{event_code}/entries/bulk",
        **keyed_write(v.BulkReport),
        tags=["entries"],
        summary="Bulk registration for partner platforms: all or nothing, with a per-row report",
    )
    async def submit_bulk(event_code: PathId, body: s.BulkIn, call: Registrant) -> JSONResponse:
        return await call.run(commands.SubmitBulk(event_code, form(body, f.BulkIn)), body)

    @router.post(
        "/events/{event_code}/teams",
        **keyed_write(v.SubmittedEntry),
        tags=["entries"],
        summary="Register a team with its board order fixed at registration (REG-9)",
    )
    async def submit_team(event_code: PathId, body: s.TeamIn, call: Registrant) -> JSONResponse:
        return await call.run(commands.SubmitTeam(event_code, form(body, f.TeamIn)), body)

    @router.get(
        "/events/{event_code}/entries",
        tags=["entries"],
        summary="Entries (a partner sees only its own; ID numbers masked)",
        **documented(v.Entries),
    )
    async def list_entries(
        event_code: PathId,
        call: EventReader,
        page: PageIn,
        stage: str | None = Query(None, max_length=64),
        section_id: str | None = Query(None, max_length=100),
        status: str | None = Query(None, max_length=40),
        external_id: ExternalId = None,
    ) -> dict:
        found = await call.read(
            lambda reads, state: queries.list_entries(
                reads,
                state,
                call.principal,
                event_code,
                stage=stage,
                section_id=section_id,
                status=status,
                external_id=external_id,
            )
        )
        return paged(found, "entries", sort_by("stage", "section_id", "seq", "entry_id"), page)

    @router.get(
        "/events/{event_code}/entries/{entry_id}",
        tags=["entries"],
        summary="One entry with its decisions",
        **documented(v.EntryView),
    )
    async def get_entry(event_code: PathId, entry_id: PathId, call: EventReader) -> dict:
        return await call.read(
            lambda reads, state: queries.get_entry(reads, state, call.principal, event_code, entry_id)
        )


def _entry_update_routes(router: APIRouter) -> None:
    """What happens to an entry after it was made: withdrawn, its facts corrected, reviewed."""

    @router.post(
        "/events/{event_code}/entries/{entry_id}/withdraw",
        **keyed_write(v.WithdrawnEntry, 200),
        tags=["entries"],
        summary="Withdraw an entry with a written reason (REG-10); the waiting list moves up (REG-2)",
    )
    async def withdraw(event_code: PathId, entry_id: PathId, body: s.WithdrawIn, call: EntriesManager) -> JSONResponse:
        return await call.run(commands.Withdraw(event_code, entry_id, form(body, f.WithdrawIn)), body, status=200)

    @router.post(
        "/events/{event_code}/entries/{entry_id}/facts",
        **keyed_write(v.CorrectedEntry, 200),
        tags=["entries"],
        summary="Correct declared facts; the entry is judged again, refused ones too (REG-18)",
    )
    async def correct_facts(
        event_code: PathId, entry_id: PathId, body: s.FactsCorrectionIn, call: EntriesManager
    ) -> JSONResponse:
        return await call.run(
            commands.CorrectFacts(event_code, entry_id, form(body, f.FactsCorrectionIn)), body, status=200
        )

    @router.post(
        "/events/{event_code}/entries/{entry_id}/review",
        **keyed_write(v.EntryView, 200),
        tags=["review"],
        summary="Arbiter settles an entry pending review (wildcard, host quota)",
    )
    async def review(event_code: PathId, entry_id: PathId, body: s.DecisionIn, call: Reviewer) -> JSONResponse:
        return await call.run(commands.ReviewEntry(event_code, entry_id, form(body, f.DecisionIn)), body, status=200)


def _change_routes(router: APIRouter) -> None:
    @router.post(
        "/events/{event_code}/entries/{entry_id}/changes",
        **keyed_write(v.ChangeView),
        tags=["changes"],
        summary="Request a change (REG-10: arbiter approval after the close, none in the freeze; REG-9)",
    )
    async def request_change(
        event_code: PathId, entry_id: PathId, body: s.ChangeIn, call: EntriesManager
    ) -> JSONResponse:
        return await call.run(commands.RequestChange(event_code, entry_id, form(body, f.ChangeIn)), body)

    @router.get(
        "/events/{event_code}/changes",
        tags=["changes"],
        summary="Change requests (a partner sees its own)",
        **documented(v.Changes),
    )
    async def list_changes(event_code: PathId, call: EventReader, page: PageIn) -> dict:
        found = await call.read(lambda reads, state: queries.list_changes(reads, state, call.principal, event_code))
        return paged(found, "changes", sort_by("change_id"), page)

    @router.post(
        "/changes/{change_id}/decision",
        **keyed_write(v.ChangeView, 200),
        tags=["changes"],
        summary="Arbiter approves or refuses a change",
    )
    async def decide_change(change_id: PathId, body: s.DecisionIn, call: ChangeDecider) -> JSONResponse:
        return await call.run(
            commands.DecideChange(change_id, form(body, f.DecisionIn), call.principal), body, status=200
        )


def _evidence_routes(router: APIRouter) -> None:
    @router.post(
        "/events/{event_code}/evidence",
        **keyed_write(v.UploadedEvidence),
        tags=["evidence"],
        summary="Upload an evidence record for one of the caller's own entries or players (REG-6, REG-8); "
        "the document is stored encrypted; the player's entries are judged again (REG-18)",
    )
    async def upload_evidence(event_code: PathId, body: s.EvidenceUploadIn, call: EvidenceHolder) -> JSONResponse:
        return await call.run(commands.UploadEvidence(event_code, form(body, f.EvidenceUploadIn)), body)

    @router.get(
        "/events/{event_code}/evidence",
        tags=["evidence"],
        summary="Evidence records (a partner sees its own)",
        **documented(v.EvidenceList),
    )
    async def list_evidence(
        event_code: PathId, call: EventReader, page: PageIn, status: str | None = Query(None, max_length=20)
    ) -> dict:
        found = await call.read(
            lambda reads, state: queries.list_evidence(reads, state, call.principal, event_code, status=status)
        )
        return paged(found, "evidence", sort_by("evidence_id"), page)

    # an event command like the others: the event is locked first and this process's snapshot
    # of it is reused and kept (an arbiter approves evidence one record at a time)
    @router.post(
        "/evidence/{evidence_id}/decision",
        **keyed_write(v.EvidenceDecision, 200),
        tags=["evidence"],
        summary="Arbiter approves or rejects evidence; the player's entries are judged again (REG-6)",
    )
    async def decide_evidence(evidence_id: PathId, body: s.DecisionIn, call: EvidenceReviewer) -> JSONResponse:
        code = await event_named_by(call.request, evidence.evidence_event, evidence_id)
        return await call.run(commands.DecideEvidence(code, evidence_id, form(body, f.DecisionIn)), body, status=200)
