"""A served service's work in flight (``GET /v1/ops/quiet``, CLOCK=fake only), over a real socket
on PostgreSQL + RabbitMQ, and the simulations' quiet check built on it (``ServicesQuiet``)."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from gomoku_shared.contracts import encode, envelope_for
from gomoku_shared.embedded import EmbeddedSuite
from gomoku_shared.messaging.rabbit import RabbitEventBus
from gomoku_shared.settings import ServiceSettings
from gomoku_shared.testing.rounds import one_game_round
from gomoku_sim.client import SERVICES, Platform
from gomoku_sim.stack import EPOCH, ServicesQuiet

from .compose_commands import LocalCompose

OP = {"x-api-key": "op-key"}
ARBITER = {"x-api-key": "arb-key"}
# five in a row for black (alice) on the h..l files, bob's stones on the a file
MOVES = ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"]
IDLE = {"handling": 0, "background": 0, "outbox_pending": 0, "queue_ready": 0}


@pytest.fixture
async def database(fresh_database):
    return await fresh_database()


async def _until(client: httpx.AsyncClient, check, timeout: float = 30.0) -> dict:
    async with asyncio.timeout(timeout):
        while True:
            answer = (await client.get("/v1/ops/quiet", headers=OP)).json()
            if check(answer):
                return answer
            await asyncio.sleep(0.05)


async def test_served_gameplay_reports_its_work_in_flight_and_the_quiet_check_waits_for_it(
    database, amqp_url, bus_namespace, tmp_path
):
    """Under CLOCK=fake the route is in the service's OpenAPI document and operator-only (no key:
    401, an arbiter: 403); an idle service answers zeros; a round.paired handled and a game played
    to its end move the counters (a delivery settled, the game's events published) and the answer
    is idle again once the outbox is empty; ``ServicesQuiet`` returns on it; a killed service is not
    quiet, and the check gives up after its timeout naming it. Without CLOCK=fake there is no route."""
    stack = LocalCompose(
        database_urls={"gameplay": database},
        amqp_url=amqp_url,
        namespace=bus_namespace,
        log_dir=tmp_path,
        extra_env={"CLOCK": "fake", "CLOCK_START": EPOCH.isoformat(), "RELAY_POLL_S": "0.5"},
    )
    publisher = RabbitEventBus(amqp_url, namespace=bus_namespace)
    try:
        proc = await stack.serve("gameplay")
        async with httpx.AsyncClient(base_url=proc.url, timeout=10) as client:
            spec = (await client.get("/openapi.json")).json()
            assert "/v1/ops/quiet" in spec["paths"] and "/v1/ops/clock" in spec["paths"]
            assert (await client.get("/v1/ops/quiet")).status_code == 401
            assert (await client.get("/v1/ops/quiet", headers=ARBITER)).status_code == 403
            first = await _until(client, lambda a: {k: a[k] for k in IDLE} == IDLE)
            assert first["settled"] == 0 and first["published"] == 0, first

            # the round arrives over the bus: one delivery settled, the game there
            await publisher.start()
            round_paired = one_game_round("QT").model_copy(update={"starts_at": EPOCH})  # the fake clock's start
            await publisher.publish([encode(envelope_for(round_paired, correlation_id="QT", occurred_at=EPOCH))])
            await _until(client, lambda a: a["settled"] == 1 and a["handling"] == 0)
            gid = "QT.main.S1.r1.p1.g1"
            assert (await client.get(f"/v1/games/{gid}", headers=OP)).status_code == 200
            for player in ("alice", "bob"):
                r = await client.post(f"/v1/games/{gid}/join", json={"player_id": player}, headers=OP)
                assert r.status_code == 200, r.text
            for i, point in enumerate(MOVES):
                player = "alice" if i % 2 == 0 else "bob"
                r = await client.post(f"/v1/games/{gid}/move", json={"player_id": player, "point": point}, headers=OP)
                assert r.status_code == 200, r.text
            assert (await client.get(f"/v1/games/{gid}", headers=OP)).json()["status"] == "finished"
            # game.created, game.started and game.finished went through the outbox: published, nothing pending
            done = await _until(client, lambda a: a["published"] >= 2 and a["outbox_pending"] == 0)
            assert {k: done[k] for k in IDLE} == IDLE, done

        urls = dict.fromkeys(SERVICES, proc.url)
        platform = Platform.distributed(urls, retry_for_s=0.5)
        try:
            quiet = ServicesQuiet(platform, ("gameplay",), timeout_s=3.0)
            await quiet()
            assert quiet.looks >= 2
            looks = quiet.looks
            await asyncio.sleep(quiet.gap_s)
            await quiet()  # nothing happened since: the last look stands for the first
            assert quiet.looks == looks + 1
            stack.kill("gameplay")
            with pytest.raises(TimeoutError, match="gameplay"):
                await quiet()
        finally:
            await platform.aclose()
    finally:
        stack.stop_all()
        await publisher.close()  # the namespace's queues go with the fixture

    # the system clock (the default): no such route, in the document or served
    embedded = EmbeddedSuite(ServiceSettings(DATA_DIR=str(tmp_path / "embedded"), DATA_KEY="k" * 32)).app
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=embedded), base_url="http://e") as emb:
        for service in SERVICES:
            assert "/v1/ops/quiet" not in (await emb.get(f"/{service}/openapi.json")).json()["paths"], service
