"""Live streams (PLAY-8 live broadcast): WebSocket per game and per round, SSE per game.

Events come from the ``game_events`` table (written in the same transaction as the change), so
any replica serves any stream and a client resumes after a reconnect from the last sequence
number it saw (``since``: a game's ``seq``, or for a round the event ``id``). Between events the
stream sends the clocks as of now (``kind: "clock"``, no sequence number).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Coroutine
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, StreamingResponse

from gomoku_shared.auth import Reader, presented_credential
from gomoku_shared.errors import NotFound, ServiceError, error_body
from gomoku_shared.params import INT32_MAX, PathId, RoundNo, SinceSeq

from ..domain.game_ids import round_key
from ..service_layer.games import GameService

#: the streams in words, for the OpenAPI description (WebSocket routes are not part of OpenAPI)
DESCRIPTION = """
## Live streams (PLAY-8)

Every message is a JSON object `{"game_id", "seq", "kind", "data", "at_ms"}`; `kind` is
`created`, `joined`, `started`, `action` (`data.action`: `move`, `opening`, `swap`, `offers`,
`choose`, `pass`, `resign`, `flag`, `arbiter`, …, with `data.point` for a move), `draw_offer`,
`draw_declined`, `time_added`, `finished` (`data.result`, `data.reason`, `data.winner`; an arbiter's
result from pairing adds `data.decided_by: "arbiter"`), `corrected` (a finished game's result
corrected by the arbiter, same data) and,
between events, `clock` (no `seq`: `data.clocks` and `data.status` as of now).

* **WebSocket, one game**: `ws://…/v1/games/{game_id}/ws?since=N` — every event after sequence
  number `N` (0 = from the start), then the live ones; the server closes the stream (1000) after
  `finished`.
* **WebSocket, one round**: `ws://…/v1/rounds/{event_code}/{section_id}/{round}/ws?since=ID` —
  the events of every game of the round, each with its stream-wide `id` (resume with `since`).
* **Server-Sent Events, one game**: `GET /v1/games/{game_id}/events` (below), resumable with
  `Last-Event-ID` or `since`.

