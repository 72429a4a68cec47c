"""Typed exceptions: every refusal of the platform carries its common error body.

``ApiError`` is raised for any 4xx/5xx answer; a subclass per status family lets a caller catch
what it can handle (``Conflict`` for a game that changed under it, ``RateLimited`` after the
bounded retries ran out). ``code`` is the stable machine-readable reason (``game_over``,
``insufficient_scope``…), ``details`` what exactly was refused.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from .models import ErrorBody, OAuthErrorBody


class GomokuError(Exception):
    """Anything this client raises on purpose."""


class Unreachable(GomokuError):
    """The service did not answer (connection refused, reset, timed out) within the retry budget."""


class ApiError(GomokuError):
    """The platform refused the request (4xx) or failed (5xx)."""

    def __init__(
        self,
        method: str,
        url: str,
        status: int,
        body: Any,
        *,
        correlation_id: str | None = None,
        retry_after_s: float | None = None,
    ) -> None:
        self.method = method
        self.url = url
        self.status = status
        self.body = body
        self.correlation_id = correlation_id
        self.retry_after_s = retry_after_s
        #: the common error body when the answer has that shape (None: something else answered)
        self.error: ErrorBody | None = None
        try:
            self.error = ErrorBody.model_validate(body)
        except ValidationError:
            self.error = None
        detail = body.get("error") if isinstance(body, Mapping) else None
        if self.error is not None:
            self.code, self.message, self.details = (
                self.error.error.code,
                self.error.error.message,
                self.error.error.details,
            )
        elif isinstance(detail, Mapping):  # a not quite common body: take what is there
            self.code = str(detail.get("code", ""))
            self.message = str(detail.get("message", ""))
            self.details = detail.get("details")
        else:
            self.code, self.message, self.details = "", str(body)[:300], None
        super().__init__(f"{method} {url} -> {status} {self.code}: {self.message}")


class BadRequest(ApiError):
    """400: malformed request (bad cursor, bad JSON)."""


class Unauthorized(ApiError):
    """401: no credential, or a bad, expired or revoked one."""


class Forbidden(ApiError):
    """403: the credential may not do this (role or scope; ``details`` names the scope)."""


class NotFound(ApiError):
    """404: unknown — or another partner's — record."""


class Conflict(ApiError):
    """409: the state does not allow it now (``game_over``, ``not_your_turn``, an Idempotency-Key reused)."""


class Unprocessable(ApiError):
    """422: the body is valid JSON but refused (fields named in ``details``)."""


class RateLimited(ApiError):
    """429: over the credential's rate limit; ``retry_after_s`` says when to try again."""


class ServerError(ApiError):
    """5xx: the platform failed (after the bounded retries)."""


class TokenError(GomokuError):
    """The token endpoint refused the client credentials (RFC 6749 §5.2 body)."""

    def __init__(self, status: int, body: Any) -> None:
        self.status = status
        self.body = body
        self.oauth: OAuthErrorBody | None = None
        self.common: ErrorBody | None = None
        try:
            self.oauth = OAuthErrorBody.model_validate(body)
        except ValidationError:
            try:  # what every route may answer (a body too large, a rate limit)
                self.common = ErrorBody.model_validate(body)
            except ValidationError:
                pass
        self.error: str
        self.description: str
        if self.oauth is not None:
            self.error, self.description = self.oauth.error, self.oauth.error_description or ""
        elif self.common is not None:
            self.error, self.description = self.common.error.code, self.common.error.message
        else:
            self.error, self.description = "invalid_response", str(body)[:300]
        super().__init__(f"token refused ({status} {self.error}): {self.description}")


_BY_STATUS: dict[int, type[ApiError]] = {
    400: BadRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    422: Unprocessable,
    429: RateLimited,
}


def error_class(status: int) -> type[ApiError]:
    """The exception class for an answer of ``status``."""
    return _BY_STATUS.get(status) or (ServerError if status >= 500 else ApiError)


def json_or_text(content: bytes) -> Any:
    """The JSON of an answer, or ``{"text": …}`` when it is not JSON (a proxy's HTML page)."""
    try:
        return json.loads(content)
    except ValueError:
        return {"text": content.decode("utf-8", "replace")[:2000]}
