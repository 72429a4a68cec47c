"""The staff console's appeals page (AWD-10): the appeals of an event with their decisions, a form
to record a unit's written appeal with the fee received, and the committee's decision (upheld:
the fee refunded and, with a new result, the correction through the arbiter's path; rejected)."""

from __future__ import annotations

import secrets
from typing import Annotated, Any

from fastapi import FastAPI, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, Field

from gomoku_shared.params import PathId

from .sessions import Sessions, StaffSession
from .site import Site
from .staff import RESULTS, refusal


def _number(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.isdigit() else None


class AppealForm(BaseModel):
    """The console's form of a written appeal (AWD-10), as pairing's body."""

    section_id: str = Field("", max_length=64)
    unit_id: str = Field("", max_length=160)
    signatory_role: str = Field("", max_length=10)
    signatory_name: str = Field("", max_length=200)
    grounds: str = Field("", max_length=4000)
    round: str = Field("", max_length=3)
    pairing_id: str = Field("", max_length=64)
    fee_fen: str = Field("", max_length=12)
    payment_reference: str = Field("", max_length=120)
    csrf: str = Field("", max_length=300)

    def body(self) -> dict[str, Any]:
        fee = _number(self.fee_fen)
        return {
            "unit_id": self.unit_id.strip(),
            "signatory_role": self.signatory_role,
            "signatory_name": self.signatory_name.strip(),
            "grounds": self.grounds.strip(),
            "round": _number(self.round),
            "pairing_id": self.pairing_id.strip() or None,
            "fee_fen": fee if fee is not None else -1,  # not a number: pairing refuses it in words
            "payment_reference": self.payment_reference.strip(),
        }


def _refused(site: Site, request: Request, session: StaffSession | None) -> HTMLResponse:
    return site.render(request, "staff/refused.html", status=403, staff=session, message_key="refusal.csrf")


def install(app: FastAPI, site: Site) -> None:
    upstream = site.upstream

    def sessions() -> Sessions:
        return app.state.sessions  # opened by the staff console (staff.install)

    async def call(session: StaffSession, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        return await upstream.as_person(
            "pairing", method, path, session.api_key, body, None, idempotency_key=secrets.token_urlsafe(16)
        )

    async def page(
        request: Request, session: StaffSession, code: str, problem: dict | None = None, done: str = ""
    ) -> HTMLResponse:
        event = await upstream.get("registration", f"/v1/events/{code}")
        sections = await upstream.optional("pairing", f"/v1/events/{code}/sections")
        status, body = await call(session, "GET", f"/v1/events/{code}/appeals")
        resp = site.render(
            request,
            "staff/appeals.html",
            staff=session,
            event=event,
            code=code,
            appeals=body.get("appeals", []) if status == 200 else [],
            played=(sections or {}).get("sections", []),
            fee_fen=event.get("appeals", {}).get("fee_fen", 0),
            results=RESULTS,
            problem=problem or (refusal(site, request, status, body) if status != 200 else None),
            done=done,
        )
        resp.headers["cache-control"] = "no-store"
        return resp

    @app.get("/staff/events/{code}/appeals", response_class=HTMLResponse, name="staff_appeals")
    async def appeals_page(request: Request, code: PathId) -> Response:
        session = await sessions().of(request)
        if session is None:
            return RedirectResponse(f"/staff/sign-in?next={request.url.path}", status_code=303)
        return await page(request, session, code)

    @app.post("/staff/events/{code}/appeals", response_class=HTMLResponse)
    async def lodge(request: Request, code: PathId, form: Annotated[AppealForm, Form()]) -> Response:
        session = await sessions().of(request)
        if session is None:
            return RedirectResponse("/staff/sign-in", status_code=303)
        if not Sessions.csrf_ok(session, form.csrf):
            return _refused(site, request, session)
        status, answer = await call(
            session, "POST", f"/v1/events/{code}/sections/{form.section_id}/appeals", form.body()
        )
        problem = refusal(site, request, status, answer) if status >= 400 else None
        return await page(
            request, session, code, problem, "" if problem else site.words(request).t("done.appeal_lodged")
        )

    @app.post("/staff/events/{code}/sections/{sid}/appeals/{appeal_id}/decision", response_class=HTMLResponse)
    async def decide(
        request: Request,
        code: PathId,
        sid: PathId,
        appeal_id: PathId,
        upheld: str = Form("", max_length=5),
        reasons: str = Form("", max_length=4000),
        result: str = Form("", max_length=24),
        csrf: str = Form("", max_length=300),
    ) -> Response:
        session = await sessions().of(request)
        if session is None:
            return RedirectResponse("/staff/sign-in", status_code=303)
        if not Sessions.csrf_ok(session, csrf):
            return _refused(site, request, session)
        body = {"upheld": upheld == "yes", "reasons": reasons.strip(), "result": result or None}
        path = f"/v1/events/{code}/sections/{sid}/appeals/{appeal_id}/decision"
        status, answer = await call(session, "POST", path, body)
        problem = refusal(site, request, status, answer) if status >= 400 else None
        return await page(
            request, session, code, problem, "" if problem else site.words(request).t("done.appeal_decided")
        )
