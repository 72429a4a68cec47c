"""Issue 34: the organiser re-issues the secret link of an entry made on the public form (the
parent lost it, or it went to the wrong person), or of a delegation started through the roster
door (its leader lost it, or it leaked): registration answers a new link, shown on the entries
page once — nothing keeps it — with the words saying the old link no longer works."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fastapi import FastAPI, Form, Request
from fastapi.responses import HTMLResponse, Response

from gomoku_shared.params import PathId

from .staff_entries import entries_page

if TYPE_CHECKING:
    from .staff_pages import StaffPages


def install(app: FastAPI, pages: StaffPages) -> None:
    @app.post("/staff/events/{code}/entries/{entry_id}/registrant-link", response_class=HTMLResponse)
    async def reissue_link(
        request: Request,
        code: PathId,
        entry_id: PathId,
        stage: str = Form("", max_length=64),
        name: str = Form("", max_length=200),
        csrf: str = Form("", max_length=300),
    ) -> Response:
        session, stop = await pages.posted(request, csrf)
        if stop is not None or session is None:
            return stop or pages.to_sign_in(request)
        status, answer = await pages.call(
            session, "registration", "POST", f"/v1/events/{code}/entries/{entry_id}/registrant-link", {}
        )
        problem, _ = pages.outcome(request, status, answer, "done.relinked")
        new_link = None
        if problem is None:
            token = str(answer.get("token", ""))
            # the registrant's page (entry_form.registrant_page), as the parent will open it
            new_link = {"name": name, "url": f"{str(request.base_url).rstrip('/')}/entry/{token}"}
        return await entries_page(pages, request, session, code, stage, "", "", "", False, problem, new_link=new_link)

    @app.post("/staff/events/{code}/units/{unit_id}/delegation-link", response_class=HTMLResponse)
    async def reissue_delegation_link(
        request: Request,
        code: PathId,
        unit_id: PathId,
        stage: str = Form("", max_length=64),
        csrf: str = Form("", max_length=300),
    ) -> Response:
        session, stop = await pages.posted(request, csrf)
        if stop is not None or session is None:
            return stop or pages.to_sign_in(request)
        status, answer = await pages.call(
            session, "registration", "POST", f"/v1/events/{code}/units/{unit_id}/delegation-link", {}
        )
        problem, _ = pages.outcome(request, status, answer, "done.delegation_relinked")
        new_link = None
        if problem is None:
            token = str(answer.get("token", ""))
            # the delegation's page (delegation_roster), as its leader will open it
            url = f"{str(request.base_url).rstrip('/')}/delegation/{token}"
            new_link = {"name": str(answer.get("unit_name", "")), "url": url, "kind": "delegation"}
        return await entries_page(pages, request, session, code, stage, "", "", "", False, problem, new_link=new_link)
