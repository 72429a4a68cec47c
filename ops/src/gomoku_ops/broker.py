"""Dead letters on RabbitMQ: what waits where, what failed, and putting it back."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from gomoku_shared.messaging.bus import Message
from gomoku_shared.messaging.rabbit import RabbitEventBus
from gomoku_shared.topology import CONSUMES

#: envelope fields shown for a dead letter; the payload itself only on request (it may name people)
SUMMARY_PAYLOAD_FIELDS = ("event_code", "section_id", "round", "game_id", "revision")


@dataclass(frozen=True)
class QueueDepth:
    service: str
    ready: int
    dead: int


@dataclass(frozen=True)
class DeadLetter:
    event_id: str
    event_type: str
    occurred_at: str
    correlation_id: str
    where: dict[str, Any]
    payload: dict[str, Any]


def describe(message: Message) -> DeadLetter:
    """A dead letter as an operator reads it (a body that is not an envelope is shown as such)."""
    try:
        envelope = json.loads(message.body)
    except ValueError:
        envelope = {}
    if not isinstance(envelope, dict):
        envelope = {}
    raw_payload = envelope.get("payload")
    payload: dict[str, Any] = raw_payload if isinstance(raw_payload, dict) else {}
    return DeadLetter(
        event_id=message.message_id,
        event_type=str(envelope.get("type") or message.routing_key),
        occurred_at=str(envelope.get("occurred_at", "")),
        correlation_id=str(envelope.get("correlation_id", message.headers.get("correlation_id", ""))),
        where={k: payload[k] for k in SUMMARY_PAYLOAD_FIELDS if k in payload},
        payload=payload,
    )


def consuming_services(service: str | None = None) -> list[str]:
    """The services that have a queue (all, or the one asked for — refused when unknown)."""
    if service is None:
        return list(CONSUMES)
    if service not in CONSUMES:
        raise ValueError(f"{service!r} has no queue; services with one: {', '.join(CONSUMES)}")
    return [service]


class Broker:
    """The platform's queues in one namespace of one RabbitMQ."""

    def __init__(self, amqp_url: str, namespace: str) -> None:
        self.bus = RabbitEventBus(amqp_url, namespace=namespace, connect_retry_for=5.0)

    async def __aenter__(self) -> Broker:
        await self.bus.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.bus.close()

    async def depths(self, service: str | None = None) -> list[QueueDepth]:
        found = []
        for name in consuming_services(service):
            ready, dead = await self.bus.queue_depth(name)
            found.append(QueueDepth(name, ready, dead))
        return found

    async def dead_letters(self, service: str) -> list[DeadLetter]:
        consuming_services(service)
        return [describe(m) for m in await self.bus.dead_letters(service)]

    async def purge(self, service: str) -> int:
        consuming_services(service)
        return await self.bus.purge(service)

    async def replay(self, service: str, event_ids: list[str] | None) -> int:
        consuming_services(service)
        return await self.bus.replay_dead_letters(service, event_ids)
