"""Authentication with roles: operator, arbiter, partner (bound to its own id) and viewer
(read-only: the public web front reads with it and can change nothing).

Two kinds of credential are accepted, in the ``X-API-Key`` header or as ``Authorization: Bearer``:

* API keys from ``API_KEYS`` (operators, arbiters, the web front, static partner keys);
* access tokens (JWT) that the partners service issues to a partner's client credentials
  (OAuth 2.0 client-credentials grant). They are verified here, in the process, with the
  partners service's public keys (``tokens.py``); a token maps to the partner role (or viewer,
  for a spectator client) with its partner id, so every route's role check and every
  service's partner isolation apply to it unchanged, and to scopes (``scopes.py``) that are
  checked per request. A token's client also has a rate limit (``ratelimit.py``).

Refusals: no or unknown credential, an expired, revoked or broken token: 401; a role or a
scope that does not allow the request: 403; over the rate limit: 429 with ``Retry-After``; too
many wrong keys or broken tokens from the client address, or of the same credential, before
this try: 429 ``too_many_failures`` with ``Retry-After`` (``throttle.py``).
"""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable, Iterable
from typing import Annotated, Any, Literal

from fastapi import Depends, Request, Security
from fastapi.openapi.models import OAuthFlowClientCredentials, OAuthFlows
from fastapi.security import APIKeyHeader, HTTPBearer, OAuth2

from .client_address import TrustedProxies
from .errors import ServiceError
from .principal import Principal
from .ratelimit import Decision, LocalBuckets
from .scopes import NO_TOKEN, SCOPES, required_scope
from .throttle import FailureThrottle, throttled_details
from .tokens import TokenError, TokenVerifier, looks_like_jwt

Role = Literal["operator", "arbiter", "partner", "viewer"]
ROLES: tuple[str, ...] = ("operator", "arbiter", "partner", "viewer")
#: the roles that may act (every role but the read-only viewer)
ACTING_ROLES: tuple[str, ...] = ("operator", "arbiter", "partner")
#: where partners obtain access tokens: the same path in the embedded mode and behind the gateway
TOKEN_URL = "/partners/oauth/token"


class Unauthorized(ServiceError):
    status = 401


class RateLimited(ServiceError):
    status = 429


