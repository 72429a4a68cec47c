"""Issue 34: a registrant's documents beside the evidence they support, on the staff console's
evidence review page — the event's documents grouped by evidence record and by entry, and a
route that passes a document's bytes on from registration with the staff member's own
credential (registration decides who may read it; nothing is cached or kept here)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.responses import Response

from gomoku_shared.params import PathId

from .sessions import StaffSession

if TYPE_CHECKING:
    from .staff_pages import StaffPages

#: the media types registration stores a document as (anything else is never passed on)
SHOWN = ("image/jpeg", "image/png", "image/webp", "application/pdf")
#: a document shown inline, never cached, never sniffed, running nothing
FILE_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; "
    "object-src 'self'; frame-ancestors 'self'",
    "Referrer-Policy": "no-referrer",
    "Content-Disposition": "inline",
}


def install(app: FastAPI, pages: StaffPages) -> None:
    @app.get("/staff/events/{code}/documents/{entry_id}/{document_id}", name="staff_document")
    async def document_file(request: Request, code: PathId, entry_id: PathId, document_id: PathId) -> Response:
        session = await pages.sessions.of(request)
        if session is None:
            return pages.to_sign_in(request)
        path = f"/v1/events/{code}/entries/{entry_id}/documents/{document_id}"
        status, media_type, data = await pages.upstream.file_as_person("registration", path, session.api_key)
        kind = media_type.split(";")[0].strip()
        if status != 200 or kind not in SHOWN:
            words = pages.site.words(request)
            return Response(words.t("refusal.unknown_document"), status_code=404, media_type="text/plain")
        return Response(data, media_type=kind, headers=FILE_HEADERS)


async def documents_by_record(
    pages: StaffPages, session: StaffSession, code: str
) -> tuple[dict[str, list[dict[str, Any]]], dict[str, list[dict[str, Any]]]]:
    """The event's documents the staff member may read: by evidence record, and by entry for
    those uploaded without one (shown beside each of the entry's records)."""
    by_evidence: dict[str, list[dict[str, Any]]] = {}
    by_entry: dict[str, list[dict[str, Any]]] = {}
    # without a limit the list comes whole (gomoku_shared.pagination)
    status, body = await pages.call(session, "registration", "GET", f"/v1/events/{code}/documents")
    for doc in body.get("documents", []) if status == 200 else []:
        doc["src"] = f"/staff/events/{code}/documents/{doc['entry_id']}/{doc['document_id']}"
        doc["image"] = str(doc.get("media_type", "")).startswith("image/")
        if doc.get("evidence_id"):
            by_evidence.setdefault(doc["evidence_id"], []).append(doc)
        else:
            by_entry.setdefault(doc["entry_id"], []).append(doc)
    return by_evidence, by_entry
