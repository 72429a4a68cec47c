"""What the async and the sync client share: credentials and the token cache, where a route's
URL is, how a request is built, how an answer becomes a model or an exception, and when a
failed attempt is tried again. No I/O here: the two clients do the sending and the sleeping."""

from __future__ import annotations

import base64
import re
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel

from .errors import ApiError, TokenError, Unreachable, error_class, json_or_text
from .models import TokenAnswer, TokenForm
from .routes import SERVICES, NoContent, Route

A = TypeVar("A", bound=BaseModel)

USER_AGENT = "gomoku-client/0.1"


# --------------------------------------------------------------------------- credentials


@dataclass(frozen=True)
class ApiKey:
    """A static API key (operators, arbiters, a partner's static key), sent as ``X-API-Key``."""

    key: str

    def __repr__(self) -> str:
        return "ApiKey(****)"


@dataclass
class ClientCredentials:
    """A partner client's id and secret: the client obtains access tokens with them (OAuth 2.0
    client-credentials grant, HTTP Basic) and caches each token until shortly before it expires."""

    client_id: str
    client_secret: str = field(repr=False)
    #: the scopes to ask for (None: every scope of the partner)
    scopes: tuple[str, ...] | None = None
    #: ask for a new token this long before the current one expires (at most a fifth of its life)
    refresh_before_s: float = 30.0
    _token: str | None = field(default=None, repr=False)
    _expires_at: float = 0.0
    #: how many tokens were obtained (one per lifetime, not one per request)
    tokens_obtained: int = 0

    def valid_token(self, now: float) -> str | None:
        return self._token if self._token is not None and now < self._expires_at else None

    def remember(self, answer: TokenAnswer, obtained_at: float) -> str:
        margin = min(self.refresh_before_s, answer.expires_in / 5)
        self._token = answer.access_token
        self._expires_at = obtained_at + answer.expires_in - margin
        self.tokens_obtained += 1
        return answer.access_token

    def forget(self) -> None:
        self._token, self._expires_at = None, 0.0

    def token_request(self) -> tuple[dict[str, str], dict[str, str]]:
        """(form, headers) of the token request."""
        scope = " ".join(self.scopes or ())
        form = TokenForm(grant_type="client_credentials", scope=scope).model_dump(exclude_defaults=True)
        basic = base64.b64encode(f"{quote(self.client_id, safe='')}:{quote(self.client_secret, safe='')}".encode())
        return (
            {name: str(value) for name, value in form.items()},
            {"Authorization": f"Basic {basic.decode()}", "Accept": "application/json"},
        )


Credentials = ApiKey | ClientCredentials


def token_answer(response: httpx.Response, obtained_at: float, credentials: ClientCredentials) -> str:
    if response.status_code != 200:
        raise TokenError(response.status_code, json_or_text(response.content))
    return credentials.remember(TokenAnswer.model_validate_json(response.content), obtained_at)


# --------------------------------------------------------------------------- where and what


def service_bases(base_url: str | None, bases: Mapping[str, str] | None) -> dict[str, str]:
    """One base URL (the gateway, or the embedded app: every service under ``/<service>``), or
    one per service (services reached directly)."""
    if bases is not None:
        return {name: url.rstrip("/") for name, url in bases.items()}
    if base_url is None:
        raise ValueError("give base_url (the platform's one URL) or bases (one URL per service)")
    root = base_url.rstrip("/")
    return {name: f"{root}/{name}" for name in SERVICES}


@dataclass(frozen=True)
class Prepared:
    method: str
    url: str
    params: dict[str, str]
    headers: dict[str, str]
    json: Any = None
    form: dict[str, str] | None = None


