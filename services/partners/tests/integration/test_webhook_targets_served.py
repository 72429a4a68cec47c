"""Issue 27 findings 3 and 4 over real sockets: the partners service served by uvicorn on
PostgreSQL and RabbitMQ, events published on the broker as the producers publish them.

Finding 3: subscriptions to internal targets are refused with one answer whatever the reason;
a name that resolved to a public address at subscription and to an internal one at delivery
(DNS rebinding) is not connected to, and the log says ``target_not_public``.
Finding 4: a partner whose receivers hang holds its own deliveries only (one in flight per
subscription, WEBHOOK_PARTNER_IN_FLIGHT for the partner): another partner's deliveries arrive
while they hang; a partner cannot have more than WEBHOOK_MAX_SUBSCRIPTIONS subscriptions; a
claimed delivery whose worker died is sent once its lease lapses.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import httpx
from partners_kit import KEYS, bearer, new_partner, token
from webhooks_kit import Receiver, awards_published, documentation_names, free_port, messages, serving

from gomoku_shared.clock import FakeClock
from gomoku_shared.messaging.rabbit import RabbitEventBus
from gomoku_shared.migrate import upgrade_async
from gomoku_shared.service import Service
from gomoku_shared.testing.bus import eventually
from gomoku_shared.testing.webhooks import HungReceiver
from partners.bootstrap import build
from partners.config import PartnersSettings
from partners.service_layer.webhooks import LEASE_S

HOOKS = "/v1/webhooks"
START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


async def _settings(fresh_database, amqp_url: str, bus_namespace: str, **extra: Any) -> PartnersSettings:
    settings = PartnersSettings(
        DATABASE_URL=await fresh_database(),
        AMQP_URL=amqp_url,
        BUS_NAMESPACE=bus_namespace,
        API_KEYS=KEYS,
        PARTNERS_KEY="webhook-targets-test-key",
        ACCESS_TOKEN_TTL_S=3600,
        RELAY_POLL_S=0.05,
        WEBHOOK_POLL_S=0.05,
        **extra,
    )
    await upgrade_async("partners", settings.database_url)
    return settings


@contextlib.asynccontextmanager
async def _served(service: Service, amqp_url: str, bus_namespace: str) -> AsyncIterator[tuple[httpx.AsyncClient, Any]]:
    """The service on a port of its own, a client to it and a producer on the broker."""
    port = free_port()
    producer = RabbitEventBus(amqp_url, namespace=bus_namespace)
    await producer.start()
    try:
        async with (
            serving(service.app, port),
            httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as client,
        ):
            yield client, producer
    finally:
        await producer.delete_declared()
        await producer.close()


async def _auth(client: httpx.AsyncClient, partner_id: str) -> dict[str, str]:
    return bearer(await token(client, await new_partner(client, partner_id, ["webhooks:manage"])))


async def _subscribe(client: httpx.AsyncClient, auth, url: str) -> httpx.Response:
    return await client.post(
        f"{HOOKS}/subscriptions", headers=auth, json={"url": url, "event_types": ["awards.published"]}
    )


INTERNAL = [
    "https://169.254.169.254/latest/meta-data/iam/security-credentials/",
    "https://10.0.0.1/",
    "https://127.0.0.2/",
    "https://[::1]/",
    "https://[::ffff:127.0.0.1]/",
    "https://[::ffff:a9fe:a9fe]/",
    "https://100.64.0.1/",
    "https://[fe80::1]/",
    "https://0.0.0.0:8000/",
    "https://2130706433/",  # 127.0.0.1 as one decimal number
    "https://localhost/",  # a name resolving to loopback (the system's resolver)
    "https://partners:8000/",  # the platform's own service name (does not resolve here: refused alike)
    "https://internal.example.org/hook",  # a name resolving to a private address
    "https://mixed.example.org/hook",  # one public address and one private: refused
]


async def test_finding3_subscriptions_to_internal_targets_are_refused(fresh_database, amqp_url, bus_namespace):
    """Issue 27 finding 3: metadata, private, loopback (IPv4-mapped too), link-local, CGNAT and
    names resolving to them are refused at subscription with 400 webhook_target_not_public,
    the common error shape and the same message (no oracle for internal names); plain http is
    invalid without the development setting; nothing is stored."""
    settings = await _settings(fresh_database, amqp_url, bus_namespace)
    service = build(settings)
    documentation_names(
        service, {"internal.example.org": ["10.1.2.3"], "mixed.example.org": ["93.184.216.34", "192.168.0.10"]}
    )
    async with _served(service, amqp_url, bus_namespace) as (client, _):
        auth = await _auth(client, "app-one")
        messages_seen = set()
        for url in INTERNAL:
            r = await _subscribe(client, auth, url)
            assert r.status_code == 400, (url, r.text)
            assert set(r.json()) == {"error"} and r.json()["error"]["code"] == "webhook_target_not_public", url
            messages_seen.add(r.json()["error"]["message"])
        assert len(messages_seen) == 1 and "10." not in messages_seen.pop()
        plain = await _subscribe(client, auth, "http://127.0.0.1:9/hook")
        assert plain.status_code == 422 and plain.json()["error"]["code"] == "invalid_url", plain.text
        assert (await client.get(f"{HOOKS}/subscriptions", headers=auth)).json()["items"] == []
        # a public target is accepted
        ok = await _subscribe(client, auth, "https://hooks.example.org/gomoku")
        assert ok.status_code == 201, ok.text


async def test_finding3_a_name_rebound_to_an_internal_address_is_not_delivered(fresh_database, amqp_url, bus_namespace):
    """Issue 27 finding 3 (DNS rebinding): public at subscription, 127.0.0.1 at delivery, where a
    receiver listens: the worker resolves again, connects to nothing and logs the category."""
    settings = await _settings(fresh_database, amqp_url, bus_namespace)
    service = build(settings)
    receiver = Receiver(free_port())
    resolver = documentation_names(service, {"rebind.example.org": ["93.184.216.34"]})
    async with _served(service, amqp_url, bus_namespace) as (client, producer), serving(receiver, receiver.port):
        auth = await _auth(client, "app-one")
        created = await _subscribe(client, auth, f"https://rebind.example.org:{receiver.port}/hook")
        assert created.status_code == 201, created.text
        resolver.names["rebind.example.org"] = ["127.0.0.1"]
        asked = len(resolver.asked)
        await producer.publish(messages(awards_published()))

        async def logged() -> bool:
            items = (await client.get(f"{HOOKS}/deliveries", headers=auth)).json()["items"]
            return len(items) == 1 and items[0]["attempts"] == 1

        await eventually(logged, "the attempt, recorded")
        [item] = (await client.get(f"{HOOKS}/deliveries", headers=auth)).json()["items"]
    assert item["last_error"] == "target_not_public" and item["last_status_code"] is None
    assert item["status"] == "pending"  # retried later, checked again then
    assert resolver.asked[asked:] == ["rebind.example.org"]  # resolved again at delivery
    assert receiver.received == []


async def _attempts(client: httpx.AsyncClient, auth) -> list[int]:
    return [d["attempts"] for d in (await client.get(f"{HOOKS}/deliveries", headers=auth)).json()["items"]]


async def _delivered(client: httpx.AsyncClient, auth) -> bool:
    items = (await client.get(f"{HOOKS}/deliveries", headers=auth)).json()["items"]
    return bool(items) and all(d["status"] == "delivered" for d in items)


async def test_finding4_hung_receivers_of_one_partner_do_not_hold_another_partners_deliveries(
    fresh_database, amqp_url, bus_namespace
):
    """Issue 27 finding 4: app-slow has 8 subscriptions to a receiver that never answers (the
    timeout is long: 60 s); app-fast's deliveries arrive while app-slow's are held, app-slow has
    4 requests open (WEBHOOK_PARTNER_IN_FLIGHT), one per subscription, and none of its attempts
    has ended; a ninth subscription is over WEBHOOK_MAX_SUBSCRIPTIONS (8 here)."""
    settings = await _settings(
        fresh_database,
        amqp_url,
        bus_namespace,
        WEBHOOK_ALLOW_LOOPBACK=True,
        WEBHOOK_TIMEOUT_S=60,
        WEBHOOK_MAX_SUBSCRIPTIONS=8,
        WEBHOOK_PARTNER_IN_FLIGHT=4,
    )
    service = build(settings)
    hung, fast = HungReceiver(), Receiver(free_port())
    async with (
        _served(service, amqp_url, bus_namespace) as (client, producer),
        serving(hung, hung.port),
        serving(fast, fast.port),
    ):
        try:
            slow_auth, fast_auth = await _auth(client, "app-slow"), await _auth(client, "app-fast")
            for n in range(8):
                assert (await _subscribe(client, slow_auth, hung.url(f"/hook/{n}"))).status_code == 201
            over = await _subscribe(client, slow_auth, hung.url("/hook/8"))
            assert over.status_code == 409 and over.json()["error"]["code"] == "subscription_limit_reached"
            assert over.json()["error"]["details"] == {"limit": 8}
            assert (await _subscribe(client, fast_auth, fast.url)).status_code == 201

            await producer.publish(messages(awards_published()))
            await eventually(lambda: hung.open == 4 and len(fast.received) == 1, "app-fast's delivery, 4 held")
            # a second event: app-fast's arrives again; app-slow's stay queued behind its own 4
            await producer.publish(messages(awards_published()))
            await eventually(lambda: len(fast.received) == 2, "app-fast's second delivery")
            assert hung.open == 4 and len(hung.paths) == 4 and len(set(hung.paths)) == 4
            assert await _attempts(client, slow_auth) == [0] * 16  # no attempt of app-slow has ended
            assert await _attempts(client, fast_auth) == [1, 1]
        finally:
            hung.release()


async def test_finding4_a_delivery_whose_replica_stopped_mid_send_is_sent_after_its_lease(
    fresh_database, amqp_url, bus_namespace
):
    """Issue 27 finding 4 (nothing lost on a crash): a replica claims a delivery, its receiver
    hangs and the replica stops before the attempt ends. The claim is a lease in the database:
    the other replica leaves the delivery alone while the lease lasts, then sends it, once."""
    clock = FakeClock(START)
    settings = await _settings(fresh_database, amqp_url, bus_namespace, WEBHOOK_ALLOW_LOOPBACK=True)
    first, survivor = build(settings, clock=clock), build(settings, clock=clock)
    hung = HungReceiver()
    producer = RabbitEventBus(amqp_url, namespace=bus_namespace)
    await producer.start()
    try:
        async with serving(hung, hung.port):
            try:
                async with (
                    first.running(),
                    httpx.AsyncClient(transport=httpx.ASGITransport(app=first.app), base_url="http://p") as local,
                ):
                    auth = await _auth(local, "app-one")
                    assert (await _subscribe(local, auth, hung.url())).status_code == 201
                    await producer.publish(messages(awards_published()))
                    await eventually(lambda: hung.open == 1, "the attempt, held by the receiver")
                # the replica stopped: its attempt was cut off, never recorded
            finally:
                hung.release()
        receiver = Receiver(hung.port)  # the receiver is back, on the same port
        async with (
            _served(survivor, amqp_url, bus_namespace) as (client, _),
            serving(receiver, receiver.port),
        ):
            assert await survivor.extras["webhooks"].deliver_due() == 0  # leased: not due yet
            [held] = (await client.get(f"{HOOKS}/deliveries", headers=auth)).json()["items"]
            assert (held["status"], held["attempts"]) == ("pending", 0)
            clock.advance(LEASE_S + 1)
            await eventually(lambda: len(receiver.received) == 1, "the delivery after its lease")
            await eventually(lambda: _delivered(client, auth), "the delivery recorded")
            [sent] = (await client.get(f"{HOOKS}/deliveries", headers=auth)).json()["items"]
    finally:
        await producer.delete_declared()
        await producer.close()
    assert receiver.ids() == [held["delivery_id"]]
    assert (sent["status"], sent["attempts"]) == ("delivered", 1)
