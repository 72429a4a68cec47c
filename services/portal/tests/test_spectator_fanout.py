"""Spectator fan-out (issue 15, PLAY-8 live broadcast): many viewers of one game cost gameplay
one event stream — by default the stream of the game's round, which carries every game of it
(PORTAL_ROUND_STREAMS=false: one stream per game). The portal is served on a real socket
(uvicorn); its viewers are SSE clients; gameplay's app is wrapped by a counter of the event
streams (SSE requests and WebSockets) that reach it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import signal
import socket
from datetime import UTC, datetime

import httpx
import pytest
import uvicorn

from gomoku_shared.clock import FakeClock
from gomoku_shared.contracts import encode, envelope_for
from gomoku_shared.contracts.common import ClockSpec, Ruleset
from gomoku_shared.contracts.events import PairingSpec, RoundPaired
from gomoku_shared.embedded import EmbeddedSuite
from gomoku_shared.serve import StreamsEndingServer
from gomoku_shared.settings import ServiceSettings
from portal.app import create_app
from portal.settings import PortalSettings
from portal.upstream import Upstream

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow

START = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)
KEYS = "op-key=operator,pa-key=partner:pa,pb-key=partner:pb,view-key=viewer"
VIEWERS = 25


class CountingStreams:
    """Passes every request to the gameplay app; counts the event streams opened (a game's SSE,
    a round's WebSocket)."""

    def __init__(self, app) -> None:
        self.app = app
        self.streams = 0

    async def __call__(self, scope, receive, send) -> None:
        if (scope["type"] == "http" and scope["path"].endswith("/events")) or scope["type"] == "websocket":
            self.streams += 1
        await self.app(scope, receive, send)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(params=[True, False], ids=["round-streams", "game-streams"])
async def served(tmp_path, request):
    suite = EmbeddedSuite(
        ServiceSettings(DATA_DIR=str(tmp_path), API_KEYS=KEYS, LOG_JSON=False, CLOCK="fake", RELAY_POLL_S=0.1),
        clock=FakeClock(START),
    )
    await suite.start()
    counting = CountingStreams(suite.services["gameplay"].app)
    apps = {name: svc.app for name, svc in suite.services.items()} | {"gameplay": counting}
    upstream = Upstream.in_process(apps, "view-key", 5.0)
    settings = PortalSettings(PORTAL_FEED_LINGER_S=0, PORTAL_ROUND_STREAMS=request.param)
    portal = create_app(upstream, settings, suite.clock)  # the services' time, as the embedded process
    port = _free_port()
    config = uvicorn.Config(portal, host="127.0.0.1", port=port, log_level="warning", lifespan="off")
    server = StreamsEndingServer(config, portal.state.end_streams)  # as ``gomoku_shared.serve portal`` runs it
    serving = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.05)
    pairings = [
        PairingSpec(
            pairing_id=f"p{i}",
            first=f"b{i}",
            second=f"w{i}",
            # p3 under the rules that forbid points to black (PLAY-2, PLAY-3)
            ruleset=Ruleset(track="professional" if i == 3 else "free"),
            clock=ClockSpec(kind="fischer", base_s=600, increment_s=5),
            first_partner="pa",
            second_partner="pb",
        )
        for i in (1, 2, 3)
    ]
    paired = RoundPaired(
        event_code="EV",
        stage="main",
        section_id="S1",
        round=1,
        starts_at=START,
        no_show_minutes=15,
        pairings=pairings,
    )
    await suite.bus.publish([encode(envelope_for(paired, correlation_id="fanout-test"))])
    await suite.drain()
    gameplay = httpx.AsyncClient(transport=httpx.ASGITransport(app=suite.app), base_url="http://suite/gameplay")
    for i in (1, 2, 3):
        for player, key in ((f"b{i}", "pa-key"), (f"w{i}", "pb-key")):
            r = await gameplay.post(
                f"/v1/games/EV.main.S1.r1.p{i}.g1/join", json={"player_id": player}, headers={"x-api-key": key}
            )
            assert r.status_code == 200, r.text
    try:
        yield f"http://127.0.0.1:{port}", gameplay, counting, request.param, server
    finally:
        await gameplay.aclose()
        server.should_exit = True
        await serving
        await upstream.aclose()
        await suite.stop()


