"""Inbox: exactly-once effect on top of at-least-once delivery.

A consumer records ``(consumer, message_id)`` in the same transaction as the effect
of the message. A redelivered message finds its row and is skipped (and acknowledged
by the bus, since the handler returns normally).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

from sqlalchemy import Column, MetaData, String, Table, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..db import UtcDateTime
from .bus import Handler, Message

Effect = Callable[[AsyncSession, Message], Awaitable[None]]


def inbox_table(metadata: MetaData, name: str = "inbox", schema: str | None = None) -> Table:
    """Add the inbox table to the service's ``metadata`` (its migrations create it)."""
    return Table(
        name,
        metadata,
        Column("consumer", String(200), primary_key=True),
        Column("message_id", String(64), primary_key=True),
        Column("processed_at", UtcDateTime(), nullable=False),
        schema=schema,
    )


async def _seen(session: AsyncSession, table: Table, consumer: str, message_id: str) -> bool:
    found = await session.scalar(
        select(table.c.message_id).where(table.c.consumer == consumer, table.c.message_id == message_id)
    )
    return found is not None


async def handle_once(
    sessionmaker: async_sessionmaker[AsyncSession],
    consumer: str,
    message: Message,
    effect: Effect,
    *,
    table: Table,
    now: datetime | None = None,
) -> bool:
    """Run ``effect`` for ``message`` unless ``consumer`` already did; True if it ran.

    The inbox row and the effect commit in one transaction. The inbox row is written
    first, so on PostgreSQL a concurrent duplicate waits on the primary key and then
    fails instead of running the effect in parallel; a unique violation at insert or
    commit whose inbox row exists afterwards means "already processed". Any other
    exception (from the effect included) propagates and nothing is committed, so the
    bus redelivers.
    """
    async with sessionmaker() as session:
        try:
            async with session.begin():
                if await _seen(session, table, consumer, message.message_id):
                    return False
                await session.execute(
                    insert(table).values(
                        consumer=consumer,
                        message_id=message.message_id,
                        processed_at=now or datetime.now(UTC),
                    )
                )
                await effect(session, message)
        except IntegrityError:
            async with session.begin():
                if await _seen(session, table, consumer, message.message_id):
                    return False
            raise
    return True


def inbox_handler(
    sessionmaker: async_sessionmaker[AsyncSession],
    consumer: str,
    effect: Effect,
    *,
    table: Table,
) -> Handler:
    """A bus handler that applies ``effect`` at most once per message id."""

    async def handle(message: Message) -> None:
        await handle_once(sessionmaker, consumer, message, effect, table=table)

    return handle
