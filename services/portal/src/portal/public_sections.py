"""Public pages of one section (no sign-in): its rounds with their games (a team section's as
matches), standings, cross table, a player's page and a team's page."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from gomoku_shared.params import PathId

from . import names as who_is_who
from . import team_rounds
from .site import Site


def install(app: FastAPI, site: Site) -> None:
    upstream = site.upstream

    async def section_context(code: str, sid: str) -> dict[str, Any]:
        event, section = await asyncio.gather(
            upstream.get("registration", f"/v1/events/{code}"),
            upstream.get("pairing", f"/v1/events/{code}/sections/{sid}"),
        )
        return {"event": event, "section": section, "names": who_is_who.by_id(section), "code": code}

    async def round_with_games(code: str, sid: str, n: int) -> dict[str, Any]:
        rnd, games = await asyncio.gather(
            upstream.optional("pairing", f"/v1/events/{code}/sections/{sid}/rounds/{n}"),
            upstream.optional("gameplay", f"/v1/rounds/{code}/{sid}/{n}/games"),
        )
        by_pairing: dict[str, list[dict]] = {}
        for g in (games or {}).get("games", []):
            by_pairing.setdefault(g.get("pairing_id"), []).append(g)
        return {"n": n, "round": rnd, "games": by_pairing, "matches": team_rounds.matches(rnd, by_pairing)}

    async def all_rounds(code: str, sid: str, section: dict[str, Any]) -> list[dict[str, Any] | None]:
        last = int(section.get("current_round") or 0)
        path = f"/v1/events/{code}/sections/{sid}/rounds"
        return list(await asyncio.gather(*(upstream.optional("pairing", f"{path}/{n}") for n in range(1, last + 1))))

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
            return await member_page(request, ctx, code, sid, eid)
        standings, cross, games = await asyncio.gather(
            upstream.optional("pairing", f"/v1/events/{code}/sections/{sid}/standings"),
            upstream.optional("pairing", f"/v1/events/{code}/sections/{sid}/crosstable"),
            upstream.optional("gameplay", "/v1/games", params={"event": code, "section": sid, "player": eid}),
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
            tab="",
            **ctx,
        )

    async def member_page(request: Request, ctx: dict[str, Any], code: str, sid: str, pid: str) -> Response:
        """A team's player: their team and board, their boards round by round, their games."""
        rounds, games = await asyncio.gather(
            all_rounds(code, sid, ctx["section"]),
            upstream.optional("gameplay", "/v1/games", params={"event": code, "section": sid, "player": pid}),
        )
        mine = [g for g in (games or {}).get("games", []) if pid in (g.get("black"), g.get("white"))]
        mine.sort(key=lambda g: (g.get("round", 0), g.get("game_no", 0)))
        rows = team_rounds.member_rounds(rounds, pid)
        return site.render(
            request, "player.html", me=ctx["names"][pid], row=None, order=[], rounds=rows, games=mine, tab="", **ctx
        )

    @app.get("/events/{code}/sections/{sid}/teams/{eid}", response_class=HTMLResponse, name="team")
    async def team_page(request: Request, code: PathId, sid: PathId, eid: PathId) -> HTMLResponse:
        """A team of a team section: its place, its players by board with their results, its
        matches (opponent, game points, match points) round by round."""
        ctx = await section_context(code, sid)
        team = ctx["names"].get(eid)
        if team is None or team.get("members") is None:
            return site.render(request, "error.html", status=404, message_key="not_found")
        standings, rounds = await asyncio.gather(
            upstream.optional("pairing", f"/v1/events/{code}/sections/{sid}/standings"),
            all_rounds(code, sid, ctx["section"]),
        )
        row = next((r for r in (standings or {}).get("standings", []) if r.get("entrant_id") == eid), None)
        played = team_rounds.team_matches(rounds, eid)
        return site.render(
            request,
            "team.html",
            team=team,
            row=row,
            order=(standings or {}).get("order", []),
            matches=played,
            members=team_rounds.players_of(team, played),
            tab="",
            **ctx,
        )
