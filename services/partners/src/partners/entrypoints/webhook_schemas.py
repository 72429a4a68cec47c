"""Request bodies and documented answers of the webhooks API."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from gomoku_shared.api_docs import View
from gomoku_shared.pagination import Paged
from gomoku_shared.text import Line

from ..domain.webhooks import EVENT_TYPES, EventType
from .schemas import Strict

DeliveryStatus = Literal["pending", "delivered", "failed"]


class SubscriptionIn(Strict):
    url: str = Field(
        min_length=8,
        max_length=2000,
        description="https URL whose host resolves to public addresses only (docs/api.md, Webhooks)",
    )
    event_types: list[EventType] = Field(min_length=1, max_length=len(EVENT_TYPES))
    description: Line = Field(default="", max_length=500)


class SecretRotateIn(Strict):
    grace_s: int | None = Field(
        default=None,
        ge=0,
        le=30 * 86400,
        description="how long the old secret still signs too (default WEBHOOK_SECRET_GRACE_S)",
    )


class SubscriptionView(View):
    subscription_id: str
    url: str
    event_types: list[str]
    description: str
    status: Literal["active", "disabled"]
    created_at: str
    previous_secret_valid_until: str | None
    failure_streak: int = Field(description="failed attempts in a row (reset by a success)")
    disabled_at: str | None
    notice: str | None = Field(description="why the subscription was disabled")


class SubscriptionWithSecret(SubscriptionView):
    secret: str = Field(description="whsec_…: verify the signatures with it; shown on creation and rotation only")


class SubscriptionList(Paged):
    items: list[SubscriptionView]


class DeliveryView(View):
    delivery_id: str = Field(description="the webhook-id header of every attempt")
    subscription_id: str
    event_type: str
    event_id: str
    status: DeliveryStatus
    attempts: int
    next_attempt_at: str | None
    last_attempt_at: str | None
    last_status_code: int | None
    last_response_ms: int | None
    last_error: str | None
    created_at: str
    delivered_at: str | None


class DeliveryPage(View):
    items: list[DeliveryView]
    next_cursor: str | None
