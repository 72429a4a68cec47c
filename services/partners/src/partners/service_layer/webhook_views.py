"""What the API shows of webhook subscriptions and deliveries (a secret only when it is made)."""

from __future__ import annotations

from typing import Any

from ..adapters.webhook_repository import Delivery
from ..domain.webhooks import Subscription


def _time(value) -> str | None:
    return value.isoformat() if value is not None else None


def subscription(sub: Subscription) -> dict[str, Any]:
    return {
        "subscription_id": sub.subscription_id,
        "url": sub.url,
        "event_types": list(sub.event_types),
        "description": sub.description,
        "status": sub.status,
        "created_at": _time(sub.created_at),
        "previous_secret_valid_until": _time(sub.previous_valid_until),
        "failure_streak": sub.failure_streak,
        "disabled_at": _time(sub.disabled_at),
        "notice": sub.notice,
    }


def delivery(item: Delivery) -> dict[str, Any]:
    return {
        "delivery_id": item.delivery_id,
        "subscription_id": item.subscription_id,
        "event_type": item.event_type,
        "event_id": item.event_id,
        "status": item.status,
        "attempts": item.attempts,
        "next_attempt_at": _time(item.next_attempt_at),
        "last_attempt_at": _time(item.last_attempt_at),
        "last_status_code": item.last_status_code,
        "last_response_ms": item.last_response_ms,
        "last_error": item.last_error,
        "created_at": _time(item.created_at),
        "delivered_at": _time(item.delivered_at),
    }
