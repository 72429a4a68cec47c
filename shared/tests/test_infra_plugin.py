"""The pytest plugin fails (never skips) when RabbitMQ/PostgreSQL cannot be provided."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow

SAMPLE = """
async def test_needs_broker(amqp_url):
    assert amqp_url

async def test_needs_database(fresh_database):
    assert await fresh_database()

def test_plain():
    assert True
"""


def run_pytest(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_sample.py").write_text(SAMPLE)
    env = {k: v for k, v in os.environ.items() if k not in {"AMQP_URL", "DATABASE_URL"}}
    env["DOCKER_HOST"] = f"unix://{tmp_path}/no-docker.sock"  # no daemon answers here
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "gomoku_shared.testing.plugin",
            "-q",
            "-o",
            "asyncio_mode=auto",
            "-p",
            "no:cacheprovider",
            *args,
            "test_sample.py",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_missing_infrastructure_fails_with_instructions_and_never_skips(tmp_path: Path) -> None:
    done = run_pytest(tmp_path)
    out = done.stdout + done.stderr
    assert done.returncode == 1, out
    assert "AMQP_URL=amqp://" in out and "DATABASE_URL=postgresql+asyncpg://" in out
    summary = done.stdout.strip().splitlines()[-1]
    assert summary.startswith("1 passed, 2 errors"), summary
    assert "skipped" not in summary


def test_tests_using_infra_fixtures_are_marked_infra(tmp_path: Path) -> None:
    done = run_pytest(tmp_path, "-m", "not infra")
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    assert "1 passed, 2 deselected" in out
