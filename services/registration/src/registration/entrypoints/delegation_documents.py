"""Issue 34: a delegation's documents over HTTP. Its leader uploads them (multipart) by the
delegation's secret link (header ``X-Delegation-Token``) and lists what was sent (metadata only);
the staff who review the event's evidence list a unit's documents and read one. Every upload
passes the content checks and caps of every other uploader (`document_routes.checked_upload`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, File, Form, Request, UploadFile
from fastapi.responses import JSONResponse, Response

from gomoku_shared.api_docs import documented
from gomoku_shared.auth import Principal, require
from gomoku_shared.pagination import PageIn, paged, sort_by
from gomoku_shared.params import PathId

from ..domain.documents import DelegationDocumentKind
from ..service_layer import commands, documents
from ..service_layer import delegation_documents as dd
from ..service_layer.delegation_door import link_of
from . import views as v
from .access import STAFF, Call, calling, read
from .delegation_api import TAG, DelegationToken
from .document_routes import EXTENSIONS, FILE_HEADERS, checked_upload
from .public_api import WRONG_LINKS, link_attempt, on_event

#: the staff who review an event's evidence (per event: 403 ``not_your_event`` otherwise)
Reviewer = Annotated[Principal, Depends(require(*STAFF, action="evidence.review"))]
ReviewerCall = Annotated[Call, Depends(calling(STAFF, "evidence.review"))]
FILE_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"content": {media: {"schema": {"type": "string", "format": "binary"}} for media in EXTENSIONS}},
    429: {"description": WRONG_LINKS},
}


async def _leader(request: Request, token: str) -> tuple[Principal, str]:
    """The delegation the link proves, as a principal, and its event (404 ``unknown_delegation_link``)."""
    attempt = link_attempt(request)
    link = await read(request, lambda repos, _state: link_of(repos, token, attempt))
    return Principal.delegation(str(link.unit_id)), str(link.event_code)


def _file(record: Any, data: bytes) -> Response:
    headers = {
        **FILE_HEADERS,
        "Content-Disposition": f'inline; filename="{record.kind}.{EXTENSIONS[record.media_type]}"',
    }
    return Response(data, media_type=record.media_type, headers=headers)


def delegation_documents_router() -> APIRouter:
    router = APIRouter(prefix="/v1")

    @router.post(
        "/delegation/documents",
        status_code=201,
        tags=[TAG],
        summary="Upload a document of the delegation by its secret link: the stamped entry form, a payment "
        "screenshot, an ID card, an insurance policy (NY 十二(一), DA 十(一)1), optionally about one of its "
        "roster's people; checked by content, images stored without EXIF/GPS, encrypted (issue 34)",
        **documented(v.DocumentView, 201, 404, 413, 422, 429),
    )
    async def delegation_upload(
        request: Request,
        token: DelegationToken,
        kind: Annotated[DelegationDocumentKind, Form(description="what the document is")],
        file: Annotated[UploadFile, File(description="JPEG, PNG or WebP photo, or PDF")],
        person_id: Annotated[str | None, Form(min_length=1, max_length=200)] = None,
    ) -> JSONResponse:
        principal, code = await _leader(request, token)
        _data, checked = await checked_upload(request, file)
        unit_id = str(principal.unit_id)
        result = await on_event(request, commands.AddUnitDocument(code, unit_id, kind, person_id, checked), principal)
        return JSONResponse(result, status_code=201)

    @router.get(
        "/delegation/documents",
        tags=[TAG],
        summary="The documents the delegation sent, metadata and review state only (issue 34)",
        **documented(v.UnitDocuments, 200, 404, 429),
    )
    async def delegation_documents(request: Request, token: DelegationToken) -> dict[str, Any]:
        principal, code = await _leader(request, token)
        found = await read(
            request, lambda repos, _state: dd.unit_documents(repos, principal, code, str(principal.unit_id))
        )
        return {"documents": found}

    @router.get(
        "/delegation/documents/{document_id}",
        tags=[TAG],
        summary="A document the delegation sent (inline, never cached); another delegation's: 404 (issue 34)",
        response_class=Response,
        responses=FILE_RESPONSES,
    )
    async def delegation_document(document_id: PathId, request: Request, token: DelegationToken) -> Response:
        principal, code = await _leader(request, token)
        unit_id = str(principal.unit_id)
        record, data = await read(
            request, lambda repos, _state: documents.document_bytes(repos, principal, code, document_id, unit_id)
        )
        return _file(record, data)

    _staff_routes(router)
    return router


def _staff_routes(router: APIRouter) -> None:
    """The arbiter's view of a delegation's documents: the list, and one document's bytes."""
    unit_path = "/events/{event_code}/units/{unit_id}/documents"

    @router.get(
        unit_path,
        tags=["documents"],
        summary="A delegation's documents (metadata only), for the staff reviewing the event's evidence (issue 34)",
        **documented(v.Documents),
    )
    async def unit_documents(event_code: PathId, unit_id: PathId, call: ReviewerCall, page: PageIn) -> dict:
        found = await call.read(lambda reads, _state: dd.unit_documents(reads, call.principal, event_code, unit_id))
        return paged({"documents": found}, "documents", sort_by("uploaded_at", "document_id"), page)

    @router.get(
        unit_path + "/{document_id}",
        tags=["documents"],
        summary="A delegation's document (inline, never cached), for the staff reviewing the event's evidence",
        response_class=Response,
        responses=FILE_RESPONSES,
    )
    async def unit_document(
        event_code: PathId, unit_id: PathId, document_id: PathId, request: Request, principal: Reviewer
    ) -> Response:
        record, data = await read(
            request, lambda repos, _state: documents.document_bytes(repos, principal, event_code, document_id, unit_id)
        )
        return _file(record, data)
