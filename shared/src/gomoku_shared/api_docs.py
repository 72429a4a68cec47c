"""What every service's OpenAPI document says about errors, keys and headers.

Every error has the common shape (``Error`` below); which statuses an operation can answer
follows from how the route is built, so they are added to the document here rather than
repeated on every route:

* every operation: 400 (malformed JSON, characters that cannot be stored), 414, 431 (the input
  guard), and 422 when it takes parameters or a body;
* an operation that needs a credential (its ``security``, declared by ``auth.require``): 401, 403
  and 429 (an access token over its client's rate limit); its OAuth2 requirement names the
  scope a token needs (``scopes.required_scope``), and its answers declare the rate-limit
  headers;
* an operation with path parameters: 404; with a body: 413;
* a write (POST, PUT, PATCH, DELETE): 409 (the current state, or a reused Idempotency-Key).

Statuses that depend on the service's own rules (a 409 or 422 on a read) are declared on the
route with
``responses=errors(409, ...)``. Every response declares the ``X-Correlation-ID`` header, and
those of an operation taking an ``Idempotency-Key`` the ``Idempotent-Replayed`` header.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from pydantic import BaseModel, ConfigDict

ERROR_REF = {"$ref": "#/components/schemas/Error"}

ERROR_SCHEMA: dict[str, Any] = {
    "title": "Error",
    "description": "The common error shape of every service.",
    "type": "object",
    "required": ["error"],
    "additionalProperties": False,
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "additionalProperties": False,
            "properties": {
                "code": {"type": "string", "description": "stable, machine-readable reason"},
                "message": {"type": "string", "description": "for people"},
                "details": {"description": "what exactly was refused (fields, limits, ids)"},
            },
        }
    },
}

DESCRIPTIONS = {
    400: "Malformed JSON, characters that cannot be stored (control characters), a line break or direction "
    "override in typed text (invalid_characters), a cursor no page gave out (bad_cursor)",
    401: "Missing or invalid credential: no API key or access token, or an expired, revoked or broken token",
    403: "The credential's role, partner or scopes do not allow this (forbidden_role, insufficient_scope); "
    "a staff account on a route people may not use (staff_account_not_allowed), on another organisation's "
    "event (not_your_event) or without a role the action needs there (role_not_held); a partner app the "
    "event's organiser did not choose (partner_not_chosen)",
    404: "No such resource",
    409: "Conflicts with the current state",
    413: "The request body is too large",
    414: "The path or query string is too long",
    422: "The request is not valid (the fields are named in `details`)",
    429: "Too many requests: the access token's client is over its rate limit (see Retry-After)",
    431: "A header is too large",
    503: "Not ready",
}

CORRELATION_HEADER = {
    "X-Correlation-ID": {
        "description": "the request's correlation id (the one sent, or a new one); log lines carry it",
        "required": True,
        "schema": {"type": "string"},
    }
}

REPLAYED_HEADER = {
    "Idempotent-Replayed": {
        "description": "`true` on an answer replayed for a repeated Idempotency-Key (nothing was done again)",
        "required": False,
        "schema": {"type": "string", "enum": ["true"]},
    }
}


RATE_HEADERS = {
    "RateLimit-Policy": {
        "description": 'an access token\'s rate limit, e.g. `"partner";q=600;w=60` (IETF draft RateLimit headers)',
        "required": False,
        "schema": {"type": "string"},
    },
    "RateLimit": {
        "description": 'what is left of it, e.g. `"partner";r=599;t=1` (requests left, seconds until full)',
        "required": False,
        "schema": {"type": "string"},
    },
}

RETRY_AFTER_HEADER = {
    "Retry-After": {
        "description": "seconds to wait before the next request is admitted",
        "required": True,
        "schema": {"type": "integer", "minimum": 1},
    }
}


class View(BaseModel):
    """Base of the documented answers: the fields every client may rely on; answers may carry
    more (``additionalProperties``), so a new field never breaks a client or the document."""

    model_config = ConfigDict(extra="allow")


def documented(model: type[BaseModel], status: int = 200, *error_statuses: int) -> dict[str, Any]:
    """Route keyword arguments that document ``model`` as the answer without filtering what the
    handler returns through it (``response_model`` would drop the fields it does not name),
    with the route's own ``error_statuses`` (as ``errors``)."""
    return {"response_model": None, "responses": {status: {"model": model}, **errors(*error_statuses)}}


