"""The migration step's head check: a database at the scripts' head is left alone without
Alembic; one behind it, a missing one, or one whose version cannot be read still migrates."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

from alembic import command
from alembic.script import ScriptDirectory

from gomoku_shared.migrate import SERVICES, alembic_config, at_head, database_revisions, head_revisions, upgrade


def test_the_head_read_from_the_files_is_alembics_head_for_every_service(tmp_path):
    for service in SERVICES:
        script = ScriptDirectory.from_config(alembic_config(service, f"sqlite+aiosqlite:///{tmp_path}/x.sqlite"))
        assert head_revisions(service) == set(script.get_heads()), service


def test_a_database_at_head_is_at_head_and_one_behind_is_migrated(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path}/pairing.sqlite"
    assert not at_head("pairing", url)  # no file yet
    upgrade("pairing", url)
    assert at_head("pairing", url) and database_revisions("pairing", url) == head_revisions("pairing")
    command.downgrade(alembic_config("pairing", url), "0001")
    assert database_revisions("pairing", url) == {"0001"} and not at_head("pairing", url)
    upgrade("pairing", url)  # behind: Alembic runs and the tables are back
    assert at_head("pairing", url)
    with sqlite3.connect(f"{tmp_path}/pairing.sqlite") as conn:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "appeals" in tables


def test_a_database_without_the_version_table_is_not_at_head(tmp_path):
    path = tmp_path / "other.sqlite"
    sqlite3.connect(path).close()
    assert database_revisions("awards", f"sqlite+aiosqlite:///{path}") is None
    assert not at_head("awards", f"sqlite+aiosqlite:///{path}")


def test_an_unreachable_postgres_is_left_to_alembic():
    assert database_revisions("pairing", "postgresql+asyncpg://nobody@127.0.0.1:1/none") is None


def test_the_command_says_already_at_head_the_second_time(tmp_path):
    env = {"DATA_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    argv = [sys.executable, "-m", "gomoku_shared.migrate", "gameplay"]
    first = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=300, check=True)
    second = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=300, check=True)
    assert "migrated to head" in first.stderr and "already at head" in second.stderr
    assert (tmp_path / "gameplay.sqlite").exists()
