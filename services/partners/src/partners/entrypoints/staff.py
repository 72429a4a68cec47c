"""Staff sign-in (issue 29): a person's login and password (and TOTP code) give an access token
every service verifies, and a session whose refresh token renews it; sign-out, sign-out
everywhere (every service refuses the person's tokens at once), their own account and roles,
and the set-up of one-time codes (TOTP).

Failed sign-ins are throttled per client address and per login (``gomoku_shared.throttle``, the
figures of every service's API keys: CREDENTIAL_FREE_FAILURES, CREDENTIAL_LOCKOUT_AFTER,
CREDENTIAL_LOCKOUT_S): 429 ``too_many_failures`` with Retry-After.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from gomoku_shared.api_docs import documented
from gomoku_shared.auth import Principal, require
from gomoku_shared.errors import ServiceError

from ..service_layer.commands import ConfirmTotp, RefreshSession, SignIn, SignOut, SignOutEverywhere, StartTotp
from ..service_layer.sign_in import StaffSessions
from . import staff_schemas as s
from .commanding import run
from .organisations import throttle_check

router = APIRouter(prefix="/v1/staff", tags=["staff sign-in"])

#: a signed-in person (an API key is refused by the use case with 403 staff_account_required)
Person = Annotated[Principal, Depends(require("arbiter", "operator", people=True))]
#: token answers are never cached (RFC 6749 §5.1)
NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}


def _sessions(request: Request) -> StaffSessions:
    return request.app.state.staff_sessions


@router.post(
    "/sign-in",
    summary="Sign in with a login and a password (and the TOTP code once enabled)",
    **documented(s.SignedIn, 200, 401, 429),
)
async def sign_in(body: s.SignInIn, request: Request):
    """401 ``sign_in_failed`` for a wrong login or password or a disabled account alike;
    401 ``totp_required`` when the account uses one-time codes and none was sent."""
    keys = throttle_check(request, "login:" + body.login.strip().lower())
    try:
        answer = await run(request, SignIn(body.login, body.password, body.totp))
    except ServiceError as exc:
        if exc.code == "sign_in_failed":
            request.app.state.staff_throttle.failed(keys)
        raise
    return JSONResponse(answer, headers=NO_STORE)


@router.post(
    "/refresh",
    summary="A new access token of a session, with the person's roles as they are now",
    **documented(s.Refreshed, 200, 401),
)
async def refresh(body: s.SessionIn, request: Request):
    return JSONResponse(await run(request, RefreshSession(body.session_id, body.refresh_token)), headers=NO_STORE)


@router.post("/sign-out", summary="End a session", **documented(s.SignedOut, 200, 401))
async def sign_out(body: s.SessionIn, request: Request):
    return await run(request, SignOut(body.session_id, body.refresh_token))


@router.post(
    "/sign-out-everywhere",
    summary="End every session of the person and revoke their tokens in every service at once",
    **documented(s.SignedOutEverywhere),
)
async def sign_out_everywhere(request: Request, principal: Person):
    return await run(request, SignOutEverywhere(principal))


@router.get("/me", summary="The signed-in person: account, organisations and roles", **documented(s.Me))
async def me(request: Request, principal: Person):
    return await _sessions(request).me(principal)


@router.post(
    "/totp",
    summary="Start using one-time codes: a TOTP secret for an authenticator app",
    **documented(s.TotpStarted),
)
async def totp_start(request: Request, principal: Person):
    return JSONResponse(await run(request, StartTotp(principal)), headers=NO_STORE)


@router.post(
    "/totp/confirm",
    summary="Confirm a code of the authenticator: sign-in asks for codes from now on",
    **documented(s.AccountView),
)
async def totp_confirm(body: s.TotpConfirmIn, request: Request, principal: Person):
    return await run(request, ConfirmTotp(principal, body.code))
