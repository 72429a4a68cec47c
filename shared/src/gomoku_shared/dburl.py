"""Database URLs as every service reads them, without importing a framework (the migration
step reads them before anything else)."""

from __future__ import annotations


def normalise_database_url(value: str) -> str:
    """Plain PostgreSQL and SQLite URLs become their async drivers' URLs."""
    for prefix in ("postgresql://", "postgres://"):
        if value.startswith(prefix):
            return "postgresql+asyncpg://" + value[len(prefix) :]
    if value.startswith("sqlite:///"):
        return "sqlite+aiosqlite:///" + value[len("sqlite:///") :]
    return value


def default_database_url(service: str, data_dir: str) -> str:
    """The embedded default: one SQLite file per service in ``data_dir``."""
    return f"sqlite+aiosqlite:///{data_dir}/{service}.sqlite"
