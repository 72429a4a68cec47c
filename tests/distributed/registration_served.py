"""Registration served alone as its own process (the docker-compose.yml command, migrated by
alembic) on a fresh PostgreSQL database and the test's RabbitMQ namespace, and the rows a test
reads back from its tables to check what was (and was not) stored."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import httpx
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from .compose_commands import LocalCompose


@contextlib.asynccontextmanager
async def registration_alone(
    fresh_database: Callable[[], Awaitable[str]], amqp_url: str, namespace: str, log_dir: Path, env: dict[str, str]
) -> AsyncIterator[tuple[str, httpx.AsyncClient]]:
    """The database URL and a client of the served process (``env``: its settings beside the
    stack's own); the process is stopped when the block ends."""
    url = await fresh_database()
    stack = LocalCompose(
        database_urls={"registration": url}, amqp_url=amqp_url, namespace=namespace, log_dir=log_dir, extra_env=env
    )
    try:
        proc = await stack.serve("registration")
        async with httpx.AsyncClient(base_url=proc.url, timeout=30) as http:
            yield url, http
    finally:
        stack.stop_all()


async def rows(url: str, query: str) -> list[tuple]:
    """What a table holds, read straight from the database (never through the service)."""
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            return [tuple(row) for row in (await conn.execute(sa.text(query))).all()]
    finally:
        await engine.dispose()
