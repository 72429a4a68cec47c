"""What the API shows of webhook subscriptions and deliveries (a secret only when it is made)."""

from __future__ import annotations

from typing import Any

from ..adapters.webhook_repository import SENDING, Delivery
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
        "status": "pending" if item.status == SENDING else item.status,
        "attempts": item.attempts,
        "next_attempt_at": _time(item.next_attempt_at),
        "last_attempt_at": _time(item.last_attempt_at),
        "last_status_code": item.last_status_code,
        "last_response_ms": item.last_response_ms,
        "last_error": _category(item.last_error),
        "created_at": _time(item.created_at),
        "delivered_at": _time(item.delivered_at),
    }


#: what ``last_error`` may say (adapters/webhook_sender.py): categories, never the receiver's words
CATEGORIES = frozenset({"timeout", "refused", "tls", "dns", "connection", "target_not_public"})


def _category(error: str | None) -> str | None:
    """The category of an attempt's failure; a row logged before categories existed kept the
    exception's text ("ConnectError: ...") or "HTTP 503": shown as its category too."""
    if error is None or error in CATEGORIES or error.startswith("http_"):
        return error
    if error.startswith("HTTP ") and error[5:6].isdigit():
        return f"http_{error[5]}xx"
    return "timeout" if "Timeout" in error.split(":", 1)[0] else "connection"
