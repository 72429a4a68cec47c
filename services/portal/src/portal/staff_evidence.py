"""The staff console's evidence review: an event's evidence records (pending, approved or
rejected) beside the entries they belong to, and the decision on one."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Form, Query, Request
from fastapi.responses import HTMLResponse, Response

from gomoku_shared.params import PathId

from . import i18n, staff_documents
from .sessions import StaffSession

#: a residency or representation clause's ground by its rule (REG-6..8)
GROUNDS = {"REG-6": "residency", "REG-7": "final_residency", "REG-8": "representation"}

if TYPE_CHECKING:
    from .staff_pages import StaffPages


def install(app: FastAPI, pages: StaffPages) -> None:
    staff_documents.install(app, pages)  # issue 34: the documents beside their evidence

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


def clause_words(words: Any, clause: Any, event: dict[str, Any]) -> str:
    """An evidence record's clause in words, never its id (issue 28): "sz-residency/household" is
    the event's eligibility clause (its ground by rule, its region by name) and the option met:
    "居住资格（深圳市）：户籍" / "residency (Shenzhen): household registration"."""
    if not clause:
        return "—"
    ground_id, _, option = str(clause).partition("/")
    clause_def = next((e for e in event.get("eligibility", []) if e.get("id") == ground_id), None)
    if clause_def is None:
        return words.t("clause.other")
    ground = words.t(f"clause.ground.{GROUNDS.get(str(clause_def.get('rule')), 'other')}")
    region_id = clause_def.get("region")
    region = next((r for r in event.get("regions", []) if r.get("id") == region_id), None)
    if region is not None:
        name = (region.get("name_zh") if words.lang == "zh" else None) or region.get("name") or ""
        ground = words.t("clause.ground_in", ground=ground, region=name) if name else ground
    if not option:
        return ground
    said = words.t(f"clause.option.{option}") if i18n.known(f"clause.option.{option}") else words.t("clause.other")
    return words.t("clause.ground_option", ground=ground, option=said)


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
    documents, entry_documents = await staff_documents.documents_by_record(pages, session, code)
    return pages.render(
        request,
        "staff/evidence.html",
        session,
        event=event,
        code=code,
        records=records,
        clauses={r["evidence_id"]: clause_words(pages.site.words(request), r.get("clause"), event) for r in records},
        by_entry=by_entry,
        documents=documents,
        entry_documents=entry_documents,
        shown=status,
        problem=problem or (pages.refusal(request, code_status, body) if code_status != 200 else None),
        done=done,
    )
