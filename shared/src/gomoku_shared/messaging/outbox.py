"""Transactional outbox: events are rows written in the service's own transaction.

A service never publishes directly. Its unit of work calls ``add_to_outbox`` before it
commits, so the state change and the events it causes are stored atomically; an
``OutboxRelay`` (one lifespan task per service) later publishes pending rows with
publisher confirms and marks them published. A crash anywhere in between leaves the
row pending and it is published later: events are never lost, and may be published
twice (consumers dedupe with the inbox).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from .. import stall_trace
from ..db import UtcDateTime
from ..loops import idle, stopped
from .bus import EventBus, Message

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]


def _utcnow() -> datetime:
    return datetime.now(UTC)


def outbox_table(metadata: MetaData, name: str = "outbox", schema: str | None = None) -> Table:
    """Add the outbox table to the service's ``metadata`` (its migrations create it)."""
    return Table(
        name,
        metadata,
        # SQLite only autoincrements an INTEGER PRIMARY KEY
        Column("id", BigInteger().with_variant(Integer(), "sqlite"), primary_key=True, autoincrement=True),
        Column("event_id", String(64), nullable=False, unique=True),
        Column("routing_key", String(255), nullable=False),
        Column("body", LargeBinary(), nullable=False),
        Column("headers", JSON(), nullable=False, default=dict),
        Column("created_at", UtcDateTime(), nullable=False, server_default=func.now()),
        Column("published_at", UtcDateTime(), nullable=True),
        Column("attempts", Integer(), nullable=False, default=0, server_default="0"),
        # the relay only ever scans pending rows
        Index(
            f"ix_{name}_pending",
            "id",
            postgresql_where=text("published_at IS NULL"),
            sqlite_where=text("published_at IS NULL"),
        ),
        schema=schema,
    )


async def add_to_outbox(
    session: AsyncSession,
    messages: Sequence[Message],
    *,
    table: Table,
    now: datetime | None = None,
) -> None:
    """Insert ``messages`` as pending rows in the caller's transaction (no commit)."""
    if not messages:
        return
    rows = [
        {
            "event_id": m.message_id,
            "routing_key": m.routing_key,
            "body": bytes(m.body),
            "headers": dict(m.headers),
            "attempts": 0,
            **({"created_at": now} if now is not None else {}),
        }
        for m in messages
    ]
    await session.execute(insert(table), rows)


def _row_message(row) -> Message:
    return Message(
        routing_key=row.routing_key,
        message_id=row.event_id,
        body=bytes(row.body),
        headers=dict(row.headers or {}),
    )


