"""The envelope every event travels in, and its wire form."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field

PayloadT = TypeVar("PayloadT", bound=BaseModel)


class Payload(BaseModel):
    """Base of every event payload. Readers are tolerant: unknown fields are ignored,
    so a producer may add optional fields without breaking older consumers. Validators are
    built at first use, not at import (a service start-up needs none of them)."""

    model_config = ConfigDict(extra="ignore", frozen=True, defer_build=True)

    #: routing key / event type, e.g. "round.paired"
    TYPE: ClassVar[str] = ""
    #: contract version; a breaking change is a new version
    VERSION: ClassVar[int] = 1


class Envelope(BaseModel, Generic[PayloadT]):
    model_config = ConfigDict(extra="ignore", frozen=True, defer_build=True)

    event_id: uuid.UUID = Field(default_factory=uuid.uuid4)
    type: str
    version: int = 1
    occurred_at: datetime
    #: the competition run this belongs to (the event code / section), for tracing
    correlation_id: str
    #: the event_id of the event that caused this one, if any
    causation_id: str | None = None
    payload: PayloadT


def utcnow() -> datetime:
    return datetime.now(UTC)


def envelope_for(
    payload: Payload,
    *,
    correlation_id: str,
    causation_id: str | None = None,
    occurred_at: datetime | None = None,
    event_id: uuid.UUID | None = None,
) -> Envelope[Any]:
    """Wrap a payload; ``event_id`` may be given to make the id deterministic."""
    # parametrized by the payload's own class at run time, so pydantic serializes all its fields
    return Envelope[type(payload)](  # type: ignore[misc,operator]
        event_id=event_id or uuid.uuid4(),
        type=payload.TYPE,
        version=payload.VERSION,
        occurred_at=occurred_at or utcnow(),
        correlation_id=correlation_id,
        causation_id=causation_id,
        payload=payload,
    )