class KeyRing:
    """Keys parsed from ``key=role[:partner_id]`` entries, and the access-token verifier.
    Keys never appear in logs."""

    def __init__(self, spec: str = "", *, tokens: TokenVerifier | None = None) -> None:
        self._keys: list[tuple[bytes, Principal]] = []
        #: the principal of each API key presented and matched so far (the keys are fixed for the
        #: process; ``add`` clears it). A lookup hashes the presented string (randomised per
        #: process) and compares only on an equal hash, so its time says nothing usable about
        #: the keys; an unknown credential still meets every key in ``_api_key``
        self._matched: dict[str, Principal] = {}
        #: verifies access tokens; None: this process accepts API keys only
        self.tokens = tokens
        #: the rate limits of access tokens (replaced by the runtime with the replicas' share)
        self.limits = LocalBuckets()
        #: failed tries per client address and per credential (replaced by the runtime with the
        #: configured policy); only failures count, so a client with right keys is never slowed
        self.throttle = FailureThrottle()
        #: whose X-Forwarded-For names the client (the gateway, the portal)
        self.proxies = TrustedProxies()
        for i, item in enumerate(x.strip() for x in spec.split(",") if x.strip()):
            key, _, rest = item.partition("=")
            role, _, partner = rest.partition(":")
            if role not in ROLES or not key:
                raise ValueError(f"API_KEYS entry {i + 1}: expected key=role[:partner], role one of {ROLES}")
            self.add(key, role, partner or None)

    def add(self, key: str, role: str, partner_id: str | None = None) -> None:
        """``partner_id``: a partner key's partner, or an arbiter key's organisation."""
        key_id = f"k{len(self._keys) + 1}"
        if role == "arbiter":
            principal = Principal(role, None, key_id=key_id, organisation=partner_id)
        else:
            principal = Principal(role, partner_id, key_id=key_id)
        self._keys.append((key.encode(), principal))
        self._matched.clear()

    def _api_key(self, presented: str) -> Principal | None:
        found = self._matched.get(presented)
        if found is not None:
            return found
        encoded = presented.encode()
        for key, principal in self._keys:  # compare all: timing does not reveal which matched
            if hmac.compare_digest(key, encoded):
                found = principal
        if found is not None:
            self._matched[presented] = found
        return found

    def lookup(self, presented: str) -> Principal | None:
        """The principal of an API key or a valid access token; None for anything else."""
        found = self._api_key(presented)
        if found is None and self.tokens is not None and looks_like_jwt(presented):
            try:
                return _token_principal(self.tokens, presented)
            except TokenError:
                return None
        return found

    def admit(
        self,
        presented: str | None,
        *,
        scope: str,
        roles: Iterable[str] = (),
        client: str | None = None,
        asgi_scope: Any = None,
        people: bool = False,
    ) -> tuple[Principal, Decision | None]:
        """The principal, checked for ``roles`` (any when empty), ``scope`` and the rate limit;
        raises the 401/403/429 refusal otherwise. A staff member's token is admitted only where
        ``people`` is set: the routes that authorise per event (``require(..., action=...)``);
        elsewhere it gets 403 ``staff_account_not_allowed``. ``client`` is the client address (failed
        tries are throttled per address and per credential), or it is read from ``asgi_scope``
        only when a throttle needs it (a right key while nothing failed reads no header).
        Synchronous: the lean lanes call it too."""
        if not presented:
            raise Unauthorized("missing_api_key", "send an API key in the X-API-Key header or an access token")
        throttle = self.throttle
        if throttle.active:
            self.check_throttle(throttle.keys(self._address(client, asgi_scope), presented))
        principal = self._api_key(presented)
        if principal is None:
            if self.tokens is None or not looks_like_jwt(presented):
                throttle.failed(throttle.keys(self._address(client, asgi_scope), presented))
                raise Unauthorized("invalid_api_key", "the API key is not valid")
            try:
                principal = _token_principal(self.tokens, presented)
            except TokenError as exc:
                if exc.code == "invalid_token":  # forged or broken (an expired or revoked one is not a guess)
                    throttle.failed(throttle.keys(self._address(client, asgi_scope), presented))
                raise Unauthorized(exc.code, exc.message, headers=_challenge(exc.code)) from None
        roles = roles if isinstance(roles, tuple) else tuple(roles)
        if principal.person is not None and not people:
            from .event_access import staff_account_refusal

            raise staff_account_refusal()
        if roles and principal.role not in roles:
            raise ServiceError("forbidden_role", f"this action needs one of the roles {list(roles)}", status=403)
        if not principal.allows(scope):
            needed = [] if scope == NO_TOKEN else [scope]
            raise ServiceError(
                "insufficient_scope",
                "the access token's scopes do not allow this request"
                + (f"; it needs {scope}" if needed else "; it is for staff keys only"),
                {"required": needed, "granted": sorted(principal.scopes or ())},
                status=403,
                headers=_challenge("insufficient_scope", scope),
            )
        decision = self._rate(principal)
        return principal, decision

    async def authenticate(
        self,
        presented: str | None,
        *,
        scope: str,
        roles: Iterable[str] = (),
        client: str | None = None,
        asgi_scope: Any = None,
        people: bool = False,
    ) -> tuple[Principal, Decision | None]:
        """``admit``, fetching the partners service's keys first when a token names a key id
        this process does not know yet (a rotated signing key)."""
        if presented and self.tokens is not None and looks_like_jwt(presented) and not self.tokens.known_key(presented):
            if self._api_key(presented) is None:
                await self.tokens.refresh_soon()
        return self.admit(presented, scope=scope, roles=roles, client=client, asgi_scope=asgi_scope, people=people)

    def _address(self, client: str | None, asgi_scope: Any) -> str | None:
        return client if client is not None or asgi_scope is None else self.proxies.client(asgi_scope)

    def check_throttle(self, keys: tuple[str, ...]) -> None:
        """The 429 ``too_many_failures`` while the address or the credential must wait."""
        wait = self.throttle.wait_s(keys)
        if wait:
            raise RateLimited(
                "too_many_failures",
                f"too many failed sign-ins from this address or with this credential; retry in {wait} s",
                throttled_details(wait, self.throttle.policy),
                headers={"Retry-After": str(wait)},
            )

    def _rate(self, principal: Principal) -> Decision | None:
        policy = principal.rate
        if principal.client_id is None or policy is None:
            return None
        decision = self.limits.take(principal.client_id, policy)
        if not decision.allowed:
            raise RateLimited(
                "rate_limited",
                f"too many requests for this client; retry in {decision.retry_after_s} s",
                {"retry_after_s": decision.retry_after_s, "quota": policy.quota, "window_s": policy.window_s},
                headers=decision.headers(),
            )
        return decision


def _token_principal(tokens: TokenVerifier, token: str) -> Principal:
    claims = tokens.verify(token)
    if claims.person is not None:
        # a person: the arbiter role for the routes' role checks, their roles per event decide
        return Principal("arbiter", None, key_id=claims.client_id, client_id=claims.client_id, person=claims.person)
    return Principal(
        claims.role,
        claims.partner_id,
        key_id=claims.client_id,
        scopes=claims.scopes,
        client_id=claims.client_id,
        rate=claims.rate,
    )


def _challenge(code: str, scope: str | None = None) -> dict[str, str]:
    """RFC 6750 §3: the WWW-Authenticate answer to a bearer token that was refused."""
    error = {"insufficient_scope": "insufficient_scope"}.get(code, "invalid_token")
    value = f'Bearer error="{error}"'
    if scope and scope != NO_TOKEN:
        value += f', scope="{scope}"'
    return {"WWW-Authenticate": value}


def presented_credential(headers: Iterable[tuple[bytes, bytes]]) -> str | None:
    """The credential of raw ASGI headers: ``X-API-Key``, else an ``Authorization: Bearer``."""
    bearer = None
    for name, value in headers:
        if name == b"x-api-key" and value:
            return value.decode("latin-1")
        if name == b"authorization" and bearer is None:
            text = value.decode("latin-1")
            if text[:7].lower() == "bearer ":
                bearer = text[7:].strip()
    return bearer


