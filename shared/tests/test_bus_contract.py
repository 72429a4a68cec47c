"""The EventBus contract, run unchanged on the in-memory bus and on real RabbitMQ.

Proves the bus and its delivery guarantees (docs/architecture.md, "Unit of work, outbox, inbox,
relay"); no rule id (docs/rules.md) covers them.

The memory variant pairs with SQLite (embedded mode), the RabbitMQ variant with
PostgreSQL (distributed mode), so the outbox/inbox cases also run on both databases.

"Exactly once" is checked without sleeping: every queue in these tests is consumed with
prefetch 1 and is also bound to a private marker key; once the marker published after the
test's events has been handled, everything published before it has been handled too
(FIFO, and a rejected message goes back to the head of a quorum queue).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncSession

from gomoku_shared.messaging import (
    EventBus,
    InMemoryEventBus,
    Message,
    OutboxRelay,
    add_to_outbox,
    inbox_handler,
)
from gomoku_shared.testing.bus import WAIT, BusProbe, eventually


@dataclass
class Harness(BusProbe):
    kind: str = "memory"


@pytest.fixture(params=["memory", pytest.param("rabbit", marks=pytest.mark.infra)])
async def harness(request: pytest.FixtureRequest) -> AsyncIterator[Harness]:
    if request.param == "memory":
        bus: EventBus = InMemoryEventBus()
        await bus.start()
        yield Harness(bus, kind="memory")
        await bus.close()
        return
    from gomoku_shared.messaging.rabbit import RabbitEventBus

    rbus = RabbitEventBus(
        request.getfixturevalue("amqp_url"),
        namespace=request.getfixturevalue("bus_namespace"),
        publish_retry_for=WAIT,
    )
    await rbus.start()
    yield Harness(rbus, kind="rabbit")
    await rbus.delete_declared()
    await rbus.close()


@pytest.fixture
async def db_url(harness: Harness, request: pytest.FixtureRequest, tmp_path) -> str:
    """SQLite with the in-memory bus (embedded mode), PostgreSQL with RabbitMQ.

    Overrides the package's ``db_url``, so conftest's ``schema`` fixture follows the bus.
    """
    if harness.kind == "memory":
        return f"sqlite+aiosqlite:///{tmp_path / 'service.db'}"
    return await request.getfixturevalue("fresh_database")()


def ev(key: str, n: int | str, body: bytes = b"{}") -> Message:
    return Message(routing_key=key, message_id=f"evt-{n}", body=body, headers={"correlation_id": "c1"})


async def test_event_reaches_every_bound_queue_once_and_unroutable_is_dropped(
    harness: Harness,
) -> None:
    await harness.subscribe("pairing", ["section.closed", "game.finished"])
    await harness.subscribe("awards", ["section.#"])
    await harness.subscribe("gameplay", ["round.paired"])
    await harness.bus.publish(
        [
            ev("section.closed", 1, b'{"section": "A"}'),
            ev("game.finished", 2),
            ev("round.paired", 3),
            ev("nobody.listens", 4),  # unroutable: dropped without error, like RabbitMQ
        ]
    )
    await harness.settle("pairing", "awards", "gameplay")
    assert harness.ids("pairing") == ["evt-1", "evt-2"]
    assert harness.ids("awards") == ["evt-1"]
    assert harness.ids("gameplay") == ["evt-3"]
    first = harness.received["pairing"][0]
    assert (first.routing_key, first.body, first.headers, first.redeliveries) == (
        "section.closed",
        b'{"section": "A"}',
        {"correlation_id": "c1"},
        0,
    )


@pytest.mark.parametrize("limit", [1, 3])
async def test_failing_handler_is_redelivered_then_dead_lettered(harness: Harness, limit: int) -> None:
    async def handler(m: Message) -> None:
        if m.message_id == "evt-poison":
            raise RuntimeError("cannot handle this one")

    await harness.subscribe("pairing", ["game.finished"], handler, delivery_limit=limit)
    await harness.bus.publish([ev("game.finished", "poison", b'{"bad": true}'), ev("game.finished", 2)])
    await harness.settle("pairing")
    poison = [m.redeliveries for m in harness.received["pairing"] if m.message_id == "evt-poison"]
    assert poison == list(range(limit))  # `limit` failed deliveries, then the DLQ
    assert harness.ids("pairing")[-1] == "evt-2"  # the queue moved on
    dead: list[Message] = []

    async def dead_arrived() -> bool:
        dead[:] = await harness.bus.dead_letters("pairing")  # type: ignore[attr-defined]
        return bool(dead)

    await eventually(dead_arrived, "the dead letter")
    assert [(m.message_id, m.routing_key, m.body) for m in dead] == [("evt-poison", "game.finished", b'{"bad": true}')]
    # inspecting leaves the dead letters in place
    assert len(await harness.bus.dead_letters("pairing")) == 1  # type: ignore[attr-defined]


async def test_transient_failure_is_redelivered_until_it_succeeds(harness: Harness) -> None:
    failures = Counter[str]()
    done: list[str] = []

    async def handler(m: Message) -> None:
        if failures[m.message_id] < 2:
            failures[m.message_id] += 1
            raise ConnectionError("database briefly unavailable")
        done.append(m.message_id)

    await harness.subscribe("awards", ["section.completed"], handler, delivery_limit=3)
    await harness.bus.publish([ev("section.completed", 1), ev("section.completed", 2)])
    await harness.settle("awards")
    assert done == ["evt-1", "evt-2"]  # order kept across redeliveries (prefetch 1)
    assert [m.redeliveries for m in harness.received["awards"]] == [0, 1, 2, 0, 1, 2]
    assert await harness.bus.dead_letters("awards") == []  # type: ignore[attr-defined]


TOPIC_CASES = [
    ("game.started", True),
    ("game.finished", True),
    ("game.finished.late", False),
    ("games.finished", False),
    ("section.completed", True),
    ("a.b.completed", True),
    ("completed", True),
    ("section.completed.x", False),
    ("round.paired", False),
]


async def test_topic_wildcards_star_is_one_word_hash_is_zero_or_more(harness: Harness) -> None:
    await harness.subscribe("watcher", ["game.*", "#.completed"])
    await harness.bus.publish([ev(key, i) for i, (key, _) in enumerate(TOPIC_CASES)])
    await harness.settle("watcher")
    got = {m.routing_key for m in harness.received["watcher"]}
    assert got == {key for key, matches in TOPIC_CASES if matches}
    assert len(harness.received["watcher"]) == len(got)


async def test_same_event_id_delivered_twice_has_one_effect(harness: Harness, schema) -> None:
    async def effect(session: AsyncSession, m: Message) -> None:
        await session.execute(sa.insert(schema.state).values(key=m.message_id, value=1))

    handler = inbox_handler(schema.sessionmaker, "pairing", effect, table=schema.inbox)
    await harness.subscribe("pairing", ["game.finished"], handler)
    # a publisher retry after a lost confirm sends the same event again
    await harness.bus.publish([ev("game.finished", 1), ev("game.finished", 2)])
    await harness.bus.publish([ev("game.finished", 1)])
    await harness.settle("pairing")
    assert harness.ids("pairing") == ["evt-1", "evt-2", "evt-1"]
    async with schema.sessionmaker() as s:
        assert sorted((await s.scalars(sa.select(schema.state.c.key))).all()) == ["evt-1", "evt-2"]


async def test_outbox_relay_to_inbox_preserves_order_and_dedupes_republished_rows(harness: Harness, schema) -> None:
    relay = OutboxRelay(schema.sessionmaker, harness.bus, schema.outbox, batch=4)
    applied: list[str] = []

    async def effect(session: AsyncSession, m: Message) -> None:
        applied.append(m.message_id)
        await session.execute(sa.insert(schema.state).values(key="seen-" + m.message_id, value=1))

    await harness.subscribe(
        "awards",
        ["standings.updated"],
        inbox_handler(schema.sessionmaker, "awards", effect, table=schema.inbox),
    )
    # a producer's transactions: state change + events, committed together
    for n in range(3):
        async with schema.sessionmaker() as s, s.begin():
            await s.execute(sa.insert(schema.state).values(key=f"round-{n}", value=n))
            await add_to_outbox(s, [ev("standings.updated", f"{n}-{k}") for k in range(3)], table=schema.outbox)
    while await relay.publish_pending():
        pass
    # a relay that crashed after publishing but before marking would publish rows again
    async with schema.sessionmaker() as s, s.begin():
        await s.execute(sa.update(schema.outbox).values(published_at=None))
    while await relay.publish_pending():
        pass
    await harness.settle("awards")
    expected = [f"evt-{n}-{k}" for n in range(3) for k in range(3)]
    assert harness.ids("awards") == expected + expected
    assert applied == expected


async def test_a_large_batch_arrives_whole_and_in_the_order_published(harness: Harness) -> None:
    """One publish of many messages (a round start's events, sent with their confirms awaited
    together on RabbitMQ) reaches the queue whole, each once, in the order given."""
    await harness.subscribe("gameplay", ["game.*"])
    batch = [ev("game.created" if n % 2 else "game.started", n) for n in range(600)]
    await harness.bus.publish(batch)
    await harness.settle("gameplay")
    assert harness.ids("gameplay") == [m.message_id for m in batch]


async def test_redeclaring_a_queue_with_another_delivery_limit_is_refused(harness: Harness) -> None:
    async def noop(m: Message) -> None:
        return None

    await harness.bus.subscribe("pairing", ["game.finished"], noop, delivery_limit=3)
    with pytest.raises(Exception) as refused:
        await harness.bus.subscribe("pairing", ["game.finished"], noop, delivery_limit=4)
    assert "delivery" in str(refused.value).lower() or "precondition" in str(refused.value).lower()
    # the bus stays usable
    await harness.subscribe("awards", ["game.finished"])
    await harness.bus.publish([ev("game.finished", 1)])
    await harness.settle("awards")
    assert harness.ids("awards") == ["evt-1"]
    assert await harness.bus.ping()


async def test_ping_reflects_the_bus_lifecycle(harness: Harness, request: pytest.FixtureRequest) -> None:
    if harness.kind == "memory":
        bus: EventBus = InMemoryEventBus()
    else:
        from gomoku_shared.messaging.rabbit import RabbitEventBus

        bus = RabbitEventBus(
            request.getfixturevalue("amqp_url"), namespace=request.getfixturevalue("bus_namespace") + "-ping"
        )
    assert not await bus.ping()
    await bus.start()
    await bus.start()  # idempotent
    assert await bus.ping()
    if harness.kind == "rabbit":
        await bus.delete_declared()  # type: ignore[attr-defined]
    await bus.close()
    assert not await bus.ping()
    with pytest.raises(RuntimeError):
        await bus.publish([ev("game.finished", 1)])


async def test_declared_queue_keeps_events_published_before_its_consumer_starts(
    harness: Harness,
) -> None:
    # every process declares the whole topology at start-up; pairing starts later
    await harness.bus.declare("pairing", ["section.closed", "marker.pairing"])
    await harness.bus.publish([ev("section.closed", 1), ev("section.closed", 2)])
    await harness.subscribe("pairing", ["section.closed"])
    await harness.settle("pairing")
    assert harness.ids("pairing") == ["evt-1", "evt-2"]
