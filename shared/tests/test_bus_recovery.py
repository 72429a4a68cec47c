"""Crash and broker-restart recovery on real RabbitMQ + PostgreSQL.

Proves the bus and its delivery guarantees (docs/architecture.md, "Unit of work, outbox, inbox,
relay"); no rule id (docs/rules.md) covers them.

(a) a service SIGKILLed between its commit and the publish still publishes the event,
    once, after it restarts (outbox);
(b) RabbitMQ restarted under a running publisher (outbox relay) and consumer (inbox):
    both reconnect, no event is lost and every effect happens exactly once.

Note: (b) restarts the machine's broker (``rabbitmqctl stop_app``/``start_app``) for a
few seconds; other clients reconnect the same way ours do.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncSession

from gomoku_shared.messaging import Message, OutboxRelay, add_to_outbox, inbox_handler
from gomoku_shared.messaging.rabbit import RabbitEventBus
from gomoku_shared.testing.bus import BusProbe, eventually

pytestmark = pytest.mark.infra
log = logging.getLogger(__name__)

VICTIM = Path(__file__).with_name("_outbox_victim.py")


@pytest.fixture
async def db_url(fresh_database) -> str:
    """PostgreSQL only (overrides the package's SQLite/PostgreSQL ``db_url``)."""
    return await fresh_database()


@pytest.fixture
async def bus(amqp_url: str, bus_namespace: str) -> AsyncIterator[RabbitEventBus]:
    b = RabbitEventBus(amqp_url, namespace=bus_namespace, publish_retry_for=60)
    await b.start()
    yield b
    await b.delete_declared()
    await b.close()


async def _count(schema, table: sa.Table, where) -> int:
    async with schema.sessionmaker() as s:
        return await s.scalar(sa.select(sa.func.count()).select_from(table).where(where))


async def test_event_committed_before_sigkill_is_published_once_after_restart(
    bus: RabbitEventBus, schema, db_url: str
) -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        str(VICTIM),
        db_url,
        "evt-victim",
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    async with asyncio.timeout(60):
        out, err = await proc.communicate()
    assert proc.returncode == -signal.SIGKILL, err.decode()
    assert out.decode().strip() == "committed"
    # the state change and its event survived the crash; nothing was published
    assert await _count(schema, schema.state, schema.state.c.key == "game-1") == 1
    assert await _count(schema, schema.outbox, schema.outbox.c.published_at.is_(None)) == 1

    applied: list[str] = []

    async def effect(session: AsyncSession, m: Message) -> None:
        applied.append(m.message_id)
        await session.execute(sa.insert(schema.state).values(key="seen-" + m.message_id, value=1))

    probe = BusProbe(bus)
    await probe.subscribe(
        "pairing",
        ["game.finished"],
        inbox_handler(schema.sessionmaker, "pairing", effect, table=schema.inbox),
    )
    # the restarted service's relay (a new process would build the same objects)
    relay = OutboxRelay(schema.sessionmaker, bus, schema.outbox, poll_interval=0.1)
    task = asyncio.create_task(relay.run())
    try:
        await eventually(lambda: bool(applied), "the victim's event")
        await probe.settle("pairing")
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    assert probe.ids("pairing") == ["evt-victim"]
    assert probe.received["pairing"][0].body == b'{"result": "1-0"}'
    assert applied == ["evt-victim"]
    assert await _count(schema, schema.outbox, schema.outbox.c.published_at.is_(None)) == 0


BEFORE, AFTER = 30, 30  # events committed before the restart starts / after the broker is back
PER_TRANSACTION = 3


@pytest.mark.exclusive  # restarts the broker every other test shares
async def test_broker_restart_loses_no_event_and_effects_stay_exact(bus: RabbitEventBus, schema, rabbitmq) -> None:
    received: list[str] = []

    async def effect(session: AsyncSession, m: Message) -> None:
        await session.execute(sa.insert(schema.state).values(key="seen-" + m.message_id, value=1))

    handle = inbox_handler(schema.sessionmaker, "awards", effect, table=schema.inbox)

    async def consumer(m: Message) -> None:
        received.append(m.message_id)
        await handle(m)

    await bus.subscribe("awards", ["standings.updated"], consumer, prefetch=10)
    relay = OutboxRelay(schema.sessionmaker, bus, schema.outbox, batch=10, poll_interval=0.1)
    relay_task = asyncio.create_task(relay.run())
    produced: list[str] = []
    during_outage: list[str] = []

    async def commit_some() -> list[str]:
        ids = [f"evt-{len(produced) + k}" for k in range(PER_TRANSACTION)]
        async with schema.sessionmaker() as s, s.begin():
            await add_to_outbox(s, [Message("standings.updated", eid, b"{}") for eid in ids], table=schema.outbox)
        produced.extend(ids)
        relay.wake()
        await asyncio.sleep(0.05)
        return ids

    async def restart() -> None:
        log.info("stopping the broker")
        await asyncio.to_thread(rabbitmq.ctl, ["stop_app"])
        await asyncio.sleep(1.0)
        log.info("starting the broker")
        await asyncio.to_thread(rabbitmq.ctl, ["start_app"])
        await asyncio.to_thread(rabbitmq.ctl, ["await_startup"])
        log.info("broker is back")

    try:
        async with asyncio.timeout(90):
            while len(produced) < BEFORE:
                await commit_some()
            restarter = asyncio.create_task(restart())
            # the publisher keeps committing while the broker stops, is down and comes back
            while not restarter.done():
                ids = await commit_some()
                if not await bus.ping():
                    during_outage.extend(ids)
            await restarter
            for _ in range(AFTER // PER_TRANSACTION):
                await commit_some()
            log.info("producer done: %d events, %d while the broker was down", len(produced), len(during_outage))

        async def all_applied() -> bool:
            return await _count(schema, schema.state, schema.state.c.key.like("seen-%")) >= len(produced)

        await eventually(all_applied, "every event's effect after the restart", timeout=60)
        await eventually(bus.ping, "the bus to report ready again")
    finally:
        relay_task.cancel()
        await asyncio.gather(relay_task, return_exceptions=True)
    assert during_outage, "the test must publish while the broker is down"
    seen_rows = await _count(schema, schema.state, schema.state.c.key.like("seen-%"))
    assert seen_rows == len(produced)  # duplicates on the wire, never in the effects
    assert await _count(schema, schema.inbox, schema.inbox.c.consumer == "awards") == len(produced)
    assert await _count(schema, schema.outbox, schema.outbox.c.published_at.is_(None)) == 0
    assert set(received) == set(produced)
    log.info("%d deliveries for %d events", len(received), len(produced))


async def test_start_retries_an_unreachable_broker_then_gives_up() -> None:
    bus = RabbitEventBus("amqp://guest:guest@127.0.0.1:1/", connect_retry_for=0.5)
    with pytest.raises(ConnectionError):
        await bus.start()
    assert not await bus.ping()


async def test_start_fails_at_once_on_bad_credentials(amqp_url: str) -> None:
    from yarl import URL

    bad = str(URL(amqp_url).with_user("no-such-user").with_password("wrong"))
    bus = RabbitEventBus(bad, connect_retry_for=60)
    async with asyncio.timeout(20):  # far below connect_retry_for: no retry loop
        with pytest.raises(ConnectionError):
            await bus.start()


async def test_a_batch_with_an_unconfirmed_event_is_sent_again_from_that_event_in_order(
    bus: RabbitEventBus, monkeypatch
) -> None:
    """A batch goes out with its confirms awaited together; when one is not confirmed (here the
    third, once), the events from it on are sent again, in order, and every event arrives: the
    ones after it twice (the consumers' inbox drops the copies) and before it, as two relay
    replicas' batches may arrive in either order."""
    probe = BusProbe(bus)
    await probe.subscribe("awards", ["standings.updated"])
    sent: list[str] = []
    real_send = bus._send
    failed_once: set[str] = set()

    async def flaky_send(message: Message) -> None:
        sent.append(message.message_id)
        if message.message_id == "e3" and "e3" not in failed_once:
            failed_once.add("e3")
            raise ConnectionError("no confirm")
        await real_send(message)

    monkeypatch.setattr(bus, "_send", flaky_send)
    batch = [Message(routing_key="standings.updated", message_id=f"e{n}", body=b"{}", headers={}) for n in range(1, 6)]
    await bus.publish(batch)
    assert sent == ["e1", "e2", "e3", "e4", "e5", "e3", "e4", "e5"]
    await probe.settle("awards")
    assert probe.ids("awards") == ["e1", "e2", "e4", "e5", "e3", "e4", "e5"]
