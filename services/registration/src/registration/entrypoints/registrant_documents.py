"""Issue 34: a registrant's documents by the entry's secret link — a parent uploads the photo of
a household registration (户籍) from their phone, lists what they sent with its review, and may
read one back. The token (header ``X-Registrant-Token``) proves one entry; authorisation is the
one of every other uploader (`service_layer.document_access`), and the same content checks and
caps apply (bytes per file, bytes per entry)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, File, Form, Request, UploadFile
from fastapi.responses import JSONResponse, Response

from gomoku_shared.api_docs import documented
from gomoku_shared.auth import Principal
from gomoku_shared.params import PathId

from ..domain.documents import DocumentKind
from ..service_layer import commands, documents, registrant_page
from . import public_views as pv
from . import views as v
from .access import read
from .delegation_api import delegation_router
from .document_routes import EXTENSIONS, FILE_HEADERS, checked_upload
from .public_api import TAG, WRONG_LINKS, RegistrantToken, link_attempt, on_event, public_router

#: the public routers of issue 34, for the app to include
__all__ = ["delegation_router", "public_router", "registrant_documents_router"]


async def _registrant(request: Request, token: str) -> tuple[Principal, str]:
    """The registrant the link proves and their event (404 ``unknown_registrant_link`` otherwise)."""
    attempt = link_attempt(request)
    principal, link = await read(request, lambda repos, _state: registrant_page.registrant_of(repos, token, attempt))
    return principal, link.event_code


def registrant_documents_router() -> APIRouter:
    router = APIRouter(prefix="/v1")

    @router.post(
        "/registrant/documents",
        status_code=201,
        tags=[TAG],
        summary="Upload a document of the registrant's own entry by its secret link (checked by content, "
        "images stored without EXIF/GPS, encrypted); without evidence_id it joins the entry's pending evidence "
        "of its kind, for the arbiter's review (issue 34)",
        **documented(v.DocumentView, 201, 404, 413, 422, 429),
    )
    async def registrant_upload(
        request: Request,
        token: RegistrantToken,
        kind: Annotated[DocumentKind, Form(description="what the document is")],
        file: Annotated[UploadFile, File(description="JPEG, PNG or WebP photo, or PDF")],
        evidence_id: Annotated[str | None, Form(min_length=1, max_length=200)] = None,
    ) -> JSONResponse:
        principal, code = await _registrant(request, token)
        _data, checked = await checked_upload(request, file)
        entry_id = str(principal.entry_id)
        result = await on_event(request, commands.AddDocument(code, entry_id, kind, evidence_id, checked), principal)
        return JSONResponse(result, status_code=201)

    @router.get(
        "/registrant/documents",
        tags=[TAG],
        summary="The documents of the registrant's own entry, metadata and review state only (issue 34)",
        **documented(pv.RegistrantDocuments, 200, 404, 429),
    )
    async def registrant_documents(request: Request, token: RegistrantToken) -> dict[str, Any]:
        principal, code = await _registrant(request, token)
        return await read(
            request,
            lambda repos, state: documents.entry_documents(repos, state, principal, code, str(principal.entry_id)),
        )

    @router.get(
        "/registrant/documents/{document_id}",
        tags=[TAG],
        summary="A document of the registrant's own entry (inline, never cached); another entry's: 404 (issue 34)",
        response_class=Response,
        responses={
            200: {"content": {media: {"schema": {"type": "string", "format": "binary"}} for media in EXTENSIONS}},
            429: {"description": WRONG_LINKS},
        },
    )
    async def registrant_document(document_id: PathId, request: Request, token: RegistrantToken) -> Response:
        principal, code = await _registrant(request, token)
        record, data = await read(
            request, lambda repos, _state: documents.document_bytes(repos, principal, code, document_id)
        )
        headers = {
            **FILE_HEADERS,
            "Content-Disposition": f'inline; filename="{record.kind}.{EXTENSIONS[record.media_type]}"',
        }
        return Response(data, media_type=record.media_type, headers=headers)

    return router
