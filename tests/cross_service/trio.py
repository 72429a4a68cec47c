"""pairing, gameplay and awards running together on one fake clock — on SQLite and the in-memory
bus (the embedded suite) or on PostgreSQL and RabbitMQ (one database and bus connection per
service) — with the test playing registration's part (event.configured, section.closed)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from gomoku_shared.clock import FakeClock
from gomoku_shared.contracts import encode, envelope_for
from gomoku_shared.contracts.envelope import Payload

KEYS = "op-key=operator,arb-key=arbiter,pa-key=partner:pa"
OP = {"x-api-key": "op-key"}
ARB = {"x-api-key": "arb-key"}
PA = {"x-api-key": "pa-key"}
START = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)
PLAYED = ("pairing", "gameplay", "awards")


class Trio:
    def __init__(
        self,
        clients: dict[str, httpx.AsyncClient],
        publish: Callable[[list], Awaitable[None]],
        drain: Callable[[], Awaitable[None]] | None,
        clock: FakeClock,
        move_clocks: Callable[[float], Awaitable[None]] | None = None,
    ) -> None:
        self.clock = clock
        self._publish = publish
        self._drain = drain
        self._move_clocks = move_clocks
        self.clients = clients

    async def advance(self, seconds: float) -> None:
        """Move the services' time (one FakeClock in process; POST /v1/ops/clock to processes)."""
        self.clock.advance(seconds)
        if self._move_clocks is not None:
            await self._move_clocks(seconds)

    async def aclose(self) -> None:
        for c in self.clients.values():
            await c.aclose()

    async def send(self, payload: Payload) -> None:
        """An event as registration would publish it."""
        await self._publish(
            [encode(envelope_for(payload, correlation_id=payload.event_code, occurred_at=self.clock.now()))]
        )

    async def until(self, predicate: Callable[[], Awaitable[Any]], what: str, timeout: float = 60.0) -> Any:
        """Wait until the services have done what the test waits for (the in-memory bus is
        drained first; RabbitMQ is polled)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            if self._drain is not None:
                await self._drain()
            value = await predicate()
            if value:
                return value
            if loop.time() > end:
                raise AssertionError(f"timed out waiting for {what}")
            await asyncio.sleep(0.05)

    async def call(self, method: str, service: str, path: str, *, headers=OP, **kw) -> httpx.Response:
        return await self.clients[service].request(method, path, headers=headers, **kw)

    # the consistency check's reader: public HTTP reads with the operator key
    async def get(self, service: str, path: str, params: dict | None = None) -> Any:
        r = await self.call("GET", service, path, params=params)
        if r.status_code >= 400:
            err = ReadError(f"GET {service}{path} -> {r.status_code}: {r.text[:200]}")
            err.status = r.status_code
            raise err
        return r.json()


class ReadError(Exception):
    status: int = 0


def _asgi(apps: dict[str, Any]) -> dict[str, httpx.AsyncClient]:
    return {
        name: httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=f"http://{name}")
        for name, app in apps.items()
    }


@contextlib.asynccontextmanager
async def sqlite_trio(tmp_path: Path) -> AsyncIterator[Trio]:
    from gomoku_shared.embedded import EmbeddedSuite
    from gomoku_shared.settings import ServiceSettings

    clock = FakeClock(START)
    settings = ServiceSettings(
        DATA_DIR=str(tmp_path), API_KEYS=KEYS, DATA_KEY="test-data-key", DATABASE_URL="", AMQP_URL=None
    )
    suite = EmbeddedSuite(settings, clock=clock)
    await suite.start()
    trio = Trio(_asgi({n: suite.services[n].app for n in PLAYED}), suite.bus.publish, suite.drain, clock)
    try:
        yield trio
    finally:
        await trio.aclose()
        await suite.stop()


@contextlib.asynccontextmanager
async def postgres_trio(database_urls: dict[str, str], amqp_url: str, namespace: str) -> AsyncIterator[Trio]:
    from gomoku_shared.messaging.rabbit import RabbitEventBus
    from gomoku_shared.migrate import upgrade_async
    from gomoku_shared.service import builders
    from gomoku_shared.settings import ServiceSettings

    clock = FakeClock(START)
    publisher = RabbitEventBus(amqp_url, namespace=namespace)
    async with contextlib.AsyncExitStack() as stack:
        await publisher.start()
        stack.push_async_callback(publisher.close)
        apps = {}
        for name in PLAYED:
            settings = ServiceSettings(
                DATABASE_URL=database_urls[name],
                AMQP_URL=amqp_url,
                BUS_NAMESPACE=namespace,
                API_KEYS=KEYS,
                RELAY_POLL_S=0.05,
            )
            await upgrade_async(name, settings.database_url)
            svc = builders()[name](settings, clock=clock)
            await stack.enter_async_context(svc.running())
            apps[name] = svc.app
        trio = Trio(_asgi(apps), publisher.publish, None, clock)
        stack.push_async_callback(trio.aclose)
        yield trio


@contextlib.asynccontextmanager
async def served_trio(
    database_urls: dict[str, str], amqp_url: str, namespace: str, log_dir: Path
) -> AsyncIterator[Trio]:
    """The three services as OS processes (the docker-compose.yml commands) with CLOCK=fake,
    reached over real sockets."""
    from gomoku_shared.messaging.rabbit import RabbitEventBus
    from gomoku_sim.stack import load_compose_commands

    cc = load_compose_commands()
    env = {
        "API_KEYS": KEYS,
        "CLOCK": "fake",
        "CLOCK_START": START.isoformat(),
        "RELAY_POLL_S": "0.1",
        "LOG_LEVEL": "WARNING",
    }
    log_dir.mkdir(parents=True, exist_ok=True)
    stack = cc.LocalCompose(
        database_urls=database_urls, amqp_url=amqp_url, namespace=namespace, log_dir=log_dir, extra_env=env
    )
    publisher = RabbitEventBus(amqp_url, namespace=namespace)
    clients: dict[str, httpx.AsyncClient] = {}
    try:
        for name, proc in (await stack.serve_all(*PLAYED)).items():
            clients[name] = httpx.AsyncClient(base_url=proc.url, timeout=30)
        await publisher.start()

        async def move_clocks(seconds: float) -> None:
            for c in clients.values():
                r = await c.post("/v1/ops/clock", json={"advance_s": seconds}, headers=OP)
                assert r.status_code == 200, r.text

        yield Trio(clients, publisher.publish, None, FakeClock(START), move_clocks)
    finally:
        for c in clients.values():
            await c.aclose()
        await publisher.close()
        stack.stop_all()
