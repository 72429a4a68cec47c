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

import aio_pika
import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncSession
from yarl import URL

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


class _CuttingRelay:
    """A TCP relay in front of the broker that can cut the connection under a request in flight,
    as a broker restarting does (it closed ours with INTERNAL_ERROR under a queue declaration):
    after ``cut_next()`` the broker's replies are held back, and the next bytes the client sends
    (the request) are passed on before both sides are cut."""

    def __init__(self, url: str) -> None:
        self._upstream = URL(url)
        self._cutting = False
        self._links: set[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = set()
        self.cuts = 0

    async def __aenter__(self) -> str:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        return str(self._upstream.with_host("127.0.0.1").with_port(port))

    async def __aexit__(self, *exc: object) -> None:
        self._server.close()
        for client, broker in list(self._links):
            client.transport.abort()
            broker.transport.abort()

    def cut_next(self) -> None:
        self._cutting = True

    async def _relay(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        broker_r, broker_w = await asyncio.open_connection(self._upstream.host, self._upstream.port)
        link = (client_w, broker_w)
        self._links.add(link)

        async def pump(src: asyncio.StreamReader, dst: asyncio.StreamWriter, from_client: bool) -> None:
            while data := await src.read(65536):
                if self._cutting and not from_client:
                    continue  # the reply to the request in flight never arrives
                dst.write(data)
                await dst.drain()
                if self._cutting and from_client:
                    self._cutting = False
                    self.cuts += 1
                    client_w.transport.abort()
                    broker_w.transport.abort()
                    return

        try:
            await asyncio.gather(pump(client_r, broker_w, True), pump(broker_r, client_w, False))
        except (ConnectionError, OSError):
            pass
        finally:
            self._links.discard(link)
            client_w.transport.abort()
            broker_w.transport.abort()


async def test_a_declaration_the_broker_interrupts_is_made_again_once_reconnected(
    amqp_url: str, bus_namespace: str, monkeypatch, caplog
) -> None:
    """A broker restarting closed the connection under one of a service's start-up declarations
    (INTERNAL_ERROR), and the service exited. Each start-up declaration (the exchanges, a queue,
    a consumer's queue) is now made again once the robust connection is back, as an unreachable
    broker is waited for: everything exists afterwards, events reach the consumer and the queue,
    and the log says what was declared again."""
    relay = _CuttingRelay(amqp_url)
    async with relay as relayed_url:
        bus = RabbitEventBus(relayed_url, namespace=bus_namespace, reconnect_interval=0.2, connect_retry_for=30)
        interrupted: list[str] = []

        def interrupting(name: str, real):
            async def step(*args, **kwargs):
                if name not in interrupted:
                    interrupted.append(name)
                    relay.cut_next()
                return await real(*args, **kwargs)

            return step

        real_declare = bus._declare

        async def declare(channel, queue: str, routing_keys, delivery_limit, **kwargs):
            return await interrupting(queue, real_declare)(channel, queue, routing_keys, delivery_limit, **kwargs)

        monkeypatch.setattr(bus, "_exchanges", interrupting("exchanges", bus._exchanges))
        monkeypatch.setattr(bus, "_declare", declare)
        received: list[str] = []

        async def handler(m: Message) -> None:
            received.append(m.message_id)

        try:
            with caplog.at_level(logging.WARNING, logger="gomoku_shared.messaging.rabbit_start"):
                async with asyncio.timeout(60):
                    await bus.start()
                    await bus.declare("awards", ["standings.updated"])
                    await bus.subscribe("pairing", ["round.started"], handler)
            assert interrupted == ["exchanges", "awards", "pairing"]
            assert relay.cuts == 3
            ours = [r.getMessage() for r in caplog.records if r.name == "gomoku_shared.messaging.rabbit_start"]
            again = [m for m in ours if "declaring it again" in m]
            for what in ("the exchanges", "queue awards", "queue pairing"):
                assert any(what in m for m in again), (what, again)
            await bus.publish(
                [
                    Message(routing_key="round.started", message_id="m1", body=b"{}", headers={}),
                    Message(routing_key="standings.updated", message_id="m2", body=b"{}", headers={}),
                ]
            )

            async def consumed() -> bool:
                return received == ["m1"]

            await eventually(consumed, "the consumer subscribed after the interruption to receive its event")

            async def waiting() -> bool:
                return await bus.ready_count("awards") == 1

            await eventually(waiting, "the queue declared after the interruption to hold its event")
        finally:
            await bus.delete_declared()
            await bus.close()


async def test_a_refused_declaration_is_not_retried(amqp_url: str, bus_namespace: str) -> None:
    """The broker refusing a declaration (a queue declared again with another delivery limit) is
    an error of the caller, not a lost connection: raised at once, not retried."""
    bus = RabbitEventBus(amqp_url, namespace=bus_namespace, connect_retry_for=60)
    try:
        await bus.declare("awards", ["standings.updated"], delivery_limit=5)
        async with asyncio.timeout(20):  # far below connect_retry_for: no retry loop
            with pytest.raises(aio_pika.exceptions.ChannelPreconditionFailed):
                await bus.declare("awards", ["standings.updated"], delivery_limit=3)
    finally:
        await bus.delete_declared()
        await bus.close()
