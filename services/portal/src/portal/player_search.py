"""Finding a player in an event (issue 28): a part of a name typed on the event's page finds the
players (and teams) of every played section whose name, as the pages show it, contains it —
each linked to the player's page in their section. Names are pairing's, as every public page
shows them; nothing else about a person is searched or shown."""

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


def matches(entrants: list[dict[str, Any]], words: str) -> list[dict[str, Any]]:
    wanted = words.casefold()
    return [e for e in entrants if wanted in str(e.get("name") or "").casefold()]


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
        found = [
            {"entrant": e, "section_id": sid}
            for sid, section in zip(ids, sections, strict=True)
            for e in (matches((section or {}).get("entrants", []), words) if words else [])
        ]
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
