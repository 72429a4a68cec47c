"""In-process EventBus with RabbitMQ's delivery semantics (embedded mode and tests).

Mirrors what the RabbitMQ transport does with a quorum queue per subscription:
- topic routing (``*`` one word, ``#`` zero or more); a message with no matching
  queue is dropped, as RabbitMQ drops unroutable messages;
- one FIFO queue per queue name, consumed by ``prefetch`` workers per subscription
  (so ``prefetch=1`` keeps the queue's order, larger values run handlers concurrently);
- a handler that raises gets the message back at the head of its queue (a quorum
  queue redelivers returned messages first) with ``redeliveries`` incremented; after
  ``delivery_limit`` failed deliveries the message goes to the dead-letter list
  ``<queue>.dlq`` instead;
- each queue gets its own copy of the message (body as ``bytes``, own headers dict).

Unlike RabbitMQ nothing survives the process: messages still queued at ``close()`` are
lost. That is why services publish through the outbox, whose rows stay in the database.

``drain()`` waits for the queues somebody consumes. A queue that is only declared (every
runtime declares the queues of all services, gomoku_shared.topology) keeps its messages, as
a RabbitMQ queue without a consumer would, and does not hold ``drain()`` up; once a consumer
subscribes, its messages count again.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .bus import EventBus, Handler, Message
from .topic import topic_matches

if TYPE_CHECKING:
    from .outbox import OutboxRelay

log = logging.getLogger(__name__)


@dataclasses.dataclass
class _Queue:
    name: str
    delivery_limit: int
    patterns: set[str] = dataclasses.field(default_factory=set)
    ready: deque[Message] = dataclasses.field(default_factory=deque)
    dead: list[Message] = dataclasses.field(default_factory=list)
    #: subscriptions consuming the queue (0: declared only)
    consumers: int = 0
    #: messages enqueued and not yet acknowledged or dead-lettered
    unfinished: int = 0
    # woken when a message is added or the bus closes
    signal: asyncio.Condition = dataclasses.field(default_factory=asyncio.Condition)

    def routes(self, routing_key: str) -> bool:
        return any(topic_matches(p, routing_key) for p in self.patterns)


class InMemoryEventBus(EventBus):
    """EventBus for one process. See the module docstring for the semantics."""

    def __init__(self) -> None:
        self._queues: dict[str, _Queue] = {}
        self._workers: list[asyncio.Task[None]] = []
        self._started = False
        self._closed = False
        # set while no consumed queue holds an unfinished message
        self._broadcasts = 0
        self._idle = asyncio.Event()
        self._idle.set()

    # -- EventBus -------------------------------------------------------------
    async def start(self) -> None:
        if self._closed:
            raise RuntimeError("bus is closed")
        self._started = True

    async def close(self) -> None:
        """Stop the workers; handlers already running finish first."""
        if self._closed:
            return
        self._closed = True
        for queue in self._queues.values():
            async with queue.signal:
                queue.signal.notify_all()
        workers, self._workers = self._workers, []
        await asyncio.gather(*workers, return_exceptions=True)
        # what is still queued is gone with the process; nothing is left to drain
        for queue in self._queues.values():
            queue.unfinished = 0
        self._idle.set()

    async def stop_consuming(self) -> None:
        """In one process consuming and the bus end together: the same as ``close``."""
        await self.close()

    async def publish(self, messages: Sequence[Message]) -> None:
        await self.start()
        for message in messages:
            for queue in self._queues.values():
                if queue.routes(message.routing_key):
                    await self._enqueue(queue, _copy(message, redeliveries=0))

    async def _consume(
        self, queue: str, routing_keys: Sequence[str], handler: Handler, prefetch: int, delivery_limit: int
    ) -> None:
        """Create (or join, as a competing consumer) ``queue`` and start ``prefetch`` workers."""
        known = self._declare(queue, routing_keys, delivery_limit)
        known.consumers += 1
        self._refresh_idle()
        for _ in range(prefetch):
            self._workers.append(asyncio.create_task(self._work(known, handler), name=f"bus:{queue}"))

    async def subscribe_broadcast(self, routing_keys: Sequence[str], handler: Handler) -> None:
        """Every caller receives every matching message (a queue of its own)."""
        self._broadcasts += 1
        await self.subscribe(f"broadcast.{self._broadcasts}", routing_keys, handler, prefetch=1)

    async def ping(self) -> bool:
        return self._started and not self._closed

    # -- extensions -------------------------------------------------------------
    async def _declare_queue(self, queue: str, routing_keys: Sequence[str], delivery_limit: int) -> None:
        """Create ``queue`` and its bindings without consuming (messages accumulate)."""
        self._declare(queue, routing_keys, delivery_limit)

    def _declare(self, queue: str, routing_keys: Sequence[str], delivery_limit: int) -> _Queue:
        known = self._queues.get(queue)
        if known is None:
            known = self._queues[queue] = _Queue(queue, delivery_limit)
        elif known.delivery_limit != delivery_limit:
            # RabbitMQ refuses to redeclare a queue with other arguments
            raise ValueError(f"queue {queue!r} exists with delivery_limit={known.delivery_limit}")
        known.patterns.update(routing_keys)
        return known

    async def dead_letters(self, queue: str) -> list[Message]:
        """Messages dead-lettered from ``queue`` (the content of ``<queue>.dlq``), oldest first."""
        known = self._queues.get(queue)
        return list(known.dead) if known else []

    async def queue_depth(self, queue: str) -> tuple[int, int]:
        """(messages waiting in ``queue``, messages in its dead-letter queue)."""
        known = self._queues.get(queue)
        return (len(known.ready), len(known.dead)) if known else (0, 0)

    async def purge(self, queue: str) -> int:
        """Drop every ready message of ``queue``; how many."""
        q = self._queues.get(queue)
        if q is None:
            return 0
        dropped = len(q.ready)
        q.ready.clear()
        q.unfinished = max(0, q.unfinished - dropped)
        self._refresh_idle()
        return dropped

    async def replay_dead_letters(self, queue: str, message_ids: Sequence[str] | None = None) -> int:
        """Move dead letters of ``queue`` (those with ``message_ids``, or all) back to it."""
        known = self._queues.get(queue)
        if known is None:
            return 0
        chosen = [m for m in known.dead if message_ids is None or m.message_id in message_ids]
        known.dead = [m for m in known.dead if m not in chosen]
        for message in chosen:
            await self._enqueue(known, _copy(message, redeliveries=0))
        return len(chosen)

    def pending(self, queue: str) -> int:
        """Messages waiting in ``queue`` (not counting those being handled)."""
        known = self._queues.get(queue)
        return len(known.ready) if known else 0

    async def drain(self, timeout: float | None = None) -> None:
        """Return once every queue that has a consumer is empty and no handler runs.

        Queues nobody consumes are not waited for (their messages stay queued). Messages
        published by handlers are counted before their handler finishes, so a cascade of
        events is drained completely. Raises ``TimeoutError`` after ``timeout`` seconds.
        """
        async with asyncio.timeout(timeout):
            while not self._idle.is_set():
                await self._idle.wait()

    # -- internals ----------------------------------------------------------------
    async def _enqueue(self, queue: _Queue, message: Message, *, front: bool = False) -> None:
        if front:
            queue.ready.appendleft(message)
        else:
            queue.ready.append(message)
            queue.unfinished += 1
            self._refresh_idle()
        async with queue.signal:
            queue.signal.notify()

    def _finished(self, queue: _Queue) -> None:
        queue.unfinished -= 1
        self._refresh_idle()

    def _refresh_idle(self) -> None:
        if any(q.unfinished and q.consumers for q in self._queues.values()):
            self._idle.clear()
        else:
            self._idle.set()

    async def _work(self, queue: _Queue, handler: Handler) -> None:
        while True:
            async with queue.signal:
                await queue.signal.wait_for(lambda: self._closed or bool(queue.ready))
                if self._closed:
                    return
                message = queue.ready.popleft()
            try:
                await handler(message)
            except asyncio.CancelledError:
                raise
            except Exception:
                failed = message.redeliveries + 1
                if failed >= queue.delivery_limit:
                    log.error(
                        "dead-lettering %s %s from %s after %d failed deliveries",
                        message.routing_key,
                        message.message_id,
                        queue.name,
                        failed,
                        exc_info=True,
                    )
                    queue.dead.append(dataclasses.replace(message, redeliveries=0))
                    self._finished(queue)
                else:
                    log.warning(
                        "handler for %s failed on %s %s (delivery %d); redelivering",
                        queue.name,
                        message.routing_key,
                        message.message_id,
                        failed,
                        exc_info=True,
                    )
                    await self._enqueue(queue, dataclasses.replace(message, redeliveries=failed), front=True)
                    # let other tasks run between redeliveries of a failing message
                    await asyncio.sleep(0)
            else:
                self._finished(queue)


async def settle(bus: InMemoryEventBus, relays: Sequence[OutboxRelay], rounds: int = 1000) -> None:
    """Wait until no outbox row of ``relays`` is pending and no consumed queue holds a message
    or runs a handler: each round publishes what the outboxes hold and drains the bus, until
    a round finds nothing to publish after the drain."""
    for _ in range(rounds):
        published = 0
        for relay in relays:
            published += await relay.publish_pending()
        await bus.drain()
        if published == 0:
            again = 0
            for relay in relays:
                again += await relay.publish_pending()
            if again == 0:
                return
            await bus.drain()
    raise RuntimeError("the bus and the outboxes did not become quiet")


def _copy(message: Message, *, redeliveries: int) -> Message:
    return dataclasses.replace(
        message,
        body=bytes(message.body),
        headers=dict(message.headers),
        redeliveries=redeliveries,
    )
