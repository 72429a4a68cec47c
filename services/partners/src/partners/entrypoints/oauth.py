"""OAuth 2.0 client-credentials grant (RFC 6749 §4.4) and the public keys of the tokens.

``POST /oauth/token`` takes ``application/x-www-form-urlencoded``; the client authenticates
with HTTP Basic (``client_secret_basic``) or with ``client_id`` and ``client_secret`` in the
body (``client_secret_post``), never both. Refusals are RFC 6749 §5.2 JSON
(``{"error": "invalid_client", "error_description": ...}``), which a partner's OAuth library
understands; 401 for a client that did not authenticate, 400 for the rest.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any
from urllib.parse import parse_qsl, unquote_plus

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from gomoku_shared.api_docs import documented
from gomoku_shared.scopes import parse_scope

from ..service_layer.accounts import OAuthError
from ..service_layer.commands import IssueToken
from ..service_layer.token_throttle import TokenThrottle
from . import schemas as s
from .commanding import run
from .service_credential import service_or_operator

router = APIRouter(tags=["oauth"])

#: RFC 6749 §5.1: token answers are never cached
NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}
FORM = "application/x-www-form-urlencoded"
MAX_FORM = 8192
FIELD_MAX = 500

TOKEN_FORM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["grant_type"],
    "properties": {
        "grant_type": {"type": "string", "enum": ["client_credentials"]},
        "scope": {"type": "string", "description": "space-separated scopes (default: all the partner's)"},
        "client_id": {"type": "string", "description": "client_secret_post (or send HTTP Basic)"},
        "client_secret": {"type": "string", "description": "client_secret_post (or send HTTP Basic)"},
    },
}

OAUTH_ERROR = {"$ref": "#/components/schemas/OAuthErrorView"}


def _oauth_error(exc: OAuthError, basic: bool) -> JSONResponse:
    headers = dict(NO_STORE)
    if exc.retry_after_s:
        headers["Retry-After"] = str(exc.retry_after_s)
    if exc.status == 401 and basic:
        headers["WWW-Authenticate"] = 'Basic realm="gomoku-partners"'
    body: dict[str, Any] = {"error": exc.error, "error_description": exc.description}
    return JSONResponse(body, status_code=exc.status, headers=headers)


def _basic(header: str) -> tuple[str, str] | None:
    """RFC 6749 §2.3.1: user and password of HTTP Basic are form-urlencoded first."""
    if header[:6].lower() != "basic ":
        return None
    try:
        decoded = base64.b64decode(header[6:].strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        raise OAuthError("invalid_client", "the Basic credentials cannot be read", 401) from None
    user, sep, password = decoded.partition(":")
    if not sep:
        raise OAuthError("invalid_client", "the Basic credentials have no password", 401)
    return unquote_plus(user), unquote_plus(password)


def _form(raw: bytes) -> dict[str, str]:
    if len(raw) > MAX_FORM:
        raise OAuthError("invalid_request", f"the form exceeds {MAX_FORM} bytes")
    try:
        pairs = parse_qsl(raw.decode("utf-8"), keep_blank_values=True, strict_parsing=bool(raw))
    except (UnicodeDecodeError, ValueError):
        raise OAuthError("invalid_request", "the body is not a valid form") from None
    form: dict[str, str] = {}
    for name, value in pairs:
        if name in form:  # RFC 6749 §3.2: parameters must not be repeated
            raise OAuthError("invalid_request", f"the parameter {name} is repeated")
        if len(value) > FIELD_MAX:
            raise OAuthError("invalid_request", f"the parameter {name} is too long")
        form[name] = value
    return form


@router.post(
    "/oauth/token",
    summary="Client-credentials grant: an access token for a partner's client",
    response_model=None,
    responses={
        200: {"model": s.TokenAnswer, "description": "an access token"},
        400: {"model": s.OAuthErrorView, "description": "invalid_request, unsupported_grant_type or invalid_scope"},
        401: {"model": s.OAuthErrorView, "description": "invalid_client: unknown client, wrong or revoked secret"},
        429: {
            "model": s.OAuthErrorView,
            "description": "too_many_attempts: too many failed authentications of this client id or from this "
            "address; Retry-After says when to try again (back-off, then a lockout)",
        },
    },
    openapi_extra={
        "requestBody": {"required": True, "content": {FORM: {"schema": TOKEN_FORM_SCHEMA}}},
        "x-error-shapes": {"400": OAUTH_ERROR, "401": OAUTH_ERROR, "429": OAUTH_ERROR},
    },
)
async def token(request: Request) -> JSONResponse:
    throttle: TokenThrottle = request.app.state.token_throttle
    address = client_address(request)
    client_id: str | None = None
    basic = False
    try:
        content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if content_type != FORM:
            raise OAuthError("invalid_request", f"send the parameters as {FORM}")
        form = _form(await request.body())
        from_header = _basic(request.headers.get("authorization", ""))
        basic = from_header is not None
        in_body = "client_secret" in form
        if from_header and in_body:
            raise OAuthError("invalid_request", "authenticate the client one way: HTTP Basic or the form, not both")
        if from_header:
            client_id, secret = from_header
        elif in_body:
            client_id, secret = form.get("client_id", ""), form["client_secret"]
        else:
            raise OAuthError("invalid_client", "authenticate the client (HTTP Basic or client_id + client_secret)", 401)
        if wait := throttle.retry_after_s(client_id, address):
            raise OAuthError("too_many_attempts", f"too many failed attempts; retry in {wait} s", 429, wait)
        if form.get("client_id") and form["client_id"] != client_id:
            raise OAuthError("invalid_request", "client_id differs from the authenticated client")
        grant_type = form.get("grant_type")
        if not grant_type:
            raise OAuthError("invalid_request", "grant_type is missing")
        if grant_type != "client_credentials":
            raise OAuthError("unsupported_grant_type", "only the client_credentials grant is supported")
        if not client_id or not secret or len(client_id) > 100:
            raise OAuthError("invalid_client", "unknown client or wrong secret", 401)
        answer = await run(request, IssueToken(client_id, secret, parse_scope(form.get("scope", ""))))
    except OAuthError as exc:
        if exc.error in ("invalid_client", "too_many_attempts"):
            # a failed authentication, or one tried while told to wait: it counts for both throttles
            throttle.failed(client_id, address)
        return _oauth_error(exc, basic)
    assert client_id is not None  # a token was issued to it
    throttle.succeeded(client_id)
    return JSONResponse(answer, headers=NO_STORE)


def client_address(request: Request) -> str:
    """The client's address as every service reads it (``gomoku_shared.client_address``): the
    connection's peer, or the first ``X-Forwarded-For`` entry when that peer is a trusted proxy
    (``FORWARDED_ALLOW_IPS``), so a client that reaches the service directly cannot name another."""
    return request.app.state.keyring.proxies.client(request.scope) or "unknown"


@router.get("/.well-known/jwks.json", summary="The public keys that verify access tokens (JWKS)", **documented(s.Jwks))
async def jwks(request: Request) -> JSONResponse:
    # verifiers fetch it rarely (at start and for an unknown key id): a short cache is enough
    return JSONResponse(await request.app.state.partners.jwks(), headers={"Cache-Control": "max-age=60"})


@router.get(
    "/v1/revocations",
    summary="Clients revoked (or of a suspended partner) while a token of theirs may still be unexpired; "
    "for the services' token verifiers (PARTNERS_SERVICE_KEY) and operators",
    dependencies=[Depends(service_or_operator)],
    **documented(s.Revocations, 200, 401, 403),
)
async def revocations(request: Request):
    return await request.app.state.partners.revocations()
