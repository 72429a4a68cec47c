"""The services as separate OS processes behind the gateway, exactly as docker-compose.yml runs
them: three gameplay replicas (``--scale gameplay=3``), one of each other service, the gateway (Caddy) in front."""

from __future__ import annotations

import asyncio
import json
import re
import signal
from datetime import UTC, datetime

import httpx
import pytest
from websockets.asyncio.client import connect

from gomoku_shared.contracts import encode, envelope_for
from gomoku_shared.embedded import EmbeddedSuite
from gomoku_shared.messaging.rabbit import RabbitEventBus
from gomoku_shared.settings import ServiceSettings
from gomoku_shared.testing.rounds import one_game_round

from .compose_commands import SERVICES, LocalCompose, pid_alive

OP = {"x-api-key": "op-key"}
GAMEPLAY_REPLICAS = 3
# five in a row for black (alice) on the h..l files, bob's stones on the a file
MOVES = ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"]


@pytest.fixture
async def databases(fresh_database):
    return {s: await fresh_database() for s in SERVICES}


def _upstream_ports(gateway_log: str, service: str) -> set[int]:
    """Which replicas answered, from the gateway's JSON access log."""
    ports = set()
    for line in gateway_log.splitlines():
        if line.startswith("{") and f'"upstream":"{service}"' in line:
            ports |= {int(p) for p in re.findall(r"127\.0\.0\.1:(\d+)", json.loads(line)["upstream_addr"])}
    return ports


async def _sse_until_finished(client: httpx.AsyncClient, path: str, seen: list[str]) -> None:
    async with client.stream("GET", path, headers=OP, timeout=60) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        async for line in r.aiter_lines():
            if line.startswith("event: ") and line != "event: clock":
                seen.append(line.removeprefix("event: "))
                if line == "event: finished":
                    return