def _param(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def prepare(
    bases: Mapping[str, str],
    route: Route[Any],
    *,
    path: Mapping[str, Any] | None = None,
    query: Mapping[str, Any] | None = None,
    body: BaseModel | None = None,
    idempotency_key: str | None = None,
    headers: Mapping[str, str] | None = None,
) -> Prepared:
    filled = route.path.format(**{k: quote(str(v), safe="") for k, v in (path or {}).items()})
    unknown = set(query or {}) - set(route.query)
    if unknown:
        raise ValueError(f"{route.method} {route.path} takes no query parameter {sorted(unknown)}")
    params = {k: _param(v) for k, v in (query or {}).items() if v is not None}
    sent: dict[str, str] = {"Accept": route.media, "User-Agent": USER_AGENT, **(headers or {})}
    if route.idempotent:
        sent["Idempotency-Key"] = idempotency_key or uuid.uuid4().hex
    if body is not None and route.body is not None and not isinstance(body, route.body):
        raise TypeError(f"{route.method} {route.path} takes a {route.body.__name__}, not {type(body).__name__}")
    payload = body.model_dump(mode="json") if body is not None else None
    return Prepared(route.method, bases[route.service] + filled, params, sent, payload)


def authorization(credentials: Credentials, token: str | None) -> dict[str, str]:
    if isinstance(credentials, ApiKey):
        return {"X-API-Key": credentials.key}
    assert token is not None
    return {"Authorization": f"Bearer {token}"}


def answer_of(route: Route[A], response: httpx.Response, prepared: Prepared) -> A:
    if response.status_code >= 400:
        raise refusal(prepared, response)
    if route.answer is NoContent:
        return route.answer()
    return route.answer.model_validate_json(response.content)


def refusal(prepared: Prepared, response: httpx.Response) -> ApiError:
    return error_class(response.status_code)(
        prepared.method,
        prepared.url,
        response.status_code,
        json_or_text(response.content),
        correlation_id=response.headers.get("x-correlation-id"),
        retry_after_s=retry_after(response),
    )


def retry_after(response: httpx.Response) -> float | None:
    """``Retry-After`` in seconds (RFC 9110: delay-seconds; an HTTP date is not sent by the platform)."""
    raw = response.headers.get("retry-after")
    if raw is None:
        return None
    try:
        return max(0.0, float(raw))
    except ValueError:
        return None


_RATE = re.compile(r'"(?P<name>[^"]+)";r=(?P<r>\d+);t=(?P<t>\d+)')


@dataclass(frozen=True)
class RateLimitState:
    """The last ``RateLimit`` header seen (IETF draft): requests left and seconds until full."""

    policy: str
    remaining: int
    reset_s: int


def rate_limit_of(response: httpx.Response) -> RateLimitState | None:
    found = _RATE.search(response.headers.get("ratelimit", ""))
    if found is None:
        return None
    return RateLimitState(found["name"], int(found["r"]), int(found["t"]))


# --------------------------------------------------------------------------- retries


@dataclass(frozen=True)
class RetryPolicy:
    """When a failed attempt is sent again.

    * a service that does not answer (connection refused or reset, a timeout) or answers 5xx:
      again with exponential backoff until ``give_up_after_s`` (only requests that are safe to
      repeat: reads, and writes carrying an Idempotency-Key; others only when the connection was
      refused, so nothing was sent);
    * ``429``: after ``Retry-After`` (or the backoff when it is missing), at most
      ``rate_limited_retries`` times and never waiting longer than ``max_retry_after_s`` at once —
      beyond that ``RateLimited`` is raised with the server's ``retry_after_s``.
    """

    give_up_after_s: float = 10.0
    backoff_first_s: float = 0.05
    backoff_max_s: float = 2.0
    rate_limited_retries: int = 5
    max_retry_after_s: float = 60.0

    @classmethod
    def none(cls) -> RetryPolicy:
        return cls(give_up_after_s=0.0, rate_limited_retries=0)


class Attempts:
    """The retry state of one request: ``after_*`` answer the delay before the next attempt, or
    raise what the caller gets."""

    def __init__(self, policy: RetryPolicy, route: Route[Any], prepared: Prepared) -> None:
        self.policy = policy
        self.route = route
        self.prepared = prepared
        self.deadline = time.monotonic() + policy.give_up_after_s
        self.delay = policy.backoff_first_s
        self.rate_limited = 0
        self.count = 0

    def _backoff(self) -> float:
        delay = self.delay
        self.delay = min(self.delay * 2, self.policy.backoff_max_s)
        return delay

    def after_transport_error(self, exc: Exception) -> float:
        sent_nothing = isinstance(exc, httpx.ConnectError | ConnectionRefusedError)
        if not (self.route.retry_safe or sent_nothing) or time.monotonic() + self.delay > self.deadline:
            raise Unreachable(
                f"{self.prepared.method} {self.prepared.url}: no answer ({exc!r}) after {self.count} attempt(s)"
            ) from exc
        return self._backoff()

    def after_answer(self, response: httpx.Response) -> float | None:
        """None: the answer is final (a success or a refusal to raise)."""
        status = response.status_code
        if status == 429:
            wait = retry_after(response)
            wait = self._backoff() if wait is None else wait
            if self.rate_limited >= self.policy.rate_limited_retries or wait > self.policy.max_retry_after_s:
                return None
            self.rate_limited += 1
            return wait
        if status >= 500 and self.route.retry_safe and time.monotonic() + self.delay <= self.deadline:
            return self._backoff()
        return None
