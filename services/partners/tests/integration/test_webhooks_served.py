"""Webhooks over real sockets: the partners service served by uvicorn on PostgreSQL and
RabbitMQ, events published on the broker as the producers publish them, and webhook
receivers on 127.0.0.1. The first partner's receiver is down for a while (its attempts
fail, retries follow the service's fake clock), then up: every delivery arrives exactly
once per webhook-id and verifies with the standardwebhooks library; the other partner
receives nothing of the first's players."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

import httpx
from partners_kit import KEYS, bearer, new_partner, token
from standardwebhooks import Webhook
from webhooks_kit import Receiver, awards_published, free_port, game_finished, messages, pairing, round_paired, serving

from gomoku_shared.clock import FakeClock
from gomoku_shared.messaging.rabbit import RabbitEventBus
from gomoku_shared.migrate import upgrade_async
from gomoku_shared.testing.bus import eventually
from partners.bootstrap import build
from partners.config import PartnersSettings

SCHEDULE = "60,600,1800"


async def _recorded(client: httpx.AsyncClient, auth, count: int, attempts: int) -> bool:
    """Each of the ``count`` deliveries has had ``attempts`` attempts, all recorded."""
    items = (await client.get("/v1/webhooks/deliveries", headers=auth)).json()["items"]
    return len(items) == count and all(d["attempts"] == attempts and d["status"] == "pending" for d in items)


async def test_a_receiver_down_then_up_gets_every_delivery_once_per_webhook_id(fresh_database, amqp_url, bus_namespace):
    clock = FakeClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC))
    url = await fresh_database()
    settings = PartnersSettings(
        DATABASE_URL=url,
        AMQP_URL=amqp_url,
        BUS_NAMESPACE=bus_namespace,
        API_KEYS=KEYS,
        PARTNERS_KEY="webhooks-test-partners-key",
        ACCESS_TOKEN_TTL_S=3600,
        RELAY_POLL_S=0.05,
        WEBHOOK_POLL_S=0.05,
        WEBHOOK_RETRY_SCHEDULE_S=SCHEDULE,
        WEBHOOK_DISABLE_AFTER=1000,
        WEBHOOK_BREAKER_AFTER=1000,  # retries on the schedule alone (the breaker has its own test)
        WEBHOOK_ALLOW_LOOPBACK=True,  # the receivers are on 127.0.0.1
    )
    await upgrade_async("partners", settings.database_url)
    service = build(settings, clock=clock)
    port = free_port()
    producer = RabbitEventBus(amqp_url, namespace=bus_namespace)
    down_then_up, always_up = Receiver(free_port()), Receiver(free_port())
    await producer.start()
    try:
        async with (
            serving(service.app, port),
            # creating a credential hashes its secret (scrypt, in a thread): slower than httpx's 5 s on a busy machine
            httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as client,
            serving(always_up, always_up.port),
        ):
            one = bearer(await token(client, await new_partner(client, "app-one", ["webhooks:manage"])))
            two = bearer(await token(client, await new_partner(client, "app-two", ["webhooks:manage"])))
            types = ["round.paired", "game.finished", "awards.published"]
            r = await client.post(
                "/v1/webhooks/subscriptions", headers=one, json={"url": down_then_up.url, "event_types": types}
            )
            secret_one = r.json()["secret"]
            r = await client.post(
                "/v1/webhooks/subscriptions", headers=two, json={"url": always_up.url, "event_types": types}
            )
            secret_two = r.json()["secret"]

            paired = messages(
                round_paired(
                    pairing("p1", "a1", "a2", "app-one", "app-one"),
                    pairing("p2", "a3", "b1", "app-one", None),
                    pairing("p3", "b2", "b3", "app-two", "app-two"),
                )
            )
            # the broker redelivers an event it was not sure about: the inbox sees it once
            await producer.publish(paired + paired)
            await producer.publish(messages(game_finished("p1", "a1", "a2"), awards_published()))

            # app-one: round.paired, game.finished, awards.published, all failing (receiver down)
            await eventually(lambda: _recorded(client, one, 3, 1), "the first attempts, failed")
            clock.advance(60)
            await eventually(lambda: _recorded(client, one, 3, 2), "the retries at 60 s, failed")
            clock.advance(600)
            await eventually(lambda: _recorded(client, one, 3, 3), "the retries at 660 s, failed")
            assert down_then_up.received == []
            log = (await client.get("/v1/webhooks/deliveries", headers=one)).json()["items"]
            assert all(d["last_status_code"] is None and d["last_error"] == "refused" for d in log)

            async with serving(down_then_up, down_then_up.port):
                clock.advance(1800)
                await eventually(lambda: len(down_then_up.received) == 3, "the deliveries once the receiver is up")
                await eventually(lambda: _all_delivered(client, one), "the deliveries recorded as delivered")
            await eventually(lambda: len(always_up.received) == 2, "app-two's deliveries")
    finally:
        await producer.delete_declared()
        await producer.close()

    assert Counter(down_then_up.ids()).most_common(1)[0][1] == 1  # once per webhook-id
    for headers, body in down_then_up.received:
        Webhook(secret_one).verify(body, headers)
    for headers, body in always_up.received:
        Webhook(secret_two).verify(body, headers)
    seen_by_one = {b["type"]: b["data"] for b in down_then_up.bodies()}
    assert sorted(seen_by_one) == ["awards.published", "game.finished", "round.paired"]
    assert [p["pairing_id"] for p in seen_by_one["round.paired"]["pairings"]] == ["p1", "p2"]
    # app-two: its own pairing and the public awards, nothing of app-one's players
    seen_by_two = {b["type"]: b["data"] for b in always_up.bodies()}
    assert sorted(seen_by_two) == ["awards.published", "round.paired"]
    assert [p["pairing_id"] for p in seen_by_two["round.paired"]["pairings"]] == ["p3"]
    assert not any(name in str(always_up.bodies()) for name in ("a1", "a2", "a3"))


async def _all_delivered(client: httpx.AsyncClient, auth) -> bool:
    items = (await client.get("/v1/webhooks/deliveries", headers=auth)).json()["items"]
    return len(items) == 3 and all(d["status"] == "delivered" and d["attempts"] == 4 for d in items)


async def test_two_replicas_share_the_deliveries_and_send_each_once(fresh_database, amqp_url, bus_namespace):
    """Both replicas consume from the one queue and run the worker on one database: the
    claims (FOR UPDATE SKIP LOCKED, then a lease) never hand a delivery to both."""
    url = await fresh_database()
    settings = PartnersSettings(
        DATABASE_URL=url,
        AMQP_URL=amqp_url,
        BUS_NAMESPACE=bus_namespace,
        API_KEYS=KEYS,
        PARTNERS_KEY="webhooks-test-partners-key",
        RELAY_POLL_S=0.05,
        WEBHOOK_POLL_S=0.01,
        WEBHOOK_ALLOW_LOOPBACK=True,  # the receiver is on 127.0.0.1
    )
    await upgrade_async("partners", settings.database_url)
    first, second = build(settings), build(settings)
    receiver = Receiver(free_port())
    producer = RabbitEventBus(amqp_url, namespace=bus_namespace)
    await producer.start()
    try:
        async with first.running(), second.running(), serving(receiver, receiver.port):
            transport = httpx.ASGITransport(app=first.app)
            async with httpx.AsyncClient(transport=transport, base_url="http://partners") as client:
                auth = bearer(await token(client, await new_partner(client, "app-one", ["webhooks:manage"])))
                r = await client.post(
                    "/v1/webhooks/subscriptions",
                    headers=auth,
                    json={"url": receiver.url, "event_types": ["awards.published"]},
                )
                assert r.status_code == 201, r.text
                await producer.publish(messages(*(awards_published() for _ in range(40))))
                await eventually(lambda: len(receiver.received) >= 40, "the 40 deliveries")
                await eventually(lambda: _delivered(client, auth, 40), "the 40 deliveries recorded")
    finally:
        await producer.delete_declared()
        await producer.close()
    assert len(receiver.received) == 40 and len(set(receiver.ids())) == 40


async def _delivered(client: httpx.AsyncClient, auth, count: int) -> bool:
    items = (await client.get("/v1/webhooks/deliveries", headers=auth)).json()["items"]
    return len(items) == count and all(d["status"] == "delivered" for d in items)
