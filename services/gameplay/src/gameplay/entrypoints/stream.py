"""Live streams (PLAY-8 live broadcast): WebSocket per game and per round, SSE per game.

Events come from the ``game_events`` table (written in the same transaction as the change), so
any replica serves any stream and a client resumes after a reconnect from the last sequence
number it saw (``since``: a game's ``seq``, or for a round the event ``id``). Between events the
stream sends the clocks as of now (``kind: "clock"``, no sequence number).
"""
from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import StreamingResponse

from gomoku_shared.auth import AnyPrincipal
from gomoku_shared.errors import NotFound

from ..service_layer.games import GameService, round_key

POLL_S = 0.2
CLOCK_EVERY_S = 1.0


def _wire(e: dict[str, Any]) -> dict[str, Any]:
    out = {"game_id": e["game_id"], "seq": e["seq"], "kind": e["kind"], "data": e["data"], "at_ms": e["at_ms"]}
    if "id" in e:
        out["id"] = e["id"]
    return out


async def _clock_message(games: GameService, game_id: str) -> dict[str, Any]:
    view = await games.view(game_id)
    return {"game_id": game_id, "kind": "clock", "data": {"clocks": view["clocks"], "status": view["status"]}}


def install(app: FastAPI, games: GameService) -> None:
    @app.get("/v1/games/{game_id}/events", tags=["stream"],
             summary="Server-Sent Events of one game from sequence number `since` (resume after reconnect)")
    async def sse(game_id: str, request: Request, _p: AnyPrincipal, since: int = Query(0, ge=0),
                  follow: bool = Query(True, description="keep the stream open until the game ends")):
        if not await games.game_exists(game_id):
            raise NotFound("game_not_found", f"no game {game_id!r}")
        last = request.headers.get("last-event-id")
        start = int(last) if last and last.isdigit() else since

        async def body():
            seq = start
            next_clock = time.monotonic() + CLOCK_EVERY_S
            while True:
                finished = False
                for e in await games.events_since(game_id, seq):
                    seq = e["seq"]
                    finished = finished or e["kind"] == "finished"
                    yield f"id: {seq}\nevent: {e['kind']}\ndata: {json.dumps(_wire(e))}\n\n"
                if finished or not follow or await request.is_disconnected():
                    return
                if time.monotonic() >= next_clock:
                    next_clock = time.monotonic() + CLOCK_EVERY_S
                    yield f"event: clock\ndata: {json.dumps(await _clock_message(games, game_id))}\n\n"
                await asyncio.sleep(POLL_S)

        return StreamingResponse(body(), media_type="text/event-stream",
                                 headers={"cache-control": "no-cache", "x-accel-buffering": "no"})

    def _authorised(ws: WebSocket) -> bool:
        key = ws.headers.get("x-api-key") or ws.query_params.get("api_key")
        return bool(key) and app.state.keyring.lookup(key) is not None

    @app.websocket("/v1/games/{game_id}/ws")
    async def game_ws(ws: WebSocket, game_id: str, since: int = 0):
        if not _authorised(ws):
            await ws.close(code=4401)
            return
        if not await games.game_exists(game_id):
            await ws.close(code=4404)
            return
        await ws.accept()
        seq = since
        next_clock = time.monotonic() + CLOCK_EVERY_S
        try:
            while True:
                for e in await games.events_since(game_id, seq):
                    seq = e["seq"]
                    await ws.send_json(_wire(e))
                    if e["kind"] == "finished":
                        await ws.close()
                        return
                if time.monotonic() >= next_clock:
                    next_clock = time.monotonic() + CLOCK_EVERY_S
                    await ws.send_json(await _clock_message(games, game_id))
                await asyncio.sleep(POLL_S)
        except WebSocketDisconnect:
            return

    @app.websocket("/v1/rounds/{event_code}/{section_id}/{round}/ws")
    async def round_ws(ws: WebSocket, event_code: str, section_id: str, round: int, since: int = 0):
        if not _authorised(ws):
            await ws.close(code=4401)
            return
        await ws.accept()
        key = round_key(event_code, section_id, round)
        last = since
        try:
            while True:
                for e in await games.round_events_since(key, last):
                    last = e["id"]
                    await ws.send_json(_wire(e))
                await asyncio.sleep(POLL_S)
        except WebSocketDisconnect:
            return
