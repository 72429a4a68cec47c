"""The webhooks a partner receives, in the OpenAPI 3.1 ``webhooks`` section of the partners
service's document: one operation per event type a subscription can name, with the body it is
sent (``type``, ``timestamp``, ``data``: the partner's view of the event, the model that also
builds the delivered body, ``domain.webhook_payloads.VIEWS``) and the Standard Webhooks
signature headers."""

# no ``from __future__ import annotations``: FastAPI reads each receiver's annotations, built here
# per event type, when the function is defined

from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Header
from pydantic import Field, create_model

from ..domain.webhook_payloads import LEFT_OUT, VIEWS
from ..domain.webhooks import EVENT_TYPES, PRIVATE_KEYS

WebhookId = Annotated[
    str,
    Header(
        alias="webhook-id",
        description="The delivery's id (`msg_…`), the same on every retry and redelivery: deduplicate on it",
    ),
]
WebhookTimestamp = Annotated[
    str,
    Header(
        alias="webhook-timestamp",
        description="Unix seconds of the attempt (wall clock); refuse one more than five minutes off yours",
    ),
]
WebhookSignature = Annotated[
    str,
    Header(
        alias="webhook-signature",
        description="`v1,<base64 HMAC-SHA256>` over `{webhook-id}.{webhook-timestamp}.{body}` with the "
        "subscription's secret (`whsec_…`, base64 after the prefix); space-separated, one per secret in use "
        "while a rotation's grace period lasts. Any one verifying is enough (the `standardwebhooks` libraries).",
    ),
]
ANSWERS: dict[int | str, dict[str, Any]] = {
    204: {"description": "Received (any 2xx): the delivery is marked delivered"},
    "default": {
        "description": "Anything else, or no answer within the timeout: retried with exponential backoff "
        "(at least 24 h), then failed; a subscription failing on and on is disabled with a notice"
    },
}


def _receiver(event_type: str) -> Any:
    view = VIEWS[event_type]
    kind: Any = Literal[event_type]
    body_model = create_model(
        view.__name__.removesuffix("Data") + "Webhook",
        type=(kind, Field(description="the event type")),
        timestamp=(datetime, Field(description="when the event occurred")),
        data=(view, Field(description=f"what you may see of the {event_type} event")),
    )

    async def receiver(
        body: body_model,  # type: ignore[valid-type]
        webhook_id: WebhookId,
        webhook_timestamp: WebhookTimestamp,
        webhook_signature: WebhookSignature,
    ) -> None:
        """Documentation only: a partner's endpoint receives this; the platform serves nothing here."""

    receiver.__name__ = receiver.__qualname__ = "receive_" + event_type.replace(".", "_")
    return receiver


def add_webhooks(app: FastAPI) -> None:
    """One ``webhooks`` entry per event type a subscription can name."""
    private = ", ".join(f"`{key}`" for key in sorted(PRIVATE_KEYS))
    for event_type in EVENT_TYPES:
        left = LEFT_OUT.get(event_type, {})
        left_out = "".join(f" No `{name}`: {why}." for name, why in left.items())
        app.webhooks.post(
            event_type,
            summary=f"`{event_type}`, POSTed to each subscribed URL",
            description=f"The body is signed as sent (JSON); `data` holds the fields documented here and "
            f"leaves out personal data keys ({private}) wherever they sit.{left_out}",
            status_code=204,
            responses=ANSWERS,
            tags=["webhooks"],
            operation_id="receive_" + event_type.replace(".", "_"),
        )(_receiver(event_type))
