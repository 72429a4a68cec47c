"""What an access token says (RFC 9068, the JWT profile for OAuth 2.0 access tokens)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from gomoku_shared.tokens import AUDIENCE, ISSUER

from .model import Credential, Partner


def access_claims(
    partner: Partner, credential: Credential, scopes: frozenset[str], now: datetime, ttl_s: int, token_id: str
) -> dict[str, Any]:
    issued = int(now.timestamp())
    return {
        "iss": ISSUER,
        "aud": AUDIENCE,
        "sub": credential.client_id,
        "client_id": credential.client_id,
        "partner_id": partner.partner_id,
        "role": partner.role,
        "scope": " ".join(sorted(scopes)),
        "iat": issued,
        "exp": issued + ttl_s,
        "jti": token_id,
        # the partner's rate limit: every service applies it without asking (gomoku_shared.ratelimit)
        "rl": {"q": partner.rate_limit.quota, "w": partner.rate_limit.window_s},
    }
