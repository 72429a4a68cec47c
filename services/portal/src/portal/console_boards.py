"""The staff console's over-the-board page (PLAY-9, PLAY-10): the records of an event the rules
engine flagged (an illegal opening, black's forbidden move, a move after five, a record that
contradicts the slip), each with its ply and reason, and the arbiter's acceptance with a note;
a correction is a new record entered through the API. Every action goes to gameplay with the
signed-in person's own key; a refusal is shown in words beside the form."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from gomoku_shared.params import PathId

from .console_teams import board_of, board_words, section_names
from .sessions import Sessions, StaffSession
from .site import Site
from .staff_event_names import with_names
from .staff_pages import StaffPages, not_theirs_page, refusal

PAGE = "/staff/events/{code}/record-flags"
#: the flagged records are read page by page (cursor pagination), up to this many pages
PAGE_SIZE, MAX_PAGES = 200, 10


def install(app: FastAPI, site: Site, sessions: Sessions) -> None:
    upstream = site.upstream
    pages = StaffPages(site, sessions)

    async def flagged(session: StaffSession, code: str) -> tuple[int, Any, list[dict[str, Any]]]:
        """The event's flagged records, every page; the status and body of the last answer."""
        entries: list[dict[str, Any]] = []
        params: dict[str, Any] = {"limit": PAGE_SIZE}
        for _page in range(MAX_PAGES):
            status, body = await upstream.as_person(
                "gameplay", "GET", f"/v1/events/{code}/record-flags", session.api_key, None, params
            )
            if status != 200:
                return status, body, []
            entries.extend(body.get("entries", []))
            if not body.get("next_cursor"):
                break
            params = {**params, "cursor": body["next_cursor"]}
        return 200, None, entries

    async def page(
        request: Request, session: StaffSession, code: str, status: int = 200, body: Any = None, done: bool = False
    ) -> HTMLResponse:
        event = await with_names(upstream, await upstream.get("registration", f"/v1/events/{code}"))
        refused = not_theirs_page(site, request, session, event, code, ("games.adjudicate",))
        if refused is not None:  # issue 29: said in words
            return refused
        listed, flags, entries = await flagged(session, code)
        # issue 28: each game by its section's name and its board in words, never by ids
        words = site.words(request)
        names = section_names(event, words.lang)
        for e in entries:
            e["where"] = (
                f"{names.get(str(e.get('section_id')), '—')} · {board_words(words, e.get('round') or 0, board_of(e.get('pairing_id')))}"
            )
        problem = refusal(site, request, status, body) if status >= 400 else None
        if listed >= 400 and problem is None:
            problem = refusal(site, request, listed, flags)
        resp = site.render(
            request,
            "staff/record_flags.html",
            staff=session,
            event=event,
            code=code,
            entries=entries,
            problem=problem,
            done=site.words(request).t("done.record_accepted") if done and problem is None else "",
        )
        resp.headers["cache-control"] = "no-store"
        return resp

    @app.get(PAGE, response_class=HTMLResponse, name="staff_record_flags")
    async def record_flags(request: Request, code: PathId) -> Response:
        session = await sessions.of(request)
        if session is None:
            return RedirectResponse(f"/staff/sign-in?next={request.url.path}", status_code=303)
        return await page(request, session, code)

    @app.post(PAGE + "/{game_id}/{entry}/accept", response_class=HTMLResponse)
    async def accept(request: Request, code: PathId, game_id: PathId, entry: int) -> Response:
        session, form, stop = await pages.posted_form(request)
        if stop is not None or session is None:
            return stop or pages.to_sign_in(request)
        note = str(form.get("note", ""))[:500]
        status, body = await upstream.as_person(
            "gameplay",
            "POST",
            f"/v1/games/{game_id}/record-entries/{entry}/accept",
            session.api_key,
            {"note": note},
            None,
        )
        return await page(request, session, code, status, body, done=True)
