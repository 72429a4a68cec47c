"""A stopping service asks its background loops to stop (issue 13, a cooperative stop): the relay
and every loop registered with ``runtime.background`` return at their next idle point
(``gomoku_shared.loops.idle``), so no cancel lands while a pooled connection is in use or being
returned, and stopping a busy service logs no ERROR. Only a loop that has not returned after
``background_stop_s`` is cancelled, with a WARNING naming it."""

from __future__ import annotations

import asyncio
import logging

import pytest
from sqlalchemy import text

from gomoku_shared.loops import idle
from gomoku_shared.messaging.memory import InMemoryEventBus
from gomoku_shared.runtime import ServiceRuntime
from gomoku_shared.settings import ServiceSettings

from .conftest import service_metadata


async def _started(db_url: str) -> ServiceRuntime:
    metadata = service_metadata()[0]
    # the relay polls all the time: it is in the database whenever the stop comes
    runtime = ServiceRuntime(
        "registration", ServiceSettings(DATABASE_URL=db_url, RELAY_POLL_S=0), metadata, bus=InMemoryEventBus()
    )
    async with runtime.engine.begin() as conn:
        await conn.run_sync(metadata.create_all)
    return runtime


async def test_stopping_a_busy_service_logs_no_error_and_cancels_no_loop(db_url, caplog):
    runtime = await _started(db_url)
    rounds: list[int] = []
    returned: list[str] = []

    @runtime.background
    async def busy_loop() -> None:
        """Transactions back to back, with an idle point between them."""
        while True:
            async with runtime.transaction() as uow:
                await uow.session.execute(text("SELECT 1"))
            rounds.append(1)
            if await idle(runtime.stopping, 0):
                returned.append("busy_loop")
                return

    await runtime.start()
    async with asyncio.timeout(30):
        while len(rounds) < 50:
            await asyncio.sleep(0.01)
    tasks = list(runtime._tasks)
    with caplog.at_level(logging.INFO):
        await runtime.stop()
    await runtime.bus.close()

    assert returned == ["busy_loop"]
    assert all(task.done() and not task.cancelled() for task in tasks), tasks  # the relay returned too
    assert [record for record in caplog.records if record.levelno >= logging.WARNING] == []


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
async def test_a_loop_that_does_not_stop_is_cancelled_after_the_grace_with_a_warning(db_url, caplog):
    runtime = await _started(db_url)
    runtime.background_stop_s = 0.2
    cancelled: list[str] = []

    @runtime.background
    async def stubborn() -> None:
        try:
            await asyncio.Event().wait()  # never looks at runtime.stopping
        except asyncio.CancelledError:
            cancelled.append("stubborn")
            raise

    await runtime.start()
    await asyncio.sleep(0)
    with caplog.at_level(logging.WARNING):
        await runtime.stop()
    await runtime.bus.close()

    assert cancelled == ["stubborn"]
    warnings = [record.getMessage() for record in caplog.records if record.levelno == logging.WARNING]
    assert warnings == ["registration: registration-stubborn did not stop within 0.2s: cancelled"]
