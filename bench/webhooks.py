"""Webhook isolation benchmark: the delay one partner's hung receivers add to another partner's
webhooks.

    .venv/bin/python -m bench.webhooks [--hung 50] [--events 20] [--rate 5] [--distributed]

The partners service (embedded: SQLite and the in-memory bus; with ``--distributed``: PostgreSQL
from DATABASE_URL, a fresh database, and RabbitMQ from AMQP_URL, a fresh namespace, both removed
afterwards), its default delivery settings (WEBHOOK_TIMEOUT_S 10 s, WEBHOOK_PARTNER_IN_FLIGHT 4,
the circuit breaker), receivers on 127.0.0.1 in this process (``gomoku_shared.testing.webhooks``).
``--events`` public events (``awards.published``: every subscriber gets each) are committed to
the service's outbox, ``--rate`` per second; the latency of each is from its commit to the moment
the healthy partner's receiver has the verified request.

- baseline: the healthy partner alone, one subscription;
- hung: the same, in a fresh service where another partner has ``--hung`` subscriptions to a
  receiver that accepts the connection and never answers (each attempt waits the whole timeout).

Printed: p50 and max of both runs and what the hung partner adds (goal: under 1 s; before
deliveries were isolated one partner's 46 hung subscriptions delayed another's by 22 s). The exit
status is 1 when the goal is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
from standardwebhooks import Webhook

from gomoku_shared.messaging.memory import InMemoryEventBus
from gomoku_shared.migrate import upgrade_async
from gomoku_shared.service import Service
from gomoku_shared.testing.webhooks import HungReceiver, WebhookReceiver, serving
from partners.bootstrap import build
from partners.config import PartnersSettings

from . import _served_games as served
from .partners import _emit, _first_arrivals

OPERATOR = {"x-api-key": "bench-op"}
GOAL_S = 1.0


async def _partner(client: httpx.AsyncClient, partner_id: str) -> dict[str, str]:
    body = {"partner_id": partner_id, "name": partner_id, "scopes": ["webhooks:manage"]}
    assert (await client.post("/v1/partners", headers=OPERATOR, json=body)).status_code == 201
    cred = (await client.post(f"/v1/partners/{partner_id}/credentials", headers=OPERATOR, json={"label": "b"})).json()
    form = {"grant_type": "client_credentials"}
    answer = await client.post("/oauth/token", data=form, auth=(cred["client_id"], cred["client_secret"]))
    return {"authorization": f"Bearer {answer.json()['access_token']}"}


async def _subscribe(client: httpx.AsyncClient, auth: dict[str, str], url: str) -> str:
    hook = {"url": url, "event_types": ["awards.published"]}
    created = await client.post("/v1/webhooks/subscriptions", headers=auth, json=hook)
    assert created.status_code == 201, created.text
    return str(created.json()["secret"])


@asynccontextmanager
async def _service(hung: int, distributed: bool) -> AsyncIterator[Service]:
    """A fresh partners service, started (embedded, or on PostgreSQL + RabbitMQ)."""
    common: dict[str, Any] = {
        "API_KEYS": "bench-op=operator",
        "PARTNERS_KEY": "bench-webhooks-key",
        "LOG_LEVEL": "ERROR",
        "WEBHOOK_ALLOW_LOOPBACK": True,  # the receivers are on 127.0.0.1
        "WEBHOOK_MAX_SUBSCRIPTIONS": max(hung, 1),
    }
    with tempfile.TemporaryDirectory(prefix="bench-webhooks-") as data_dir:
        if not distributed:
            settings = PartnersSettings(**common, DATA_DIR=data_dir, DATABASE_URL="", AMQP_URL=None)
            service = build(settings, bus=InMemoryEventBus())
            await upgrade_async("partners", service.runtime.database_url)
            await service.runtime.start()
            try:
                yield service
            finally:
                await service.runtime.stop()
                await service.runtime.bus.close()
            return
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
                yield service
            finally:
                await service.runtime.stop()
        finally:
            from gomoku_shared.messaging.rabbit_cleanup import delete_namespace

            await delete_namespace(amqp, namespace)
            await served.drop_database(admin, dbname)


async def healthy_latencies(hung: int, events: int, rate: float, distributed: bool) -> list[float]:
    """The healthy partner's delivery latencies (s, sorted), with ``hung`` hung subscriptions of
    another partner beside it (0: the baseline)."""
    healthy, stuck = WebhookReceiver(status=204), HungReceiver()
    async with (
        _service(hung, distributed) as service,
        serving(healthy, healthy.port),
        serving(stuck, stuck.port),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=service.app), base_url="http://partners") as client,
    ):
        try:
            if hung:
                slow = await _partner(client, "bench-hung")
                for n in range(hung):
                    await _subscribe(client, slow, stuck.url(f"/hook/{n}"))
            healthy.verify = Webhook(await _subscribe(client, await _partner(client, "bench-app"), healthy.url)).verify
            committed: dict[int, float] = {}
            started = time.perf_counter()
            for revision in range(1, events + 1):
                committed[revision] = await _emit(service, revision)
                pause = started + revision / rate - time.perf_counter()
                if pause > 0:
                    await asyncio.sleep(pause)
            await healthy.until(lambda seen: len(_first_arrivals(seen)) >= events, timeout_s=120 + events)
            arrived = _first_arrivals(healthy)
            return sorted(arrived[r] - committed[r] for r in committed)
        finally:
            stuck.release()  # the server stops only once its requests are answered


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.webhooks", description=__doc__.split("\n\n")[0])
    parser.add_argument("--hung", type=int, default=50, help="subscriptions of the partner whose receiver hangs")
    parser.add_argument("--events", type=int, default=20, help="public events committed in each run")
    parser.add_argument("--rate", type=float, default=5.0, help="events committed per second")
    parser.add_argument("--distributed", action="store_true", help="PostgreSQL + RabbitMQ (DATABASE_URL, AMQP_URL)")
    args = parser.parse_args(argv)
    mode = "distributed: PostgreSQL, RabbitMQ" if args.distributed else "embedded: SQLite, in-memory bus"
    baseline = asyncio.run(healthy_latencies(0, args.events, args.rate, args.distributed))
    loaded = asyncio.run(healthy_latencies(args.hung, args.events, args.rate, args.distributed))
    print(f"webhook isolation ({mode}; {args.events} public events at {args.rate:g}/s; commit -> healthy receiver)")
    print(f"    {'run':<34} {'p50 ms':>8} {'max ms':>8}")
    rows = [("baseline: healthy partner alone", baseline), (f"beside {args.hung} hung subscriptions", loaded)]
    for name, latencies in rows:
        p50, top = served.percentile(latencies, 0.5) * 1000, latencies[-1] * 1000
        print(f"    {name:<34} {p50:>8.1f} {top:>8.1f}")
    added = loaded[-1] - baseline[-1]
    ratio = served.percentile(loaded, 0.5) / max(served.percentile(baseline, 0.5), 1e-9)
    verdict = "ok" if added < GOAL_S else "MISSED"
    print(
        f"    the hung partner adds {added * 1000:.1f} ms at the max (p50 x{ratio:.2f}); goal < {GOAL_S:g} s: {verdict}"
    )
    return 0 if verdict == "ok" else 1


if __name__ == "__main__":
    sys.exit(main())
