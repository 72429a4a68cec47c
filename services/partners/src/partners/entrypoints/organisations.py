"""Organisations and their staff (issue 29): the operator creates organisations; the operator or
an organisation's administrators (staff accounts holding ``admin`` there) invite people, set
their roles, disable and enable their accounts and send password-reset links. The invitee reads
and accepts a link without a credential (the link's token is the credential, used once)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Request

from gomoku_shared.api_docs import documented
from gomoku_shared.auth import Operator, Principal, RateLimited, require
from gomoku_shared.errors import ServiceError
from gomoku_shared.idempotency import IdemKey
from gomoku_shared.pagination import PageIn, paged, sort_by
from gomoku_shared.throttle import FailureThrottle, throttled_details

from ..service_layer.commands import (
    AcceptInvitation,
    CreateOrganisation,
    InviteStaff,
    ResetPassword,
    SetDisabled,
    SetRoles,
)
from ..service_layer.organisations import Organisations
from . import staff_schemas as s
from .commanding import run
from .keyed import keyed

router = APIRouter(prefix="/v1", tags=["organisations and staff"])

#: the operator's keys, or a staff account (its organisations are checked by the use case)
People = Annotated[Principal, Depends(require("arbiter", "operator", people=True))]
OrgId = Annotated[str, Path(min_length=1, max_length=64, description="the organisation's id")]
AccountId = Annotated[str, Path(min_length=1, max_length=40)]
LinkToken = Annotated[str, Path(min_length=1, max_length=100, description="the token of the link (shown once)")]
#: refusals of a link that count as a failed try (guessing tokens, or an account's password)
_LINK_FAILURES = {"invitation_not_found", "sign_in_failed"}


def _orgs(request: Request) -> Organisations:
    return request.app.state.organisations


def throttle_check(request: Request, credential: str | None) -> tuple[str, ...]:
    """The throttle's keys of this try (address, and the credential tried), or the 429
    ``too_many_failures`` while they must wait."""
    throttle: FailureThrottle = request.app.state.staff_throttle
    address = request.app.state.keyring.proxies.client(request.scope) or "unknown"
    keys = throttle.keys(address, credential)
    wait = throttle.wait_s(keys)
    if wait:
        raise RateLimited(
            "too_many_failures",
            f"too many failed tries from this address or for this sign-in name; retry in {wait} s",
            {
                **throttled_details(wait, throttle.policy),
                "words": {
                    "zh": f"失败次数过多，请在 {wait} 秒后重试。",
                    "en": f"Too many failed tries: try again in {wait} s.",
                },
            },
            headers={"Retry-After": str(wait)},
        )
    return keys


@router.post(
    "/organisations",
    status_code=201,
    summary="Create an organisation (the platform operator)",
    **documented(s.OrganisationView, 201),
)
async def create_organisation(body: s.OrganisationIn, request: Request, principal: Operator, key: str | None = IdemKey):
    return await keyed(
        request,
        principal,
        key,
        body,
        lambda: run(request, CreateOrganisation(principal, body.id, body.name, body.name_zh)),
        status=201,
    )


@router.get(
    "/organisations",
    summary="Organisations: every one for the operator, a person's own for a staff account",
    **documented(s.OrganisationList),
)
async def list_organisations(request: Request, principal: People, page: PageIn):
    return paged(await _orgs(request).listed(principal), "items", sort_by("id"), page)


@router.post(
    "/organisations/{org}/invitations",
    status_code=201,
    summary="Invite a person to the organisation's staff (a one-time link, shown once)",
    **documented(s.InvitationIssued, 201),
)
async def invite(org: OrgId, body: s.InvitationIn, request: Request, principal: People, key: str | None = IdemKey):
    """The operator or an ``admin`` of the organisation. An invitation for a login that has an
    account adds the roles to it when accepted (with that account's password)."""
    command = InviteStaff(principal, org, body.login, body.name, list(body.roles), body.event_roles())
    return await keyed(request, principal, key, body, lambda: run(request, command), status=201)


@router.get(
    "/invitations/{token}",
    summary="Who a link invites, by which organisation, for which roles (no credential)",
    **documented(s.InvitationView, 200, 409, 410),
)
async def read_invitation(token: LinkToken, request: Request):
    return await _orgs(request).invitation(token)


@router.post(
    "/invitations/{token}/accept",
    status_code=201,
    summary="Accept an invitation (creates the account) or a password-reset link (sets the password)",
    **documented(s.Accepted, 201, 401, 409, 410, 429),
)
async def accept_invitation(token: LinkToken, body: s.AcceptIn, request: Request):
    """No credential: the link's token is one. Throttled per client address (failed tries)."""
    keys = throttle_check(request, None)
    try:
        return await run(request, AcceptInvitation(token, body.password))
    except ServiceError as exc:
        if exc.code in _LINK_FAILURES:
            request.app.state.staff_throttle.failed(keys)
        raise


@router.get(
    "/organisations/{org}/staff",
    summary="The organisation's staff accounts with their roles (its administrators or the operator)",
    **documented(s.StaffList),
)
async def list_staff(org: OrgId, request: Request, principal: People, page: PageIn):
    return paged(await _orgs(request).staff(principal, org), "items", sort_by("name", "account_id"), page)


@router.put(
    "/organisations/{org}/staff/{account_id}/roles",
    summary="Set a person's roles in the organisation and its events (replaces them)",
    **documented(s.StaffMember),
)
async def set_roles(org: OrgId, account_id: AccountId, body: s.RolesIn, request: Request, principal: People):
    """Removing a role revokes the person's tokens at once (their next refresh has the new roles)."""
    return await run(request, SetRoles(principal, org, account_id, list(body.roles), body.event_roles()))


@router.post(
    "/organisations/{org}/staff/{account_id}/disable",
    summary="Disable an account: its sessions end and every service refuses its tokens",
    **documented(s.AccountView),
)
async def disable(org: OrgId, account_id: AccountId, request: Request, principal: People, key: str | None = IdemKey):
    command = SetDisabled(principal, org, account_id, True)
    return await keyed(request, principal, key, None, lambda: run(request, command))


@router.post(
    "/organisations/{org}/staff/{account_id}/enable",
    summary="Enable a disabled account again",
    **documented(s.AccountView),
)
async def enable(org: OrgId, account_id: AccountId, request: Request, principal: People, key: str | None = IdemKey):
    command = SetDisabled(principal, org, account_id, False)
    return await keyed(request, principal, key, None, lambda: run(request, command))


@router.post(
    "/organisations/{org}/staff/{account_id}/password-reset",
    status_code=201,
    summary="A one-time link that sets a new password (and ends the person's sessions and tokens)",
    **documented(s.InvitationIssued, 201),
)
async def password_reset(
    org: OrgId, account_id: AccountId, request: Request, principal: People, key: str | None = IdemKey
):
    command = ResetPassword(principal, org, account_id)
    return await keyed(request, principal, key, None, lambda: run(request, command), status=201)
