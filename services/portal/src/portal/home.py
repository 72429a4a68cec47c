"""The home page (issue 28): the platform's published events, found without any operator's
list — registration's ``GET /v1/events``, newest first, a page at a time — each by its name in
the page's language with its dates, place, organiser and where it stands in words, and a search
by a part of the name or code (registration searches: ``q``). The operator's ``PORTAL_EVENTS``
may still pin a few events at the top of the first page."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from gomoku_shared.pagination import CURSOR_MAX

from .site import Site

#: events on one page of the home
PAGE = 20
#: a part of an event's name or code, as someone types it (registration's limit)
Words = Annotated[str | None, Query(max_length=64)]
Cursor = Annotated[str | None, Query(max_length=CURSOR_MAX, pattern=r"^[A-Za-z0-9_-]+$")]
Code = Annotated[str | None, Query(max_length=64)]


async def _pinned(site: Site, codes: list[str]) -> list[dict[str, Any]]:
    """The operator's pinned events (``PORTAL_EVENTS``) as the list gives them, in their order."""

    async def one(code: str) -> dict[str, Any] | None:
        found = await site.upstream.optional("registration", "/v1/events", {"q": code, "limit": 50})
        return next((e for e in (found or {}).get("events", []) if e.get("event_code") == code), None)

    return [e for e in await asyncio.gather(*(one(c) for c in codes)) if e]


def in_language(event: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """A listed event with its name, organiser and place in the page's language."""
    zh = lang == "zh"

    def pick(field: str) -> Any:
        return (event.get(f"{field}_zh") or event.get(field)) if zh else (event.get(field) or event.get(f"{field}_zh"))

    return {
        **event,
        "name": pick("name") or event.get("event_code"),
        "organiser": pick("organiser"),
        "venue": pick("venue"),
    }


def install(app: FastAPI, site: Site) -> None:
    @app.get("/", response_class=HTMLResponse, name="home")
    async def start(request: Request, code: Code = None, q: Words = None, cursor: Cursor = None) -> Response:
        if code and code.strip():
            return RedirectResponse(request.url_for("event_home", code=code.strip()), status_code=303)
        words = (q or "").strip()
        params: dict[str, Any] = {"limit": PAGE}
        if words:
            params["q"] = words
        if cursor:
            params["cursor"] = cursor
        pins = site.settings.event_codes() if not words and not cursor else []
        listed, pinned = await asyncio.gather(
            site.upstream.get("registration", "/v1/events", params), _pinned(site, pins)
        )
        pinned_codes = {e["event_code"] for e in pinned}
        events = pinned + [e for e in listed.get("events", []) if e.get("event_code") not in pinned_codes]
        lang = site.lang_of(request)
        return site.render(
            request,
            "start.html",
            events=[in_language(e, lang) for e in events],
            q=words,
            next_cursor=listed.get("next_cursor"),
        )
