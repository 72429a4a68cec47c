"""The staff console's result slips (PLAY-9): for a round played over the board, an arbiter
enters each table's slip (the winner or a draw, and the reason) and a second entry — another
arbiter, or a confirmation — repeats it; only a confirmed slip counts. A confirmation that
differs is a mismatch: nothing is scored, both entries stay listed, and the slip is entered
again. Every call goes to gameplay's public API with the signed-in person's own key; a refusal
is shown in words beside the form of its table."""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from gomoku_shared.params import PathId, RoundNo

from .console_teams import board_names, board_words, named_section, section_names
from .sessions import Sessions, StaffSession
from .site import Site
from .staff_event_names import with_names
from .staff_pages import StaffPages, not_theirs_page, refusal

PAGE = "/staff/events/{code}/sections/{sid}/rounds/{n}/slips"
#: a slip's results and reasons (gameplay's names, PLAY-9)
SLIP_RESULTS = ("black", "white", "draw", "double_forfeit")
SLIP_REASONS = ("five", "forbidden", "time", "resignation", "no_show", "arbiter", "agreement", "passes", "full_board")
#: at most this many pages of a round's games (200 a page)
MAX_PAGES = 10


class _Slips:
    def __init__(self, site: Site, sessions: Sessions) -> None:
        self.site, self.sessions, self.upstream = site, sessions, site.upstream

    async def gameplay(self, session: StaffSession, method: str, path: str, body: Any = None, params: Any = None):
        key = secrets.token_urlsafe(16) if method == "POST" else None
        return await self.upstream.as_person(
            "gameplay", method, path, session.api_key, body, params, idempotency_key=key
        )

    async def round_games(self, session: StaffSession, code: str, sid: str, n: int) -> tuple[int, Any, list]:
        """The round's games (every page), each with its slips; the first refusal, if any."""
        games: list[dict[str, Any]] = []
        params: dict[str, Any] = {"event": code, "section": sid, "round": n, "limit": 200}
        for _page in range(MAX_PAGES):
            status, body = await self.gameplay(session, "GET", "/v1/games", params=params)
            if status != 200:
                return status, body, games
            games.extend(body.get("games", []))
            if not body.get("next_cursor"):
                break
            params["cursor"] = body["next_cursor"]
        for game in games:
            status, body = await self.gameplay(session, "GET", f"/v1/games/{game['game_id']}/slips")
            game["slips"] = body.get("slips", []) if status == 200 else []
            game["pending"] = next((s for s in reversed(game["slips"]) if s["status"] == "pending"), None)
            game["confirmed"] = next((s for s in game["slips"] if s["status"] == "confirmed"), None)
        games.sort(key=lambda g: (g.get("pairing_id") or "", g.get("game_no") or 0))
        return 200, None, games

    async def page(
        self,
        request: Request,
        session: StaffSession,
        code: str,
        sid: str,
        n: int,
        acted: str = "",
        status: int = 200,
        body: Any = None,
    ) -> HTMLResponse:
        event = await with_names(self.upstream, await self.upstream.get("registration", f"/v1/events/{code}"))
        stop = not_theirs_page(self.site, request, session, event, code, ("slips.enter", "slips.confirm"))
        if stop is not None:
            return stop
        section = await self.upstream.get("pairing", f"/v1/events/{code}/sections/{sid}")
        listed, refused, games = await self.round_games(session, code, sid, n)
        paired = await self.upstream.optional("pairing", f"/v1/events/{code}/sections/{sid}/rounds/{n}")
        words = self.site.words(request)
        # issue 28: each table by its round, match and board, its players by name (teams too)
        boards = {p["pairing_id"]: board_words(words, n, p) for p in (paired or {}).get("pairings", [])}
        names = board_names(section)
        section = named_section(section, section_names(event, words.lang))
        problem = refusal(self.site, request, status, body) if status >= 400 else None
        if problem is not None and isinstance(body, dict):
            problem["mismatch"] = mismatch_words(words, body)
        page_problem = refusal(self.site, request, listed, refused) if listed >= 400 else None
        done = ""
        if acted and problem is None and isinstance(body, dict):
            confirmed = any(s.get("status") == "confirmed" for s in body.get("slips", []))
            done = words.t("done.slip_confirmed" if confirmed else "done.slip_entered")
        resp = self.site.render(
            request,
            "staff/slips.html",
            staff=session,
            event=event,
            section=section,
            code=code,
            n=n,
            names=names,
            games=games,
            boards=boards,
            offline=any(g.get("mode") == "offline" for g in games),
            results=SLIP_RESULTS,
            reasons=SLIP_REASONS,
            acted=acted,
            problem=problem,
            page_problem=page_problem,
            done=done,
        )
        resp.headers["cache-control"] = "no-store"
        return resp


def mismatch_words(words: Any, body: dict[str, Any]) -> str:
    """A mismatching confirmation in words: what the slip says and what the confirmation says."""
    error = body.get("error", {})
    if error.get("code") != "slip_mismatch":
        return ""
    details = error.get("details") or {}
    slip, confirmation = details.get("slip") or {}, details.get("confirmation") or {}

    def said(entry: dict[str, Any]) -> str:
        result, reason = words.v("result", entry.get("result")), words.v("reason", entry.get("reason"))
        return f"{result}（{reason}）" if words.lang == "zh" else f"{result} ({reason})"

    return words.t("staff.slip_mismatch_detail", slip=said(slip), confirmation=said(confirmation))


def install(app: FastAPI, site: Site, sessions: Sessions) -> None:
    slips = _Slips(site, sessions)
    pages = StaffPages(site, sessions)

    @app.get(PAGE, response_class=HTMLResponse, name="staff_slips")
    async def slips_page(request: Request, code: PathId, sid: PathId, n: RoundNo) -> Response:
        session = await sessions.of(request)
        if session is None:
            return RedirectResponse(f"/staff/sign-in?next={request.url.path}", status_code=303)
        return await slips.page(request, session, code, sid, n)

    @app.post(PAGE + "/{game_id}", response_class=HTMLResponse)
    async def enter(request: Request, code: PathId, sid: PathId, n: RoundNo, game_id: PathId) -> Response:
        session, form, stop = await pages.posted_form(request)
        if stop is not None or session is None:
            return stop or pages.to_sign_in(request)
        body: dict[str, Any] = {
            "result": str(form.get("result", ""))[:32],
            "reason": str(form.get("reason", ""))[:32],
            "note": str(form.get("note", ""))[:500],
        }
        confirms = str(form.get("confirms", "")).strip()
        if confirms.isdigit():
            body["confirms"] = int(confirms)
        status, answer = await slips.gameplay(session, "POST", f"/v1/games/{game_id}/slips", body)
        return await slips.page(request, session, code, sid, n, game_id, status, answer)
