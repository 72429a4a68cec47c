"""The season's public pages (issue 32): a registry person's history (titles, rating with its
chart, events with their games and replays) and an organisation's rating list of a period, with a
search by name in it. Read from awards' public reads (names masked there), registration's event,
pairing's section (the person's entrant by registry id) and gameplay's games, as every page is
(ADR 0001): the registry itself is staff data and is never read here."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from gomoku_shared.params import PathId

from . import history_paging, page_names, rating_chart
from .site import Site
from .upstream import Upstream

PERIOD = re.compile(r"^(19|2\d)\d{2}-(0[1-9]|1[0-2])$")
#: what awards accepts as an organisation and a person id: anything else is no page here, not a 422 there
ORG = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
PERSON_MAX = 64
#: a name query: the masked names of public reads keep their first character only
MAX_QUERY = 40


def install(app: FastAPI, site: Site) -> None:
    upstream = site.upstream

    @app.get("/people/{org}/{person_id}", response_class=HTMLResponse, name="person_history")
    async def person_page(request: Request, org: PathId, person_id: PathId) -> Response:
        if not ORG.match(org) or len(person_id) > PERSON_MAX:
            return site.render(request, "error.html", status=404, message_key="not_found")
        # a page of sections at a time: each shown costs three reads (history_paging)
        page = history_paging.page_number(request.query_params.get("page"))
        if page is None:
            return site.render(request, "error.html", status=404, message_key="not_found")
        base = f"/v1/organisations/{org}/people/{person_id}"
        titles, rating, events = await asyncio.gather(
            upstream.optional("awards", f"{base}/titles"),
            upstream.optional("awards", f"{base}/rating"),
            upstream.optional("awards", f"{base}/events", params=history_paging.asked(page)),
        )
        rating, sections = rating or {}, (events or {}).get("sections", [])
        if not (titles or {}).get("history") and not rating.get("history") and not sections:
            return site.render(request, "error.html", status=404, message_key="not_found")
        shown = history_paging.window(sections, page, (events or {}).get("total"))
        if shown is None:
            return site.render(request, "error.html", status=404, message_key="not_found")
        lang = site.lang_of(request)
        played = await asyncio.gather(*(section_of(upstream, s, person_id, lang) for s in shown.shown))
        grants, unlisted = history_paging.listed_grants(titles or {}, shown.shown)
        current = rating.get("current")
        name = (titles or {}).get("name") or (current or {}).get("name") or "—"
        return site.render(
            request,
            "person.html",
            org=org,
            person_id=person_id,
            name=name,
            titles=titles or {},
            grants=grants,
            unlisted=unlisted,
            named=await history_paging.names_of(upstream, grants, played, lang),
            rating=rating,
            chart=rating_chart.chart(rating.get("history", [])),
            played=played,
            shown=shown,
        )

    @app.get("/ratings/{org}", response_class=HTMLResponse, name="ratings_latest")
    async def latest_list(request: Request, org: PathId) -> Response:
        if not ORG.match(org):
            return site.render(request, "error.html", status=404, message_key="not_found")
        periods = await _periods(upstream, org)
        if not periods:
            return site.render(request, "ratings.html", status=404, org=org, period=None, listed=None, rows=[], q="")
        query = f"?{request.url.query}" if request.url.query else ""
        return RedirectResponse(f"/ratings/{org}/{periods[-1]}{query}", status_code=303)

    @app.get("/ratings/{org}/{period}", response_class=HTMLResponse, name="ratings")
    async def rating_list(request: Request, org: PathId, period: str) -> Response:
        if not (PERIOD.match(period) and ORG.match(org)):
            return site.render(request, "error.html", status=404, message_key="not_found")
        q = (request.query_params.get("q") or "").strip()[:MAX_QUERY]
        # a search asks awards for the rows found only (each with its rank in the whole list)
        path, params = f"/v1/organisations/{org}/ratings/{period}", {"initial": q[:1]} if q else None
        listed = await upstream.optional("awards", path, params=params)
        rows = [dict(r, rank=r.get("rank", i)) for i, r in enumerate((listed or {}).get("rows", []), 1)]
        return site.render(
            request,
            "ratings.html",
            org=org,
            period=period,
            listed=listed,
            rows=[r for r in rows if matches(r["name"], q)],
            q=q,
        )


async def _periods(upstream: Upstream, org: str) -> list[str]:
    """The organisation's periods with a list (the list of any period names them all)."""
    listed = await upstream.optional("awards", f"/v1/organisations/{org}/ratings/2000-01")
    return list((listed or {}).get("periods", []))


def matches(masked: str, query: str) -> bool:
    """A masked name ("张**") against what a reader typed ("张三" or "张"): the public reads keep
    the first character only, so that is all a search can compare."""
    if not query:
        return True
    return bool(masked) and masked[:1].casefold() == query[:1].casefold()


async def section_of(upstream: Upstream, part: dict[str, Any], person_id: str, lang: str) -> dict[str, Any]:
    """One section of the person's history with its names in ``lang``, the person's entrant in it
    (pairing's section names the registry id of each entrant), and each rated game's replay."""
    code, sid = part["event_code"], part["section_id"]
    event, section = await asyncio.gather(
        upstream.optional("registration", f"/v1/events/{code}"),
        upstream.optional("pairing", f"/v1/events/{code}/sections/{sid}"),
    )
    event = page_names.event_in(event, lang)
    entrant = next(
        (e for e in (section or {}).get("entrants", []) if e.get("registry_id") == person_id),
        None,
    )
    replays: dict[str, str] = {}
    if entrant is not None:
        games = await upstream.optional(
            "gameplay", "/v1/games", params={"event": code, "section": sid, "player": entrant["entrant_id"]}
        )
        for g in (games or {}).get("games", []):
            if g.get("status") == "finished" and g.get("pairing_id"):
                replays[str(g["pairing_id"])] = str(g["game_id"])
    return {
        **part,
        "event_name": (event or {}).get("name") or "—",
        "section_name": page_names.section_names(event).get(sid, "—"),
        "entrant_id": entrant["entrant_id"] if entrant else None,
        "games": [{**g, "game_id": replays.get(g["pairing_id"])} for g in part.get("games", [])],
        "points": sum(g["score"] for g in part.get("games", [])),
    }
