"""A stopping service publishes what its outbox still holds (issue 17, graceful shutdown): the
consumer stops first, then the outbox is flushed while the bus is still open."""

from __future__ import annotations

import asyncio

from sqlalchemy import MetaData, func, select

from gomoku_shared.contracts.events import QualifiersSelected
from gomoku_shared.messaging.bus import Message
from gomoku_shared.messaging.rabbit import RabbitEventBus
from gomoku_shared.runtime import ServiceRuntime
from gomoku_shared.settings import ServiceSettings


async def test_stop_flushes_the_outbox_after_the_consumer_stopped(tmp_path, amqp_url, bus_namespace):
    settings = ServiceSettings(
        DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path}/service.sqlite", RELAY_POLL_S=600, SHUTDOWN_GRACE_S=10
    )
    bus = RabbitEventBus(amqp_url, namespace=bus_namespace)
    runtime = ServiceRuntime("registration", settings, MetaData(), bus=bus)
    handled: list[str] = []

    @runtime.on("qualifiers.selected")
    async def on_selected(_uow, envelope) -> None:
        handled.append(envelope.payload.section_id)

    async with runtime.engine.begin() as conn:
        await conn.run_sync(runtime.metadata.create_all)

    async def parked(stop: asyncio.Event | None = None) -> None:
        # a relay that publishes nothing before the stop: replacing only ``wake`` left its first
        # pass, scheduled by start(), free to read the rows committed below on a busy machine
        if stop is not None:
            await stop.wait()

    runtime.relay.run = parked  # type: ignore[method-assign]
    await runtime.start()
    async with runtime.transaction() as uow:
        for section in ("men", "women"):
            uow.emit(
                QualifiersSelected(
                    event_code="sz-2022",
                    from_stage="online",
                    to_stage="final",
                    section_id=section,
                    target_section_id=f"final-{section}",
                    qualifiers=[],
                )
            )
        emitted = {str(envelope.event_id) for envelope in uow.events}
    async with runtime.sessionmaker() as session:
        table = runtime.outbox
        assert (await session.execute(select(func.count()).where(table.c.published_at.is_(None)))).scalar_one() == 2
    await runtime.stop()

    assert handled == []  # the consumer had stopped before the flush: the events wait in its queue
    probe = RabbitEventBus(amqp_url, namespace=bus_namespace)
    try:
        ready, dead = await probe.queue_depth("registration")
        assert ready >= 2 and dead == 0
        # both events are there (at least once: a consumer being cancelled may hand one back)
        waiting: set[str] = set()

        async def collect(message: Message) -> None:
            waiting.add(message.message_id)

        await probe.subscribe("registration", ["qualifiers.selected"], collect)
        async with asyncio.timeout(30):
            while len(waiting) < 2:
                await asyncio.sleep(0.05)
        assert waiting == emitted
    finally:
        await probe.close()
    check = ServiceRuntime("registration", settings, MetaData(), bus=RabbitEventBus(amqp_url, namespace=bus_namespace))
    async with check.sessionmaker() as session:
        table = check.outbox
        assert (await session.execute(select(func.count()).where(table.c.published_at.is_(None)))).scalar_one() == 0
    await check.engine.dispose()
