"""Issue 32: the live pages (a game's board, the round's wall, its tiles) show "name · 二段" as
the section's pages do, but they are drawn again after every move: the titles are looked up once
per round and kept in the page cache (ADR 0010), so a redraw reads no titles."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import httpx
from fastapi import FastAPI

from portal import live
from portal.settings import PortalSettings
from portal.site import Site

GAME = {
    "game_id": "g1",
    "event_code": "E1",
    "section_id": "open",
    "round": 1,
    "pairing_id": "r1b1",
    "status": "active",
    "mode": "online",
    "phase": "play",
    "black": "e1",
    "white": "e2",
    "to_act": "e1",
    "seq": 3,
    "moves": ["h8"],
    "board": [{"point": "h8", "colour": "black"}],
    "clocks": {"black_ms": 60000, "white_ms": 60000, "running": "white"},
}
SECTION = {
    "section_id": "open",
    "name": "Open",
    "kind": "individual",
    "entrants": [
        {"entrant_id": "e1", "name": "张三", "registry_id": "P1"},
        {"entrant_id": "e2", "name": "李四", "registry_id": "P2"},
    ],
}


class FakeServices:
    """The services' reads a live page makes; every read of awards' titles is counted."""

    def __init__(self) -> None:
        self.title_reads: list[str] = []
        self.game = dict(GAME)

    async def get(self, service: str, path: str, params: dict[str, Any] | None = None) -> Any:
        answers = {
            ("gameplay", "/v1/games/g1"): self.game,
            ("pairing", "/v1/events/E1/sections/open"): SECTION,
            ("registration", "/v1/events/E1"): {"code": "E1", "organisation": "fed", "name": "Cup"},
            ("gameplay", "/v1/rounds/E1/open/1/boards"): {"games": [self.game]},
        }
        if (service, path) == ("awards", "/v1/organisations/fed/titles"):
            self.title_reads.append((params or {})["people"])
            return {"people": [{"person_id": "P1", "title": "2d"}]}
        return answers.get((service, path))

    optional = get
    get_shared = get


def _app(services: FakeServices) -> FastAPI:
    app = FastAPI()
    # no game followed: every view read from gameplay (and no round stream to start)
    hub = SimpleNamespace(feeds={}, rounds={}, expect=lambda game_id, round, view: None)
    live.install(app, Site(services, PortalSettings(), hub))  # type: ignore[arg-type]  # fakes
    return app


async def test_issue32_a_live_board_redrawn_after_a_move_reads_no_titles():
    services = FakeServices()
    transport = httpx.ASGITransport(app=_app(services))
    async with httpx.AsyncClient(transport=transport, base_url="http://portal") as client:
        first = await client.get("/games/g1/board?lang=zh")
        assert first.status_code == 200
        assert "张三" in first.text and "二段" in first.text
        assert services.title_reads == ["P1,P2"]
        # the next move: the board, its tile and the round's wall drawn again, no titles read
        services.game["moves"] = ["h8", "h9"]
        again = await client.get("/games/g1/board?lang=en")
        tile = await client.get("/games/g1/tile?lang=zh")
        wall = await client.get("/events/E1/sections/open/rounds/1/wall?lang=zh")
        page = await client.get("/games/g1?lang=zh")
    assert all(r.status_code == 200 for r in (again, tile, wall, page))
    assert '张三<span class="held-title"> · 2-dan</span>' in again.text
    assert "二段" in tile.text and "二段" in wall.text and "二段" in page.text
    assert "李四 ·" not in page.text  # no title held: nothing beside the name
    assert services.title_reads == ["P1,P2"]
