"""The staff console's round page: a round's pairings with their results, and an arbiter entering
or correcting a result (through pairing's arbiter route, with the person's own key). The form
carries the result's revision it showed, so a result another arbiter changed meanwhile is never
overwritten: the refusal says what it is now, who set it and when."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fastapi import FastAPI, Form, Request
from fastapi.responses import HTMLResponse, Response

from gomoku_shared.params import PathId, RoundNo

from .sessions import StaffSession

if TYPE_CHECKING:
    from .staff import StaffPages


def install(app: FastAPI, pages: StaffPages) -> None:
    @app.get("/staff/events/{code}/sections/{sid}/rounds/{n}", response_class=HTMLResponse, name="staff_round")
    async def staff_round(request: Request, code: PathId, sid: PathId, n: RoundNo) -> Response:
        session = await pages.sessions.of(request)
        if session is None:
            return pages.to_sign_in(request)
        return await round_page(pages, request, session, code, sid, n)

    @app.post("/staff/events/{code}/sections/{sid}/rounds/{n}/results", response_class=HTMLResponse)
    async def enter_result(
        request: Request,
        code: PathId,
        sid: PathId,
        n: RoundNo,
        pairing_id: str = Form("", max_length=64),
        result: str = Form("", max_length=32),
        note: str = Form("", max_length=1000),
        expected_revision: str = Form("", max_length=8),
        csrf: str = Form("", max_length=300),
    ) -> Response:
        path = f"/v1/events/{code}/sections/{sid}/rounds/{n}/results"
        # the result's revision the page showed: pairing refuses the write (409 stale_revision,
        # shown in words with the current result) if another arbiter changed it meanwhile
        body = {
            "pairing_id": pairing_id,
            "result": result,
            "note": note,
            "expected_revision": revision(expected_revision),
        }
        return await pages.act(
            request,
            csrf,
            "pairing",
            path,
            body,
            "done.result",
            lambda session, problem, done: round_page(pages, request, session, code, sid, n, problem, done, pairing_id),
        )


def revision(text: str) -> int | None:
    """A form's revision field as pairing takes it (a page without one sends none)."""
    text = text.strip()
    return int(text) if text.isdigit() else None


async def round_page(
    pages: StaffPages,
    request: Request,
    session: StaffSession,
    code: str,
    sid: str,
    n: int,
    problem: dict[str, str] | None = None,
    done: str = "",
    pairing_id: str = "",
) -> HTMLResponse:
    upstream = pages.upstream
    event = await upstream.get("registration", f"/v1/events/{code}")
    # issue 29: a round of an event not theirs says why (a recorder may see it: slips)
    refused = pages.not_theirs(request, session, event, code, "results.enter", "event.read", "slips.enter")
    if refused is not None:
        return refused
    section = await upstream.get("pairing", f"/v1/events/{code}/sections/{sid}")
    rnd = await upstream.optional("pairing", f"/v1/events/{code}/sections/{sid}/rounds/{n}")
    names = {e["entrant_id"]: e for e in section.get("entrants", [])}
    return pages.render(
        request,
        "staff/round.html",
        session,
        event=event,
        section=section,
        code=code,
        n=n,
        round=rnd,
        names=names,
        results=pages.results,
        problem=problem,
        done=done,
        acted=pairing_id,
    )
