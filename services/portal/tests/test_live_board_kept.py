"""Issue 33: a followed game's board is drawn once per state of the game for all of its viewers
(its feed's view is an input noted by a digest made once per fetch), and drawn again as soon as
the view changes: a viewer never gets the board of an older state."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import httpx
from fastapi import FastAPI
from test_live_titles import GAME, SECTION

from portal import live, read_cache
from portal.settings import PortalSettings
from portal.site import Site


class Services:
    """The reads of a live board, noted as the real client notes them."""

    async def get(self, service: str, path: str, params: dict[str, Any] | None = None) -> Any:
        answer = {("pairing", "/v1/events/E1/sections/open"): SECTION}.get((service, path))
        if (service, path) == ("awards", "/v1/organisations/fed/titles"):
            answer = {"people": []}
        read_cache.note(service, path, json.dumps(answer).encode())
        return answer

    optional = get
    get_shared = get


class Feed:
    """A followed game: its view as its feed keeps it (fetched once per change)."""

    def __init__(self) -> None:
        self.viewers = {object()}
        self.fetches = 0
        self.set(dict(GAME))

    def set(self, view: dict[str, Any]) -> None:
        self._view = view
        self.view_digest = read_cache.digest_of("view", view)

    async def view(self) -> dict[str, Any]:
        self.fetches += 1
        return self._view


def _site() -> tuple[FastAPI, Site, Feed]:
    feed = Feed()
    site = Site(Services(), PortalSettings(), SimpleNamespace(feeds={"g1": feed}))  # type: ignore[arg-type]  # fakes
    app = FastAPI()
    live.install(app, site)
    return read_cache.TrackReads(app), site, feed  # type: ignore[return-value]  # an ASGI app


async def test_a_followed_board_is_drawn_once_per_state_and_again_when_it_changes():
    app, site, feed = _site()
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://portal") as client:
        boards = [await client.get("/games/g1/board") for _ in range(5)]
        assert {r.status_code for r in boards} == {200}
        assert len({r.text for r in boards}) == 1
        stats = site.pages.stats()
        assert stats["page_misses"] >= 1 and stats["page_hits"] >= 4  # drawn once, served four times
        # the next move: the feed's view changes, the board shows it at once
        feed.set({**GAME, "moves": ["h8", "j9"], "board": [*GAME["board"], {"point": "j9", "colour": "white"}]})
        after = await client.get("/games/g1/board")
    assert after.status_code == 200 and after.text != boards[0].text
    assert "j9" in after.text or after.text.count("stone") > boards[0].text.count("stone")


async def test_a_kept_board_is_served_without_laying_the_board_out_again(monkeypatch):
    """The board's layout (its points, stones and marks) is made when the board is drawn, once
    per state of the game, not for every viewer's load of the kept board."""
    from portal import board

    laid_out = []
    layout = board.layout
    monkeypatch.setattr(board, "layout", lambda view: laid_out.append(1) or layout(view))
    app, site, _feed = _site()
    drawn = []
    get_template = site.env.get_template
    monkeypatch.setattr(
        site.env, "get_template", lambda name, *more: drawn.append(name == "board.html") or get_template(name, *more)
    )
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://portal") as client:
        boards = [await client.get("/games/g1/board") for _ in range(5)]
    assert {r.status_code for r in boards} == {200} and len({r.text for r in boards}) == 1
    assert sum(drawn) < len(boards) and len(laid_out) == sum(drawn)  # laid out only when drawn
