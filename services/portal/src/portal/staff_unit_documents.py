"""Issue 34: a delegation's documents on the staff console (NY 十二(一), DA 十(一)1: the stamped
entry form, the ID-card and insurance scans, the payment's screenshot the unit sent): a page per
unit, linked from the entries page's delegations table, and a route that passes a document's
bytes on from registration with the staff member's own credential (registration decides who
may read it, per event; nothing is cached or kept here)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response

from gomoku_shared.params import PathId

from .staff_documents import FILE_HEADERS, SHOWN

if TYPE_CHECKING:
    from .staff_pages import StaffPages


def install(app: FastAPI, pages: StaffPages) -> None:
    @app.get("/staff/events/{code}/units/{unit_id}/documents", response_class=HTMLResponse, name="unit_documents")
    async def unit_documents(request: Request, code: PathId, unit_id: PathId) -> Response:
        session = await pages.sessions.of(request)
        if session is None:
            return pages.to_sign_in(request)
        event = await pages.event_of(code)
        refused = pages.not_theirs(request, session, event, code, "evidence.review")
        if refused is not None:  # issue 29: said in words
            return refused
        base = f"/v1/events/{code}/units/{unit_id}/documents"
        status, body = await pages.call(session, "registration", "GET", base)
        documents = body.get("documents", []) if status == 200 else []
        # the person a document is about, by name (a player's id is their person's)
        entries_status, entries = await pages.call(session, "registration", "GET", f"/v1/events/{code}/entries")
        names = {
            str(p.get("player_id")): str(p.get("name") or "")
            for e in (entries.get("entries", []) if entries_status == 200 else [])
            for p in e.get("players", [])
        }
        for doc in documents:
            doc["person_name"] = names.get(str(doc.get("person_id")), "") if doc.get("person_id") else ""
            doc["src"] = f"/staff/events/{code}/units/{unit_id}/documents/{doc['document_id']}"
            doc["image"] = str(doc.get("media_type", "")).startswith("image/")
        units_status, units = await pages.call(session, "registration", "GET", f"/v1/events/{code}/units")
        listed = units.get("units", []) if units_status == 200 else []
        unit: dict[str, Any] = next((u for u in listed if u.get("unit_id") == unit_id), {})
        return pages.render(
            request,
            "staff/unit_documents.html",
            session,
            event=event,
            code=code,
            unit_name=unit.get("name") or "—",
            documents=documents,
            problem=pages.refusal(request, status, body) if status != 200 else None,
        )

    @app.get("/staff/events/{code}/units/{unit_id}/documents/{document_id}", name="unit_document")
    async def unit_document(request: Request, code: PathId, unit_id: PathId, document_id: PathId) -> Response:
        session = await pages.sessions.of(request)
        if session is None:
            return pages.to_sign_in(request)
        path = f"/v1/events/{code}/units/{unit_id}/documents/{document_id}"
        status, media_type, data = await pages.upstream.file_as_person("registration", path, session.api_key)
        kind = media_type.split(";")[0].strip()
        if status != 200 or kind not in SHOWN:
            words = pages.site.words(request)
            return Response(words.t("refusal.unknown_document"), status_code=404, media_type="text/plain")
        return Response(data, media_type=kind, headers=FILE_HEADERS)