class OutboxRelay:
    """Publishes pending outbox rows, oldest first, and marks them published.

    One relay per service keeps that service's event order: rows are claimed in id
    order and published sequentially (``bus.publish`` confirms them in order). Several
    replicas may each run a relay: ``FOR UPDATE SKIP LOCKED`` (PostgreSQL) stops them
    from publishing the same row twice at once, but then two batches may interleave.
    """

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        bus: EventBus,
        table: Table,
        *,
        batch: int = 100,
        poll_interval: float = 0.5,
        max_backoff: float = 5.0,
        clock: Clock = _utcnow,
    ) -> None:
        self._sessionmaker = sessionmaker
        self._bus = bus
        self._table = table
        self._batch = batch
        self._poll_interval = poll_interval
        self._max_backoff = max_backoff
        self._clock = clock
        self._wakeup = asyncio.Event()
        # run() and direct callers (e.g. an embedded runner's drain) never overlap: on
        # SQLite, where FOR UPDATE compiles away, they would publish the same rows twice
        self._lock = asyncio.Lock()
        #: rows this relay has published since it started (a Prometheus counter reads it)
        self.published = 0

    def wake(self) -> None:
        """Ask the running relay to look for rows now (call after a commit)."""
        self._wakeup.set()

    async def publish_pending(self) -> int:
        """Publish one batch of pending rows; return how many were published.

        If publishing fails the rows stay pending (their ``attempts`` grow) and the
        error propagates.
        """
        async with self._lock:
            started = time.monotonic()
            published = await self._publish_batch()
            if published:
                stall_trace.note_span("relay", started, published)
            return published

    async def _publish_batch(self) -> int:
        table = self._table
        async with self._sessionmaker() as session:
            async with session.begin():
                rows = (
                    await session.execute(
                        select(table.c.id, table.c.event_id, table.c.routing_key, table.c.body, table.c.headers)
                        .where(table.c.published_at.is_(None))
                        .order_by(table.c.id)
                        .limit(self._batch)
                        .with_for_update(skip_locked=True)
                    )
                ).all()
                if not rows:
                    return 0
                ids = [r.id for r in rows]
                error: Exception | None = None
                try:
                    await self._bus.publish([_row_message(r) for r in rows])
                except Exception as exc:  # noqa: BLE001 - any transport error
                    error = exc
                else:
                    await session.execute(update(table).where(table.c.id.in_(ids)).values(published_at=self._clock()))
            if error is not None:
                # record the attempt in its own transaction, then let the caller back off
                async with session.begin():
                    await session.execute(
                        update(table).where(table.c.id.in_(ids)).values(attempts=table.c.attempts + 1)
                    )
                raise error
        self.published += len(rows)
        return len(rows)

    async def run(self, stop: asyncio.Event | None = None) -> None:
        """Publish until ``stop`` is set (at the next idle point: a batch being published is
        finished first) or until cancelled: wake on ``wake()`` or every ``poll_interval`` seconds."""
        backoff = 0.0
        while not stopped(stop):
            self._wakeup.clear()
            try:
                while await self.publish_pending() == self._batch and not stopped(stop):
                    pass  # a full batch: more may be waiting
                backoff = 0.0
            except asyncio.CancelledError:
                raise
            except Exception:
                backoff = min(self._max_backoff, max(0.1, backoff * 2))
                log.warning("outbox relay: publish failed; retrying in %.1fs", backoff, exc_info=True)
                await idle(stop, backoff)
                continue
            await idle(stop, self._poll_interval, self._wakeup)


async def outbox_backlog(session: AsyncSession, table: Table, now: datetime) -> tuple[int, float]:
    """(pending rows, age in seconds of the oldest pending row; 0 when none) — the relay's lag."""
    pending, oldest = (
        await session.execute(select(func.count(), func.min(table.c.created_at)).where(table.c.published_at.is_(None)))
    ).one()
    if not pending or oldest is None:
        return 0, 0.0
    if oldest.tzinfo is None:  # SQLite hands back naive UTC
        oldest = oldest.replace(tzinfo=UTC)
    return int(pending), max(0.0, (now - oldest).total_seconds())


async def mark_for_resend(session: AsyncSession, table: Table, event_ids: Sequence[str]) -> list[str]:
    """Make published rows pending again, so the relay sends those events once more under their
    own ids (consumers that had them skip them by their inbox). Returns the ids found."""
    found = list(
        (await session.execute(select(table.c.event_id).where(table.c.event_id.in_(list(event_ids))))).scalars()
    )
    if found:
        await session.execute(update(table).where(table.c.event_id.in_(found)).values(published_at=None))
    return found


async def latest_events(
    session: AsyncSession, table: Table, routing_key: str, *, limit: int = 50
) -> list[tuple[str, str, bytes, datetime | None]]:
    """The newest rows of one event type: (event id, routing key, body, published at), newest first."""
    rows = await session.execute(
        select(table.c.event_id, table.c.routing_key, table.c.body, table.c.published_at)
        .where(table.c.routing_key == routing_key)
        .order_by(table.c.id.desc())
        .limit(limit)
    )
    return [(r.event_id, r.routing_key, bytes(r.body), r.published_at) for r in rows]


async def mark_all_pending(session: AsyncSession, table: Table, routing_keys: Sequence[str]) -> int:
    """Make every published row of these event types pending again, to be sent once more in
    their original order (replaying a consumer restored from a backup: its inbox skips what the
    backup already had). Returns how many rows."""
    t = table
    result = await session.execute(
        update(t)
        .where(t.c.routing_key.in_(list(routing_keys)), t.c.published_at.is_not(None))
        .values(published_at=None)
    )
    return int(result.rowcount or 0)  # type: ignore[attr-defined]  # an UPDATE's CursorResult has rowcount
