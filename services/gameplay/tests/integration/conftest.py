"""Gameplay services on the real PostgreSQL and RabbitMQ (fixtures of gomoku_shared.testing)."""

from __future__ import annotations

import contextlib

import httpx
import pytest
from gameplay_kit import KEYS, START, Api, Observed, message

from gameplay.bootstrap import build
from gomoku_shared.clock import FakeClock
from gomoku_shared.messaging.rabbit import RabbitEventBus
from gomoku_shared.migrate import upgrade_async
from gomoku_shared.settings import ServiceSettings


class Cluster:
    """One database, one broker namespace, N replicas of the service, one observer."""

    def __init__(self, url, amqp_url, ns, clock):
        self.url, self.amqp_url, self.ns, self.clock = url, amqp_url, ns, clock
        self.replicas = []
        self.clients: list[Api] = []
        self.observed = Observed()
        self._stack = contextlib.AsyncExitStack()
        self.publisher = RabbitEventBus(amqp_url, namespace=ns)

    async def start(self, replicas: int) -> None:
        settings = ServiceSettings(
            DATABASE_URL=self.url, AMQP_URL=self.amqp_url, BUS_NAMESPACE=self.ns, API_KEYS=KEYS, RELAY_POLL_S=0.05
        )
        await upgrade_async("gameplay", settings.database_url)
        await self.publisher.start()
        self._stack.push_async_callback(self.publisher.close)
        await self.publisher.subscribe("observer", ["game.*"], self.observed.handler)
        for _ in range(replicas):
            svc = build(settings, clock=self.clock)
            await self._stack.enter_async_context(svc.running())
            client = httpx.AsyncClient(transport=httpx.ASGITransport(app=svc.app), base_url="http://t")
            await self._stack.enter_async_context(client)
            self.replicas.append(svc)
            self.clients.append(Api(client))

    async def publish(self, payload) -> None:
        await self.publisher.publish([message(payload, self.clock)])

    def finished(self):
        return self.observed.of("game.finished")

    async def close(self) -> None:
        await self._stack.aclose()


@pytest.fixture
async def cluster_factory(fresh_database, amqp_url, bus_namespace):
    made = []

    async def make(replicas: int = 1) -> Cluster:
        c = Cluster(await fresh_database(), amqp_url, bus_namespace, FakeClock(START))
        await c.start(replicas)
        made.append(c)
        return c

    yield make
    for c in made:
        await c.close()
