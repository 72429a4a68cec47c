"""Fixtures for the shared package's tests: a small service schema on SQLite or PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

from gomoku_shared.messaging import inbox_table, outbox_table


@dataclass
class Schema:
    engine: AsyncEngine
    sessionmaker: async_sessionmaker[AsyncSession]
    state: sa.Table
    outbox: sa.Table
    inbox: sa.Table


def service_metadata() -> tuple[sa.MetaData, sa.Table, sa.Table, sa.Table]:
    """A stand-in service schema: one state table plus outbox and inbox."""
    md = sa.MetaData()
    state = sa.Table(
        "state",
        md,
        sa.Column("key", sa.String(100), primary_key=True),
        sa.Column("value", sa.Integer, nullable=False),
    )
    return md, state, outbox_table(md), inbox_table(md)


async def make_schema(url: str) -> Schema:
    engine = create_async_engine(url)
    md, state, outbox, inbox = service_metadata()
    async with engine.begin() as conn:
        await conn.run_sync(md.create_all)
    return Schema(engine, async_sessionmaker(engine, expire_on_commit=False), state, outbox, inbox)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.infra)])
async def db_url(request: pytest.FixtureRequest, tmp_path) -> str:
    """The same tests on SQLite (embedded mode) and PostgreSQL (distributed mode)."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'service.db'}"
    return await request.getfixturevalue("fresh_database")()


@pytest.fixture
async def schema(db_url: str) -> AsyncIterator[Schema]:
    s = await make_schema(db_url)
    yield s
    await s.engine.dispose()
