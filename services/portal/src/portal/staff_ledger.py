"""The fees ledger page (issue 29: a fee clerk's console): the event's ledger lines and a form to
record money received, through registration's ledger API with the person's own token (the
action ``ledger.record``; registration refuses anyone else, said in words)."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response

from gomoku_shared.params import PathId

from .sessions import StaffSession

if TYPE_CHECKING:
    from .staff import StaffPages

#: the most a line may record, in yuan (a typo of a few zeros is refused before any call)
MAX_YUAN = Decimal(10_000_000)


def fen_of(text: str) -> int | None:
    """Yuan as typed ("380", "380.50") in fen; None for anything else or outside (0, MAX_YUAN]."""
    try:
        yuan = Decimal(text.strip().replace(",", ""))
    except InvalidOperation:
        return None
    if not yuan.is_finite() or yuan <= 0 or yuan > MAX_YUAN or yuan != yuan.quantize(Decimal("0.01")):
        return None
    return int(yuan * 100)


def install(app: FastAPI, pages: StaffPages) -> None:
    async def page(request: Request, session: StaffSession, code: str, status: int = 200, **acted: Any) -> Response:
        event = await pages.event_of(code)
        refused = pages.not_theirs(request, session, event, code, "ledger.record")
        if refused is not None:
            return refused
        listed, body = await pages.call(session, "registration", "GET", f"/v1/events/{code}/ledger")
        fees_status, fees = await pages.call(session, "registration", "GET", f"/v1/events/{code}/fees")
        fees = fees if fees_status == 200 and isinstance(fees, dict) else {}
        return pages.render(
            request,
            "staff/ledger.html",
            session,
            http_status=status,
            event=event,
            code=code,
            lines=body.get("lines", []) if listed == 200 and isinstance(body, dict) else [],
            listed=pages.refusal(request, listed, body) if listed >= 400 else None,
            items=[i.get("id") for i in (fees or {}).get("items", []) if isinstance(i, dict) and i.get("id")],
            **acted,
        )

    @app.get("/staff/events/{code}/ledger", response_class=HTMLResponse, name="staff_ledger")
    async def ledger(request: Request, code: PathId) -> Response:
        session = await pages.sessions.of(request)
        if session is None:
            return pages.to_sign_in(request)
        return await page(request, session, code)

    @app.post("/staff/events/{code}/ledger", response_class=HTMLResponse)
    async def record(request: Request, code: PathId) -> Response:
        session, form, stop = await pages.posted_form(request)
        if stop is not None or session is None:
            return stop  # type: ignore[return-value]
        words = pages.site.words(request)
        fen = fen_of(str(form.get("amount_yuan", ""))[:20])
        payer = str(form.get("payer", "")).strip()[:160]
        if fen is None or not payer:
            return await page(request, session, code, 422, problem={"text": words.t("people.ledger_incomplete")})
        body: dict[str, Any] = {
            "kind": "payment",
            "item": str(form.get("item", "")).strip()[:64],
            "amount_fen": fen,
            ("unit_id" if form.get("payer_kind") == "unit" else "entry_id"): payer,
        }
        for field in ("reference", "note"):
            value = str(form.get(field, "")).strip()[:500]
            if value:
                body[field] = value
        status, answer = await pages.call(session, "registration", "POST", f"/v1/events/{code}/ledger", body)
        problem, done = pages.outcome(request, status, answer, "people.ledger_recorded")
        return await page(request, session, code, problem=problem, done=done)
