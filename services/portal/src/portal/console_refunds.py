"""The staff console's refund requests (REG-15), on the ledger page: each request with who asked
(the entry's players and team by name), the reason, when, and the organiser's or fee clerk's
decision — a grant of an amount typed in yuan (sent in fen; a refund line in the ledger) or a
refusal (issue 28: amounts in yuan everywhere in the console)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Form, Request
from fastapi.responses import HTMLResponse, Response

from gomoku_shared.params import PathId

from .yuan import fen_of

if TYPE_CHECKING:
    from .sessions import StaffSession
    from .staff_pages import StaffPages

DECISIONS = ("grant", "refuse")
#: registration's own reason, stored as the decision's note when the person typed none: English
#: for programmers, never shown (the state and the amount say it in words)
SERVICE_REASON = re.compile(r"^(\d+ fen refunded|refund refused by the organiser)")


async def refund_requests(pages: StaffPages, session: StaffSession, code: str) -> list[dict[str, Any]]:
    """The event's refund requests, newest first ([] when they cannot be read)."""
    status, body = await pages.call(session, "registration", "GET", f"/v1/events/{code}/refunds", params={"limit": 200})
    refunds = [
        r for r in (body.get("refunds", []) if status == 200 and isinstance(body, dict) else []) if isinstance(r, dict)
    ]
    for r in refunds:
        note = str(r.get("decision_note") or "")
        r["note_shown"] = "" if SERVICE_REASON.match(note) else note
    return sorted(refunds, key=lambda r: str(r.get("requested_at")), reverse=True)


def decision_body(decision: str, amount_yuan: str, force_majeure: str, note: str) -> dict[str, Any] | None:
    """Registration's body of a decision, or None when the form is not one (a grant needs an
    amount in yuan with at most two decimals)."""
    if decision not in DECISIONS:
        return None
    body: dict[str, Any] = {"decision": decision, "force_majeure": force_majeure == "yes", "note": note.strip()}
    if decision == "grant":
        fen = fen_of(amount_yuan[:20])
        if fen is None:
            return None
        body["amount_fen"] = fen
    return body


def install(app: FastAPI, pages: StaffPages, ledger_page: Any) -> None:
    @app.post("/staff/events/{code}/refunds/{refund_id}/decision", response_class=HTMLResponse)
    async def decide(
        request: Request,
        code: PathId,
        refund_id: PathId,
        decision: str = Form("", max_length=10),
        amount_yuan: str = Form("", max_length=20),
        force_majeure: str = Form("", max_length=3),
        note: str = Form("", max_length=1000),
        csrf: str = Form("", max_length=300),
    ) -> Response:
        session, stop = await pages.posted(request, csrf)
        if stop is not None or session is None:
            return stop or pages.to_sign_in(request)
        body = decision_body(decision, amount_yuan, force_majeure, note)
        if body is None:
            said = {"text": pages.site.words(request).t("refusal.console_refund_yuan"), "detail": ""}
            return await ledger_page(request, session, code, refund_problem=said, refund_acted=refund_id)
        status, answer = await pages.call(session, "registration", "POST", f"/v1/refunds/{refund_id}/decision", body)
        problem, done = pages.outcome(request, status, answer, f"done.refund_{decision}")
        return await ledger_page(
            request, session, code, refund_problem=problem, refund_done=done, refund_acted=refund_id
        )
