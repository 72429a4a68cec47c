"""The staff console's appeals page (AWD-10): the appeals of an event with their decisions, a form
to record a unit's written appeal with the fee received, and the committee's decision (upheld:
the fee refunded and, with a new result, the correction through the arbiter's path; rejected)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from fastapi import FastAPI, Form, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field

from gomoku_shared.params import PathId

from .sessions import StaffSession
from .staff_round import revision

if TYPE_CHECKING:
    from .staff import StaffPages


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


def install(app: FastAPI, pages: StaffPages) -> None:
    @app.get("/staff/events/{code}/appeals", response_class=HTMLResponse, name="staff_appeals")
    async def appeals_page(request: Request, code: PathId) -> Response:
        session = await pages.sessions.of(request)
        if session is None:
            return pages.to_sign_in(request)
        return await appeals(pages, request, session, code)

    @app.post("/staff/events/{code}/appeals", response_class=HTMLResponse)
    async def lodge(request: Request, code: PathId, form: Annotated[AppealForm, Form()]) -> Response:
        return await pages.act(
            request,
            form.csrf,
            "pairing",
            f"/v1/events/{code}/sections/{form.section_id}/appeals",
            form.body(),
            "done.appeal_lodged",
            lambda session, problem, done: appeals(pages, request, session, code, problem, done),
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
        expected_revision: str = Form("", max_length=8),
        csrf: str = Form("", max_length=300),
    ) -> Response:
        # a new result names the appealed result's revision the page showed (409 stale_revision
        # in words when an arbiter corrected it meanwhile)
        body = {
            "upheld": upheld == "yes",
            "reasons": reasons.strip(),
            "result": result or None,
            "expected_revision": revision(expected_revision) if result else None,
        }
        return await pages.act(
            request,
            csrf,
            "pairing",
            f"/v1/events/{code}/sections/{sid}/appeals/{appeal_id}/decision",
            body,
            "done.appeal_decided",
            lambda session, problem, done: appeals(pages, request, session, code, problem, done),
        )


async def appeals(
    pages: StaffPages,
    request: Request,
    session: StaffSession,
    code: str,
    problem: dict[str, str] | None = None,
    done: str = "",
) -> HTMLResponse:
    """The appeals of an event with their decisions, and the forms (the outcome of the last one)."""
    upstream = pages.upstream
    event = await pages.event_of(code)
    # issue 29: an arbitration member decides, an arbiter lodges; anyone else is told why
    refused = pages.not_theirs(request, session, event, code, "appeals.decide", "appeals.lodge")
    if refused is not None:
        return refused
    sections = await upstream.optional("pairing", f"/v1/events/{code}/sections")
    status, body = await pages.call(session, "pairing", "GET", f"/v1/events/{code}/appeals")
    return pages.render(
        request,
        "staff/appeals.html",
        session,
        event=event,
        code=code,
        appeals=body.get("appeals", []) if status == 200 else [],
        played=(sections or {}).get("sections", []),
        fee_fen=event.get("appeals", {}).get("fee_fen", 0),
        results=pages.results,
        problem=problem or (pages.refusal(request, status, body) if status != 200 else None),
        done=done,
    )
