"""A history page in pages of sections (issue 32: < 100 ms with 1,000 events in the registry).

Each section shown costs the page three reads (the event's names, pairing's section for the
person's entrant, gameplay's games for the replays), so a player of hundreds of events is shown
``SHOWN`` sections at a time, newest first, with links to older and newer ones (``?page=``);
awards is asked for the page's sections only (``latest``, ``skip``). The
title table keeps the grants that raised the title (as many as the ladder has titles at most)
and those of the sections shown; only their events' names are read."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from . import page_names
from .upstream import Upstream

#: sections per page of a person's history
SHOWN = 10
#: no person plays more than this many pages' worth: a larger number is no page
MAX_PAGE = 10_000


def page_number(raw: str | None) -> int | None:
    """``?page=`` as a number from 1 (absent: 1); None: not a page."""
    if raw is None or raw == "":
        return 1
    if not raw.isdigit() or not 1 <= int(raw) <= MAX_PAGE:
        return None
    return int(raw)


@dataclass(frozen=True)
class Window:
    """The sections of one page (newest first) and where the page stands."""

    shown: list[dict[str, Any]]
    page: int
    pages: int
    total: int

    @property
    def first(self) -> int:
        return (self.page - 1) * SHOWN + 1

    @property
    def last(self) -> int:
        return self.first + len(self.shown) - 1


def asked(page: int) -> dict[str, int]:
    """Awards' window of the page: the newest ``SHOWN`` sections after those of the pages before."""
    return {"latest": SHOWN, "skip": (page - 1) * SHOWN}


def window(sections: list[dict[str, Any]], page: int, total: int | None = None) -> Window | None:
    """Page ``page`` from awards' answer (oldest first): the page's sections of ``total``, or every
    section (``total`` absent, or more than a page given: sliced here); None: past the last page."""
    total = len(sections) if total is None else total
    pages = max(1, -(-total // SHOWN))
    if page > pages:
        return None
    newest = list(reversed(sections))
    if len(newest) > SHOWN:
        newest = newest[(page - 1) * SHOWN : page * SHOWN]
    return Window(newest, page, pages, total)


def listed_grants(titles: dict[str, Any], shown: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    """The grants the title table lists (raised the title, or of a section shown) and how many
    others it leaves to the pages that show their sections."""
    here = {(s["event_code"], s["section_id"]) for s in shown}
    history = titles.get("history", [])
    listed = [g for g in history if g.get("raised") or (g["event_code"], g["section_id"]) in here]
    return listed, len(history) - len(listed)


async def names_of(
    upstream: Upstream, grants: list[dict[str, Any]], played: list[dict[str, Any]], lang: str
) -> dict[tuple[str, str], str]:
    """(event code, section id) → "event · section" for the listed grants, in ``lang``: the
    sections shown are named already; the others' events are read once each."""
    names = {(p["event_code"], p["section_id"]): f"{p['event_name']} · {p['section_name']}" for p in played}
    missing = sorted({g["event_code"] for g in grants if (g["event_code"], g["section_id"]) not in names})
    events = await asyncio.gather(*(upstream.optional("registration", f"/v1/events/{code}") for code in missing))
    for code, event in zip(missing, events, strict=True):
        event = page_names.event_in(event, lang)
        sections = page_names.section_names(event)
        for g in grants:
            if g["event_code"] == code:
                name = (event or {}).get("name") or "—"
                names[(code, g["section_id"])] = f"{name} · {sections.get(g['section_id'], '—')}"
    return names
