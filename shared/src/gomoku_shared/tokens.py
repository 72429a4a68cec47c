"""Local verification of partner access tokens (JWT, EdDSA) in every service.

The partners service signs; every other service verifies with the public keys of its JWKS,
fetched once from ``PARTNERS_URL`` (``/.well-known/jwks.json``) and kept: a request never
calls the partners service. A token signed by a key this process does not know yet (the
signing key was rotated) makes the verifier fetch the JWKS again, at most once every few
seconds however many such tokens arrive. In the embedded mode the keys are read in-process.

Revocation: access tokens live ``ACCESS_TOKEN_TTL_S`` (default 300 s). When an operator revokes
a credential or suspends a partner, the partners service publishes
``partner.credentials_revoked``; every replica of every service receives it on a queue of its
own (a broadcast, see ``subscribe_broadcast`` of the buses) and refuses that client's tokens
issued until then. A replica that starts later reads the current list (``/v1/revocations`` of
the partners service, which needs the service credential ``PARTNERS_SERVICE_KEY``) with the JWKS.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from .clock import Clock, SystemClock
from .loops import idle
from .ratelimit import Policy

log = logging.getLogger("gomoku.tokens")

ISSUER = "gomoku-partners"
AUDIENCE = "gomoku-platform"
ALGORITHM = "EdDSA"
#: the role of a staff member's (a person's) access token; its subject is ``ACCOUNT_PREFIX`` + the
#: account id, and revoking that subject (sign-out everywhere, a disabled account, a role taken
#: away) refuses every token of the person issued until then
STAFF_TOKEN_ROLE = "staff"
ACCOUNT_PREFIX = "acct:"
#: the event the partners service publishes when a credential stops being valid
REVOKED_EVENT = "partner.credentials_revoked"
#: seconds of clock difference between services that a token's times may be off by
LEEWAY_S = 5
#: the shortest time between two JWKS fetches caused by unknown key ids (tokens with made-up
#: key ids cost the partners service at most one fetch a second per replica)
REFRESH_MIN_INTERVAL_S = 1.0

#: verified tokens kept (a partner reuses its token for minutes: its signature is checked once)
CACHE_SIZE = 10_000

#: () -> {"keys": [...], "revoked": {client_id: revoked_at epoch}}
KeyFetch = Callable[[], Awaitable[dict[str, Any]]]


class TokenError(Exception):
    """A token that is not accepted; ``code`` is the error code of the 401 answer."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class PersonClaims:
    """What a staff member's token says about them (``role`` "staff", issued by the identity
    part of the partners service at sign-in): who, and their roles by organisation and by event."""

    account_id: str
    name: str
    #: organisation id -> the roles held in every event of that organisation
    orgs: dict[str, frozenset[str]]
    #: event code -> the roles held in that event only
    events: dict[str, frozenset[str]]


@dataclass(frozen=True)
class TokenClaims:
    client_id: str
    partner_id: str | None
    role: str
    scopes: frozenset[str]
    issued_at: float
    expires_at: float
    rate: Policy | None
    #: a staff member's token: the person and their roles (None for a partner's token)
    person: PersonClaims | None = None


def looks_like_jwt(presented: str) -> bool:
    return presented.startswith("eyJ") and presented.count(".") == 2


