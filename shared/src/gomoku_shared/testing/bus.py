"""Helpers for tests that run against either bus (in-memory or RabbitMQ).

``BusProbe`` subscribes queues with prefetch 1 plus a private marker binding, so a test
can wait until everything published so far has been handled (``settle``) instead of
sleeping: the marker is behind every earlier message in the FIFO queue, and a message
whose handler failed goes back to the head of the queue.
"""

from __future__ import annotations

import asyncio
import uuid
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from ..messaging.bus import DEFAULT_DELIVERY_LIMIT, EventBus, Message

#: default bound for waits; generous for a loaded CI machine, never reached when green
WAIT = 20.0


async def eventually(predicate: Callable[[], bool | Awaitable[bool]], what: str, timeout: float = WAIT) -> None:
    """Poll ``predicate`` (sync or async) until true; AssertionError after ``timeout`` s."""
    try:
        async with asyncio.timeout(timeout):
            while True:
                result = predicate()
                if not isinstance(result, bool):
                    result = await result
                if result:
                    return
                await asyncio.sleep(0.01)
    except TimeoutError:
        raise AssertionError(f"timed out after {timeout}s waiting for {what}") from None


@dataclass
class BusProbe:
    """Records deliveries per queue and knows when a queue has caught up."""

    bus: EventBus
    received: dict[str, list[Message]] = field(default_factory=lambda: defaultdict(list))
    markers: set[str] = field(default_factory=set)

    async def subscribe(
        self,
        queue: str,
        keys: Sequence[str],
        handler: Callable[[Message], Awaitable[None]] | None = None,
        *,
        delivery_limit: int = DEFAULT_DELIVERY_LIMIT,
    ) -> None:
        """Consume ``queue`` with prefetch 1, recording each delivery before ``handler`` runs."""

        async def wrapped(message: Message) -> None:
            if message.routing_key == f"marker.{queue}":
                self.markers.add(message.message_id)
                return
            self.received[queue].append(message)
            if handler is not None:
                await handler(message)

        await self.bus.subscribe(queue, [*keys, f"marker.{queue}"], wrapped, prefetch=1, delivery_limit=delivery_limit)

    async def settle(self, *queues: str, timeout: float = WAIT) -> None:
        """Return once every message published so far to ``queues`` has been handled."""
        ids = {q: f"marker-{uuid.uuid4().hex}" for q in queues}
        await self.bus.publish([Message(f"marker.{q}", mid, b"") for q, mid in ids.items()])
        await eventually(lambda: set(ids.values()) <= self.markers, f"markers of {queues}", timeout)

    def ids(self, queue: str) -> list[str]:
        return [m.message_id for m in self.received[queue]]
