"""Operators offboard a partner: suspend and resume it, list and disable any partner's webhook
subscriptions (the operator API key; every step is audited with the operator and the reason)."""

from __future__ import annotations

from fastapi import APIRouter, Request

from gomoku_shared.api_docs import documented
from gomoku_shared.auth import Operator, Principal
from gomoku_shared.idempotency import IdemKey
from gomoku_shared.pagination import PageIn, paged, sort_by
from gomoku_shared.params import PathId

from ..service_layer.commands import DisableSubscription, ReenableSubscription, ResumePartner, SuspendPartner
from ..service_layer.offboarding import Offboarding
from . import offboarding_schemas as s
from .commanding import run
from .keyed import keyed
from .schemas import PartnerView

router = APIRouter(prefix="/v1/partners/{partner_id}", tags=["partners"])


def _service(request: Request) -> Offboarding:
    return request.app.state.offboarding


def _actor(principal: Principal) -> str:
    return f"{principal.role}:{principal.key_id}"


@router.post(
    "/suspend",
    summary="Suspend a partner: every service refuses its tokens at once, no token is issued, its webhooks stop",
    **documented(PartnerView, 200, 404, 409),
)
async def suspend(
    partner_id: PathId, body: s.ReasonIn, request: Request, principal: Operator, key: str | None = IdemKey
):
    command = SuspendPartner(_actor(principal), partner_id, body.reason)
    return await keyed(request, principal, key, body, lambda: run(request, command))


@router.post(
    "/resume",
    summary="Resume a suspended partner: it obtains new tokens (the ones issued before stay refused)",
    **documented(PartnerView, 200, 404, 409),
)
async def resume(
    partner_id: PathId, body: s.ReasonIn, request: Request, principal: Operator, key: str | None = IdemKey
):
    command = ResumePartner(_actor(principal), partner_id, body.reason)
    return await keyed(request, principal, key, body, lambda: run(request, command))


@router.get(
    "/subscriptions",
    summary="A partner's webhook subscriptions (active and disabled)",
    **documented(s.OperatorSubscriptionList, 200, 404),
)
async def subscriptions(partner_id: PathId, request: Request, _: Operator, page: PageIn):
    found = await _service(request).subscriptions(partner_id)
    return paged(found, "items", sort_by("created_at", "subscription_id"), page)


@router.post(
    "/subscriptions/{subscription_id}/disable",
    summary="Disable a partner's subscription (only an operator enables it again)",
    **documented(s.OperatorSubscriptionView, 200, 404, 409),
)
async def disable(
    partner_id: PathId,
    subscription_id: PathId,
    body: s.ReasonIn,
    request: Request,
    principal: Operator,
    key: str | None = IdemKey,
):
    command = DisableSubscription(_actor(principal), partner_id, subscription_id, body.reason)
    return await keyed(request, principal, key, body, lambda: run(request, command))


@router.post(
    "/subscriptions/{subscription_id}/enable",
    summary="Enable a partner's subscription again (its pending deliveries resume)",
    **documented(s.OperatorSubscriptionView, 200, 404),
)
async def enable(
    partner_id: PathId, subscription_id: PathId, request: Request, principal: Operator, key: str | None = IdemKey
):
    command = ReenableSubscription(_actor(principal), partner_id, subscription_id)
    return await keyed(request, principal, key, None, lambda: run(request, command))
