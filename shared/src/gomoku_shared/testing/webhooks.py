"""A partner's webhook endpoint for the tests and the benches: an ASGI app, served by uvicorn on
127.0.0.1 (``serving``), that records every request it is sent with the moment it arrived.

Given ``verify`` (e.g. ``standardwebhooks.Webhook(secret).verify``), it answers ``status`` to a
delivery that verifies (its payload recorded) and 400 to any other request (counted in
``refused``); without, it answers ``status`` to every request. ``on_arrival`` is called with
each request before it is answered (a receiver in its own process writes it to disk there).
Nothing is deduplicated: a redelivery is recorded again under the same ``webhook-id``.
``HungReceiver`` is an endpoint that never answers (a partner's receiver that hangs).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import uvicorn


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Arrival:
    """One request: its headers (lower-case names), body, when it was received (and verified:
    ``time.perf_counter``) and, when the receiver verifies, the verified payload (None: refused,
    ``refusal`` says why)."""

    headers: dict[str, str]
    body: bytes
    at: float
    payload: Any = None
    refusal: str | None = None


@dataclass
class WebhookReceiver:
    """Records every request; answers ``status`` (200 by default), 400 to what ``verify`` refuses."""

    port: int = field(default_factory=free_port)
    status: int = 200
    verify: Callable[[bytes, dict[str, str]], Any] | None = None
    on_arrival: Callable[[Arrival], None] | None = None
    arrivals: list[Arrival] = field(default_factory=list)
    refused: int = 0
    _arrived: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    @property
    def received(self) -> list[tuple[dict[str, str], bytes]]:
        """(headers, body) of every request so far (a new list: clear ``arrivals`` to forget them)."""
        return [(arrival.headers, arrival.body) for arrival in self.arrivals]

    def bodies(self) -> list[dict[str, Any]]:
        return [json.loads(arrival.body) for arrival in self.arrivals]

    def ids(self) -> list[str]:
        return [arrival.headers["webhook-id"] for arrival in self.arrivals]

    async def until(self, done: Callable[[WebhookReceiver], bool], timeout_s: float) -> None:
        """Wait until ``done(self)`` holds (checked at each arrival); TimeoutError after ``timeout_s``."""
        async with asyncio.timeout(timeout_s):
            while not done(self):
                self._arrived.clear()
                await self._arrived.wait()

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        headers = {name.decode().lower(): value.decode() for name, value in scope["headers"]}
        payload, refusal, status = None, None, self.status
        if self.verify is not None:
            try:
                payload = self.verify(body, headers)
            except Exception as exc:  # noqa: BLE001 - anything that does not verify is refused
                self.refused += 1
                refusal, status = repr(exc), 400
        arrival = Arrival(headers, body, time.perf_counter(), payload, refusal)
        if self.on_arrival is not None:
            self.on_arrival(arrival)
        self.arrivals.append(arrival)
        self._arrived.set()
        await send({"type": "http.response.start", "status": status, "headers": []})
        await send({"type": "http.response.body", "body": b"" if status in (204, 304) else b"ok"})


@contextlib.asynccontextmanager
async def serving(app: Any, port: int) -> AsyncIterator[None]:
    """``app`` served by uvicorn on 127.0.0.1:``port`` for the block."""
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None, access_log=False))
    task = asyncio.create_task(server.serve())
    try:
        async with asyncio.timeout(30):
            while not server.started:  # noqa: ASYNC110 - uvicorn's Server.started is a flag, not an event
                await asyncio.sleep(0.02)
        yield
    finally:
        server.should_exit = True
        await task


@dataclass
class HungReceiver:
    """A webhook endpoint that never answers (until ``release``): it records the path of every
    request as it arrives, then holds the connection. ``open`` is how many are held now.
    Release it before its server stops: uvicorn waits for the requests under way."""

    port: int = field(default_factory=free_port)
    paths: list[str] = field(default_factory=list)
    open: int = 0
    _released: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def release(self) -> None:
        """Answer every held request (and the later ones at once): 503."""
        self._released.set()

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return
        while (await receive()).get("more_body"):
            pass
        self.paths.append(scope["path"])
        self.open += 1
        try:
            await self._released.wait()
        finally:
            self.open -= 1
        await send({"type": "http.response.start", "status": 503, "headers": []})
        await send({"type": "http.response.body", "body": b""})
