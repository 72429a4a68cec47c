"""The stream of one event (``GET /v1/events/{event_code}/stream``): pairings (games created),
game starts, moves and results of all the event's games, as NDJSON or Server-Sent Events,
resumable by cursor. Served from the process's shared feed (service_layer.event_feed)."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from fastapi import FastAPI, Header, Query, Request
from fastapi.responses import StreamingResponse

from gomoku_shared.auth import Principal, Reader
from gomoku_shared.errors import ServiceError
from gomoku_shared.params import PathId

from ..service_layer.games import GameService

CURSOR_MAX = 2**63 - 1
NDJSON = "application/x-ndjson"
SSE = "text/event-stream"

#: one line of the event stream (JSON Schema)
EVENT_MESSAGE_SCHEMA = {
    "type": "object",
    "required": ["id", "game_id", "section_id", "round", "seq", "kind", "data", "at_ms"],
    "properties": {
        "id": {"type": "integer", "description": "the stream-wide cursor: resume with since=id"},
        "game_id": {"type": "string"},
        "section_id": {"type": "string"},
        "round": {"type": "integer"},
        "seq": {"type": "integer", "description": "the game's own sequence number"},
        "kind": {"type": "string", "description": "created, joined, started, action, finished, corrected, ..."},
        "data": {"type": "object"},
        "at_ms": {"type": "integer"},
    },
}
SSE_SCHEMA = {
    "type": "object",
    "required": ["data"],
    "properties": {
        "event": {"type": "string"},
        "id": {"type": "string"},
        "data": {"type": "string", "contentMediaType": "application/json", "contentSchema": EVENT_MESSAGE_SCHEMA},
    },
}


def partner_scope(principal: Principal) -> str | None:
    """Whose games a caller sees: a partner its own players' (a partner key bound to no
    partner id: none), everyone else every game (None)."""
    if principal.role != "partner":
        return None
    return principal.partner_id or ""


def wire(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": row["id"],
        "game_id": row["game_id"],
        "section_id": row["section_id"],
        "round": row["round"],
        "seq": row["seq"],
        "kind": row["kind"],
        "data": row["data"],
        "at_ms": row["at_ms"],
    }


def _cursor(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or int(text) > CURSOR_MAX:
        raise ServiceError(
            "bad_last_event_id",
            "Last-Event-ID must be a stream cursor (an id received, 0..9223372036854775807)",
            {"header": "Last-Event-ID"},
            status=400,
        )
    return int(text)


def _ndjson(row: dict[str, Any] | None) -> str:
    return "\n" if row is None else json.dumps(wire(row)) + "\n"


def _sse(row: dict[str, Any] | None) -> str:
    if row is None:
        return ": keep-alive\n\n"
    return f"id: {row['id']}\nevent: {row['kind']}\ndata: {json.dumps(wire(row))}\n\n"


def install(app: FastAPI, games: GameService) -> None:
    @app.get(
        "/v1/events/{event_code}/stream",
        tags=["stream"],
        summary="The stream of one event: pairings, game starts, moves and results of all its games",
        description="Every stream event of the event's games in order (`created` when a round's "
        "pairing becomes a game, `joined`, `started`, `action` with each move, `finished`, "
        "`corrected`, ...), then the live ones. As NDJSON (`Accept: application/x-ndjson`, the default: "
        "one JSON object a line, an empty line as a keep-alive) or as Server-Sent Events "
        "(`Accept: text/event-stream`: `id:` the cursor, `event:` the kind). Each message's `id` is "
        "the cursor: resume after it with `since` or `Last-Event-ID` (no gaps, no repeats). A partner "
        "sees its own players' games only. `follow=false` ends after the events stored so far.",
        response_class=StreamingResponse,
        responses={
            200: {
                "description": "the event's stream",
                "content": {NDJSON: {"schema": EVENT_MESSAGE_SCHEMA}, SSE: {"schema": SSE_SCHEMA}},
            }
        },
    )
    async def event_stream(
        event_code: PathId,
        request: Request,
        principal: Reader,
        since: int = Query(0, ge=0, le=CURSOR_MAX, description="resume after this cursor (a message's `id`)"),
        follow: bool = Query(True, description="keep the stream open for the live events"),
        last_event_id: str | None = Header(
            None, max_length=19, description="the last `id` received (resumes after it; wins over `since`)"
        ),
    ):
        start = since if last_event_id is None else _cursor(last_event_id)
        as_sse = SSE in request.headers.get("accept", "")
        line = _sse if as_sse else _ndjson

        async def body():
            feed = games.feed.follow(event_code, start, partner_scope(principal), live=follow)
            async with contextlib.aclosing(feed) as events:
                async for row in events:
                    if row is None and await request.is_disconnected():
                        return
                    yield line(row)

        return StreamingResponse(
            body(),
            media_type=SSE if as_sse else NDJSON,
            headers={"cache-control": "no-cache", "x-accel-buffering": "no"},
        )
