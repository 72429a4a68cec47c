"""The stream reader over a real socket: an NDJSON server (uvicorn on 127.0.0.1) that drops the
connection after a few events; the client reconnects by itself with ``Last-Event-ID`` and reads
every event once, in order, skipping keep-alive lines. (The event stream of the gameplay
service itself is read by tests/distributed/test_partner_integration.py.)"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections.abc import AsyncIterator
from typing import Any

import pytest
import uvicorn

from gomoku_client import ApiKey, AsyncClient, Forbidden, RetryPolicy

EVENTS = [
    {"id": i, "game_id": "g1", "section_id": "S1", "round": 1, "seq": i, "kind": "action", "data": {}, "at_ms": i}
    for i in range(1, 8)
]


class FlakyStream:
    """Serves EVENTS after ``Last-Event-ID``, at most ``per_connection`` of them, then ends the
    answer mid-stream (as a replica going away does); records each request's cursor."""

    def __init__(self, per_connection: int = 3) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.per_connection = per_connection
        self.cursors: list[str | None] = []
        self.refuse_with: int | None = None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        headers = {k.decode(): v.decode() for k, v in scope["headers"]}
        self.cursors.append(headers.get("last-event-id"))
        if self.refuse_with is not None:
            body = json.dumps({"error": {"code": "insufficient_scope", "message": "no", "details": None}}).encode()
            await send({"type": "http.response.start", "status": self.refuse_with, "headers": []})
            await send({"type": "http.response.body", "body": body})
            return
        after = int(headers.get("last-event-id") or 0)
        await send(
            {"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/x-ndjson")]}
        )
        for event in [e for e in EVENTS if e["id"] > after][: self.per_connection]:
            await send({"type": "http.response.body", "body": b"\n", "more_body": True})  # a keep-alive
            await send({"type": "http.response.body", "body": json.dumps(event).encode() + b"\n", "more_body": True})
        await send({"type": "http.response.body", "body": b""})

    @contextlib.asynccontextmanager
    async def served(self) -> AsyncIterator[str]:
        config = uvicorn.Config(self, host="127.0.0.1", port=self.port, log_config=None, lifespan="off")
        server = uvicorn.Server(config)
        task = asyncio.create_task(server.serve())
        try:
            async with asyncio.timeout(30):
                while not server.started:
                    await asyncio.sleep(0.02)
            yield f"http://127.0.0.1:{self.port}"
        finally:
            server.should_exit = True
            await task


async def test_a_dropped_stream_is_resumed_after_the_last_event_received():
    flaky = FlakyStream(per_connection=3)
    async with flaky.served() as base, AsyncClient(base, credentials=ApiKey("k")) as client:
        seen = []
        async for event in client.stream("EV"):
            seen.append(event.id)
            if len(seen) == len(EVENTS):
                break
    assert seen == [e["id"] for e in EVENTS]  # once each, in order
    assert flaky.cursors == [None, "3", "6"]  # resumed after the last id each time


async def test_a_refused_stream_raises_the_typed_error():
    flaky = FlakyStream()
    flaky.refuse_with = 403
    async with flaky.served() as base, AsyncClient(base, credentials=ApiKey("k"), retry=RetryPolicy.none()) as client:
        with pytest.raises(Forbidden) as refused:
            async for _ in client.stream("EV"):
                pass
    assert refused.value.code == "insufficient_scope"
