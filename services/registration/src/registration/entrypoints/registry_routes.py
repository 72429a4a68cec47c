"""Issue 32: the routes of the registry of people of an organisation (docs/api.md "The registry
of people"). Staff only — the operator's keys, or a staff credential holding ``people.manage`` in
the organisation (checked by the service layer: the routes name no event); partner apps and the
viewer key never reach them. Writes are keyed like every other (``Idempotency-Key``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from gomoku_shared.auth import Principal, require
from gomoku_shared.pagination import PageIn, paged, sort_by

from ..service_layer import registry_reads, registry_staff
from ..service_layer import registry_schemas as s
from ..service_layer.unit_of_work import RegistrationUnitOfWork
from . import registry_views as v
from .access import STAFF, documented, keyed_write, read, run

#: staff credentials; the organisation's ``people.manage`` is checked by the service layer
Staff = Annotated[Principal, Depends(require(*STAFF, people=True))]
Org = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")]
PersonId = Annotated[str, Path(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_-]+$")]
NameWords = Annotated[str | None, Query(min_length=1, max_length=100, description="a part of the name (any case)")]

Action = Callable[[RegistrationUnitOfWork, Principal, str, str, Any], Awaitable[dict[str, Any]]]


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

    _write(
        router,
        "/merge",
        "merge_people",
        s.MergeIn,
        v.RegistryPersonView,
        registry_staff.merge,
        200,
        "Merge another registry person into this one (one human; audited, undone by a split)",
    )
    _write(
        router,
        "/split",
        "split_person",
        s.SplitIn,
        v.RegistrySplit,
        registry_staff.split,
        200,
        "Undo a merge, or split an event person out into a new registry person (audited)",
    )
    _write(
        router,
        "/correction",
        "correct_person",
        s.CorrectionIn,
        v.RegistryPersonView,
        registry_staff.correct,
        200,
        "Correct the person's name, gender or birth date in the registry (audited)",
    )
    _write(
        router,
        "/export",
        "export_person",
        s.ExportIn,
        v.RegistryExport,
        registry_staff.export,
        200,
        "The person's data in full, for a subject access request (audited)",
    )
    return router


def _write(
    router: APIRouter,
    suffix: str,
    name: str,
    body_type: type[BaseModel],
    answer: type[v.View],
    action: Action,
    status: int,
    summary: str,
) -> None:
    """POST /v1/organisations/{org}/people/{person_id}``suffix``: ``action`` in one transaction."""

    async def endpoint(org: Org, person_id: PersonId, body: Any, request: Request, principal: Staff) -> JSONResponse:
        return await run(
            request,
            principal,
            None,
            lambda uow, _cmd: action(uow, principal, org, person_id, body),
            status=status,
            body=body,
        )

    endpoint.__annotations__["body"] = body_type
    endpoint.__name__ = endpoint.__qualname__ = name
    router.post(
        "/{person_id}" + suffix,
        **keyed_write(answer, status, 404),
        summary=summary + " (issue 32; people.manage)",
    )(endpoint)
