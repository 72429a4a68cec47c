"""Finding a player in an event (issue 28): a part of a name typed on the event's page finds the
players (and teams) of every played section whose name, as the pages show it, contains it —
each linked to the player's page in their section; in a team section the teams' players too
(pairing's ``members``, PAIR-9), each with their team and linked to their own page. Names are
pairing's, as every public page shows them; nothing else about a person is searched or shown."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request
from fastapi.responses import HTMLResponse

from gomoku_shared.params import PathId

from .site import Site

#: a part of a player's name (a Chinese name is 2 to 4 characters; Latin names are longer)
Name = Annotated[str, Query(min_length=1, max_length=32)]
#: at most so many players are listed (a name of one character may match many)
MAX_FOUND = 100


def found_in(code: str, sections: list[tuple[str, dict[str, Any] | None]], words: str) -> list[dict[str, Any]]:
    """Who in ``sections`` (section id, pairing's section) has ``words`` in their name: each as
    ``name``, ``unit`` (a team's player: their team), ``href`` (a team's page for a team) and
    ``kind`` (player, team or member: a team's player)."""
    wanted = words.casefold()
    if not wanted:
        return []
    found = []
    for sid, section in sections:
        base = f"/events/{code}/sections/{sid}"
        for entrant in (section or {}).get("entrants", []):
            members = entrant.get("members")
            if wanted in str(entrant.get("name") or "").casefold():
                kind, where = ("team", "teams") if members is not None else ("player", "players")
                href = f"{base}/{where}/{entrant['entrant_id']}"
                unit = None if kind == "team" else entrant.get("unit")
                found.append({"name": entrant["name"], "unit": unit, "href": href, "section_id": sid, "kind": kind})
            for member in members or []:
                if wanted in str(member.get("name") or "").casefold():
                    href = f"{base}/players/{member['player_id']}"
                    row = {"name": member["name"], "unit": entrant.get("name"), "href": href, "section_id": sid}
                    found.append({**row, "kind": "member"})
    return found


def install(app: FastAPI, site: Site) -> None:
    upstream = site.upstream

    @app.get("/events/{code}/players", response_class=HTMLResponse, name="player_search")
    async def player_search(request: Request, code: PathId, q: Name) -> HTMLResponse:
        words = q.strip()
        event, played = await asyncio.gather(
            upstream.get("registration", f"/v1/events/{code}"),
            upstream.optional("pairing", f"/v1/events/{code}/sections"),
        )
        ids = [s["section_id"] for s in (played or {}).get("sections", [])]
        sections = await asyncio.gather(
            *(upstream.optional("pairing", f"/v1/events/{code}/sections/{sid}") for sid in ids)
        )
        found = found_in(code, list(zip(ids, sections, strict=True)), words)
        return site.render(
            request,
            "players.html",
            event=event,
            code=code,
            q=words,
            found=found[:MAX_FOUND],
            more=len(found) > MAX_FOUND,
            section_names={},
        )
