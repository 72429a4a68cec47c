"""Async engine / session factory for PostgreSQL (asyncpg) and SQLite (aiosqlite)."""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.pool import StaticPool

from .errors import Conflict
from .pool_ping import ping_idle_connections

log = logging.getLogger(__name__)


class UtcDateTime(sa.TypeDecorator):
    """Aware datetimes stored as UTC and always read back aware (UTC). SQLite keeps no offset:
    without this, 10:00+08:00 would come back as a naive 10:00 — a wrong instant, and a
    timestamp without its offset in every API that shows it."""

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")


def private_files(path: str) -> None:
    """A SQLite database of the embedded mode holds personal data: its file, and the journal files
    SQLite creates beside it with the same permissions, are readable by this user only (0600)."""
    if not os.path.exists(path):
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))  # an empty file is an empty database
    for name in (path, f"{path}-wal", f"{path}-shm"):
        with contextlib.suppress(FileNotFoundError, PermissionError):
            os.chmod(name, 0o600)


def make_engine(url: str, *, pool_size: int = 15) -> AsyncEngine:
    """Statement parameters are hidden from every error message and log line: they carry
    personal data (names, birth dates, ciphertexts). PostgreSQL: up to ``pool_size``
    connections kept open once used, and a third as many more for a burst, closed when handed
    back (a new connection costs a server process and a handshake: with 10 kept, sixteen clients
    reading gameplay's views opened a connection for one read in ten)."""
    if is_sqlite(url):
        path = url.split(":///", 1)[1] if ":///" in url else ""
        if path and path != ":memory:":
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            private_files(path)
        kwargs: dict = {"connect_args": {"timeout": 30}, "hide_parameters": True}
        if not path or path == ":memory:":
            kwargs["poolclass"] = StaticPool
        engine = create_async_engine(url, **kwargs)

        @event.listens_for(engine.sync_engine, "connect")
        def _pragmas(dbapi_conn, _record):  # WAL: readers never block the writer
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

        return engine
    engine = create_async_engine(url, pool_size=pool_size, max_overflow=pool_size // 3, hide_parameters=True)
    ping_idle_connections(engine)  # not pool_pre_ping: a ping per checkout tripled a short read's round trips
    return engine


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)


def make_reading_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions for reads alone. On PostgreSQL their statements run outside a transaction: at
    READ COMMITTED each statement of a transaction sees its own snapshot anyway, so a read
    gains nothing from BEGIN and ROLLBACK but two round trips. Never write on one (each
    statement would commit alone). SQLite keeps its transactions: the embedded mode's
    in-memory database shares one connection, whose isolation a read must not change."""
    if engine.dialect.name == "sqlite":
        return make_sessionmaker(engine)
    return async_sessionmaker(engine.execution_options(isolation_level="AUTOCOMMIT"), expire_on_commit=False)


async def ping(engine: AsyncEngine) -> bool:
    try:
        async with engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
        return True
    except Exception:
        return False


async def select_for_update(
    session: AsyncSession, query: sa.Select[Any], table: sa.Table, where: sa.ColumnElement[bool]
) -> sa.Result[Any]:
    """``query ... FOR UPDATE``, on SQLite too. SQLite has no row locks and ignores FOR UPDATE,
    and its driver opens a transaction only at the first write: two read-modify-writes of one
    row would both read the old value (pairing's event sequence, then one event id twice). On
    SQLite a no-op write of the rows comes first: it takes the database's write lock for the
    rest of the transaction, so a concurrent writer waits (busy_timeout) and what this one reads
    next is the latest committed state."""
    if session.get_bind().dialect.name == "sqlite":
        column = next(c for c in table.columns if not c.primary_key) if len(table.columns) > 1 else table.c[0]
        await session.execute(sa.update(table).where(where).values({column.name: column}))
    return await session.execute(query.with_for_update())


@contextlib.contextmanager
def concurrent_duplicate_refused(where: str) -> Iterator[None]:
    """A unique key that a concurrent twin of this request stored first (an IntegrityError at an
    insert or at the commit) as 409 ``concurrent_duplicate``, so that a route need not know the
    database's exceptions; ``where`` names the request in the log line."""
    try:
        yield
    except IntegrityError:
        log.warning("integrity error on %s: a concurrent duplicate refused", where)
        raise Conflict("concurrent_duplicate", "an identical request was processed at the same time; retry") from None
