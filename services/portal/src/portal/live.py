"""Live pages: one game's board, a round's board wall, and their event streams (fanned out:
one upstream subscription per game per process, see fanout.py)."""

from __future__ import annotations

import asyncio
import functools
import time
from typing import Any

from fastapi import FastAPI, Header, Query, Request
from fastapi.responses import HTMLResponse, Response, StreamingResponse

from gomoku_shared.params import INT32_MAX, PathId, RoundNo

from . import board, read_cache, wall_boards
from . import names as who_is_who
from .held_titles import live_titles
from .section_reads import match_of, matches_by_pairing
from .site import Later, Site

#: the gameplay stream's event kinds after which the board is drawn again
LIVE_KINDS = (
    "created",
    "joined",
    "started",
    "action",
    "draw_offer",
    "draw_declined",
    "time_added",
    "finished",
    "corrected",
)
SSE_HEADERS = {"cache-control": "no-cache", "x-accel-buffering": "no"}


def install(app: FastAPI, site: Site) -> None:
    _game_routes(app, site)
    _round_routes(app, site)

    @app.get("/live/stats", name="live_stats")
    async def live_stats() -> dict[str, int]:
        """How many games this process follows, for how many viewers, with how many upstream
        streams opened so far (counts only: no game or viewer is named)."""
        return site.hub.stats()


async def _game_view(site: Site, game_id: str) -> dict[str, Any]:
    """From the game's feed while it is followed (kept up to date by the stream's events for all
    of its viewers, and for a page loaded before its own stream is open while the round's stream
    feeds the game), otherwise straight from gameplay."""
    feed = site.hub.feeds.get(game_id)
    if feed is not None and (feed.viewers or feed.following):
        view = await feed.view()
        # an input of the page like any read (read_cache.py): the board, the tile and the game's
        # page are drawn once per view for all of its viewers, not once per viewer and event
        read_cache.note_digest(feed.view_digest)
        return view
    view = await site.upstream.get("gameplay", f"/v1/games/{game_id}")
    if view.get("status") != "finished":  # a game over has no stream to wait for
        site.hub.expect(game_id, (str(view["event_code"]), str(view["section_id"]), int(view["round"])), view)
    return view


async def _game_context(site: Site, game_id: str) -> dict[str, Any]:
    game = await _game_view(site, game_id)
    path = f"/v1/events/{game['event_code']}/sections/{game['section_id']}"
    section = await site.upstream.optional("pairing", path)
    round_key = (str(game["event_code"]), str(game["section_id"]), int(game["round"]))
    names = await live_titles(site.upstream, site.pages.kept, round_key, who_is_who.by_id(section))
    match = await match_of(site.upstream, game, section)
    # drawn once per state of the game (the page kept): the layout only when it is drawn
    layout = Later(functools.partial(board.layout, game))
    return {"game": game, "names": names, "section": section, "match": match, "layout": layout}


def _game_routes(app: FastAPI, site: Site) -> None:
    """One game: its live page, its board and its tile drawn again, its event stream."""
    upstream, hub = site.upstream, site.hub

    @app.get("/games/{game_id}", response_class=HTMLResponse, name="game")
    async def game_page(request: Request, game_id: PathId) -> HTMLResponse:
        ctx = await _game_context(site, game_id)
        # issue 28: the event, for the section's name in the page's language
        event = await upstream.optional("registration", f"/v1/events/{ctx['game']['event_code']}")
        return site.render(request, "game.html", live_kinds=LIVE_KINDS, event=event or {}, **ctx)

    @app.get("/games/{game_id}/board", response_class=HTMLResponse, name="game_board")
    async def game_board(request: Request, game_id: PathId) -> HTMLResponse:
        """The board and clocks alone: the live page draws them again after each event."""
        ctx = await _game_context(site, game_id)
        return site.render(request, "board.html", **ctx)

    @app.get("/games/{game_id}/tile", response_class=HTMLResponse, name="game_tile")
    async def game_tile(request: Request, game_id: PathId) -> HTMLResponse:
        """One small board of the wall, drawn again after an event of its game."""
        ctx = await _game_context(site, game_id)
        return site.render(request, "tile.html", **ctx)

    @app.get("/games/{game_id}/events", name="game_events")
    async def game_events(
        game_id: PathId,
        since: int = Query(0, ge=0, le=INT32_MAX),
        last_event_id: str | None = Header(None, max_length=10),
    ) -> Response:
        """The game's event stream for a browser (an EventSource cannot send an API key): the
        process's one subscription to gameplay, shared by every viewer of the game."""
        if last_event_id is not None and last_event_id.isascii() and last_event_id.isdigit():
            since = min(int(last_event_id), INT32_MAX)
        round_key = None
        if game_id not in hub.feeds:  # an unknown game: a 404 page, not a stream that never ends
            view = await upstream.get("gameplay", f"/v1/games/{game_id}")
            round_key = (str(view["event_code"]), str(view["section_id"]), int(view["round"]))
        return StreamingResponse(
            hub.watch(game_id, since, round_key), media_type="text/event-stream", headers=SSE_HEADERS
        )


