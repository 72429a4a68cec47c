"""The portal's event loop accepts every waiting connection at once (issue 33: with uvloop a busy
portal accepted one new connection per turn of its loop, and arriving spectators waited in the
listen queue for seconds while requests on open connections were answered at once)."""

from __future__ import annotations

import asyncio
import socket

import uvicorn
from fastapi import FastAPI

from gomoku_shared import serve

WAITING = 40


def _served_loop(monkeypatch) -> str:
    """The loop ``python -m gomoku_shared.serve portal`` hands uvicorn."""
    seen: dict = {}
    monkeypatch.setattr(serve.StreamsEndingServer, "run", lambda self, sockets=None: seen.update(loop=self.config.loop))
    # neither the collector settings nor the logging of this test process change
    monkeypatch.setattr("gomoku_shared.serve.tune_gc", lambda: None)
    monkeypatch.setattr("gomoku_shared.serve.logs.configure", lambda *a, **k: None)
    monkeypatch.setattr("gomoku_shared.serve.pages", lambda mode: FastAPI)
    assert serve.main(["portal"]) == 0
    return seen.get("loop", "auto")


def _turns_to_accept(loop_name: str) -> int:
    """Turns of the loop a server made as uvicorn makes it takes to accept WAITING connections
    that are already in its listen queue."""
    listener = socket.create_server(("127.0.0.1", 0), backlog=2048)
    clients = [socket.create_connection(listener.getsockname()) for _ in range(WAITING)]
    accepted = 0

    class Counting(asyncio.Protocol):
        def __init__(self) -> None:
            nonlocal accepted
            accepted += 1

    async def count() -> int:
        loop = asyncio.get_running_loop()
        server = await loop.create_server(Counting, sock=listener, backlog=2048)
        turns = 0
        while accepted < WAITING and turns < 10 * WAITING:
            await asyncio.sleep(0)  # one turn of the loop
            turns += 1
        server.close()
        return turns

    factory = uvicorn.Config(FastAPI(), loop=loop_name).get_loop_factory()
    assert factory is not None
    try:
        with asyncio.Runner(loop_factory=factory) as runner:
            return runner.run(count())
    finally:
        for client in clients:
            client.close()


def test_the_portal_accepts_every_waiting_connection_in_a_turn_or_two(monkeypatch):
    loop_name = _served_loop(monkeypatch)
    assert loop_name == serve.PORTAL_LOOP
    # uvloop took one turn per connection (40 here); a turn lasts 10-90 ms in a busy portal
    assert _turns_to_accept(loop_name) <= 3