def _presented_key(request: Request) -> str | None:
    return presented_credential(request.scope.get("headers", ()))


#: how a credential is presented, as the OpenAPI document declares it (the credential itself
#: is read from the request in ``presented_credential``: these only document the ways)
_API_KEY = APIKeyHeader(
    name="X-API-Key",
    scheme_name="ApiKey",
    auto_error=False,
    description="an API key (roles operator, arbiter, partner, viewer)",
)
_BEARER = HTTPBearer(scheme_name="Bearer", auto_error=False, description="an API key as a bearer token")
_OAUTH2 = OAuth2(
    flows=OAuthFlows(clientCredentials=OAuthFlowClientCredentials(tokenUrl=TOKEN_URL, scopes=SCOPES)),
    scheme_name="OAuth2",
    auto_error=False,
    description=(
        f"a partner's access token from the client-credentials grant at {TOKEN_URL} (send it as Authorization: Bearer)"
    ),
)


#: finds the event a request acts on (None: the route has none to name; persons are refused)
EventOf = Callable[[Request], Awaitable[str | None]]


async def event_in_path(request: Request) -> str | None:
    params = request.path_params
    return params.get("code") or params.get("event_code")


def require(
    *roles: str,
    scope: str | None = None,
    action: str | None = None,
    event: EventOf | None = None,
    people: bool = False,
):
    """Dependency: the caller must present a credential with one of ``roles``; an access token
    needs ``scope`` too (by default the one ``scopes.required_scope`` names for the request).

    ``action`` (a ``staff_roles.ACTIONS`` name): the route acts on one event, found by ``event``
    (by default the ``code`` or ``event_code`` of the path); staff accounts are admitted and
    every staff credential must hold one of the action's roles in that event
    (``event_access.authorize``; the operator's keys hold them all). Without ``action`` a staff
    account gets 403 ``staff_account_not_allowed``: a route that forgets to say which action it
    is stays closed to people. ``people=True`` admits staff accounts to a route that authorises
    them itself (an organisation's own pages of the identity routes); a route the read-only viewer
    may call (a public read) admits them as well.

    The OpenAPI document says what this enforces: the OAuth2 requirement names ``scope`` (none
    named: ``api_docs`` fills in the service's scope for the method), and a route whose roles no
    token has (staff only) offers API keys alone. ``roles`` and ``scope`` stay on the dependency,
    for the test that compares each route's document with what it enforces."""
    token_roles = not roles or bool({"partner", "viewer"} & set(roles))
    declared = [scope] if scope else [] if token_roles else [NO_TOKEN]
    if action is not None:
        from .staff_roles import roles_for

        roles_for(action)  # an unknown action fails when the route is built
    find_event = event or event_in_path
    # public reads (the read-only viewer may make them) are open to a signed-in person too
    admits_people = people or action is not None or "viewer" in roles

    async def dependency(
        request: Request,
        _key: str | None = Security(_API_KEY),
        _bearer: object = Security(_BEARER),
        _token: object = Security(_OAUTH2, scopes=declared),
    ) -> Principal:
        ring: KeyRing = request.app.state.keyring
        needed = scope or required_scope(getattr(request.app.state, "service", ""), request.method)
        principal, decision = await ring.authenticate(
            _presented_key(request),
            scope=needed,
            roles=roles,
            asgi_scope=request.scope,
            people=admits_people,
        )
        if action is not None and principal.is_staff:
            await _authorize_staff(request, principal, action, find_event)
        if decision is not None:
            # on the answer, whatever the route returns (web.ObservabilityMiddleware adds them)
            request.state.rate_headers = decision.headers()
        return principal

    dependency.required_roles = roles  # type: ignore[attr-defined]  # read by the scope-vs-document test
    dependency.required_action = action  # type: ignore[attr-defined]  # read by the per-event access test
    dependency.required_scope = scope  # type: ignore[attr-defined]  # (None: the service's for the method)
    return dependency


async def _authorize_staff(request: Request, principal: Principal, action: str, find_event: EventOf) -> None:
    from .event_access import authorize, refusal

    if principal.role == "operator" and principal.person is None:
        return  # the platform operator's keys act on every event
    code = await find_event(request)
    if code is None:
        raise refusal(
            "not_your_event",
            "找不到这项操作所属的赛事。",
            "The event this action belongs to could not be found.",
            action=action,
        )
    directory = request.app.state.event_access
    request.state.staff_roles = authorize(principal, action, await directory.get(code))


AnyPrincipal = Annotated[Principal, Depends(require(*ACTING_ROLES))]
#: any acting credential, a signed-in person too: for answers about the credential itself
Anyone = Annotated[Principal, Depends(require(*ACTING_ROLES, people=True))]
#: any key, the read-only viewer too: for read endpoints
Reader = Annotated[Principal, Depends(require(*ROLES))]
Staff = Annotated[Principal, Depends(require("operator", "arbiter"))]
Operator = Annotated[Principal, Depends(require("operator"))]
