"""Public pages of one section (no sign-in): its rounds with their games (a team section's as
matches), standings, cross table, a player's page and a team's page."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from gomoku_shared.params import PathId

from . import merged_page, public_teams, team_rounds
from .section_reads import context_of
from .site import Site


async def none() -> None:
    return None


def install(app: FastAPI, site: Site) -> None:
    upstream = site.upstream
    public_teams.install(app, site)
    merged_page.install(app, site)

    async def section_context(code: str, sid: str) -> dict[str, Any]:
        return await context_of(upstream, code, sid)

    async def round_with_games(code: str, sid: str, n: int) -> dict[str, Any]:
        rnd, games = await asyncio.gather(
            upstream.optional("pairing", f"/v1/events/{code}/sections/{sid}/rounds/{n}"),
            upstream.optional("gameplay", f"/v1/rounds/{code}/{sid}/{n}/games"),
        )
        by_pairing: dict[str, list[dict]] = {}
        for g in (games or {}).get("games", []):
            by_pairing.setdefault(g.get("pairing_id"), []).append(g)
        return {"n": n, "round": rnd, "games": by_pairing, "matches": team_rounds.matches(rnd, by_pairing)}

    @app.get("/events/{code}/sections/{sid}", response_class=HTMLResponse, name="section")
    async def section_page(request: Request, code: PathId, sid: PathId) -> HTMLResponse:
        ctx = await section_context(code, sid)
        last = int(ctx["section"].get("current_round") or 0)
        rounds = await asyncio.gather(*(round_with_games(code, sid, n) for n in range(last, 0, -1)))
        return site.render(request, "section.html", rounds=rounds, tab="pairings", **ctx)

    @app.get("/events/{code}/sections/{sid}/standings", response_class=HTMLResponse, name="standings")
    async def standings_page(request: Request, code: PathId, sid: PathId) -> HTMLResponse:
        ctx = await section_context(code, sid)
        table = await upstream.optional("pairing", f"/v1/events/{code}/sections/{sid}/standings")
        return site.render(request, "standings.html", table=table, tab="standings", **ctx)

    @app.get("/events/{code}/sections/{sid}/crosstable", response_class=HTMLResponse, name="crosstable")
    async def crosstable_page(request: Request, code: PathId, sid: PathId) -> HTMLResponse:
        ctx = await section_context(code, sid)
        table = await upstream.optional("pairing", f"/v1/events/{code}/sections/{sid}/crosstable")
        starts = {e["entrant_id"]: e["start_no"] for e in ctx["section"].get("entrants", [])}
        return site.render(request, "crosstable.html", table=table, starts=starts, tab="crosstable", **ctx)

    @app.get("/events/{code}/sections/{sid}/players/{eid}", response_class=HTMLResponse, name="player")
    async def player_page(request: Request, code: PathId, sid: PathId, eid: PathId) -> Response:
        ctx = await section_context(code, sid)
        me = ctx["names"].get(eid)
        if me is None:
            return site.render(request, "error.html", status=404, message_key="not_found")
        if me.get("members") is not None:  # a team: its own page
            query = f"?{request.url.query}" if request.url.query else ""
            return RedirectResponse(f"/events/{code}/sections/{sid}/teams/{eid}{query}", status_code=303)
        if me.get("team"):
            return await public_teams.member_page(site, request, ctx, eid)
        org, person = ctx["event"].get("organisation"), me.get("registry_id")
        # issue 32: the person's current title, and their history page, where the registry knows them
        titled = f"/v1/organisations/{org}/people/{person}/titles"
        standings, cross, games, titles = await asyncio.gather(
            upstream.optional("pairing", f"/v1/events/{code}/sections/{sid}/standings"),
            upstream.optional("pairing", f"/v1/events/{code}/sections/{sid}/crosstable"),
            upstream.optional("gameplay", "/v1/games", params={"event": code, "section": sid, "player": eid}),
            upstream.optional("awards", titled) if org and person else none(),
        )
        row = next((r for r in (standings or {}).get("standings", []) if r.get("entrant_id") == eid), None)
        cross_row = next((p for p in (cross or {}).get("players", []) if p.get("entrant_id") == eid), None)
        mine = [g for g in (games or {}).get("games", []) if eid in (g.get("black"), g.get("white"))]
        mine.sort(key=lambda g: (g.get("round", 0), g.get("game_no", 0)))
        return site.render(
            request,
            "player.html",
            me=me,
            row=row,
            order=(standings or {}).get("order", []),
            rounds=(cross_row or {}).get("rounds", []),
            games=mine,
            titles=titles,
            history=f"/people/{org}/{person}" if org and person else None,
            tab="",
            **ctx,
        )
