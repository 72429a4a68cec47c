"""Awards served alone as its own process (the docker-compose.yml command, migrated by alembic)
on a fresh PostgreSQL database and the test's RabbitMQ namespace, on the simulation clock, with
the integration events a test gives published to it first (what the other services would have
published)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import datetime
from pathlib import Path

import httpx

from gomoku_shared.contracts import encode, envelope_for
from gomoku_shared.messaging.rabbit import RabbitEventBus

from .compose_commands import LocalCompose


@contextlib.asynccontextmanager
async def awards_alone(
    fresh_database: Callable[[], Awaitable[str]],
    amqp_url: str,
    namespace: str,
    log_dir: Path,
    start: datetime,
    published: tuple[object, ...],
) -> AsyncIterator[httpx.AsyncClient]:
    """A client of the served awards process, after ``published`` (payloads, in order, each of
    the event it names) reached the broker; the process is stopped when the block ends."""
    database = await fresh_database()
    stack = LocalCompose(
        database_urls={"awards": database},
        amqp_url=amqp_url,
        namespace=namespace,
        log_dir=log_dir,
        extra_env={"CLOCK": "fake", "CLOCK_START": start.isoformat(), "RELAY_POLL_S": "0.2"},
    )
    publisher = RabbitEventBus(amqp_url, namespace=namespace)
    try:
        awards = await stack.serve("awards")
        await publisher.start()
        for payload in published:
            code = getattr(payload, "event_code", None)
            await publisher.publish([encode(envelope_for(payload, correlation_id=code, occurred_at=start))])
        async with httpx.AsyncClient(base_url=awards.url, timeout=30) as client:
            yield client
    finally:
        await publisher.close()
        stack.stop_all()
