"""Local token verification and the per-replica rate limit (gomoku_shared.tokens, .ratelimit)."""

from __future__ import annotations

import asyncio
import base64
import json
from datetime import UTC, datetime

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from jwt.algorithms import OKPAlgorithm

from gomoku_shared.auth import KeyRing, RateLimited
from gomoku_shared.clock import FakeClock
from gomoku_shared.ratelimit import LocalBuckets, Policy
from gomoku_shared.tokens import AUDIENCE, ISSUER, HttpKeyFetch, TokenError, TokenVerifier

NOW = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def _key(kid: str = "k1"):
    private = Ed25519PrivateKey.generate()
    public = OKPAlgorithm.to_jwk(private.public_key(), as_dict=True) | {"kid": kid, "alg": "EdDSA"}
    return private, public


def _claims(**changes):
    at = int(NOW.timestamp())
    claims = {
        "iss": ISSUER,
        "aud": AUDIENCE,
        "sub": "gpc_1",
        "partner_id": "p1",
        "role": "partner",
        "scope": "results:read",
        "iat": at,
        "exp": at + 300,
        "rl": {"q": 2, "w": 60},
    }
    return claims | changes


def _sign(private, claims, kid="k1", alg="EdDSA"):
    return jwt.encode(claims, private, algorithm=alg, headers={"kid": kid})


@pytest.fixture
def setup():
    private, public = _key()
    verifier = TokenVerifier(clock=FakeClock(NOW))
    verifier.load({"keys": [public]})
    return private, verifier


def test_a_valid_token_gives_its_claims(setup):
    private, verifier = setup
    claims = verifier.verify(_sign(private, _claims()))
    assert (claims.client_id, claims.partner_id, claims.role, claims.scopes) == (
        "gpc_1",
        "p1",
        "partner",
        {"results:read"},
    )
    assert claims.rate == Policy(2, 60)


@pytest.mark.parametrize("changes", [{"aud": "elsewhere"}, {"iss": "someone"}, {"role": "operator"}, {"exp": "soon"}])
def test_wrong_audience_issuer_role_or_times_are_invalid(setup, changes):
    private, verifier = setup
    with pytest.raises(TokenError) as refused:
        verifier.verify(_sign(private, _claims(**changes)))
    assert refused.value.code == "invalid_token"


def test_a_token_signed_by_another_key_or_unsigned_is_invalid(setup):
    _, verifier = setup
    other, _ = _key()
    for token in (_sign(other, _claims()), jwt.encode(_claims(), None, algorithm="none", headers={"kid": "k1"})):
        with pytest.raises(TokenError) as refused:
            verifier.verify(token)
        assert refused.value.code == "invalid_token"


def test_a_tampered_payload_is_invalid_even_after_the_original_was_verified(setup):
    private, verifier = setup
    token = _sign(private, _claims())
    verifier.verify(token)
    head, _, sig = token.split(".")
    forged = base64.urlsafe_b64encode(json.dumps(_claims(partner_id="p2")).encode()).decode().rstrip("=")
    with pytest.raises(TokenError):
        verifier.verify(f"{head}.{forged}.{sig}")


def test_expiry_and_revocation_are_checked_on_every_use(setup):
    private, verifier = setup
    token = _sign(private, _claims())
    verifier.verify(token)
    verifier.clock.advance(301 + 5)
    with pytest.raises(TokenError) as expired:
        verifier.verify(token)
    assert expired.value.code == "expired_token"
    fresh = _sign(
        private, _claims(iat=int(verifier.clock.now().timestamp()), exp=int(verifier.clock.now().timestamp()) + 300)
    )
    verifier.verify(fresh)
    verifier.revoke(["gpc_1"], verifier.clock.now().timestamp())
    with pytest.raises(TokenError) as revoked:
        verifier.verify(fresh)
    assert revoked.value.code == "revoked_token"


async def test_unknown_key_ids_cost_one_fetch_however_many_tokens_name_them():
    private, public = _key("k2")
    fetches = []

    async def fetch():
        fetches.append(1)
        return {"keys": [public]}

    verifier = TokenVerifier(fetch, clock=FakeClock(NOW))
    ring = KeyRing(tokens=verifier)
    token = _sign(private, _claims(rl={"q": 100, "w": 60}), kid="k2")
    answers = await asyncio.gather(*(ring.authenticate(token, scope="results:read") for _ in range(5)))
    assert all(p.partner_id == "p1" for p, _ in answers)
    assert len(fetches) == 1


async def test_refreshes_share_one_http_client_until_the_verifier_closes():
    import httpx

    _, public = _key("k3")
    asked = []

    def answer(request: httpx.Request) -> httpx.Response:
        asked.append(request.url.path)
        if request.url.path == "/.well-known/jwks.json":
            return httpx.Response(200, json={"keys": [public]})
        return httpx.Response(200, json={"revoked": {"gpc_9": NOW.timestamp()}})

    fetch = HttpKeyFetch("http://partners.test/", transport=httpx.MockTransport(answer))
    verifier = TokenVerifier(fetch, clock=FakeClock(NOW))
    assert await verifier.refresh()
    client = fetch._client
    assert await verifier.refresh()
    assert fetch._client is client and not client.is_closed
    assert asked == ["/.well-known/jwks.json", "/v1/revocations"] * 2
    assert verifier.known_key(_sign(_key("k3")[0], _claims(), kid="k3"))
    await verifier.aclose()
    assert client.is_closed and fetch._client is None
    assert await verifier.refresh()  # a refresh after closing opens a new client
    await verifier.aclose()


def test_each_replica_admits_its_share_of_the_quota():
    ticks = [0.0]
    buckets = LocalBuckets(replicas=3, monotonic=lambda: ticks[0])
    policy = Policy(30, 60)
    admitted = sum(buckets.take("c", policy).allowed for _ in range(20))
    assert admitted == 10  # 30 / 3 replicas
    ticks[0] += 6  # 30 per 60 s shared by 3: 1 every 6 s here
    assert buckets.take("c", policy).allowed and not buckets.take("c", policy).allowed


def test_over_the_limit_the_refusal_carries_retry_after_and_the_policy(setup):
    private, verifier = setup
    ring = KeyRing(tokens=verifier)
    ring.limits = LocalBuckets(1, monotonic=lambda: 0.0)
    token = _sign(private, _claims())
    ring.admit(token, scope="results:read")
    ring.admit(token, scope="results:read")
    with pytest.raises(RateLimited) as limited:
        ring.admit(token, scope="results:read")
    assert limited.value.status == 429
    assert limited.value.headers["Retry-After"] == "30"
    assert limited.value.headers["RateLimit-Policy"] == '"partner";q=2;w=60'
