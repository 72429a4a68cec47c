"""Harness for the registration service tests: the service on SQLite + the in-memory bus, a
FakeClock, an observer of every published event, and request builders."""

from __future__ import annotations

import contextlib
import itertools
from datetime import datetime, timedelta, timezone

import httpx

from gomoku_shared.clock import FakeClock
from gomoku_shared.contracts import decode, encode, envelope_for
from gomoku_shared.messaging.memory import InMemoryEventBus
from gomoku_shared.migrate import upgrade_async
from gomoku_shared.settings import ServiceSettings
from gomoku_shared.topology import CONSUMES
from registration.bootstrap import build

KEYS = "op-key=operator,arb-key=arbiter,p1-key=partner:partner-1,p2-key=partner:partner-2"
OP = {"x-api-key": "op-key"}
ARB = {"x-api-key": "arb-key"}
P1 = {"x-api-key": "p1-key"}
P2 = {"x-api-key": "p2-key"}
CST = timezone(timedelta(hours=8))
DATA_KEY = "test-data-key-0123456789abcdef"

_n = itertools.count(1)


def id_number(n: int, born: str = "19900505") -> str:
    """An 18-character Chinese-style ID number, unique per n."""
    return f"4403{n % 100:02d}{born}{n:04d}"[-18:].rjust(18, "1")


def player(n: int, gender: str = "male", born: str = "1990-05-05", **kw) -> dict:
    return {
        "name": f"Player {n:04d}",
        "gender": gender,
        "birth_date": born,
        "id_number": id_number(n, born.replace("-", "")),
        **kw,
    }


def sz_entry(
    n: int,
    section: str = "men-free",
    gender: str = "male",
    born: str = "1990-05-05",
    evidence: list | None = None,
    **kw,
) -> dict:
    return {
        "stage": "online",
        "section_id": section,
        "player": player(n, gender, born),
        "evidence": evidence
        if evidence is not None
        else [{"kind": "household_registration", "document_ref": f"HK-{n:06d}", "region": "Shenzhen"}],
        "insurance": {"confirmed": True, "document_ref": f"POL-{n:06d}"},
        **kw,
    }


class Harness:
    def __init__(self, service, bus: InMemoryEventBus, client: httpx.AsyncClient, clock: FakeClock) -> None:
        self.service, self.bus, self.client, self.clock = service, bus, client, clock
        self.events: list = []

    async def drain(self) -> None:
        """Until nothing is pending in the outbox or on the bus."""
        for _ in range(100):
            published = await self.service.runtime.relay.publish_pending()
            await self.bus.drain(timeout=10)
            if not published and not await self.service.runtime.relay.publish_pending():
                return
        raise RuntimeError("registration did not become quiet")

    def of(self, type_: str) -> list:
        return [e for e in self.events if e.type == type_]

    async def publish(self, payload, correlation_id: str = "test") -> None:
        env = envelope_for(payload, correlation_id=correlation_id, occurred_at=self.clock.now())
        await self.bus.publish([encode(env)])
        await self.drain()

    async def create_sz(self, code: str = "sz22", overrides: dict | None = None) -> dict:
        r = await self.client.post(
            "/v1/events", headers=OP, json={"preset_id": "sz-2022", "event_code": code, "overrides": overrides or {}}
        )
        assert r.status_code == 201, r.text
        return r.json()


@contextlib.asynccontextmanager
async def harness(tmp_path, start: datetime | None = None):
    clock = FakeClock(start or datetime(2022, 10, 26, 10, 0, tzinfo=CST))
    settings = ServiceSettings(
        DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path}/registration.sqlite",
        API_KEYS=KEYS,
        DATA_KEY=DATA_KEY,
        RELAY_POLL_S=0.05,
    )
    bus = InMemoryEventBus()
    service = build(settings, bus=bus, clock=clock)
    await upgrade_async("registration", service.runtime.database_url)
    h = Harness(service, bus, None, clock)

    async def observe(message) -> None:
        h.events.append(decode(message))

    async def ignore(message) -> None:
        return None

    await bus.start()
    await bus.subscribe("observer", ["#"], observe)
    # the other services' queues (declared by every runtime) are consumed by nobody here
    for queue, keys in CONSUMES.items():
        if queue != "registration":
            await bus.subscribe(queue, list(keys), ignore, delivery_limit=settings.delivery_limit, prefetch=1)
    await service.runtime.start()
    transport = httpx.ASGITransport(app=service.app, raise_app_exceptions=False)
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://reg") as client:
            h.client = client
            yield h
    finally:
        await service.runtime.stop()
        await bus.close()
