"""Public pages of a team section's teams and players (issue 28): a team's page (its players by
board with their results, its matches) and a team player's page (their team, board, boards round
by round, games)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response

from gomoku_shared.params import PathId

from . import team_rounds
from .section_reads import all_rounds, context_of
from .site import Site


async def member_page(site: Site, request: Request, ctx: dict[str, Any], pid: str) -> Response:
    """A team's player: their team and board, their boards round by round (with the colour they
    played: after a swap not the first mover's), their games."""
    code, sid = ctx["code"], ctx["section"]["section_id"]
    rounds, games = await asyncio.gather(
        all_rounds(site.upstream, code, sid, ctx["section"]),
        site.upstream.optional("gameplay", "/v1/games", params={"event": code, "section": sid, "player": pid}),
    )
    mine = [g for g in (games or {}).get("games", []) if pid in (g.get("black"), g.get("white"))]
    mine.sort(key=lambda g: (g.get("round", 0), g.get("game_no", 0)))
    colours = {g.get("round"): "black" if g.get("black") == pid else "white" for g in mine}
    rows = [{**r, "colour": colours.get(r["round"])} for r in team_rounds.member_rounds(rounds, pid)]
    return site.render(
        request, "player.html", me=ctx["names"][pid], row=None, order=[], rounds=rows, games=mine, tab="", **ctx
    )


def install(app: FastAPI, site: Site) -> None:
    upstream = site.upstream

    @app.get("/events/{code}/sections/{sid}/teams/{eid}", response_class=HTMLResponse, name="team")
    async def team_page(request: Request, code: PathId, sid: PathId, eid: PathId) -> HTMLResponse:
        """A team of a team section: its place, its players by board with their results, its
        matches (opponent, game points, match points) round by round."""
        ctx = await context_of(upstream, code, sid)
        team = ctx["names"].get(eid)
        if team is None or team.get("members") is None:
            return site.render(request, "error.html", status=404, message_key="not_found")
        standings, rounds = await asyncio.gather(
            upstream.optional("pairing", f"/v1/events/{code}/sections/{sid}/standings"),
            all_rounds(upstream, code, sid, ctx["section"]),
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