class HttpKeyFetch:
    """Fetch the JWKS and the revoked clients from the partners service at ``partners_url``,
    over one HTTP client kept from the first fetch until ``aclose`` (a new client builds a TLS
    context, tens of milliseconds of CPU: too much for every refresh)."""

    def __init__(self, partners_url: str, timeout_s: float = 5.0, transport: Any = None, service_key: str = "") -> None:
        self.base = partners_url.rstrip("/")
        #: PARTNERS_SERVICE_KEY: the revocation list is for the platform's services only
        self.service_key = service_key
        self.timeout_s = timeout_s
        #: an httpx transport to send through (tests); None: the network
        self.transport = transport
        self._client: Any = None

    async def __call__(self) -> dict[str, Any]:
        if self._client is None:
            import httpx  # here, not at import: a service without PARTNERS_URL never loads it

            self._client = httpx.AsyncClient(timeout=self.timeout_s, transport=self.transport)
        keys = (await self._client.get(f"{self.base}/.well-known/jwks.json")).raise_for_status().json()
        headers = {"x-api-key": self.service_key} if self.service_key else {}
        answer = await self._client.get(f"{self.base}/v1/revocations", headers=headers)
        if answer.status_code in (401, 403):
            log.error("the partners service refused PARTNERS_SERVICE_KEY: tokens cannot be verified")
        revoked = answer.raise_for_status().json()
        return {"keys": keys.get("keys", []), "revoked": revoked.get("revoked", {})}

    async def aclose(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            await client.aclose()


def http_key_fetch(partners_url: str, timeout_s: float = 5.0, service_key: str = "") -> HttpKeyFetch:
    """The keys and revocations of the partners service at ``partners_url``, over HTTP."""
    return HttpKeyFetch(partners_url, timeout_s, service_key=service_key)


def _fetch_errors() -> tuple[type[Exception], ...]:
    """What a failed key fetch raises: bad answers, and httpx's errors once httpx is loaded
    (before that, no fetch over HTTP has run)."""
    httpx = sys.modules.get("httpx")
    return (ValueError, KeyError, httpx.HTTPError) if httpx is not None else (ValueError, KeyError)


class TokenVerifier:
    """Keys and revocations of one process; ``verify`` is the per-request check."""

    def __init__(self, fetch: KeyFetch | None = None, *, clock: Clock | None = None, max_ttl_s: float = 3600) -> None:
        self._fetch = fetch
        self.clock = clock or SystemClock()
        self.max_ttl_s = max_ttl_s
        self._keys: dict[str, Any] = {}
        #: client id -> when it was revoked (epoch seconds, the partners service's clock)
        self._revoked: dict[str, float] = {}
        self._last_refresh = -1e9
        self._refresh_lock = asyncio.Lock()
        #: token -> its claims, for tokens whose signature was verified (exact bytes)
        self._verified: dict[str, TokenClaims] = {}
        self.loaded = False

    @property
    def configured(self) -> bool:
        return self._fetch is not None

    @property
    def ready(self) -> bool:
        """Whether this process can verify tokens: it accepts none (no key source), or it has
        fetched the keys and the revoked clients at least once (kept when a later fetch fails)."""
        return self._fetch is None or self.loaded

    def use_fetch(self, fetch: KeyFetch) -> None:
        """Where the keys come from (the embedded mode hands the partners service's own)."""
        self._fetch = fetch

    async def aclose(self) -> None:
        """Close what the key fetch holds open (its HTTP client); a later refresh reopens it."""
        close = getattr(self._fetch, "aclose", None)
        if close is not None:
            await close()

    # ------------------------------------------------------------------ keys
    def load(self, document: dict[str, Any]) -> None:
        import jwt  # with the first keys: a process without partners' tokens never loads it

        keys = {}
        for jwk in document.get("keys", []):
            try:
                keys[jwk["kid"]] = jwt.PyJWK.from_dict(jwk, algorithm=ALGORITHM)
            except (KeyError, jwt.PyJWKError):
                log.warning("ignored a JWKS entry that is not an %s key", ALGORITHM)
        if set(self._keys) - set(keys):  # a key left the JWKS: its tokens are verified again
            self._verified.clear()
        self._keys = keys
        for client, at in (document.get("revoked") or {}).items():
            self._revoked[client] = max(float(at), self._revoked.get(client, 0.0))
        self.loaded = True

    async def refresh(self) -> bool:
        """Fetch keys and revocations now; False (and the old keys kept) when that fails."""
        if self._fetch is None:
            return False
        self._last_refresh = time.monotonic()
        try:
            self.load(await self._fetch())
        except Exception as exc:
            if not isinstance(exc, _fetch_errors()):
                raise
            log.warning(
                "could not fetch the token keys (%s); keeping %d known keys", type(exc).__name__, len(self._keys)
            )
            return False
        return True

    async def refresh_soon(self) -> None:
        """A refresh for an unknown key id. Callers queue; one fetch serves every caller that
        was waiting when it began, and fetches are at least ``REFRESH_MIN_INTERVAL_S`` apart."""
        asked_at = time.monotonic()
        async with self._refresh_lock:
            if self._last_refresh >= asked_at:
                return  # fetched while this caller waited
            wait = self._last_refresh + REFRESH_MIN_INTERVAL_S - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            await self.refresh()

    async def keep_loaded(self, retry_s: float = 2.0, stop: asyncio.Event | None = None) -> None:
        """Background task: fetch the keys at start, retrying until the partners service answers
        (or until ``stop`` is set)."""
        while not await self.refresh():
            if await idle(stop, retry_s):
                return
            retry_s = min(30.0, retry_s * 2)

    # ------------------------------------------------------------------ revocation
    def revoke(self, client_ids: list[str], at: float) -> None:
        for client in client_ids:
            self._revoked[client] = max(at, self._revoked.get(client, 0.0))
        horizon = self.clock.now().timestamp() - self.max_ttl_s - LEEWAY_S
        for client, when in list(self._revoked.items()):
            if when < horizon:  # every token of it has expired by now
                del self._revoked[client]

    async def on_revoked(self, message: Any) -> None:
        """Broadcast consumer of ``partner.credentials_revoked``."""
        with contextlib.suppress(ValueError, KeyError, TypeError):
            payload = json.loads(message.body)["payload"]
            self.revoke(list(payload["client_ids"]), _epoch(payload["revoked_at"]))

    # ------------------------------------------------------------------ verification
    def known_key(self, token: str) -> bool:
        if token in self._verified:
            return True
        import jwt

        try:
            return jwt.get_unverified_header(token).get("kid") in self._keys
        except jwt.PyJWTError:
            return True  # garbage: verify() says so

    def verify(self, token: str) -> TokenClaims:
        """The token's claims, or ``TokenError`` (invalid, expired, revoked, unknown key).
        The signature of a token is checked the first time it is seen; expiry and revocation
        every time."""
        claims = self._verified.get(token)
        if claims is None:
            claims = self._verify_signed(token)
            if len(self._verified) >= CACHE_SIZE:
                del self._verified[next(iter(self._verified))]  # the oldest
            self._verified[token] = claims
        now = self.clock.now().timestamp()
        if claims.expires_at + LEEWAY_S < now:
            self._verified.pop(token, None)
            raise TokenError("expired_token", "the access token has expired; request a new one")
        if claims.issued_at - LEEWAY_S > now:
            raise TokenError("invalid_token", "the access token was issued in the future")
        revoked_at = self._revoked.get(claims.client_id)
        # tokens issued until the revocation (or the partner's suspension) are refused; a revoked
        # credential gets no token again, a resumed partner's new ones are issued after it
        if revoked_at is not None and claims.issued_at <= revoked_at:
            raise TokenError("revoked_token", "the credential of this access token was revoked")
        return claims

    def _verify_signed(self, token: str) -> TokenClaims:
        import jwt

        try:
            header = jwt.get_unverified_header(token)
        except jwt.PyJWTError:
            raise TokenError("invalid_token", "the access token is not a valid token") from None
        key = self._keys.get(header.get("kid", ""))
        if key is None or header.get("alg") != ALGORITHM:
            raise TokenError("invalid_token", "the access token is not signed by a known key")
        try:
            # times are checked in verify() against the service's clock (a simulation clock moves)
            claims = jwt.decode(
                token,
                key.key,
                algorithms=[ALGORITHM],
                audience=AUDIENCE,
                issuer=ISSUER,
                options={"verify_exp": False, "verify_iat": False, "verify_nbf": False, "require": ["exp", "sub"]},
            )
        except jwt.PyJWTError:
            raise TokenError("invalid_token", "the access token is not valid") from None
        try:
            issued, expires = float(claims.get("iat", 0)), float(claims["exp"])
        except (TypeError, ValueError):
            raise TokenError("invalid_token", "the access token's times are not numbers") from None
        return _claims(str(claims["sub"]), claims, issued, expires)


def _claims(client: str, claims: dict[str, Any], issued: float, expires: float) -> TokenClaims:
    role = claims.get("role")
    if role == STAFF_TOKEN_ROLE:
        return TokenClaims(
            client_id=client,
            partner_id=None,
            role=role,
            scopes=frozenset(),
            issued_at=issued,
            expires_at=expires,
            rate=None,
            person=_person(client, claims),
        )
    if role not in ("partner", "viewer"):
        raise TokenError("invalid_token", "the access token names no partner role")
    limit = claims.get("rl")
    rate = None
    if isinstance(limit, dict):
        try:
            rate = Policy(int(limit["q"]), int(limit["w"]))
        except (KeyError, TypeError, ValueError):
            rate = None
    return TokenClaims(
        client_id=client,
        partner_id=claims.get("partner_id") if role == "partner" else None,
        role=role,
        scopes=frozenset(str(claims.get("scope", "")).split()),
        issued_at=issued,
        expires_at=expires,
        rate=rate if rate and rate.quota > 0 and rate.window_s > 0 else None,
    )


def _roles_by(value: Any) -> dict[str, frozenset[str]]:
    if not isinstance(value, dict):
        raise TokenError("invalid_token", "the access token's roles are not a mapping")
    return {str(k): frozenset(str(r) for r in v) for k, v in value.items() if isinstance(v, list)}


def _person(client: str, claims: dict[str, Any]) -> PersonClaims:
    account = claims.get("account_id")
    if not isinstance(account, str) or not account or client != f"{ACCOUNT_PREFIX}{account}":
        raise TokenError("invalid_token", "the access token names no account")
    return PersonClaims(
        account_id=account,
        name=str(claims.get("name") or account),
        orgs=_roles_by(claims.get("orgs", {})),
        events=_roles_by(claims.get("events", {})),
    )


def _epoch(value: Any) -> float:
    from datetime import datetime

    if isinstance(value, (int, float)):
        return float(value)
    return datetime.fromisoformat(str(value)).timestamp()
