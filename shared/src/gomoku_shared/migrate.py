"""Run a service's migrations: ``python -m gomoku_shared.migrate <service> [--create-db]``.

Used by the docker-compose one-shot ``<service>-migrate`` step and by the embedded runner.
Every start runs this step, and almost always it has nothing to do: so the head revision of
the service's scripts is read from their files and compared with the database's version table
first (one query, without importing Alembic or SQLAlchemy); only a database behind that (or
one whose version cannot be read) runs Alembic.
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import contextlib
import importlib.util
import os
import sqlite3
import sys
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

if TYPE_CHECKING:
    from alembic.config import Config

#: every database with migrations: the five services and the portal (its staff sessions only)
SERVICES = ("registration", "pairing", "gameplay", "awards", "partners", "portal")


def alembic_config(service: str, url: str) -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", f"{service}:migrations")
    cfg.attributes["url"] = url
    return cfg


def head_revisions(service: str) -> set[str]:
    """The head revision(s) of the service's scripts, read from ``<service>/migrations/versions``
    (the ``revision`` and ``down_revision`` assignments of each file, as Alembic reads them)."""
    spec = importlib.util.find_spec(service)
    if spec is None or not spec.submodule_search_locations:
        raise LookupError(f"no package {service!r}")
    versions = Path(next(iter(spec.submodule_search_locations))) / "migrations" / "versions"
    revisions: set[str] = set()
    parents: set[str] = set()
    for script in versions.glob("*.py"):
        values: dict[str, object] = {}
        for node in ast.parse(script.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target, value = node.targets[0], node.value
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                target, value = node.target, node.value
            else:
                continue
            if isinstance(target, ast.Name) and target.id in ("revision", "down_revision"):
                values[target.id] = ast.literal_eval(value)
        if not isinstance(values.get("revision"), str):
            raise LookupError(f"{script.name}: no revision")
        revisions.add(str(values["revision"]))
        down = values.get("down_revision")
        parents.update([down] if isinstance(down, str) else list(down or ()))  # type: ignore[call-overload]
    return revisions - parents


def database_revisions(service: str, url: str) -> set[str] | None:
    """The revisions in the database's ``alembic_version_<service>`` table, or None when the
    database, the table or the driver is not there (Alembic then runs and says what is wrong)."""
    table = f"alembic_version_{service}"
    if url.startswith("sqlite"):
        path = url.split(":///", 1)[1] if ":///" in url else ""
        if not path or path.startswith(":memory:") or not os.path.exists(path):
            return None
        try:
            with contextlib.closing(sqlite3.connect(path, timeout=30)) as conn:
                return {row[0] for row in conn.execute(f"SELECT version_num FROM {table}")}
        except sqlite3.Error:
            return None
    parts = urlsplit(url)
    if not parts.scheme.startswith("postgresql"):
        return None
    try:
        return asyncio.run(_postgres_revisions(urlunsplit(parts._replace(scheme="postgresql")), table))
    except Exception:  # any failure: the full path decides (and reports it)
        return None


async def _postgres_revisions(dsn: str, table: str) -> set[str]:
    import asyncpg

    conn = await asyncpg.connect(dsn, timeout=10)
    try:
        return {row[0] for row in await conn.fetch(f'SELECT version_num FROM "{table}"')}
    finally:
        await conn.close()


def at_head(service: str, url: str) -> bool:
    """True when the database is at the scripts' head: the migration has nothing to do."""
    try:
        heads = head_revisions(service)
    except (LookupError, OSError, SyntaxError, ValueError):
        return False
    return bool(heads) and database_revisions(service, url) == heads


def upgrade(service: str, url: str, revision: str = "head") -> None:
    """Blocking; call from a thread when an event loop is running."""
    if revision == "head" and at_head(service, url):
        return
    run_alembic_upgrade(service, url, revision)


def run_alembic_upgrade(service: str, url: str, revision: str = "head") -> None:
    """Alembic's ``upgrade`` itself (no head check first)."""
    from alembic import command

    if url.startswith("sqlite"):
        path = url.split(":///", 1)[1]
        if path and path != ":memory:":
            from .db import private_files

            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            private_files(path)  # personal data: readable by this user only
    command.upgrade(alembic_config(service, url), revision)


async def upgrade_async(service: str, url: str) -> None:
    await asyncio.to_thread(upgrade, service, url)


async def create_database_if_missing(url: str) -> bool:
    """PostgreSQL: create the URL's database (connecting to ``postgres``). True if created."""
    import asyncpg
    from sqlalchemy.engine import make_url

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


def _environment(name: str, default: str = "") -> str:
    """A setting as ``ServiceSettings`` reads it (names are not case-sensitive there)."""
    return next((value for key, value in os.environ.items() if key.upper() == name), default)


def _shown(url: str) -> str:
    """The URL without its password, for the log line."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))


def main(argv: list[str] | None = None) -> int:
    from .dburl import default_database_url, normalise_database_url

    parser = argparse.ArgumentParser(prog="python -m gomoku_shared.migrate", description=__doc__)
    parser.add_argument("service", choices=SERVICES)
    parser.add_argument("--url", help="database URL (default: DATABASE_URL, else the embedded SQLite file)")
    parser.add_argument("--create-db", action="store_true", help="create the PostgreSQL database if missing")
    args = parser.parse_args(argv)
    url = args.url or normalise_database_url(_environment("DATABASE_URL"))
    url = normalise_database_url(url or default_database_url(args.service, _environment("DATA_DIR", "var")))
    if at_head(args.service, url):  # the database exists then: nothing to create either
        print(f"{args.service}: already at head ({_shown(url)})", file=sys.stderr)
        return 0
    if args.create_db:
        asyncio.run(create_database_if_missing(url))
    run_alembic_upgrade(args.service, url)
    print(f"{args.service}: migrated to head ({_shown(url)})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
