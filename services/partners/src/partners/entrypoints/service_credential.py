"""The credential of the platform's own services: what the token verifiers of every service
present to read the revoked clients (``GET /v1/revocations``).

The list names clients whose tokens are refused; it is for the verifiers, not for anyone who asks.
They send ``PARTNERS_SERVICE_KEY`` in ``X-API-Key``; an operator's key reads it too.
"""

from __future__ import annotations

import hmac

from fastapi import Request, Security
from fastapi.security import APIKeyHeader

from gomoku_shared.auth import presented_credential
from gomoku_shared.scopes import NO_TOKEN

_SERVICE_KEY = APIKeyHeader(
    name="X-API-Key",
    scheme_name="ApiKey",
    auto_error=False,
    description="an API key (roles operator, arbiter, partner, viewer)",
)


async def service_or_operator(request: Request, _key: str | None = Security(_SERVICE_KEY)) -> None:
    """Dependency: the services' credential (PARTNERS_SERVICE_KEY) or an operator's API key."""
    presented = presented_credential(request.scope.get("headers", ()))
    expected = request.app.state.runtime.settings.partners_service_key
    if presented and expected and hmac.compare_digest(presented.encode(), expected.encode()):
        return
    # anything else is judged like every operators' route: 401 without a known key, 403 for another role
    await request.app.state.keyring.authenticate(presented, scope=NO_TOKEN, roles=("operator",))