async def test_services_and_three_gameplay_replicas_behind_the_gateway_on_postgres_and_rabbitmq(
    databases, amqp_url, bus_namespace, tmp_path
):
    """Migrate five empty databases, start the processes and the gateway; through the one base URL
    every service answers under its embedded-mode prefix with the embedded mode's paths (docs
    included), correlation ids pass
    through or are added, a game is played over the gateway with its SSE and WebSocket streams
    while all three gameplay replicas serve; a service that is down is a 503 in the common error
    shape, a replica that is gone is not; SIGTERM stops every process cleanly."""
    stack = LocalCompose(database_urls=databases, amqp_url=amqp_url, namespace=bus_namespace, log_dir=tmp_path)
    publisher = RabbitEventBus(amqp_url, namespace=bus_namespace)
    try:
        for s in SERVICES:
            stack.migrate(s)
        for s in SERVICES:
            for replica in range(1, GAMEPLAY_REPLICAS + 1) if s == "gameplay" else (None,):
                stack.start(s, replica=replica)
        services = list(stack.procs)
        assert len(services) == len(SERVICES) - 1 + GAMEPLAY_REPLICAS
        for name in services:
            stack.wait_ready(name)
        async with httpx.AsyncClient(timeout=5) as client:
            for name in services:
                ready = (await client.get(stack.procs[name].url + "/readyz")).json()
                assert ready["checks"] == {"database": True, "bus": True, "tokens": True}, (name, ready)
                metrics = await client.get(stack.procs[name].url + "/metrics")
                assert "http_requests_total" in metrics.text

        gateway = stack.start_gateway()
        stack.wait_gateway()
        async with httpx.AsyncClient(base_url=gateway.url, timeout=10) as gw:
            # one base URL, the embedded mode's paths
            for s in SERVICES:
                r = await gw.get(f"/{s}/healthz")
                assert r.status_code == 200 and r.json() == {"status": "ok", "service": s}, r.text
                assert (await gw.get(f"/{s}/readyz")).json()["status"] == "ready"
            # the docs work under the prefix: the page loads the prefixed document, whose
            # servers send "Try it out" back through the gateway
            docs = await gw.get("/gameplay/docs")
            assert docs.status_code == 200 and "/gameplay/openapi.json" in docs.text
            spec = (await gw.get("/gameplay/openapi.json")).json()
            assert spec["servers"][0] == {"url": "/gameplay"} and "/v1/games/{game_id}/move" in spec["paths"]
            # the embedded mode serves the same paths under the same base URL layout
            embedded = EmbeddedSuite(ServiceSettings(DATA_DIR=str(tmp_path / "embedded"), DATA_KEY="k" * 32)).app
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app=embedded), base_url="http://e") as emb:
                for s in SERVICES:
                    mine = (await gw.get(f"/{s}/openapi.json")).json()
                    theirs = (await emb.get(f"/{s}/openapi.json")).json()
                    assert mine["servers"] == theirs["servers"] == [{"url": f"/{s}"}]
                    assert sorted(mine["paths"]) == sorted(theirs["paths"]), s
            # served directly, the same service has no prefix
            direct = httpx.get(stack.procs["gameplay.1"].url + "/openapi.json", timeout=5).json()
            assert "servers" not in direct
            # correlation ids: the caller's is kept, a missing or unusable one is replaced
            r = await gw.get("/registration/healthz", headers={"x-correlation-id": "partner-req.42"})
            assert r.headers.get_list("x-correlation-id") == ["partner-req.42"]
            for headers in ({}, {"x-correlation-id": "bad id\twith spaces"}):
                r = await gw.get("/pairing/healthz", headers=headers)
                assert re.fullmatch(r"[0-9a-f]{32}", r.headers["x-correlation-id"]), r.headers
            # paths outside the services: the common error shape
            r = await gw.get("/nowhere")
            assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
            assert (await gw.get("/gameplay/metrics")).status_code == 404
            # the services' own errors come through unchanged
            r = await gw.get("/gameplay/v1/games/NO-SUCH-GAME", headers=OP)
            assert r.status_code == 404 and r.json()["error"]["code"] == "game_not_found", r.text

            # a game over the gateway: its SSE stream and the round's WebSocket through the gateway
            await publisher.start()
            await publisher.publish(
                [encode(envelope_for(one_game_round("GW"), correlation_id="GW", occurred_at=datetime.now(UTC)))]
            )
            gid = "GW.main.S1.r1.p1.g1"
            async with asyncio.timeout(30):
                while (await gw.get(f"/gameplay/v1/games/{gid}", headers=OP)).status_code != 200:
                    await asyncio.sleep(0.1)
            ws_url = f"ws://127.0.0.1:{gateway.port}/gameplay/v1/rounds/GW/S1/1/ws?since=0"
            async with connect(ws_url, additional_headers=OP, proxy=None) as round_ws:
                sse_seen: list[str] = []
                sse = asyncio.create_task(_sse_until_finished(gw, f"/gameplay/v1/games/{gid}/events?since=0", sse_seen))
                for player in ("alice", "bob"):
                    r = await gw.post(f"/gameplay/v1/games/{gid}/join", json={"player_id": player}, headers=OP)
                    assert r.status_code == 200, r.text
                for i, point in enumerate(MOVES):
                    r = await gw.post(
                        f"/gameplay/v1/games/{gid}/move",
                        headers=OP,
                        json={"player_id": "alice" if i % 2 == 0 else "bob", "point": point},
                    )
                    assert r.status_code == 200, r.text
                async with asyncio.timeout(60):
                    await sse
                    round_kinds = []
                    while "finished" not in round_kinds:
                        round_kinds.append(json.loads(await round_ws.recv())["kind"])
            assert sse_seen.count("action") == len(MOVES) and sse_seen[-1] == "finished", sse_seen
            assert round_kinds[-1] == "finished", round_kinds
            final = (await gw.get(f"/gameplay/v1/games/{gid}", headers=OP)).json()
            assert final["status"] == "finished", final

            # every gameplay replica served some of these requests
            replica_ports = {stack.procs[f"gameplay.{n}"].port for n in range(1, GAMEPLAY_REPLICAS + 1)}
            for _ in range(3 * GAMEPLAY_REPLICAS):
                assert (await gw.get("/gameplay/healthz")).status_code == 200
            assert _upstream_ports(gateway.log.read_text(), "gameplay") == replica_ports

            # a replica that is gone: the gateway sends its requests to the others
            stack.kill("gameplay.3")
            for _ in range(2 * GAMEPLAY_REPLICAS):
                assert (await gw.get("/gameplay/healthz")).status_code == 200

            # a service that is down: the gateway answers for it, in the common error shape
            stack.stop("awards")
            r = await gw.get("/awards/healthz")
            assert r.status_code == 503 and r.json()["error"]["code"] == "service_unavailable", r.text
            assert r.headers["x-correlation-id"]

        pids = [p.popen.pid for p in stack.procs.values()]
        for name in (n for n in services if n != "gameplay.3"):
            # uvicorn shuts down gracefully on SIGTERM, then re-raises the signal
            assert stack.stop(name) in (0, -signal.SIGTERM), stack.procs[name].log.read_text()[-2000:]
            assert "Application shutdown complete" in stack.procs[name].log.read_text()
        assert stack.stop("gateway") in (0, -signal.SIGTERM)
        assert not [pid for pid in pids if pid_alive(pid)], "orphaned service processes"
    finally:
        await publisher.close()
        stack.stop_all()