async def _round_boards(site: Site, key: tuple[str, str, int]) -> dict[str, Any]:
    """The round's boards: while this process follows the round, the last read of them with the
    games that changed since taken from their feeds (``wall_boards``), else read again."""
    hub = site.hub
    followed = hub.rounds.get(key)
    fresh = followed is not None and time.monotonic() - followed.boards_read_at < wall_boards.MAX_AGE_S
    if followed is not None and followed.running and followed.boards is not None and fresh:
        current = wall_boards.assembled(hub, key, *followed.boards)
        if current is not None:
            hub.walls_assembled += 1
            read_cache.note_digest(current[1])
            return current[0]
    code, sid, n = key
    answer = await site.upstream.get_shared("gameplay", f"/v1/rounds/{code}/{sid}/{n}/boards")
    followed = hub.rounds.get(key)
    if followed is not None and followed.running:
        if followed.boards is None or followed.boards[0] is not answer:
            followed.boards = (answer, read_cache.digest_of("boards", answer))
        followed.boards_read_at = time.monotonic()
    return answer


def _round_routes(app: FastAPI, site: Site) -> None:
    """A round's board wall and the one stream of all its games."""
    upstream, hub = site.upstream, site.hub

    async def round_games(code: str, sid: str, n: int) -> list[dict[str, Any]]:
        listing = await upstream.get("gameplay", f"/v1/rounds/{code}/{sid}/{n}/games")
        return list(listing.get("games", []))

    @app.get("/events/{code}/sections/{sid}/rounds/{n}/wall", response_class=HTMLResponse, name="wall")
    async def wall_page(request: Request, code: PathId, sid: PathId, n: RoundNo) -> HTMLResponse:
        event, section, boards, rnd = await asyncio.gather(
            upstream.get("registration", f"/v1/events/{code}"),
            upstream.get("pairing", f"/v1/events/{code}/sections/{sid}"),
            # every game of the round in one (conditional) read, kept up to date by the feeds
            _round_boards(site, (code, sid, n)),
            upstream.optional("pairing", f"/v1/events/{code}/sections/{sid}/rounds/{n}"),
        )
        names = await live_titles(upstream, site.pages.kept, (code, sid, n), who_is_who.by_id(section))
        views = boards.get("games", [])
        matches = matches_by_pairing(rnd)  # a team round: each board's match (PAIR-9)
        tiles = [
            {
                "game": v,
                "html": site.tile(
                    request, v, names, functools.partial(board.layout, v), matches.get(str(v.get("pairing_id")))
                ),
            }
            for v in views
        ]
        return site.render(
            request,
            "wall.html",
            event=event,
            section=section,
            code=code,
            n=n,
            tiles=tiles,
            names=names,
            live_kinds=LIVE_KINDS,
            tab="wall",
        )

    @app.get("/events/{code}/sections/{sid}/rounds/{n}/events", name="wall_events")
    async def wall_events(code: PathId, sid: PathId, n: RoundNo) -> Response:
        """Every game of the round in one stream (a browser opens few connections per site)."""
        games = [g["game_id"] for g in await round_games(code, sid, n)]
        return StreamingResponse(
            hub.watch_many(games, (code, sid, n)), media_type="text/event-stream", headers=SSE_HEADERS
        )
