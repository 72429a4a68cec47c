"""Staff members' access tokens for service tests that do not run the partners service: a
signing key of the test's own, its JWKS handed to a service's token verifier, and tokens
shaped as the partners service issues them at sign-in (``tokens.PersonClaims``).

The served tests of the whole platform sign in through the partners service itself; this is
for one service's own tests (embedded, on SQLite or PostgreSQL)."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterable, Mapping
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from jwt.algorithms import OKPAlgorithm

from ..auth import KeyRing
from ..tokens import ACCOUNT_PREFIX, ALGORITHM, AUDIENCE, ISSUER, STAFF_TOKEN_ROLE, TokenVerifier


class StaffTokens:
    """One signing key; ``install`` makes a key ring accept its tokens."""

    def __init__(self, kid: str = "test-people") -> None:
        self.kid = kid
        self._key = Ed25519PrivateKey.generate()

    def jwks(self) -> dict[str, Any]:
        jwk = json.loads(OKPAlgorithm.to_jwk(self._key.public_key()))
        return {"keys": [{**jwk, "kid": self.kid, "alg": ALGORITHM, "use": "sig"}]}

    def install(self, keyring: KeyRing) -> TokenVerifier:
        """Give ``keyring`` a verifier that knows this key (kept if it already has one)."""
        verifier = keyring.tokens
        if verifier is None:
            verifier = keyring.tokens = TokenVerifier()
        known = dict(verifier._keys)  # noqa: SLF001  # a verifier that knows the partners' keys keeps them
        verifier.load({**self.jwks(), "revoked": {}})
        verifier._keys = {**known, **verifier._keys}  # noqa: SLF001
        if not verifier.configured:

            async def fetch() -> dict[str, Any]:
                return {**self.jwks(), "revoked": {}}

            verifier.use_fetch(fetch)
        return verifier

    def token(
        self,
        name: str,
        *,
        orgs: Mapping[str, Iterable[str]] | None = None,
        events: Mapping[str, Iterable[str]] | None = None,
        account_id: str | None = None,
        ttl_s: int = 900,
        issued_at: float | None = None,
    ) -> str:
        """A staff member's access token: ``orgs`` {organisation: roles}, ``events`` {code: roles}."""
        account = account_id or f"a-{uuid.uuid4().hex[:10]}"
        now = int(issued_at if issued_at is not None else time.time())
        claims = {
            "iss": ISSUER,
            "aud": AUDIENCE,
            "sub": f"{ACCOUNT_PREFIX}{account}",
            "account_id": account,
            "name": name,
            "role": STAFF_TOKEN_ROLE,
            "orgs": {k: sorted(v) for k, v in (orgs or {}).items()},
            "events": {k: sorted(v) for k, v in (events or {}).items()},
            "iat": now,
            "exp": now + ttl_s,
            "jti": uuid.uuid4().hex,
        }
        return jwt.encode(claims, self._key, algorithm=ALGORITHM, headers={"kid": self.kid})
