"""Migration 0002 creates exactly the tables and columns of adapters/orm.py, and downgrades."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import command

from gomoku_shared.migrate import alembic_config, upgrade
from partners.adapters.orm import metadata


def _columns(url: str) -> dict[str, set[str]]:
    engine = sa.create_engine(url.replace("+aiosqlite", ""))
    try:
        inspector = sa.inspect(engine)
        return {
            t: {c["name"] for c in inspector.get_columns(t)}
            for t in inspector.get_table_names()
            if not t.startswith("alembic_version")
        }
    finally:
        engine.dispose()


def test_migrations_match_the_orm_and_downgrade(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path}/m.sqlite"
    upgrade("partners", url)
    assert _columns(url) == {name: {c.name for c in table.columns} for name, table in metadata.tables.items()}
    command.downgrade(alembic_config("partners", url), "0001")
    assert set(_columns(url)) == {"outbox", "inbox"}