The WebSocket handshake takes the API key in `X-API-Key` or, for browsers, the `api_key` query
parameter. A refused handshake answers HTTP with the common error body (401 `invalid_api_key`,
404 `game_not_found`).
"""

#: one message of the streams (JSON Schema)
MESSAGE_SCHEMA = {
    "type": "object",
    "required": ["game_id", "kind", "data"],
    "properties": {
        "game_id": {"type": "string"},
        "seq": {"type": "integer", "description": "absent on `clock`"},
        "id": {"type": "integer", "description": "round streams: the stream-wide id"},
        "kind": {"type": "string"},
        "data": {"type": "object"},
        "at_ms": {"type": "integer"},
    },
}
#: one Server-Sent Event: its data is a message
SSE_EVENT_SCHEMA = {
    "type": "object",
    "required": ["data"],
    "properties": {
        "event": {"type": "string"},
        "id": {"type": "string"},
        "data": {"type": "string", "contentMediaType": "application/json", "contentSchema": MESSAGE_SCHEMA},
    },
}

POLL_S = 0.2
CLOCK_EVERY_S = 1.0


def _wire(event: dict[str, Any]) -> dict[str, Any]:
    out = {
        "game_id": event["game_id"],
        "seq": event["seq"],
        "kind": event["kind"],
        "data": event["data"],
        "at_ms": event["at_ms"],
    }
    if "id" in event:
        out["id"] = event["id"]
    return out


async def _clock_message(games: GameService, game_id: str) -> dict[str, Any]:
    view = await games.views.view(game_id)
    return {"game_id": game_id, "kind": "clock", "data": {"clocks": view["clocks"], "status": view["status"]}}


def _sequence(text: str) -> int:
    """A Last-Event-ID: ASCII digits only (``str.isdigit`` also accepts "²"), within a game's
    sequence numbers."""
    if not (text.isascii() and text.isdigit()) or int(text) > INT32_MAX:
        raise ServiceError(
            "bad_last_event_id",
            "Last-Event-ID must be a sequence number (0..2147483647)",
            {"header": "Last-Event-ID"},
            status=400,
        )
    return int(text)


def install(app: FastAPI, games: GameService) -> None:
    _install_events(app, games)
    _install_websockets(app, games)


def _install_events(app: FastAPI, games: GameService) -> None:
    """Server-Sent Events of one game."""

    @app.get(
        "/v1/games/{game_id}/events",
        tags=["stream"],
        summary="Server-Sent Events of one game from sequence number `since` (resume after reconnect)",
        description="A `text/event-stream`: each event has `id:` (the sequence number), `event:` (the kind) "
        "and `data:` (the JSON message of the live streams, see the service description; "
        "the same messages are on the WebSocket `/v1/games/{game_id}/ws`). Resume with "
        "`Last-Event-ID` or `since`; `follow=false` ends after the stored events.",
        response_class=StreamingResponse,
        responses={
            200: {"content": {"text/event-stream": {"schema": SSE_EVENT_SCHEMA}}, "description": "the event stream"}
        },
    )
    async def sse(
        game_id: PathId,
        request: Request,
        _principal: Reader,
        since: SinceSeq = 0,
        follow: bool = Query(True, description="keep the stream open until the game ends"),
        last_event_id: str | None = Header(
            None,
            max_length=10,
            description=(
                "the last `id:` received (resumes after it; wins over `since`): decimal digits, at most 2147483647"
            ),
        ),
    ):
        start = since if last_event_id is None else _sequence(last_event_id)
        if not await games.views.game_exists(game_id):
            raise NotFound("game_not_found", f"no game {game_id!r}")

        async def body():
            seq = start
            next_clock = time.monotonic() + CLOCK_EVERY_S
            while True:
                finished = False
                for event in await games.views.events_since(game_id, seq):
                    seq = event["seq"]
                    finished = finished or event["kind"] == "finished"
                    yield f"id: {seq}\nevent: {event['kind']}\ndata: {json.dumps(_wire(event))}\n\n"
                if finished or not follow or await request.is_disconnected():
                    return
                if time.monotonic() >= next_clock:
                    next_clock = time.monotonic() + CLOCK_EVERY_S
                    yield f"event: clock\ndata: {json.dumps(await _clock_message(games, game_id))}\n\n"
                await asyncio.sleep(POLL_S)

        return StreamingResponse(
            body(), media_type="text/event-stream", headers={"cache-control": "no-cache", "x-accel-buffering": "no"}
        )


def _install_websockets(app: FastAPI, games: GameService) -> None:
    """WebSockets of one game and of one round."""

    def _authorised(socket: WebSocket) -> bool:
        """An API key or a partner's token allowed to read (scope results:read), as the routes."""
        key = presented_credential(socket.scope["headers"]) or socket.query_params.get("api_key")
        try:
            ring = app.state.keyring
            ring.admit(key, scope="results:read", asgi_scope=socket.scope)
        except ServiceError:
            return False
        return True

    async def _refuse(socket: WebSocket, status: int, code: str, message: str) -> None:
        """Refuse the handshake with the common error body as the HTTP answer (where the server
        supports denial responses), otherwise close with 4000 + status (4401, 4404)."""
        if "websocket.http.response" in socket.scope.get("extensions", {}):
            await socket.send_denial_response(JSONResponse(error_body(code, message), status_code=status))
        else:
            await socket.close(code=4000 + status, reason=code)

    @app.websocket("/v1/games/{game_id}/ws")
    async def game_ws(socket: WebSocket, game_id: PathId, since: SinceSeq = 0):
        if not _authorised(socket):
            return await _refuse(socket, 401, "invalid_api_key", "send a valid API key (X-API-Key header or api_key)")
        if not await games.views.game_exists(game_id):
            return await _refuse(socket, 404, "game_not_found", f"no game {game_id!r}")
        await socket.accept()

        async def push() -> None:
            seq = since
            next_clock = time.monotonic() + CLOCK_EVERY_S
            while True:
                for event in await games.views.events_since(game_id, seq):
                    seq = event["seq"]
                    await socket.send_json(_wire(event))
                    if event["kind"] == "finished":
                        await socket.close()
                        return
                if time.monotonic() >= next_clock:
                    next_clock = time.monotonic() + CLOCK_EVERY_S
                    await socket.send_json(await _clock_message(games, game_id))
                await asyncio.sleep(POLL_S)

        await _until_done_or_gone(socket, push())

    @app.websocket("/v1/rounds/{event_code}/{section_id}/{round}/ws")
    async def round_ws(
        socket: WebSocket,
        event_code: PathId,
        section_id: PathId,
        round: RoundNo,
        since: Annotated[int, Query(ge=0, le=2**63 - 1)] = 0,
    ):
        if not _authorised(socket):
            return await _refuse(socket, 401, "invalid_api_key", "send a valid API key (X-API-Key header or api_key)")
        await socket.accept()
        key = round_key(event_code, section_id, round)

        async def push() -> None:
            last = since
            while True:
                for event in await games.views.round_events_since(key, last):
                    last = event["id"]
                    await socket.send_json(_wire(event))
                await asyncio.sleep(POLL_S)

        await _until_done_or_gone(socket, push())


async def _until_done_or_gone(socket: WebSocket, push: Coroutine[Any, Any, None]) -> None:
    """Run ``push`` until it ends or the client goes away. Listening matters: a stream with
    nothing to send would otherwise never notice a closed client and would hold a graceful
    shutdown of the server open forever."""

    async def listen() -> None:
        while (await socket.receive())["type"] != "websocket.disconnect":
            pass  # clients send nothing the server acts on

    tasks = [asyncio.ensure_future(push), asyncio.ensure_future(listen())]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError):
                await task
