"""What an access token says (RFC 9068, the JWT profile for OAuth 2.0 access tokens)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from gomoku_shared.tokens import ACCOUNT_PREFIX, AUDIENCE, ISSUER, STAFF_TOKEN_ROLE

from .model import Credential, Partner


def access_claims(
    partner: Partner,
    credential: Credential,
    scopes: frozenset[str],
    now: datetime,
    ttl_s: int,
    token_id: str,
    *,
    after: datetime | None = None,
) -> dict[str, Any]:
    """``after``: the partner's last suspension. The verifiers refuse tokens issued at or before
    it; a token issued after the partner resumed, within the same second, is dated the next
    second (within the verifiers' leeway), not in whole seconds before it."""
    issued = int(now.timestamp())
    if after is not None and issued <= after.timestamp():
        issued = int(after.timestamp()) + 1
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


def staff_claims(
    account_id: str,
    name: str,
    roles: dict[str, Any],
    now: datetime,
    ttl_s: int,
    token_id: str,
    *,
    after: datetime | None = None,
) -> dict[str, Any]:
    """A staff member's access token (role ``staff``, subject ``acct:<account id>``): their roles
    per organisation and per event (``roles``: organisation -> ``domain.staff.Roles``), as
    ``gomoku_shared.tokens.PersonClaims`` reads them. ``after``: when the person's tokens were
    last revoked (a token is dated after it, as a resumed partner's)."""
    issued = int(now.timestamp())
    if after is not None and issued <= after.timestamp():
        issued = int(after.timestamp()) + 1
    orgs: dict[str, list[str]] = {}
    events: dict[str, set[str]] = {}
    for org_id, held in sorted(roles.items()):
        if held.org_roles:
            orgs[org_id] = sorted(held.org_roles)
        for code, event_roles in held.events.items():
            events.setdefault(code, set()).update(event_roles)
    return {
        "iss": ISSUER,
        "aud": AUDIENCE,
        "sub": f"{ACCOUNT_PREFIX}{account_id}",
        "account_id": account_id,
        "name": name,
        "role": STAFF_TOKEN_ROLE,
        "orgs": orgs,
        "events": {code: sorted(found) for code, found in sorted(events.items())},
        "iat": issued,
        "exp": issued + ttl_s,
        "jti": token_id,
    }
