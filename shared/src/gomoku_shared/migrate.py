"""Run a service's migrations: ``python -m gomoku_shared.migrate <service> [--create-db]``.

Used by the docker-compose one-shot ``<service>-migrate`` step and by the embedded runner.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import make_url

from .db import is_sqlite
from .settings import ServiceSettings

#: every database with migrations: the five services and the portal (its staff sessions only)
SERVICES = ("registration", "pairing", "gameplay", "awards", "partners", "portal")


def alembic_config(service: str, url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", f"{service}:migrations")
    cfg.attributes["url"] = url
    return cfg


def upgrade(service: str, url: str, revision: str = "head") -> None:
    """Blocking; call from a thread when an event loop is running."""
    if is_sqlite(url):
        path = url.split(":///", 1)[1]
        if path and path != ":memory:":
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    command.upgrade(alembic_config(service, url), revision)


async def upgrade_async(service: str, url: str) -> None:
    await asyncio.to_thread(upgrade, service, url)


async def create_database_if_missing(url: str) -> bool:
    """PostgreSQL: create the URL's database (connecting to ``postgres``). True if created."""
    import asyncpg

    parsed = make_url(url)
    if not parsed.get_backend_name().startswith("postgres"):
        return False
    admin = await asyncpg.connect(
        user=parsed.username or "postgres",
        password=parsed.password,
        host=parsed.host or "127.0.0.1",
        port=parsed.port or 5432,
        database="postgres",
    )
    try:
        exists = await admin.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", parsed.database)
        if not exists:
            await admin.execute(f'CREATE DATABASE "{parsed.database}"')
            return True
        return False
    finally:
        await admin.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gomoku_shared.migrate", description=__doc__)
    parser.add_argument("service", choices=SERVICES)
    parser.add_argument("--url", help="database URL (default: DATABASE_URL, else the embedded SQLite file)")
    parser.add_argument("--create-db", action="store_true", help="create the PostgreSQL database if missing")
    args = parser.parse_args(argv)
    settings = ServiceSettings()
    url = args.url or settings.database_url_for(args.service)
    url = ServiceSettings(DATABASE_URL=url).database_url
    if args.create_db:
        asyncio.run(create_database_if_missing(url))
    upgrade(args.service, url)
    print(f"{args.service}: migrated to head ({make_url(url).render_as_string(hide_password=True)})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
