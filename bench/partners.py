"""Partners benchmark: what a partner access token costs a request, and how long a webhook takes
from the commit of its bus event to the partner's receiver.

    .venv/bin/python -m bench.partners [--verifies 2000] [--deliveries 300] [--rate 10] [--distributed]

(a) Token verification, in-process, CPU time of this process, µs per call (best of 5 runs of
``--verifies`` calls), against baselines measured in the same run:
- no-op: a Python call that does nothing (the loop's own cost);
- HMAC-SHA256 of the token's bytes (what a shared-secret check of the same bytes would cost);
- EdDSA verify: the JWT's Ed25519 signature (a key made by the service's ``KeyVault``) and its
  claims decoded and checked (PyJWT), as on a token's first use in a process;
- per request: ``KeyRing.admit`` of a token already verified once (expiry, revocation, scope and
  rate bucket), as on every later request.

(b) Webhook delivery latency: the partners service (embedded: SQLite and the in-memory bus; with
``--distributed``: PostgreSQL from DATABASE_URL, a fresh database, and RabbitMQ from AMQP_URL, a
fresh namespace, both removed afterwards) with one subscription to ``awards.published`` whose URL
is a local receiver (``gomoku_shared.testing.webhooks``: uvicorn on 127.0.0.1, in this process)
that verifies every delivery with the ``standardwebhooks`` library. ``--deliveries`` events are
committed to the service's outbox, one transaction each, ``--rate`` per second; the latency of each is from the moment its transaction
has committed to the moment the receiver has the verified request (relay, bus, consumer and its
delivery row, worker, HTTP). p50/p99/max over every delivery, and the rate achieved: offered
above what the service sustains, the latencies grow with the backlog (raise ``--rate`` to find
that rate).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import hmac
import os
import tempfile
import time
import uuid
from typing import Any

import httpx
from standardwebhooks import Webhook

from gomoku_shared.contracts.events import AwardsPublished
from gomoku_shared.messaging.memory import InMemoryEventBus
from gomoku_shared.migrate import upgrade_async
from gomoku_shared.service import Service
from gomoku_shared.testing.webhooks import WebhookReceiver, serving
from partners.bootstrap import build
from partners.config import PartnersSettings

from . import _served_games as served
from .tokens import _best_us, _token_and_ring

OPERATOR = {"x-api-key": "bench-op"}


def verification_rows(calls: int) -> list[tuple[str, float]]:
    token, ring = _token_and_ring()
    assert ring.tokens is not None
    verifier = ring.tokens
    data, key = token.encode(), os.urandom(32)
    ring.admit(token, scope="results:read")  # verified once: later requests find it
    return [
        ("no-op", _best_us(lambda: None, calls)),
        ("HMAC-SHA256 of the token", _best_us(lambda: hmac.new(key, data, hashlib.sha256).digest(), calls)),
        ("EdDSA verify (first use)", _best_us(lambda: verifier._verify_signed(token), calls)),
        ("per request (verified once)", _best_us(lambda: ring.admit(token, scope="results:read"), calls)),
    ]


async def _subscribe(service: Service, receiver_url: str) -> str:
    transport = httpx.ASGITransport(app=service.app)
    async with httpx.AsyncClient(transport=transport, base_url="http://partners") as client:
        body = {"partner_id": "bench-app", "name": "Bench", "scopes": ["webhooks:manage"]}
        assert (await client.post("/v1/partners", headers=OPERATOR, json=body)).status_code == 201
        cred = (await client.post("/v1/partners/bench-app/credentials", headers=OPERATOR, json={"label": "b"})).json()
        form = {"grant_type": "client_credentials"}
        answer = await client.post("/oauth/token", data=form, auth=(cred["client_id"], cred["client_secret"]))
        auth = {"authorization": f"Bearer {answer.json()['access_token']}"}
        hook = {"url": receiver_url, "event_types": ["awards.published"]}
        created = await client.post("/v1/webhooks/subscriptions", headers=auth, json=hook)
        assert created.status_code == 201, created.text
        return str(created.json()["secret"])


async def _emit(service: Service, revision: int) -> float:
    """Commit one awards.published to the service's outbox; when the commit returned."""
    payload = AwardsPublished(event_code="BENCH", stage="main", section_id="S1", revision=revision)
    async with service.runtime.transaction(correlation_id="bench-partners") as uow:
        uow.emit(payload)
    return time.perf_counter()


def _first_arrivals(receiver: WebhookReceiver) -> dict[int, float]:
    """When each revision's delivery first arrived verified (a redelivery counts once)."""
    arrived: dict[int, float] = {}
    for arrival in receiver.arrivals:
        if arrival.payload is not None:
            arrived.setdefault(arrival.payload["data"]["revision"], arrival.at)
    return arrived


