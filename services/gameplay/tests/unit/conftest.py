"""A gameplay service on SQLite and the in-memory bus, driven by a fake clock."""

from __future__ import annotations

import os
import sys

import httpx
import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))

from gameplay_testkit import KEYS, START, Api, Observed, message  # noqa: E402

from gameplay.bootstrap import build
from gomoku_shared.clock import FakeClock  # noqa: E402
from gomoku_shared.messaging.memory import InMemoryEventBus
from gomoku_shared.migrate import upgrade_async
from gomoku_shared.settings import ServiceSettings


class Harness:
    def __init__(self, svc, bus, clock, client, observed):
        self.svc, self.bus, self.clock, self.client, self.observed = svc, bus, clock, client, observed
        self.api = Api(client)

    async def publish(self, payload) -> None:
        await self.bus.publish([message(payload, self.clock)])
        await self.settle()

    async def settle(self) -> None:
        for _ in range(5):
            await self.bus.drain()
            if not await self.svc.runtime.relay.publish_pending():
                break
        await self.bus.drain()

    def finished(self):
        return self.observed.of("game.finished")

    def started(self):
        return self.observed.of("game.started")


@pytest.fixture
async def gp(tmp_path):
    clock = FakeClock(START)
    bus = InMemoryEventBus()
    settings = ServiceSettings(DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path}/gameplay.sqlite", API_KEYS=KEYS)
    await upgrade_async("gameplay", settings.database_url)
    svc = build(settings, bus=bus, clock=clock)
    observed = Observed()
    await bus.start()
    await bus.subscribe("observer", ["game.*"], observed.handler)
    async with svc.running():
        # the runtime declares every service's queue; with no other service here, empty them
        # so that drain() sees a quiet bus
        from gomoku_shared.topology import CONSUMES

        async def discard(_message) -> None:
            return None

        for queue in CONSUMES:
            if queue != "gameplay":
                await bus.subscribe(queue, list(CONSUMES[queue]), discard, delivery_limit=settings.delivery_limit)
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=svc.app), base_url="http://t") as client:
            yield Harness(svc, bus, clock, client, observed)
    await bus.close()
