"""The staff console's honours page (AWD-9, NY 十一(三)): the honours recorded, with names in full
(masking is for public pages), forms to record the organiser's choice — a unit honour's unit chosen
from the event's registered units, never an id to type — and the certificates PDF in full for the
organiser to print."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import FastAPI, Form, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field

from gomoku_shared.params import PathId

from . import printout_reads
from .sessions import StaffSession

if TYPE_CHECKING:
    from .staff_pages import StaffPages

KINDS = ("organisation", "sportsmanship", "coach")


class HonourForm(BaseModel):
    """The console's form of one honour, as the awards service's body."""

    kind: str = Field("", max_length=20)
    unit_id: str = Field("", max_length=200)
    entrant_id: str = Field("", max_length=200)
    coach_name: str = Field("", max_length=200)
    coach_unit: str = Field("", max_length=300)
    citation: str = Field("", max_length=2000)
    csrf: str = Field("", max_length=300)

    def body(self) -> dict[str, Any]:
        # the recipient the kind takes; an empty choice goes as null and awards refuses it in words
        recipient = {
            "organisation": {"unit_id": self.unit_id.strip() or None},
            "sportsmanship": {"entrant_id": self.entrant_id.strip() or None},
            "coach": {"coach_name": self.coach_name.strip() or None, "coach_unit": self.coach_unit.strip() or None},
        }.get(self.kind, {})
        return {"kind": self.kind, **recipient, "citation": self.citation.strip()}


def install(app: FastAPI, pages: StaffPages) -> None:
    @app.get("/staff/events/{code}/honours", response_class=HTMLResponse, name="staff_honours")
    async def honours_page(request: Request, code: PathId) -> Response:
        session = await pages.sessions.of(request)
        if session is None:
            return pages.to_sign_in(request)
        return await honours(pages, request, session, code)

    @app.post("/staff/events/{code}/honours", response_class=HTMLResponse)
    async def record(request: Request, code: PathId, form: Annotated[HonourForm, Form()]) -> Response:
        return await pages.act(
            request,
            form.csrf,
            "awards",
            f"/v1/events/{code}/honours",
            form.body(),
            "done.honour_recorded",
            lambda session, problem, done: honours(pages, request, session, code, problem, done),
        )

    @app.get("/staff/events/{code}/honours/certificates.pdf", name="staff_honour_certificates_pdf")
    async def certificates_pdf(request: Request, code: PathId) -> Response:
        """The certificates with names in full, read with the person's own key; never kept in the
        public printouts' cache."""
        session = await pages.sessions.of(request)
        if session is None:
            return pages.to_sign_in(request)
        status, body = await pages.call(session, "awards", "GET", f"/v1/events/{code}/honours/register/certificates")
        if status != 200:
            return await honours(pages, request, session, code, pages.refusal(request, status, body))
        from . import pdf  # fpdf is imported at the first printout

        event = await pages.event_of(code)
        words, font = pages.site.words(request), pages.settings.pdf_font
        # the event's name in the printout's language and its dates (the public certificates' own)
        event, _section = printout_reads.imprint(event, await printout_reads.schedule(pages.upstream, code), "", words)
        sheet = await asyncio.to_thread(pdf.honour_certificates, words, event, body, font)
        headers = {"content-disposition": f'inline; filename="{code}-honours-staff.pdf"', "cache-control": "no-store"}
        return Response(sheet, media_type="application/pdf", headers=headers)


async def honours(
    pages: StaffPages,
    request: Request,
    session: StaffSession,
    code: str,
    problem: dict[str, str] | None = None,
    done: str = "",
) -> HTMLResponse:
    """The honours recorded (full names, revoked ones too) and the forms (the outcome of the last one)."""
    event = await pages.event_of(code)
    refused = pages.not_theirs(request, session, event, code, "honours.grant")
    if refused is not None:  # issue 29: said in words
        return refused
    (status, register), (_units_status, units) = await asyncio.gather(
        pages.call(session, "awards", "GET", f"/v1/events/{code}/honours/register"),
        pages.call(session, "awards", "GET", f"/v1/events/{code}/honours/units"),
    )
    given = [g["kind"] for g in register.get("given", [])] if status == 200 else []
    return pages.render(
        request,
        "staff/honours.html",
        session,
        event=event,
        code=code,
        given=[kind for kind in KINDS if kind in given],
        honours=register.get("honours", []) if status == 200 else [],
        units=units.get("units", []) if isinstance(units, dict) else [],
        problem=problem or (pages.refusal(request, status, register) if status not in (200, 404) else None),
        done=done,
    )
