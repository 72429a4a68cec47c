"""Issue 34: a registrant's documents over HTTP — upload (multipart), the lists (metadata
only) and a document's bytes, for the arbiter who reviews the event's evidence and for whoever
uploaded it (docs/api.md, "registration", Documents)."""

from __future__ import annotations

import hashlib
from typing import Annotated, Any

from fastapi import APIRouter, Depends, File, Form, Request, UploadFile
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel

from gomoku_shared.api_docs import documented
from gomoku_shared.auth import Principal, require
from gomoku_shared.errors import NotFound
from gomoku_shared.pagination import PageIn, paged, sort_by
from gomoku_shared.params import PathId

from ..domain.documents import CheckedDocument, DocumentKind, check, read_limited, too_large
from ..service_layer import commands, documents
from . import views as v
from .access import ANYONE, Call, calling, keyed_write, read, state_of

#: the staff who review an event's evidence, or the partner that registered the entry
Holder = Annotated[Principal, Depends(require(*ANYONE, action="evidence.review"))]
Reviewing = Annotated[Call, Depends(calling(ANYONE, "evidence.review"))]
#: what a multipart body adds around the file (its boundaries and fields)
MULTIPART_OVERHEAD = 64 * 1024
#: the document's own headers: shown inline, never cached, never sniffed, running nothing
FILE_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; "
    "object-src 'self'; frame-ancestors 'self'",
    "Referrer-Policy": "no-referrer",
}


class UploadDigest(BaseModel):
    """What binds an upload's Idempotency-Key: a retry with another file is refused, not replayed."""

    kind: str
    evidence_id: str | None
    sha256: str


EXTENSIONS = {"image/jpeg": "jpg", "image/png": "png", "image/webp": "webp", "application/pdf": "pdf"}


async def checked_upload(request: Request, file: UploadFile) -> tuple[bytes, CheckedDocument]:
    """An upload's bytes, refused early when too large, and what its content checks keep (every
    upload, whoever sends it, passes here before anything is stored)."""
    limits = state_of(request).documents
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limits.max_bytes + MULTIPART_OVERHEAD:
        raise too_large(limits)
    data = read_limited(file.file, limits)
    return data, await run_in_threadpool(check, data, limits)  # decoding a photo takes a while


def add_document_routes(router: APIRouter) -> None:
    entry_path = "/events/{event_code}/entries/{entry_id}/documents"

    @router.post(
        entry_path,
        **keyed_write(v.DocumentView, 201, 404, 413, 422),
        tags=["documents"],
        summary="Upload a document of an entry (a photo or a PDF, checked by its content; images stored "
        "without EXIF/GPS; encrypted at rest), optionally for one of its evidence records",
    )
    async def upload_document(
        event_code: PathId,
        entry_id: PathId,
        call: Reviewing,
        kind: Annotated[DocumentKind, Form(description="what the document is")],
        file: Annotated[UploadFile, File(description="JPEG, PNG or WebP photo, or PDF")],
        evidence_id: Annotated[str | None, Form(min_length=1, max_length=200)] = None,
    ) -> JSONResponse:
        data, checked = await checked_upload(call.request, file)
        digest = UploadDigest(kind=kind.value, evidence_id=evidence_id, sha256=hashlib.sha256(data).hexdigest())
        return await call.run(commands.AddDocument(event_code, entry_id, kind, evidence_id, checked), digest)

    @router.get(
        entry_path + "/{document_id}",
        tags=["documents"],
        summary="A document's bytes (inline, never cached), for the staff reviewing the event's evidence "
        "and for whoever uploaded it",
        response_class=Response,
        responses={
            200: {"content": {media: {"schema": {"type": "string", "format": "binary"}} for media in EXTENSIONS}}
        },
    )
    async def document_file(
        event_code: PathId, entry_id: PathId, document_id: PathId, request: Request, principal: Holder
    ) -> Response:
        record, data = await read(
            request, lambda repos, _state: documents.document_bytes(repos, principal, event_code, document_id)
        )
        if record.entry_id != entry_id:
            raise NotFound("unknown_document", f"no document {document_id!r}")
        headers: dict[str, Any] = {
            **FILE_HEADERS,
            "Content-Disposition": f'inline; filename="{record.kind}.{EXTENSIONS[record.media_type]}"',
        }
        return Response(data, media_type=record.media_type, headers=headers)

    _add_lists(router, entry_path)


def _add_lists(router: APIRouter, entry_path: str) -> None:
    """The lists of an entry's and of an event's documents (metadata only, paged)."""

    @router.get(
        entry_path,
        tags=["documents"],
        summary="An entry's documents the caller may read (metadata only)",
        **documented(v.Documents),
    )
    async def entry_documents(event_code: PathId, entry_id: PathId, call: Reviewing, page: PageIn) -> dict:
        found = await call.read(
            lambda reads, state: documents.entry_documents(reads, state, call.principal, event_code, entry_id)
        )
        return paged(found, "documents", sort_by("uploaded_at", "document_id"), page)

    @router.get(
        "/events/{event_code}/documents",
        tags=["documents"],
        summary="The event's documents the caller may read (the arbiter's evidence review; metadata only)",
        **documented(v.Documents),
    )
    async def event_documents(event_code: PathId, call: Reviewing, page: PageIn) -> dict:
        found = await call.read(
            lambda reads, state: documents.event_documents(reads, state, call.principal, event_code)
        )
        return paged(found, "documents", sort_by("uploaded_at", "document_id"), page)
