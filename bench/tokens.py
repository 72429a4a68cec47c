"""Token verification cost per request: what an access token adds to a request compared with an
API key, in-process (no network), CPU time of this process.

    .venv/bin/python -m bench.tokens

Rows (µs per call, best of REPEAT runs of N calls each):
- api key: ``KeyRing.admit`` with an operator key (the baseline: three keys compared in
  constant time);
- token: ``KeyRing.admit`` with a partner's access token, as on every request after its first:
  the verified token found, expiry, revocation, scope and the rate-limit bucket checked;
- token, first use: the same for a token this process has not seen: EdDSA signature and claims
  too (once per token and process; a token lives ACCESS_TOKEN_TTL_S);
- signature only: the EdDSA verification and claim decoding of a first use;
- bucket only: ``LocalBuckets.take``;
- request, api key / token: ``GET /v1/whoami`` of a service app through ASGI (routing, the
  dependency, the middlewares), to put the cost in proportion.
Ratios are to the api-key row of the same run. Nothing here fetches keys: they are loaded once,
as a service does at start.
"""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime

import httpx

from gomoku_shared.auth import KeyRing
from gomoku_shared.clock import FakeClock
from gomoku_shared.ratelimit import LocalBuckets, Policy
from gomoku_shared.tokens import TokenVerifier
from gomoku_shared.web import create_app
from partners.adapters.signing import KeyVault
from partners.domain.claims import access_claims
from partners.domain.model import Credential, RateLimit, new_partner

N = 2000
REQUESTS = 300
REPEAT = 5
NOW = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def _token_and_ring() -> tuple[str, KeyRing]:
    vault = KeyVault("bench-secret")
    kid, sealed, public = vault.new_key()
    partner = new_partner("app-one", "App One", "partner", ["results:read"], RateLimit(10**9, 60), NOW)
    credential = Credential("gpc_bench", "app-one", "", "", "active", NOW)
    token = vault.sign(access_claims(partner, credential, partner.scopes, NOW, 300, "jti"), kid, sealed)
    verifier = TokenVerifier(clock=FakeClock(NOW))
    verifier.load({"keys": [public]})
    ring = KeyRing("op-key=operator,arb-key=arbiter,viewer-key=viewer", tokens=verifier)
    return token, ring


def _best_us(fn, calls: int) -> float:
    best = float("inf")
    for _ in range(REPEAT):
        start = time.process_time()
        for _ in range(calls):
            fn()
        best = min(best, (time.process_time() - start) / calls)
    return best * 1e6


async def _requests_us(ring: KeyRing, headers: dict[str, str]) -> float:
    app = create_app("registration", title="bench", keyring=ring)
    best = float("inf")
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://bench") as client:
        for _ in range(REPEAT):
            start = time.process_time()
            for _ in range(REQUESTS):
                r = await client.get("/v1/whoami", headers=headers)
                assert r.status_code == 200, r.text
            best = min(best, (time.process_time() - start) / REQUESTS)
    return best * 1e6


def _first_use(verifier: TokenVerifier, ring: KeyRing, token: str) -> None:
    verifier._verified.clear()
    ring.admit(token, scope="results:read")


def main() -> None:
    token, ring = _token_and_ring()
    assert ring.tokens is not None
    verifier = ring.tokens
    buckets = LocalBuckets(1)
    policy = Policy(10**9, 60)
    rows = [
        ("api key", _best_us(lambda: ring.admit("op-key", scope="results:read"), N)),
        ("token", _best_us(lambda: ring.admit(token, scope="results:read"), N)),
        ("token, first use", _best_us(lambda: _first_use(verifier, ring, token), N)),
        ("signature only", _best_us(lambda: verifier._verify_signed(token), N)),
        ("bucket only", _best_us(lambda: buckets.take("gpc_bench", policy), N)),
        ("request, api key", asyncio.run(_requests_us(ring, {"x-api-key": "op-key"}))),
        ("request, token", asyncio.run(_requests_us(ring, {"authorization": f"Bearer {token}"}))),
    ]
    baseline = rows[0][1]
    print(f"{'row':<18} {'µs/call':>9} {'ratio':>7}")
    for name, us in rows:
        print(f"{name:<18} {us:>9.1f} {us / baseline:>7.1f}")
    by_name = dict(rows)
    added = by_name["request, token"] - by_name["request, api key"]
    print(
        f"a token adds {added:.0f} µs CPU to a request ({by_name['request, token'] / by_name['request, api key']:.2f}x "
        f"the API-key request); its first use in a process {by_name['token, first use']:.0f} µs more"
    )


if __name__ == "__main__":
    main()
