"""The web pages in the distributed mode, as docker-compose.yml runs them: the services as
processes on PostgreSQL + RabbitMQ, the portal as its own process (the compose command, its
read-only key), the gateway (Caddy) in front with the compose Caddyfile. Through the one base URL: the pages
at /, a live game's page and its event stream (one upstream stream for every viewer, PLAY-8),
while the services keep their prefixes."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess

import httpx
import pytest

from gomoku_shared.contracts import encode, envelope_for
from gomoku_shared.messaging.rabbit import RabbitEventBus
from gomoku_shared.testing.rounds import one_game_round

from .compose_commands import SERVICES, LocalCompose, Proc, _argv, free_port

KEYS = "op-key=operator,arb-key=arbiter,partner-key=partner:partner-1,pages-key=viewer"
OP = {"x-api-key": "op-key"}
PA = {"x-api-key": "partner-key"}
VIEWERS = 5


@pytest.fixture
async def databases(fresh_database):
    return {s: await fresh_database() for s in SERVICES}


def _start_portal(stack: LocalCompose) -> Proc:
    """The compose service ``portal``: its command and environment, the service URLs pointing
    at the local processes instead of the compose host names."""
    spec = stack.spec["portal"]
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "AMQP_URL")}
    env.update({k: str(v) for k, v in spec["environment"].items() if "${" not in str(v)})
    env["PORTAL_API_KEY"] = "pages-key"
    for service in ("registration", "pairing", "gameplay", "awards"):
        env[f"{service.upper()}_URL"] = stack.procs[service].url
    log = stack.log_dir / "portal.log"
    popen = subprocess.Popen(
        _argv(spec["command"], port), env=env, stdout=open(log, "ab"), stderr=subprocess.STDOUT, start_new_session=True
    )
    proc = Proc("portal", port, popen, log)
    stack.procs["portal"] = proc
    return proc


async def _read_to_end(url: str) -> None:
    """An SSE client reading its stream until the server ends it."""
    async with httpx.AsyncClient(timeout=60) as client, client.stream("GET", url) as r:
        assert r.status_code == 200
        async for _ in r.aiter_lines():
            pass


async def _until(what: str, probe, timeout_s: float = 30.0):
    for _ in range(int(timeout_s / 0.1)):
        value = await probe()
        if value:
            return value
        await asyncio.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


async def test_the_pages_behind_the_gateway_with_one_upstream_stream_per_game(
    databases, amqp_url, bus_namespace, tmp_path
):
    stack = LocalCompose(
        database_urls=databases,
        amqp_url=amqp_url,
        namespace=bus_namespace,
        log_dir=tmp_path,
        extra_env={"API_KEYS": KEYS},
    )
    publisher = RabbitEventBus(amqp_url, namespace=bus_namespace)
    try:
        await stack.serve_all(*SERVICES)
        portal = _start_portal(stack)
        gateway = stack.start_gateway()
        stack.wait_gateway()
        async with httpx.AsyncClient(base_url=gateway.url, timeout=10) as gw:

            async def portal_up():
                try:
                    return (await gw.get("/live/stats")).status_code == 200
                except httpx.HTTPError:
                    return False

            await _until("the portal behind the gateway", portal_up)
            start = await gw.get("/")
            assert start.status_code == 200 and "五子棋赛事平台" in start.text
            # issue 27 finding 7: the security headers pass the gateway (page, staff page, JSON)
            staff = await gw.get("/staff/sign-in")
            service = await gw.get("/gameplay/healthz")
            for answer in (start, staff, service):
                assert answer.headers["x-content-type-options"] == "nosniff", answer.headers
                assert answer.headers["referrer-policy"] == "no-referrer"
            assert "unsafe-inline" not in start.headers["content-security-policy"]
            assert "frame-ancestors 'none'" in staff.headers["content-security-policy"]
            assert staff.headers["x-frame-options"] == "DENY"
            assert (await gw.get("/static/portal.css")).headers["content-type"].startswith("text/css")
            missing = await gw.get("/events/nope")
            assert missing.status_code == 404 and "找不到该页面" in missing.text
            # the services keep their prefixes; other paths stay the gateway's 404
            assert (await gw.get("/gameplay/healthz")).json()["service"] == "gameplay"
            assert (await gw.get("/nowhere")).json()["error"]["code"] == "not_found"

            # a live game (from round.paired, as pairing sends it), watched by several viewers
            await publisher.start()
            await publisher.publish(
                [encode(envelope_for(one_game_round("PG", partner="partner-1"), correlation_id="portal-served"))]
            )
            game = "PG.main.S1.r1.p1.g1"

            async def created():
                return (await gw.get(f"/gameplay/v1/games/{game}", headers=OP)).status_code == 200

            await _until("the game to be created", created)
            for player in ("alice", "bob"):
                r = await gw.post(f"/gameplay/v1/games/{game}/join", json={"player_id": player}, headers=PA)
                assert r.status_code == 200, r.text
            page = await gw.get(f"/games/{game}")
            assert page.status_code == 200 and "黑方" in page.text

            seen: list[list[str]] = [[] for _ in range(VIEWERS)]

            async def watch(i: int) -> None:
                async with gw.stream("GET", f"/games/{game}/events", timeout=60) as r:
                    assert r.status_code == 200
                    async for line in r.aiter_lines():
                        if line.startswith("data: ") and json.loads(line[6:])["data"].get("point") == "h8":
                            seen[i].append(line)
                            return

            viewers = [asyncio.create_task(watch(i)) for i in range(VIEWERS)]

            async def attached():
                return (await gw.get("/live/stats")).json()["viewers"] == VIEWERS

            await _until("every viewer attached", attached)
            # the board once before the move: the feed holds the game's view from here on
            assert (await gw.get(f"/games/{game}/board")).status_code == 200
            before = (await gw.get("/live/stats")).json()
            r = await gw.post(f"/gameplay/v1/games/{game}/move", json={"player_id": "alice", "point": "h8"}, headers=PA)
            assert r.status_code == 200, r.text
            try:
                await asyncio.wait_for(asyncio.gather(*viewers), 30)
            except TimeoutError:
                raise AssertionError(f"the move did not reach the viewers:\n{portal.log.read_text()[-3000:]}") from None
            assert all(seen)
            stats = (await gw.get("/live/stats")).json()
            assert stats["upstream_opened"] == 1, stats  # five viewers, one stream from gameplay
            # the board after the move is drawn from the view the move's event brought up to date
            # (no read of gameplay), and it is gameplay's game: its sequence, moves and last move
            held = await gw.get(f"/games/{game}/board?lang=en")
            truth = (await gw.get(f"/gameplay/v1/games/{game}", headers=OP)).json()
            assert held.status_code == 200 and truth["moves"] == ["h8"], truth
            assert f'data-seq="{truth["seq"]}"' in held.text and 'data-moves="1"' in held.text, held.text
            assert '<b class="last-move">H8</b>' in held.text, held.text
            stats = (await gw.get("/live/stats")).json()
            assert stats["views_read"] == before["views_read"], (before, stats)
            assert stats["views_applied"] == before["views_applied"] + 1, (before, stats)

            # a deploy stops the portal while spectators watch: their streams end (the browser
            # reconnects to another replica) and it stops cleanly, no stream cancelled with an error
            watching = [asyncio.create_task(_read_to_end(portal.url + f"/games/{game}/events")) for _ in range(3)]

            async def three_watching():
                return (await gw.get("/live/stats")).json()["viewers"] == 3

            await _until("three viewers attached", three_watching)
        assert portal.popen.poll() is None, portal.log.read_text()[-2000:]
        portal.popen.send_signal(signal.SIGTERM)
        # uvicorn ends by raising the signal it caught again (the exit status says it was stopped)
        assert await asyncio.to_thread(portal.popen.wait, 30) in (0, -signal.SIGTERM)
        await asyncio.wait_for(asyncio.gather(*watching), 30)
        assert "Exception in ASGI application" not in portal.log.read_text()
    finally:
        await publisher.close()
        stack.stop_all()