def text_too(*media_types: str, status: int = 200) -> dict[int | str, dict[str, Any]]:
    """``responses=`` for a route that answers text (CSV, TRF, notation) as well as JSON."""
    return {status: {"content": {m: {"schema": {"type": "string"}} for m in media_types}}}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """``responses=`` for a route: the given error statuses in the common shape."""
    return {status: _error_response(status) for status in statuses}


def _error_response(status: int) -> dict[str, Any]:
    return {"description": DESCRIPTIONS.get(status, "Refused"), "content": {"application/json": {"schema": ERROR_REF}}}


def _derived_statuses(method: str, operation: dict[str, Any]) -> set[int]:
    statuses = {400, 414, 431}
    write = method in ("post", "put", "patch", "delete")
    params = operation.get("parameters", [])
    body = "requestBody" in operation
    if params or body:
        statuses.add(422)
    if any(p.get("in") == "path" for p in params):
        statuses.add(404)
    if body:
        statuses.add(413)
    if write:
        # the state changed meanwhile, or an Idempotency-Key was reused with another request
        statuses.add(409)
    if operation.get("security"):
        # 403: a role or scope that may not call it, or a partner reaching for another
        # partner's data; 429: an access token over its rate limit
        statuses |= {401, 403, 429}
    return statuses


def _token_scopes(service: str, method: str, operation: dict[str, Any]) -> None:
    """The OAuth2 requirement of an operation names the scope a token needs: the one its
    ``auth.require`` names, else the service's for the method; an operation no token may call
    (a staff-only route or write) offers the API key alone."""
    from .scopes import NO_TOKEN, required_scope

    security = []
    for requirement in operation.get("security", []):
        if "OAuth2" in requirement:
            declared = requirement["OAuth2"]
            needed = declared[0] if declared else required_scope(service, method)
            if needed == NO_TOKEN:
                continue
            requirement = {"OAuth2": [needed]}
        security.append(requirement)
    operation["security"] = security


def complete(schema: dict[str, Any], service: str = "") -> dict[str, Any]:
    """Add the common error responses and headers to an OpenAPI document."""
    components = schema.setdefault("components", {})
    components.setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    # FastAPI's own validation-error models are replaced by the common shape
    for name in ("HTTPValidationError", "ValidationError"):
        components["schemas"].pop(name, None)
    for item in schema.get("paths", {}).values():
        for method, operation in item.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            responses = operation["responses"]
            # a route whose refusals have a shape of their own (OAuth's token endpoint)
            shapes = operation.pop("x-error-shapes", {})
            secured = bool(operation.get("security"))
            if secured:
                _token_scopes(service, method, operation)
            for status in sorted(_derived_statuses(method, operation)):
                responses[str(status)] = _error_response(status)
            for status, shape in shapes.items():
                described = responses.get(status, {}).get("description") or DESCRIPTIONS.get(int(status), "Refused")
                responses[status] = {
                    "description": described,
                    "content": {"application/json": {"schema": {"anyOf": [shape, ERROR_REF]}}},
                }
            keyed = any(
                p.get("in") == "header" and p.get("name", "").lower() == "idempotency-key"
                for p in operation.get("parameters", [])
            )
            for status, response in responses.items():
                if status.startswith(("4", "5")) and "content" not in response:
                    response.update(_error_response(int(status)))
                headers = response.setdefault("headers", {})
                headers.update(CORRELATION_HEADER)
                if secured:
                    headers.update(RATE_HEADERS)
                if status == "429":
                    headers.update(RETRY_AFTER_HEADER)
                if keyed:
                    headers.update(REPLAYED_HEADER)
    return schema


def install(app: FastAPI) -> None:
    """Serve ``complete``'s document as the app's OpenAPI (built once, on first use)."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = complete(build(), getattr(app.state, "service", ""))
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
