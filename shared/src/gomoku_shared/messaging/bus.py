"""The event-bus port: one interface, two transports (RabbitMQ and in-memory).

Delivery contract, identical for both transports:
- ``publish`` returns only when every message is safely stored by the broker
  (publisher confirms on RabbitMQ); messages are persistent.
- Each ``subscribe(queue, routing_keys, handler)`` owns one durable queue bound to
  the routing keys (topic patterns, ``*`` and ``#``). Every message published with a
  matching key reaches every queue bound to it exactly once (at-least-once delivery).
- The handler's successful return acknowledges the message. If it raises, the
  message is redelivered; after ``delivery_limit`` failed deliveries it moves to the
  queue's dead-letter queue (``<queue>.dlq``).
- Handlers must be idempotent (see ``inbox.py``): redelivery happens.
- A message no queue is bound to is dropped; ``declare`` creates queues ahead of
  their consumers so start order loses nothing.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from .topic import validate_pattern


@dataclass(frozen=True)
class Message:
    """One event on the wire. ``routing_key`` is the event type, ``message_id`` its event_id."""

    routing_key: str
    message_id: str
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)
    #: how many times this message was delivered before (0 on the first delivery)
    redeliveries: int = 0


Handler = Callable[[Message], Awaitable[None]]

DEFAULT_DELIVERY_LIMIT = 5


def dlq_name(queue: str) -> str:
    """Name of ``queue``'s dead-letter queue."""
    return f"{queue}.dlq"


class EventBus(ABC):
    """The port both transports extend. ``subscribe`` and ``declare`` check their arguments here,
    once for both; a transport supplies ``_consume`` and ``_declare_queue``."""

    @abstractmethod
    async def start(self) -> None:
        """Connect and declare the exchange(s). Idempotent."""

    @abstractmethod
    async def close(self) -> None:
        """Stop consumers (letting in-flight handlers finish) and disconnect."""

    @abstractmethod
    async def stop_consuming(self) -> None:
        """Stop taking deliveries and let in-flight handlers finish, still able to publish."""

    @abstractmethod
    async def publish(self, messages: Sequence[Message]) -> None:
        """Publish and wait for the broker's confirmation of every message."""

    async def subscribe(
        self,
        queue: str,
        routing_keys: Sequence[str],
        handler: Handler,
        *,
        prefetch: int = 20,
        delivery_limit: int = DEFAULT_DELIVERY_LIMIT,
    ) -> None:
        """Declare ``queue`` (and ``queue.dlq``), bind it and start consuming, at most
        ``prefetch`` messages at a time."""
        await self.start()
        if prefetch < 1:
            raise ValueError("prefetch must be >= 1")
        _check_queue(routing_keys, delivery_limit)
        await self._consume(queue, routing_keys, handler, prefetch, delivery_limit)

    @abstractmethod
    async def _consume(
        self, queue: str, routing_keys: Sequence[str], handler: Handler, prefetch: int, delivery_limit: int
    ) -> None:
        """The transport's part of ``subscribe`` (the bus started, the arguments checked)."""

    @abstractmethod
    async def ping(self) -> bool:
        """True when the transport is usable (for /readyz)."""

    async def declare(
        self,
        queue: str,
        routing_keys: Sequence[str],
        *,
        delivery_limit: int = DEFAULT_DELIVERY_LIMIT,
    ) -> None:
        """Declare ``queue`` (and ``queue.dlq``) with its bindings, without consuming.

        Messages nobody's queue is bound to are dropped, so every process declares the
        whole topology at start-up: events published before their consumer first starts
        then wait in its queue. Same arguments as ``subscribe`` (a queue redeclared with
        another ``delivery_limit`` is refused).
        """
        await self.start()
        _check_queue(routing_keys, delivery_limit)
        await self._declare_queue(queue, routing_keys, delivery_limit)

    @abstractmethod
    async def _declare_queue(self, queue: str, routing_keys: Sequence[str], delivery_limit: int) -> None:
        """The transport's part of ``declare`` (the bus started, the arguments checked)."""

    @abstractmethod
    async def dead_letters(self, queue: str) -> list[Message]:
        """The messages in ``queue``'s dead-letter queue, oldest first, left in place."""

    @abstractmethod
    async def queue_depth(self, queue: str) -> tuple[int, int]:
        """(messages ready in ``queue``, messages in its dead-letter queue): consumer lag and
        dead letters, for metrics and the operators' tool."""

    async def ready_count(self, queue: str) -> int:
        """Messages ready in ``queue`` (not yet delivered to a consumer); 0 for a queue not declared."""
        return (await self.queue_depth(queue))[0]

    @abstractmethod
    async def purge(self, queue: str) -> int:
        """Drop every ready message of ``queue`` (before an operator's full replay); how many."""

    @abstractmethod
    async def replay_dead_letters(self, queue: str, message_ids: Sequence[str] | None = None) -> int:
        """Move the dead letters of ``queue`` with ``message_ids`` (all when None) back to
        ``queue`` itself (only its consumer sees them again); returns how many moved."""


def _check_queue(routing_keys: Sequence[str], delivery_limit: int) -> None:
    if delivery_limit < 1:
        raise ValueError("delivery_limit must be >= 1")
    for pattern in routing_keys:
        validate_pattern(pattern)