async def _events(client: httpx.AsyncClient, url: str, seen: list[dict], ready: asyncio.Event) -> None:
    """Read an SSE stream, keeping every message's kind and data."""
    async with client.stream("GET", url) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        ready.set()
        kind = ""
        async for line in r.aiter_lines():
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: "):
                seen.append({"kind": kind, **json.loads(line[6:])})


async def _until(what: str, probe, timeout_s: float = 20.0) -> None:
    for _ in range(int(timeout_s / 0.05)):
        if await probe():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


async def test_many_viewers_of_a_game_share_one_upstream_stream(served):
    base, gameplay, counting, by_round, _server = served
    game = "EV.main.S1.r1.p1.g1"
    seen: list[list[dict]] = [[] for _ in range(VIEWERS)]
    ready = [asyncio.Event() for _ in range(VIEWERS)]
    async with httpx.AsyncClient(timeout=httpx.Timeout(30.0), limits=httpx.Limits(max_connections=100)) as client:
        readers = [
            asyncio.create_task(_events(client, f"{base}/games/{game}/events", seen[i], ready[i]))
            for i in range(VIEWERS)
        ]
        try:
            for event in ready:
                await asyncio.wait_for(event.wait(), 20)

            async def all_watching() -> bool:
                return (await client.get(f"{base}/live/stats")).json()["viewers"] == VIEWERS

            await _until("every viewer to be attached", all_watching)
            r = await gameplay.post(
                f"/v1/games/{game}/move", json={"player_id": "b1", "point": "h8"}, headers={"x-api-key": "pa-key"}
            )
            assert r.status_code == 200, r.text

            async def everyone_saw_the_move() -> bool:
                return all(any(m["kind"] == "action" and m["data"].get("point") == "h8" for m in s) for s in seen)

            await _until("the move to reach every viewer", everyone_saw_the_move)
            # the stored history (created, joined, started) reached each viewer too, once
            for messages in seen:
                seqs = [m["seq"] for m in messages if "seq" in m]
                assert seqs == sorted(set(seqs)) and seqs[0] == 1, seqs
            stats = (await client.get(f"{base}/live/stats")).json()
            # followed: the game (per game), or every game of its round (per round: three here)
            assert stats["games"] == (3 if by_round else 1) and stats["viewers"] == VIEWERS
            # 25 viewers, one stream at gameplay: counted by the portal and at gameplay's door
            assert stats["upstream_opened"] == 1
            assert counting.streams == 1
        finally:
            for task in readers:
                task.cancel()
            for task in readers:
                with contextlib.suppress(asyncio.CancelledError, httpx.HTTPError):
                    await task


async def test_a_viewer_resuming_with_last_event_id_gets_only_later_events(served):
    base, gameplay, counting, by_round, _server = served
    game = "EV.main.S1.r1.p1.g1"
    await gameplay.post(
        f"/v1/games/{game}/move", json={"player_id": "b1", "point": "h8"}, headers={"x-api-key": "pa-key"}
    )
    async with httpx.AsyncClient(timeout=httpx.Timeout(30.0)) as client:
        first: list[dict] = []
        ready = asyncio.Event()
        reader = asyncio.create_task(_events(client, f"{base}/games/{game}/events", first, ready))

        async def has_move() -> bool:
            return any(m["kind"] == "action" for m in first)

        await _until("the first viewer to see the history", has_move)
        last = max(m["seq"] for m in first if "seq" in m)
        second: list[dict] = []
        ready2 = asyncio.Event()
        resumed = asyncio.create_task(
            _events_with_header(client, f"{base}/games/{game}/events", second, ready2, str(last))
        )
        await asyncio.wait_for(ready2.wait(), 20)
        await gameplay.post(
            f"/v1/games/{game}/move", json={"player_id": "w1", "point": "a1"}, headers={"x-api-key": "pb-key"}
        )

        async def resumed_saw_it() -> bool:
            return any(m["kind"] == "action" and m["data"].get("point") == "a1" for m in second)

        await _until("the resumed viewer to see the new move", resumed_saw_it)
        assert all(m["seq"] > last for m in second if "seq" in m)
        assert counting.streams == 1  # the second viewer was served from the feed's memory
        for task in (reader, resumed):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, httpx.HTTPError):
                await task


