"""The staff console's awards: each section's publication, and a button to publish (or republish)
its awards from the final standings — the awards service's staff route, called with the signed-in
person's key; the service publishes a new revision only when the content changed (AWD-8)."""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from gomoku_shared.params import PathId

from .console_rounds import _Console
from .console_teams import section_names
from .staff_event_names import with_names
from .staff_pages import not_theirs_page, refusal


def install(app: FastAPI, console: _Console) -> None:
    site, upstream = console.site, console.upstream

    async def page(
        request: Request, session: Any, code: str, acted: str = "", problem: Any = None, done: str = ""
    ) -> HTMLResponse:
        event = await with_names(upstream, await upstream.get("registration", f"/v1/events/{code}"))
        refused = not_theirs_page(site, request, session, event, code, ("awards.publish",))
        if refused is not None:  # issue 29: said in words
            return refused
        status = await upstream.optional("awards", f"/v1/events/{code}")
        played = await upstream.optional("pairing", f"/v1/events/{code}/sections")
        published = {s["section_id"]: s for s in (status or {}).get("sections", [])}
        # issue 28: the sections by their names in the page's language
        names = section_names(event, site.lang_of(request))
        sections = [
            {"id": s["section_id"], "name": names.get(s["section_id"]) or s.get("name"), "status": s.get("status")}
            for s in (played or {}).get("sections", [])
        ]
        return console.render(
            request,
            "staff/awards.html",
            session,
            event=event,
            code=code,
            sections=sections,
            published=published,
            acted=acted,
            problem=problem,
            done=done,
        )

    @app.get("/staff/events/{code}/awards", response_class=HTMLResponse, name="staff_awards")
    async def staff_awards(request: Request, code: PathId) -> Response:
        session = await console.sessions.of(request)
        if session is None:
            return RedirectResponse(f"/staff/sign-in?next={request.url.path}", status_code=303)
        return await page(request, session, code)

    @app.post("/staff/events/{code}/sections/{sid}/awards/publish", response_class=HTMLResponse)
    async def publish(request: Request, code: PathId, sid: PathId) -> Response:
        session, _form, stop = await console.signed_in_form(request)
        if stop is not None or session is None:
            return stop  # type: ignore[return-value]
        status, body = await upstream.as_person(
            "awards",
            "POST",
            f"/v1/events/{code}/sections/{sid}/publish",
            session.api_key,
            None,
            None,
            idempotency_key=secrets.token_urlsafe(16),
        )
        words = site.words(request)
        if status >= 400:
            return await page(request, session, code, sid, refusal(site, request, status, body))
        key = "done.awards_published" if body.get("published") else "done.awards_unchanged"
        return await page(request, session, code, sid, None, words.t(key, n=body.get("revision") or 0))
