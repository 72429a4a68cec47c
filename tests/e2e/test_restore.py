"""Backups (issue 17): pairing's database is dumped with pg_dump while the NT event runs on four
processes (PostgreSQL + RabbitMQ); rounds go on; then pairing is stopped, its database restored
from the dump (pg_restore) with the services whose events it consumes stopped too, and
`gomoku-ops replay pairing` empties pairing's queue and marks everything pairing consumes
pending again in the producers' outboxes (an event written long before the dump may still have
been waiting in the queue when it was taken); the producers then start one after the other and
send it all again, in order, and pairing is started again. The event finishes with the
digest of the undisturbed (embedded) run: the inbox skips what the dump already had, the rest is
handled again, and what pairing publishes again is skipped by its consumers' inboxes."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg
import pytest

from . import test_nt_2023
from .harness import FAST, SERVICES, digest, embedded_once, run_distributed, spec

NT = spec("nt-2023", 4, test_nt_2023.SIZES, policy=FAST)
#: the services whose events pairing consumes (section.closed, game.finished), in pipeline order
PRODUCERS = ("registration", "gameplay")


@pytest.fixture
async def databases(fresh_database):
    return {s: await fresh_database() for s in SERVICES}


def _libpq(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


async def _inbox_rows(url: str) -> int:
    conn = await asyncpg.connect(_libpq(url))
    try:
        return int(await conn.fetchval("SELECT count(*) FROM inbox"))
    finally:
        await conn.close()


async def _pending(url: str) -> int:
    conn = await asyncpg.connect(_libpq(url))
    try:
        return int(await conn.fetchval("SELECT count(*) FROM outbox WHERE published_at IS NULL"))
    finally:
        await conn.close()


@dataclass
class RestoreLog:
    inbox_at_dump: int = 0
    inbox_before_restore: int = 0
    resent: dict[str, int] = field(default_factory=dict)
    restored_during_run: bool = False


def backup_and_restore(databases: dict[str, str], dump: Path, log: RestoreLog, amqp_url: str, namespace: str):
    """A context factory for ``run_distributed(chaos=...)``: dump pairing early, restore it later."""

    @contextlib.asynccontextmanager
    async def run(stack, driver):
        compose = stack.extras["compose"]
        url = databases["pairing"]

        async def plan() -> None:
            while await _inbox_rows(url) < 5:  # the event is under way: pairing has consumed events
                await asyncio.sleep(0.2)
            await asyncio.to_thread(
                subprocess.run, ["pg_dump", "--format=custom", f"--file={dump}", _libpq(url)], check=True
            )
            log.inbox_at_dump = await _inbox_rows(url)
            while await _inbox_rows(url) < log.inbox_at_dump + 20:  # more is played after the backup
                await asyncio.sleep(0.2)
            async with driver.clock.lock:
                # pairing and the services whose events it consumes stop (docs/operators.md)
                for service in ("pairing", *PRODUCERS):
                    await asyncio.to_thread(compose.stop, service)
                log.inbox_before_restore = await _inbox_rows(url)
                await asyncio.to_thread(
                    subprocess.run,
                    [
                        "pg_restore",
                        "--clean",
                        "--if-exists",
                        "--single-transaction",
                        f"--dbname={_libpq(url)}",
                        str(dump),
                    ],
                    check=True,
                )
                producers = [f"--db={s}={databases[s]}" for s in PRODUCERS]
                env = {**os.environ, "AMQP_URL": amqp_url, "BUS_NAMESPACE": namespace}
                done = await asyncio.to_thread(
                    subprocess.run,
                    [
                        sys.executable,
                        "-m",
                        "gomoku_ops",
                        "--json",
                        "replay",
                        "pairing",
                        *producers,
                    ],
                    capture_output=True,
                    text=True,
                    env=env,
                    check=False,
                )
                assert done.returncode == 0, done.stdout + done.stderr
                answer = json.loads(done.stdout)[0]
                log.resent = {row["service"]: row["resent"] for row in answer["producers"]}
                assert answer["start_order"] == list(PRODUCERS)
                compose.extra_env["CLOCK_START"] = driver.clock.current.isoformat()
                for service in ("pairing", *PRODUCERS):  # each producer once the one before has sent all
                    compose.start(service)
                    await asyncio.to_thread(compose.wait_ready, service, 60.0)
                    if service in PRODUCERS:
                        while await _pending(databases[service]):
                            await asyncio.sleep(0.1)
                await driver.clock.resync()

        task = asyncio.create_task(plan())
        try:
            yield
            log.restored_during_run = task.done() and task.exception() is None
            await asyncio.wait_for(task, timeout=300)
        finally:
            if not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    return run


async def test_pairing_restored_from_a_dump_mid_event_finishes_with_identical_results(
    tmp_path, databases, amqp_url, bus_namespace
):
    undisturbed = await embedded_once(tmp_path, NT)
    log = RestoreLog()
    restored, _ = await run_distributed(
        tmp_path,
        NT,
        amqp_url=amqp_url,
        databases=databases,
        namespace=bus_namespace,
        chaos=backup_and_restore(databases, tmp_path / "pairing.dump", log, amqp_url, bus_namespace),
    )
    assert log.restored_during_run, log
    # the restore threw away work pairing had done, and the re-sends brought it back
    assert log.inbox_before_restore > log.inbox_at_dump, log
    assert log.resent.get("gameplay", 0) > 0, log
    test_nt_2023.check_nt(restored)
    assert digest(restored) == digest(undisturbed)