async def _events_with_header(client, url, seen, ready, last_event_id: str) -> None:
    async with client.stream("GET", url, headers={"last-event-id": last_event_id}) as r:
        ready.set()
        kind = ""
        async for line in r.aiter_lines():
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: "):
                seen.append({"kind": kind, **json.loads(line[6:])})


async def test_the_round_stream_carries_every_game_of_the_round_in_one_connection(served):
    base, gameplay, counting, by_round, _server = served
    async with httpx.AsyncClient(timeout=httpx.Timeout(30.0)) as client:
        seen: list[dict] = []
        ready = asyncio.Event()
        reader = asyncio.create_task(_events(client, f"{base}/events/EV/sections/S1/rounds/1/events", seen, ready))

        async def has_state() -> bool:
            return any(m["kind"] == "state" for m in seen)

        await _until("the wall stream's first state", has_state)
        for game, player, key in (("EV.main.S1.r1.p1.g1", "b1", "pa-key"), ("EV.main.S1.r1.p2.g1", "b2", "pa-key")):
            r = await gameplay.post(
                f"/v1/games/{game}/move", json={"player_id": player, "point": "h8"}, headers={"x-api-key": key}
            )
            assert r.status_code == 200, r.text

        async def both_moves() -> bool:
            moved = {m["game_id"] for m in seen if m["kind"] == "action"}
            return moved == {"EV.main.S1.r1.p1.g1", "EV.main.S1.r1.p2.g1"}

        await _until("moves of both games on the one stream", both_moves)
        # one per round or one per game of the round (three), whatever the viewers
        assert counting.streams == (1 if by_round else 3)
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, httpx.HTTPError):
            await reader


async def _none_open(server: StreamsEndingServer) -> bool:
    return not server.server_state.connections


async def test_told_to_stop_the_portal_ends_every_viewers_stream_and_stops_without_errors(served, caplog):
    """The signal to stop ends the spectators' streams at once (a game's and a round wall's, the
    wall's without its "done": the games go on and the page reconnects), so the server stops
    without waiting out its grace period and cancelling each stream with a logged error."""
    base, _gameplay, _counting, _by_round, server = served
    game_seen: list[dict] = []
    wall_seen: list[dict] = []
    ready = [asyncio.Event(), asyncio.Event()]
    caplog.set_level(logging.ERROR)
    async with httpx.AsyncClient(timeout=httpx.Timeout(30.0)) as client:
        readers = [
            asyncio.create_task(_events(client, f"{base}/games/EV.main.S1.r1.p1.g1/events", game_seen, ready[0])),
            asyncio.create_task(_events(client, f"{base}/events/EV/sections/S1/rounds/1/events", wall_seen, ready[1])),
        ]
        for event in ready:
            await asyncio.wait_for(event.wait(), 20)

        async def both_watching() -> bool:
            return (await client.get(f"{base}/live/stats")).json()["viewers"] >= 3  # a game, and the wall's two

        await _until("the viewers attached", both_watching)
        server.handle_exit(signal.SIGTERM, None)
        server._captured_signals.clear()  # uvicorn raises a caught signal again once stopped: not in pytest
        # both streams end as streams end (no reset, no error), long before the 30 s read timeout
        await asyncio.wait_for(asyncio.gather(*readers), 20)
    assert [m for m in wall_seen if m["kind"] == "done"] == []
    await _until("every connection closed", lambda: _none_open(server))
    assert not [r for r in caplog.records if "Exception in ASGI application" in r.getMessage()]


def test_the_embedded_process_ends_the_spectators_streams_on_a_stop_too(tmp_path):
    """The one-process runner serves the pages at / (portal.embedding.mount): its server ends the
    same streams on the signal to stop (``gomoku_shared.embedded`` hands uvicorn the suite's app)."""
    suite = EmbeddedSuite(ServiceSettings(DATA_DIR=str(tmp_path), API_KEYS=KEYS, LOG_JSON=False))
    hub = suite.app.router.default.state.hub  # type: ignore[attr-defined]  # the pages' app
    assert suite.app.state.end_streams == hub.end_streams
