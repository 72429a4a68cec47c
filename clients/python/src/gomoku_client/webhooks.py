"""Receiving the platform's webhooks: Standard Webhooks signatures, checked with the
``standardwebhooks`` library, and deduplication on ``webhook-id``.

The platform signs every delivery with the subscription's secret (``whsec_…``; during a secret
rotation with the old one too) over ``{webhook-id}.{webhook-timestamp}.{body}``; a delivery
older or newer than five minutes is refused, so a replayed capture does not verify. A delivery
may arrive more than once (a retry whose first answer was lost): ``Deduplicator`` remembers the
ids already handled.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import ValidationError
from standardwebhooks import Webhook, WebhookVerificationError

from .errors import GomokuError
from .models import WebhookEvent


class InvalidWebhook(GomokuError):
    """Not from the platform, altered, too old, or not a webhook body: answer it 400."""


class WebhookVerifier:
    """Verifies deliveries of one subscription. Give every secret still in use (the current one
    and, while a rotation's grace period lasts, the previous one)."""

    def __init__(self, secrets: str | Iterable[str]) -> None:
        listed = [secrets] if isinstance(secrets, str) else list(secrets)
        if not listed:
            raise ValueError("give at least one subscription secret")
        self._hooks = [Webhook(secret) for secret in listed]

    def verify(self, body: bytes | str, headers: Mapping[str, str]) -> WebhookEvent:
        """The delivery's event, once its signature and timestamp verify."""
        lowered = {name.lower(): value for name, value in headers.items()}
        payload: Any = None
        last: Exception | None = None
        for hook in self._hooks:
            try:
                payload = hook.verify(body, lowered)
                break
            except WebhookVerificationError as exc:
                last = exc
        else:
            raise InvalidWebhook(f"the webhook does not verify: {last}") from last
        if not isinstance(payload, dict):
            raise InvalidWebhook("the webhook body is not a JSON object")
        try:
            return WebhookEvent.model_validate({**payload, "id": lowered["webhook-id"]})
        except ValidationError as exc:
            raise InvalidWebhook(f"the webhook body is not an event: {exc}") from exc


class Deduplicator:
    """Remembers the last ``capacity`` webhook ids: ``first(event)`` is True once per id."""

    def __init__(self, capacity: int = 100_000) -> None:
        self.capacity = capacity
        self._seen: OrderedDict[str, None] = OrderedDict()

    def first(self, event: WebhookEvent) -> bool:
        if event.id in self._seen:
            self._seen.move_to_end(event.id)
            return False
        self._seen[event.id] = None
        if len(self._seen) > self.capacity:
            self._seen.popitem(last=False)
        return True
