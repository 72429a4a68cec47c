"""Webhook subscriptions of a partner, its delivery log and redeliveries.

Every route takes a partner's access token with the ``webhooks:manage`` scope and acts on
that partner's own subscriptions only (another's answer 404, as if they did not exist).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request, Response

from gomoku_shared.api_docs import documented
from gomoku_shared.auth import Principal, require
from gomoku_shared.idempotency import IdemKey
from gomoku_shared.pagination import PageIn, paged, sort_by
from gomoku_shared.params import PathId

from ..service_layer.commands import EnableSubscription, Redeliver, RotateWebhookSecret, Subscribe, Unsubscribe
from ..service_layer.webhooks import WebhookService
from . import webhook_schemas as s
from .commanding import run
from .keyed import keyed

router = APIRouter(prefix="/v1/webhooks", tags=["webhooks"])

PartnerToken = Annotated[Principal, Depends(require("partner", scope="webhooks:manage"))]


def _service(request: Request) -> WebhookService:
    return request.app.state.webhooks


def _partner(principal: Principal) -> str:
    assert principal.partner_id is not None  # the partner role always carries its id
    return principal.partner_id


@router.post(
    "/subscriptions",
    status_code=201,
    summary="Subscribe a URL to event types (the signing secret is shown once)",
    **documented(s.SubscriptionWithSecret, 201),
)
async def subscribe(body: s.SubscriptionIn, request: Request, principal: PartnerToken, key: str | None = IdemKey):
    command = Subscribe(_partner(principal), body.url, list(body.event_types), body.description)
    return await keyed(request, principal, key, body, lambda: run(request, command), status=201)


@router.get("/subscriptions", summary="The partner's subscriptions", **documented(s.SubscriptionList))
async def subscriptions(request: Request, principal: PartnerToken, page: PageIn):
    found = await _service(request).subscriptions(_partner(principal))
    return paged(found, "items", sort_by("created_at", "subscription_id"), page)


@router.get(
    "/subscriptions/{subscription_id}",
    summary="A subscription, with the notice when it was disabled",
    **documented(s.SubscriptionView),
)
async def subscription(subscription_id: PathId, request: Request, principal: PartnerToken):
    return await _service(request).subscription(_partner(principal), subscription_id)


@router.delete("/subscriptions/{subscription_id}", status_code=204, summary="Delete a subscription")
async def unsubscribe(subscription_id: PathId, request: Request, principal: PartnerToken) -> Response:
    await run(request, Unsubscribe(_partner(principal), subscription_id))
    return Response(status_code=204)


@router.post(
    "/subscriptions/{subscription_id}/rotate-secret",
    summary="A new secret; the old one signs too during the grace period",
    **documented(s.SubscriptionWithSecret),
)
async def rotate_secret(
    subscription_id: PathId,
    body: s.SecretRotateIn,
    request: Request,
    principal: PartnerToken,
    key: str | None = IdemKey,
):
    command = RotateWebhookSecret(_partner(principal), subscription_id, body.grace_s)
    return await keyed(request, principal, key, body, lambda: run(request, command))


@router.post(
    "/subscriptions/{subscription_id}/enable",
    summary="Enable a disabled subscription again (its pending deliveries resume)",
    **documented(s.SubscriptionView),
)
async def enable(subscription_id: PathId, request: Request, principal: PartnerToken, key: str | None = IdemKey):
    command = EnableSubscription(_partner(principal), subscription_id)
    return await keyed(request, principal, key, None, lambda: run(request, command))


@router.get("/deliveries", summary="The delivery log, newest first (cursor pagination)", **documented(s.DeliveryPage))
async def deliveries(
    request: Request,
    principal: PartnerToken,
    subscription_id: Annotated[str | None, Query(max_length=40)] = None,
    status: Annotated[s.DeliveryStatus | None, Query()] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    cursor: Annotated[str | None, Query(max_length=300)] = None,
):
    return await _service(request).deliveries(
        _partner(principal), subscription_id=subscription_id, status=status, cursor=cursor, limit=limit
    )


@router.post(
    "/deliveries/{delivery_id}/redeliver",
    summary="Send a delivery again now, with the same webhook-id",
    **documented(s.DeliveryView),
)
async def redeliver(delivery_id: PathId, request: Request, principal: PartnerToken, key: str | None = IdemKey):
    command = Redeliver(_partner(principal), delivery_id)
    return await keyed(request, principal, key, None, lambda: run(request, command))
