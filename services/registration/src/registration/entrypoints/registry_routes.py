"""Issue 32: the routes of the registry of people of an organisation (docs/api.md "The registry
of people"). Staff only — the operator's keys, or a staff credential holding ``people.manage`` in
the organisation (checked by the service layer: the routes name no event); partner apps and the
viewer key never reach them. Writes are keyed like every other (``Idempotency-Key``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import JSONResponse

from gomoku_shared.auth import Principal, require
from gomoku_shared.pagination import PageIn, paged, sort_by

from ..service_layer import commands, registry_reads
from ..service_layer import forms as f
from . import registry_schemas as s
from . import registry_views as v
from .access import STAFF, Call, calling, documented, keyed_write, read
from .schemas import form

#: staff credentials; the organisation's ``people.manage`` is checked by the service layer
Staff = Annotated[Principal, Depends(require(*STAFF, people=True))]
StaffCall = Annotated[Call, Depends(calling(STAFF, people=True))]
Org = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")]
PersonId = Annotated[str, Path(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_-]+$")]
NameWords = Annotated[str | None, Query(min_length=1, max_length=100, description="a part of the name (any case)")]


def people_router() -> APIRouter:
    router = APIRouter(prefix="/v1/organisations/{org}/people", tags=["registry of people"])

    @router.get(
        "",
        summary="The organisation's registry of people by name (issue 32; ID numbers masked; people.manage)",
        **documented(v.RegistryPeople),
    )
    async def search_people(org: Org, request: Request, principal: Staff, page: PageIn, q: NameWords = None):
        found = await read(request, lambda repos, state: registry_reads.search(repos, state, principal, org, q))
        return paged(found, "people", sort_by("name", "person_id"), page)

    @router.get(
        "/{person_id}",
        summary="One registry person: their event records and entries, who was merged into them, "
        "and the audit of what was done to them (issue 32; people.manage)",
        **documented(v.RegistryPersonView),
    )
    async def read_person(org: Org, person_id: PersonId, request: Request, principal: Staff):
        return await read(
            request, lambda repos, state: registry_reads.read_person(repos, state, principal, org, person_id)
        )

    _writes(router)
    return router


def _writes(router: APIRouter) -> None:
    """POST /v1/organisations/{org}/people/{person_id}/…: the staff's actions, each a command."""

    @router.post(
        "/{person_id}/merge",
        **keyed_write(v.RegistryPersonView, 200, 404),
        summary="Merge another registry person into this one (one human; audited, undone by a split) "
        "(issue 32; people.manage)",
    )
    async def merge_people(org: Org, person_id: PersonId, body: s.MergeIn, call: StaffCall) -> JSONResponse:
        command = commands.MergePeople(org, person_id, form(body, f.MergeIn), call.principal)
        return await call.run(command, body, status=200)

    @router.post(
        "/{person_id}/split",
        **keyed_write(v.RegistrySplit, 200, 404),
        summary="Undo a merge, or split an event person out into a new registry person (audited) "
        "(issue 32; people.manage)",
    )
    async def split_person(org: Org, person_id: PersonId, body: s.SplitIn, call: StaffCall) -> JSONResponse:
        command = commands.SplitPerson(org, person_id, form(body, f.SplitIn), call.principal)
        return await call.run(command, body, status=200)

    @router.post(
        "/{person_id}/correction",
        **keyed_write(v.RegistryPersonView, 200, 404),
        summary="Correct the person's name, gender or birth date in the registry (audited) (issue 32; people.manage)",
    )
    async def correct_person(org: Org, person_id: PersonId, body: s.CorrectionIn, call: StaffCall) -> JSONResponse:
        command = commands.CorrectPerson(org, person_id, form(body, f.CorrectionIn), call.principal)
        return await call.run(command, body, status=200)

    @router.post(
        "/{person_id}/export",
        **keyed_write(v.RegistryExport, 200, 404),
        summary="The person's data in full, for a subject access request (audited) (issue 32; people.manage)",
    )
    async def export_person(org: Org, person_id: PersonId, body: s.ExportIn, call: StaffCall) -> JSONResponse:
        command = commands.ExportPerson(org, person_id, form(body, f.ExportIn), call.principal)
        return await call.run(command, body, status=200)
