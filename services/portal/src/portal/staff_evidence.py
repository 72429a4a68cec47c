"""The staff console's evidence review: an event's evidence records (pending, approved or
rejected) beside the entries they belong to, and the decision on one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fastapi import FastAPI, Form, Query, Request
from fastapi.responses import HTMLResponse, Response

from gomoku_shared.params import PathId

from .sessions import StaffSession

if TYPE_CHECKING:
    from .staff import StaffPages


def install(app: FastAPI, pages: StaffPages) -> None:
    @app.get("/staff/events/{code}/evidence", response_class=HTMLResponse, name="staff_evidence")
    async def evidence_queue(request: Request, code: PathId, status: str = Query("pending", max_length=20)) -> Response:
        session = await pages.sessions.of(request)
        if session is None:
            return pages.to_sign_in(request)
        return await evidence_page(pages, request, session, code, status)

    @app.post("/staff/events/{code}/evidence/{evidence_id}/decision", response_class=HTMLResponse)
    async def decide_evidence(
        request: Request,
        code: PathId,
        evidence_id: PathId,
        decision: str = Form("", max_length=10),
        note: str = Form("", max_length=1000),
        csrf: str = Form("", max_length=300),
    ) -> Response:
        path = f"/v1/evidence/{evidence_id}/decision"
        return await pages.act(
            request,
            csrf,
            "registration",
            path,
            {"decision": decision, "note": note},
            f"done.evidence_{decision}",
            lambda session, problem, done: evidence_page(pages, request, session, code, "pending", problem, done),
        )


async def evidence_page(
    pages: StaffPages,
    request: Request,
    session: StaffSession,
    code: str,
    status: str,
    problem: dict[str, str] | None = None,
    done: str = "",
) -> HTMLResponse:
    event = await pages.event_of(code)
    refused = pages.not_theirs(request, session, event, code, "evidence.review")
    if refused is not None:  # issue 29: said in words
        return refused
    params = {"status": status} if status in ("pending", "approved", "rejected") else None
    code_status, body = await pages.call(session, "registration", "GET", f"/v1/events/{code}/evidence", params=params)
    records = body.get("evidence", []) if code_status == 200 else []
    entries_status, entries = await pages.call(session, "registration", "GET", f"/v1/events/{code}/entries")
    by_entry = {e["entry_id"]: e for e in (entries.get("entries", []) if entries_status == 200 else [])}
    return pages.render(
        request,
        "staff/evidence.html",
        session,
        event=event,
        code=code,
        records=records,
        by_entry=by_entry,
        shown=status,
        problem=problem or (pages.refusal(request, code_status, body) if code_status != 200 else None),
        done=done,
    )
