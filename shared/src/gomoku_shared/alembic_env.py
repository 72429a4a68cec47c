"""The body of every service's Alembic env.py: async engines, its own version table.

Each service keeps its migrations in ``<service>/migrations`` and its version table
as ``alembic_version_<service>``, so services can even share one database safely.
"""

from __future__ import annotations

import asyncio
import os

from alembic import context
from sqlalchemy import pool
from sqlalchemy.ext.asyncio import create_async_engine


def _do_run(connection, version_table: str) -> None:
    context.configure(
        connection=connection,
        version_table=version_table,
        render_as_batch=connection.dialect.name == "sqlite",
        transaction_per_migration=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run(service: str) -> None:
    config = context.config
    version_table = f"alembic_version_{service}"
    url = config.attributes.get("url") or config.get_main_option("sqlalchemy.url") or os.environ.get("DATABASE_URL")
    if not url:
        raise SystemExit(f"{service}: no database URL (set DATABASE_URL)")
    if context.is_offline_mode():
        context.configure(url=url, version_table=version_table, literal_binds=True)
        with context.begin_transaction():
            context.run_migrations()
        return

    async def migrate_online() -> None:
        engine = create_async_engine(url, poolclass=pool.NullPool, hide_parameters=True)
        async with engine.connect() as conn:
            await conn.run_sync(_do_run, version_table)
            await conn.commit()
        await engine.dispose()

    asyncio.run(migrate_online())
