"""The services' PostgreSQL pool and reading sessions (issue 33, spectators' view reads): a
connection idle a while is pinged before use and replaced if dead, one just handed back is
used at once; a reading session runs its statements outside a transaction and hands its
connection back to the pool as it found it."""

from __future__ import annotations

import asyncpg
import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

from gomoku_shared import pool_ping
from gomoku_shared.db import make_engine, make_reading_sessionmaker, make_sessionmaker


def _dsn(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://")


class _Pings:
    """Counts the dialect's pings (the real ping runs)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.count = 0
        dialect = engine.sync_engine.dialect
        ping = dialect.do_ping

        def counted(dbapi_connection):
            self.count += 1
            return ping(dbapi_connection)

        dialect.do_ping = counted  # type: ignore[method-assign]


async def _backend(engine: AsyncEngine) -> int:
    async with engine.connect() as conn:
        return int((await conn.execute(text("SELECT pg_backend_pid()"))).scalar_one())


async def _terminate(url: str, pid: int) -> None:
    admin = await asyncpg.connect(_dsn(url))
    try:
        assert await admin.fetchval("SELECT pg_terminate_backend($1)", pid)
    finally:
        await admin.close()


@pytest.fixture
async def engine(fresh_database):
    made = make_engine(await fresh_database(), pool_size=1)
    yield made
    await made.dispose()


async def test_a_connection_just_handed_back_is_used_without_a_ping(engine):
    pings = _Pings(engine)
    first = await _backend(engine)
    for _ in range(5):
        assert await _backend(engine) == first  # the pool's one connection, again and again
    assert pings.count == 0


async def test_an_idle_connection_found_dead_is_replaced_without_failing_the_request(engine, monkeypatch):
    monkeypatch.setattr(pool_ping, "PING_IDLE_S", 0.0)  # every pooled connection counts as idle
    pings = _Pings(engine)
    first = await _backend(engine)
    await _terminate(engine.url.render_as_string(hide_password=False), first)
    second = await _backend(engine)  # the ping fails at checkout; the pool connects afresh
    assert second != first and pings.count == 1


async def test_a_connection_dead_within_the_idle_time_fails_once_then_the_pool_reconnects(engine):
    """The trade-off the module names: not pinged, the dead connection fails its statement, and
    SQLAlchemy invalidates the pool, so the next request gets a new connection."""
    first = await _backend(engine)
    await _terminate(engine.url.render_as_string(hide_password=False), first)
    with pytest.raises(DBAPIError) as failed:
        await _backend(engine)
    assert failed.value.connection_invalidated
    assert await _backend(engine) != first


async def _in_transaction(session) -> bool:
    connection = await session.connection()
    raw = await connection.get_raw_connection()
    return bool(raw.driver_connection.is_in_transaction())


async def test_a_reading_session_runs_outside_a_transaction_and_the_pool_keeps_its_isolation(engine):
    reading, writing = make_reading_sessionmaker(engine), make_sessionmaker(engine)
    async with reading() as session:
        assert (await session.execute(text("SELECT 1"))).scalar_one() == 1
        assert not await _in_transaction(session)
        # each statement alone: the second sees a transaction of its own
        first = (await session.execute(text("SELECT txid_current()"))).scalar_one()
        second = (await session.execute(text("SELECT txid_current()"))).scalar_one()
        assert second != first
    async with writing() as session:  # the same pooled connection, its transactions back
        await session.execute(text("SELECT 1"))
        assert await _in_transaction(session)
        first = (await session.execute(text("SELECT txid_current()"))).scalar_one()
        second = (await session.execute(text("SELECT txid_current()"))).scalar_one()
        assert second == first
        await session.rollback()


async def test_a_reading_session_on_sqlite_keeps_its_transactions(tmp_path):
    """The embedded mode's in-memory database shares one connection: a read must not change it."""
    sqlite = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'one.db'}")
    try:
        assert make_reading_sessionmaker(sqlite).kw["bind"] is sqlite
    finally:
        await sqlite.dispose()
