"""In-memory bus specifics: topic matching table, ordering, drain, copies.

The behaviour shared with RabbitMQ is in test_bus_contract.py.
"""

from __future__ import annotations

import asyncio

import pytest

from gomoku_shared.messaging import EventBus, InMemoryEventBus, Message, topic_matches

TOPIC_TABLE = [
    # pattern, routing key, matches (RabbitMQ topic-exchange semantics)
    ("game.finished", "game.finished", True),
    ("game.finished", "game.started", False),
    ("game.*", "game.finished", True),
    ("game.*", "game", False),
    ("game.*", "game.finished.late", False),
    ("*.finished", "game.finished", True),
    ("*.*", "game", False),
    ("#", "game", True),
    ("#", "game.finished.late", True),
    ("game.#", "game", True),
    ("game.#", "game.finished", True),
    ("game.#", "game.finished.late", True),
    ("game.#", "games.finished", False),
    ("#.finished", "finished", True),
    ("#.finished", "game.finished", True),
    ("#.finished", "game.finished.x", False),
    ("a.#.z", "a.z", True),
    ("a.#.z", "a.b.c.z", True),
    ("a.#.z", "a.b.c", False),
    ("a.*.#", "a", False),
    ("a.*.#", "a.b", True),
    ("#.#", "a.b", True),
    ("*.#.*", "a", False),
    ("*.#.*", "a.b", True),
]


@pytest.mark.parametrize(("pattern", "key", "expected"), TOPIC_TABLE)
def test_topic_matching_table(pattern: str, key: str, expected: bool) -> None:
    assert topic_matches(pattern, key) is expected


def msg(key: str, mid: str, body: bytes = b"{}") -> Message:
    return Message(routing_key=key, message_id=mid, body=body)


async def test_memory_bus_is_an_event_bus() -> None:
    bus = InMemoryEventBus()
    assert isinstance(bus, EventBus)
    assert not await bus.ping()
    await bus.start()
    assert await bus.ping()
    await bus.close()
    assert not await bus.ping()
    with pytest.raises(RuntimeError):
        await bus.publish([msg("a", "1")])


async def test_prefetch_one_keeps_queue_order_across_redeliveries() -> None:
    bus = InMemoryEventBus()
    seen: list[str] = []
    failed_once: set[str] = set()

    async def handler(m: Message) -> None:
        seen.append(m.message_id)
        if m.message_id == "3" and m.message_id not in failed_once:
            failed_once.add(m.message_id)
            raise RuntimeError("transient")

    await bus.subscribe("q", ["k"], handler, prefetch=1)
    await bus.publish([msg("k", str(i)) for i in range(6)])
    await bus.drain(timeout=5)
    # the failed message comes back first, as a quorum queue returns it to the head
    assert seen == ["0", "1", "2", "3", "3", "4", "5"]
    await bus.close()


async def test_prefetch_bounds_concurrency() -> None:
    bus = InMemoryEventBus()
    running = 0
    peak = 0
    gate = asyncio.Event()

    async def handler(m: Message) -> None:
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        await gate.wait()
        running -= 1

    await bus.subscribe("q", ["k"], handler, prefetch=3)
    await bus.publish([msg("k", str(i)) for i in range(10)])
    for _ in range(20):
        await asyncio.sleep(0)
    assert peak == 3
    gate.set()
    await bus.drain(timeout=5)
    assert running == 0
    await bus.close()


async def test_drain_waits_for_cascades_published_by_handlers() -> None:
    bus = InMemoryEventBus()
    finished: list[str] = []

    async def first(m: Message) -> None:
        await asyncio.sleep(0.01)
        await bus.publish([msg("second", m.message_id + "-2")])

    async def second(m: Message) -> None:
        await asyncio.sleep(0.01)
        finished.append(m.message_id)

    await bus.subscribe("one", ["first"], first)
    await bus.subscribe("two", ["second"], second)
    await bus.publish([msg("first", str(i)) for i in range(5)])
    await bus.drain(timeout=5)
    assert sorted(finished) == [f"{i}-2" for i in range(5)]
    await bus.close()


