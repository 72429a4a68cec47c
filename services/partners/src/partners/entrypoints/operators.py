"""Operators manage partners and their credentials (the operator API key)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request

from gomoku_shared.api_docs import documented
from gomoku_shared.auth import Operator, Principal
from gomoku_shared.idempotency import IdemKey
from gomoku_shared.pagination import PageIn, paged, sort_by
from gomoku_shared.params import PathId

from ..domain.model import RateLimit
from ..service_layer.accounts import PartnerService
from ..service_layer.commands import (
    CreatePartner,
    IssueCredential,
    RevokeCredential,
    RotateCredential,
    RotateSigningKey,
    UpdatePartner,
)
from . import schemas as s
from .commanding import run
from .keyed import keyed

router = APIRouter(prefix="/v1", tags=["partners"])


def _service(request: Request) -> PartnerService:
    return request.app.state.partners


def _actor(principal: Principal) -> str:
    return f"{principal.role}:{principal.key_id}"


def _rate(body: s.RateLimitIn | None) -> RateLimit | None:
    return RateLimit(body.quota, body.window_s) if body else None


@router.post("/partners", status_code=201, summary="Create a partner account", **documented(s.PartnerView, 201))
async def create_partner(body: s.PartnerIn, request: Request, principal: Operator, key: str | None = IdemKey):
    return await keyed(
        request,
        principal,
        key,
        body,
        lambda: run(
            request,
            CreatePartner(
                _actor(principal), body.partner_id, body.name, body.kind, list(body.scopes), _rate(body.rate_limit)
            ),
        ),
        status=201,
    )


@router.get("/partners", summary="Every partner account", **documented(s.PartnerList))
async def list_partners(request: Request, _: Operator, page: PageIn):
    return paged(await _service(request).partners(), "items", sort_by("partner_id"), page)


@router.get(
    "/partners/{partner_id}", summary="A partner with its credentials (never a secret)", **documented(s.PartnerDetail)
)
async def get_partner(partner_id: PathId, request: Request, _: Operator):
    return await _service(request).partner(partner_id)


@router.patch(
    "/partners/{partner_id}", summary="Change a partner's name, scopes or rate limit", **documented(s.PartnerView)
)
async def change_partner(partner_id: PathId, body: s.PartnerChange, request: Request, principal: Operator):
    """A change applies to the partner's next access tokens (at most ACCESS_TOKEN_TTL_S later)."""
    scopes: list[str] | None = list(body.scopes) if body.scopes is not None else None
    return await run(request, UpdatePartner(_actor(principal), partner_id, body.name, scopes, _rate(body.rate_limit)))


@router.post(
    "/partners/{partner_id}/credentials",
    status_code=201,
    summary="Issue client credentials (the secret is shown once)",
    **documented(s.IssuedCredential, 201),
)
async def issue_credential(
    partner_id: PathId, body: s.CredentialIn, request: Request, principal: Operator, key: str | None = IdemKey
):
    command = IssueCredential(_actor(principal), partner_id, body.label)
    return await keyed(request, principal, key, body, lambda: run(request, command), status=201)


@router.post(
    "/credentials/{client_id}/rotate",
    summary="A new secret; the old one keeps working for the grace period",
    **documented(s.IssuedCredential),
)
async def rotate_credential(
    client_id: PathId, body: s.RotateIn, request: Request, principal: Operator, key: str | None = IdemKey
):
    command = RotateCredential(_actor(principal), client_id, body.grace_s)
    return await keyed(request, principal, key, body, lambda: run(request, command))


@router.post(
    "/credentials/{client_id}/revoke",
    summary="Revoke: no new token, and every service refuses the client's tokens at once",
    **documented(s.CredentialView),
)
async def revoke_credential(
    client_id: PathId, body: s.RevokeIn, request: Request, principal: Operator, key: str | None = IdemKey
):
    command = RevokeCredential(_actor(principal), client_id, body.reason)
    return await keyed(request, principal, key, body, lambda: run(request, command))


@router.get("/audit", summary="The audit log, newest first (cursor pagination)", **documented(s.AuditPage))
async def audit(
    request: Request,
    _: Operator,
    partner_id: Annotated[str | None, Query(max_length=100)] = None,
    client_id: Annotated[str | None, Query(max_length=100)] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    cursor: Annotated[str | None, Query(max_length=20, pattern=r"^[0-9]{1,18}$")] = None,
):
    return await _service(request).audit_page(
        partner_id=partner_id, client_id=client_id, cursor=int(cursor) if cursor else None, limit=limit
    )


@router.post(
    "/signing-keys/rotate",
    summary="A new token-signing key; the old one stays in the JWKS until its tokens expire",
    **documented(s.SigningKeyRotated),
)
async def rotate_signing_key(request: Request, principal: Operator, key: str | None = IdemKey):
    return await keyed(request, principal, key, None, lambda: run(request, RotateSigningKey(_actor(principal))))
