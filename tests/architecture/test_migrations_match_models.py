"""One migration policy (issue 13, CONTRIBUTING.md "Migrations"): every service's revisions are
frozen and explicit, and a database migrated from empty is exactly the service's ORM metadata.

Each test creates its own PostgreSQL database (on the server of DATABASE_URL), migrates it from
empty to head with the service's own Alembic scripts (``gomoku_shared.migrate``, as the compose
migrate step does), compares it with ``alembic.autogenerate.compare_metadata`` (tables, columns,
types, nullability, indexes, unique constraints), migrates it again (a no-op: upgrade is
idempotent) and drops the database."""

from __future__ import annotations

import ast
import asyncio
import importlib
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import MetaData
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

from gomoku_shared.migrate import SERVICES, upgrade

ROOT = Path(__file__).resolve().parents[2]

#: Not yet frozen: revisions still building tables from live declarations, by service. The list may
#: only shrink (delete an entry when its revision states its own DDL); any other file fails at once.
NOT_YET_FROZEN: dict[str, set[str]] = {}


def _admin_url() -> Any:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgresql"):
        pytest.fail(
            "DATABASE_URL must name a PostgreSQL server (postgresql+asyncpg://…): the migration check runs there"
        )
    return make_url(url)


async def _admin(statement: str) -> None:
    url = _admin_url()
    connection = await asyncpg.connect(
        user=url.username or "postgres",
        password=url.password,
        host=url.host or "127.0.0.1",
        port=url.port or 5432,
        database="postgres",
    )
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


@pytest.fixture
def empty_database(request: pytest.FixtureRequest) -> Iterator[str]:
    """The URL of a new, empty database, dropped after the test."""
    name = f"migrations_{request.node.callspec.id}_{uuid.uuid4().hex[:8]}"
    asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    try:
        yield _admin_url().set(database=name).render_as_string(hide_password=False)
    finally:
        asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def _metadata(service: str) -> MetaData:
    return importlib.import_module(f"{service}.adapters.orm").metadata


def _differences(url: str, service: str) -> list[Any]:
    """What autogenerate would change to make the migrated database equal the ORM metadata."""

    def include_name(name: str | None, type_: str, _parents: dict) -> bool:
        return not (type_ == "table" and name is not None and name.startswith("alembic_version"))

    async def compare() -> list[Any]:
        engine = create_async_engine(url)
        try:
            async with engine.connect() as connection:
                return await connection.run_sync(
                    lambda sync: compare_metadata(
                        MigrationContext.configure(sync, opts={"compare_type": True, "include_name": include_name}),
                        _metadata(service),
                    )
                )
        finally:
            await engine.dispose()

    return asyncio.run(compare())


async def _version(url: str, service: str) -> str:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as connection:
            result = await connection.exec_driver_sql(f"SELECT version_num FROM alembic_version_{service}")
            return str(result.scalar_one())
    finally:
        await engine.dispose()


def _head(service: str) -> str:
    versions = ROOT / "services" / service / "src" / service / "migrations" / "versions"
    return max(path.name.split("_", 1)[0] for path in versions.glob("[0-9]*.py"))


@pytest.mark.infra  # a PostgreSQL database of its own (DATABASE_URL), made without the plugin's fixtures
@pytest.mark.parametrize("service", SERVICES)
def test_a_database_migrated_from_empty_equals_the_models(service: str, empty_database: str) -> None:
    upgrade(service, empty_database)
    assert _differences(empty_database, service) == []
    assert asyncio.run(_version(empty_database, service)) == _head(service)
    upgrade(service, empty_database)  # at head already: changes nothing, fails on nothing
    assert _differences(empty_database, service) == []


def _imports(path: Path) -> list[str]:
    modules = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            modules.append(node.module or "")
    return modules


@pytest.mark.parametrize("service", SERVICES)
def test_revisions_are_frozen(service: str) -> None:
    """A revision states its own DDL: it imports only alembic and sqlalchemy, never the live table
    declarations (the service's orm, gomoku_shared), whose later changes would change what an
    applied revision does."""
    versions = sorted((ROOT / "services" / service / "src" / service / "migrations" / "versions").glob("*.py"))
    assert versions, "no revisions found"
    live = {
        path.name: [
            module for module in _imports(path) if module.split(".")[0] not in ("alembic", "sqlalchemy", "__future__")
        ]
        for path in versions
    }
    found = {name: modules for name, modules in live.items() if modules}
    tolerated = NOT_YET_FROZEN.get(service, set())
    assert {name: modules for name, modules in found.items() if name not in tolerated} == {}
    assert tolerated <= set(found), f"frozen now: delete {sorted(tolerated - set(found))} from NOT_YET_FROZEN"
