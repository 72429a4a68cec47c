"""Outbox and inbox on SQLite and PostgreSQL (docs/architecture.md, "Unit of work, outbox, inbox, relay").

The messaging layer has no rule ids (docs/rules.md); tests are named after the guarantee they prove.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncSession

from gomoku_shared.messaging import (
    InMemoryEventBus,
    Message,
    OutboxRelay,
    add_to_outbox,
    handle_once,
)


class RecordingBus(InMemoryEventBus):
    """Records what is published; fails the next ``fail`` publishes."""

    def __init__(self) -> None:
        super().__init__()
        self.published: list[Message] = []
        self.fail = 0

    async def publish(self, messages: Sequence[Message]) -> None:
        if self.fail:
            self.fail -= 1
            raise ConnectionError("broker unreachable")
        self.published.extend(messages)
        await super().publish(messages)


def ev(i: int) -> Message:
    return Message(
        routing_key="game.finished", message_id=f"evt-{i}", body=b'{"n": %d}' % i, headers={"correlation_id": "c1"}
    )


async def test_outbox_rows_commit_with_state_and_vanish_on_rollback(schema) -> None:
    async with schema.sessionmaker() as s, s.begin():
        await s.execute(sa.insert(schema.state).values(key="a", value=1))
        await add_to_outbox(s, [ev(1)], table=schema.outbox)
    async with schema.sessionmaker() as s:
        with pytest.raises(RuntimeError):
            async with s.begin():
                await s.execute(sa.insert(schema.state).values(key="b", value=2))
                await add_to_outbox(s, [ev(2)], table=schema.outbox)
                raise RuntimeError("handler failed before commit")
    async with schema.sessionmaker() as s:
        ids = (await s.scalars(sa.select(schema.outbox.c.event_id))).all()
        keys = (await s.scalars(sa.select(schema.state.c.key))).all()
    assert ids == ["evt-1"] and keys == ["a"]


async def test_relay_publishes_in_id_order_once_and_marks_rows(schema) -> None:
    bus = RecordingBus()
    relay = OutboxRelay(schema.sessionmaker, bus, schema.outbox, batch=3)
    async with schema.sessionmaker() as s, s.begin():
        await add_to_outbox(s, [ev(i) for i in range(7)], table=schema.outbox)
    assert [await relay.publish_pending() for _ in range(4)] == [3, 3, 1, 0]
    assert [m.message_id for m in bus.published] == [f"evt-{i}" for i in range(7)]
    assert bus.published[0].body == b'{"n": 0}'
    assert bus.published[0].headers == {"correlation_id": "c1"}
    async with schema.sessionmaker() as s:
        pending = await s.scalar(sa.select(sa.func.count()).where(schema.outbox.c.published_at.is_(None)))
    assert pending == 0
    await bus.close()


async def test_relay_keeps_rows_pending_when_publish_fails(schema) -> None:
    bus = RecordingBus()
    relay = OutboxRelay(schema.sessionmaker, bus, schema.outbox)
    async with schema.sessionmaker() as s, s.begin():
        await add_to_outbox(s, [ev(1), ev(2)], table=schema.outbox)
    bus.fail = 2
    for _ in range(2):
        with pytest.raises(ConnectionError):
            await relay.publish_pending()
    assert await relay.publish_pending() == 2
    async with schema.sessionmaker() as s:
        attempts = (await s.scalars(sa.select(schema.outbox.c.attempts))).all()
    assert attempts == [2, 2]
    assert [m.message_id for m in bus.published] == ["evt-1", "evt-2"]
    await bus.close()


async def test_relay_run_wakes_and_retries_after_failures(schema) -> None:
    import asyncio

    bus = RecordingBus()
    relay = OutboxRelay(schema.sessionmaker, bus, schema.outbox, poll_interval=30)
    bus.fail = 1
    task = asyncio.create_task(relay.run())
    try:
        async with schema.sessionmaker() as s, s.begin():
            await add_to_outbox(s, [ev(1)], table=schema.outbox)
        relay.wake()
        async with asyncio.timeout(10):
            while not bus.published:
                await asyncio.sleep(0.02)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    assert [m.message_id for m in bus.published] == ["evt-1"]
    await bus.close()


async def test_handle_once_applies_effect_once_per_consumer(schema) -> None:
    async def effect(session: AsyncSession, m: Message) -> None:
        await session.execute(sa.insert(schema.state).values(key=m.message_id, value=1))

    m = ev(1)
    assert await handle_once(schema.sessionmaker, "pairing", m, effect, table=schema.inbox)
    assert not await handle_once(schema.sessionmaker, "pairing", m, effect, table=schema.inbox)

    # another consumer sharing the database has its own inbox entries
    async def other(session: AsyncSession, m: Message) -> None:
        await session.execute(sa.insert(schema.state).values(key="other-" + m.message_id, value=1))

    assert await handle_once(schema.sessionmaker, "awards", m, other, table=schema.inbox)
    async with schema.sessionmaker() as s:
        keys = sorted((await s.scalars(sa.select(schema.state.c.key))).all())
    assert keys == ["evt-1", "other-evt-1"]


async def test_handle_once_failing_effect_commits_nothing_and_propagates(schema) -> None:
    async def effect(session: AsyncSession, m: Message) -> None:
        await session.execute(sa.insert(schema.state).values(key=m.message_id, value=1))
        raise ValueError("poison")

    with pytest.raises(ValueError):
        await handle_once(schema.sessionmaker, "pairing", ev(1), effect, table=schema.inbox)
    async with schema.sessionmaker() as s:
        assert (await s.scalars(sa.select(schema.state.c.key))).all() == []
        assert (await s.scalars(sa.select(schema.inbox.c.message_id))).all() == []


async def test_handle_once_effect_integrity_error_is_not_mistaken_for_duplicate(
    schema,
) -> None:
    async with schema.sessionmaker() as s, s.begin():
        await s.execute(sa.insert(schema.state).values(key="taken", value=0))

    async def effect(session: AsyncSession, m: Message) -> None:
        await session.execute(sa.insert(schema.state).values(key="taken", value=1))

    with pytest.raises(sa.exc.IntegrityError):
        await handle_once(schema.sessionmaker, "pairing", ev(1), effect, table=schema.inbox)