async def test_drain_does_not_wait_for_queues_nobody_consumes() -> None:
    """Every runtime declares all services' queues; with one service running, the others'
    queues fill up and must not hold drain() up (they keep their messages, as RabbitMQ would)."""
    bus = InMemoryEventBus()
    handled: list[str] = []

    async def consume(m: Message) -> None:
        handled.append(m.message_id)

    await bus.declare("unconsumed", ["game.*"])
    await bus.subscribe("consumed", ["game.*"], consume)
    await bus.publish([msg("game.finished", "g1"), msg("game.started", "g2")])
    await bus.drain(timeout=5)
    assert handled == ["g1", "g2"]
    assert bus.pending("unconsumed") == 2
    await bus.close()


async def test_drain_waits_for_a_declared_queue_once_it_has_a_consumer() -> None:
    bus = InMemoryEventBus()
    handled: list[str] = []
    gate = asyncio.Event()

    async def consume(m: Message) -> None:
        await gate.wait()
        handled.append(m.message_id)

    await bus.declare("later", ["round.*"])
    await bus.publish([msg("round.paired", "r1")])
    await bus.drain(timeout=5)  # nobody consumes "later" yet: nothing to wait for
    await bus.subscribe("later", ["round.*"], consume)
    drained = asyncio.create_task(bus.drain(timeout=5))
    await asyncio.sleep(0)
    assert not drained.done()  # the queued message now has a consumer whose handler waits
    gate.set()
    await drained
    assert handled == ["r1"] and bus.pending("later") == 0
    await bus.close()


async def test_each_queue_gets_its_own_copy() -> None:
    bus = InMemoryEventBus()
    got: dict[str, Message] = {}

    async def keep(name: str):
        async def handler(m: Message) -> None:
            got[name] = m
            m.headers["touched-by"] = name

        return handler

    await bus.subscribe("a", ["k"], await keep("a"))
    await bus.subscribe("b", ["k"], await keep("b"))
    original = Message("k", "1", bytearray(b"payload"), {"h": "v"})  # type: ignore[arg-type]
    await bus.publish([original])
    await bus.drain(timeout=5)
    assert type(got["a"].body) is bytes and got["a"].body == b"payload"
    assert got["a"].headers == {"h": "v", "touched-by": "a"}
    assert got["b"].headers == {"h": "v", "touched-by": "b"}
    assert original.headers == {"h": "v"}
    await bus.close()


async def test_competing_consumers_share_one_queue() -> None:
    bus = InMemoryEventBus()
    by: dict[str, list[str]] = {"r1": [], "r2": []}

    def replica(name: str):
        async def handler(m: Message) -> None:
            by[name].append(m.message_id)
            await asyncio.sleep(0.001)

        return handler

    await bus.subscribe("svc", ["k"], replica("r1"), prefetch=1)
    await bus.subscribe("svc", ["k"], replica("r2"), prefetch=1)
    await bus.publish([msg("k", str(i)) for i in range(20)])
    await bus.drain(timeout=5)
    assert sorted(by["r1"] + by["r2"], key=int) == [str(i) for i in range(20)]
    assert by["r1"] and by["r2"]
    await bus.close()


async def test_redeclare_with_other_delivery_limit_is_refused() -> None:
    bus = InMemoryEventBus()

    async def noop(m: Message) -> None:
        return None

    await bus.subscribe("q", ["k"], noop, delivery_limit=3)
    with pytest.raises(ValueError):
        await bus.subscribe("q", ["k"], noop, delivery_limit=4)
    await bus.close()


async def test_close_lets_running_handler_finish() -> None:
    bus = InMemoryEventBus()
    done: list[str] = []
    started = asyncio.Event()

    async def handler(m: Message) -> None:
        started.set()
        await asyncio.sleep(0.02)
        done.append(m.message_id)

    await bus.subscribe("q", ["k"], handler, prefetch=1)
    await bus.publish([msg("k", "1")])
    await asyncio.wait_for(started.wait(), 5)
    await bus.close()
    assert done == ["1"]