async def _measure(service: Service, deliveries: int, rate: float) -> tuple[list[float], int, float]:
    receiver = WebhookReceiver(status=204)
    async with serving(receiver, receiver.port):
        hook = Webhook(await _subscribe(service, receiver.url))
        receiver.verify = hook.verify
        committed: dict[int, float] = {}
        started = time.perf_counter()
        for revision in range(1, deliveries + 1):
            committed[revision] = await _emit(service, revision)
            pause = started + revision / rate - time.perf_counter()
            if pause > 0:
                await asyncio.sleep(pause)
        await receiver.until(lambda seen: len(_first_arrivals(seen)) >= deliveries, timeout_s=120 + deliveries / 10)
        arrived = _first_arrivals(receiver)
        span = max(arrived.values()) - started
        return sorted(arrived[r] - committed[r] for r in committed), receiver.refused, deliveries / span


async def delivery_latencies(deliveries: int, rate: float, distributed: bool) -> tuple[list[float], int, float, str]:
    common: dict[str, Any] = {
        "API_KEYS": "bench-op=operator",
        "PARTNERS_KEY": "bench-partners-key",
        "WEBHOOK_ALLOW_LOOPBACK": True,  # the receiver is on 127.0.0.1
        "LOG_LEVEL": "WARNING",
    }
    with tempfile.TemporaryDirectory(prefix="bench-partners-") as data_dir:
        if not distributed:
            settings = PartnersSettings(**common, DATA_DIR=data_dir, DATABASE_URL="", AMQP_URL=None)
            service = build(settings, bus=InMemoryEventBus())
            await upgrade_async("partners", service.runtime.database_url)
            await service.runtime.start()
            try:
                return (*await _measure(service, deliveries, rate), "embedded: SQLite, in-memory bus")
            finally:
                await service.runtime.stop()
                await service.runtime.bus.close()
        admin, amqp = os.environ["DATABASE_URL"], os.environ.get("AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/")
        url, dbname = await served.fresh_database(admin)
        namespace = f"bench-{uuid.uuid4().hex[:8]}"
        try:
            settings = PartnersSettings(
                **common, DATA_DIR=data_dir, DATABASE_URL=url, AMQP_URL=amqp, BUS_NAMESPACE=namespace
            )
            await upgrade_async("partners", url)
            service = build(settings)
            await service.runtime.start()
            try:
                return (*await _measure(service, deliveries, rate), "distributed: PostgreSQL, RabbitMQ")
            finally:
                await service.runtime.stop()
        finally:
            from gomoku_shared.messaging.rabbit_cleanup import delete_namespace

            await delete_namespace(amqp, namespace)
            await served.drop_database(admin, dbname)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.partners", description=__doc__.split("\n\n")[0])
    parser.add_argument("--verifies", type=int, default=2000, help="calls per timing run of (a)")
    parser.add_argument("--deliveries", type=int, default=300, help="webhook deliveries of (b)")
    parser.add_argument("--rate", type=float, default=10.0, help="events committed per second in (b)")
    parser.add_argument("--distributed", action="store_true", help="PostgreSQL + RabbitMQ (DATABASE_URL, AMQP_URL)")
    args = parser.parse_args(argv)
    rows = verification_rows(args.verifies)
    hmac_us = rows[1][1]
    print(f"(a) token verification, µs CPU per call (best of 5 x {args.verifies})")
    print(f"    {'row':<28} {'µs/call':>9} {'x HMAC':>7}")
    for name, us in rows:
        print(f"    {name:<28} {us:>9.2f} {us / hmac_us:>7.1f}")
    latencies, refused, achieved, mode = asyncio.run(delivery_latencies(args.deliveries, args.rate, args.distributed))
    _print_latencies(latencies, refused, mode, args.rate)
    note = " (below the offered rate: the latencies include a backlog)" if achieved < 0.9 * args.rate else ""
    print(f"    delivered {achieved:.1f}/s from the first commit to the last arrival{note}")


def _print_latencies(latencies: list[float], refused: int, mode: str, rate: float) -> None:
    ms: dict[str, Any] = {
        "p50": served.percentile(latencies, 0.50) * 1000,
        "p99": served.percentile(latencies, 0.99) * 1000,
        "max": latencies[-1] * 1000 if latencies else float("nan"),
    }
    print(f"(b) webhook delivery, commit of the bus event -> receiver verified it ({mode}, {rate:g} events/s)")
    print(
        f"    deliveries {len(latencies)}, refused {refused}: "
        f"p50 {ms['p50']:.1f} ms, p99 {ms['p99']:.1f} ms, max {ms['max']:.1f} ms"
    )


if __name__ == "__main__":
    main()
