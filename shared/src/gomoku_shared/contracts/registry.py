"""Routing key <-> payload model; wire encoding; JSON Schema export."""

from __future__ import annotations

import json
from typing import Any

from ..messaging.bus import Message
from .envelope import Envelope, Payload
from .events import ALL_PAYLOADS

PAYLOADS: dict[str, type[Payload]] = {p.TYPE: p for p in ALL_PAYLOADS}


class UnknownEventType(ValueError):
    pass


def encode(envelope: Envelope[Any]) -> Message:
    """Envelope -> bus message (message_id = event_id, routing key = type)."""
    return Message(
        routing_key=envelope.type,
        message_id=str(envelope.event_id),
        body=envelope.model_dump_json().encode(),
        headers={
            "correlation_id": envelope.correlation_id,
            "causation_id": envelope.causation_id or "",
            "version": str(envelope.version),
        },
    )


def decode(message: Message | bytes) -> Envelope[Any]:
    """Bus message -> typed envelope. Unknown fields are ignored (tolerant reader)."""
    body = message.body if isinstance(message, Message) else message
    raw = json.loads(body)
    model = PAYLOADS.get(raw.get("type", ""))
    if model is None:
        raise UnknownEventType(f"unknown event type {raw.get('type')!r}")
    return Envelope[model].model_validate(raw)  # type: ignore[valid-type]


def json_schemas() -> dict[str, dict[str, Any]]:
    """JSON Schema of every contract (envelope with its typed payload), by type."""
    return {t: Envelope[m].model_json_schema() for t, m in sorted(PAYLOADS.items())}  # type: ignore[valid-type]
