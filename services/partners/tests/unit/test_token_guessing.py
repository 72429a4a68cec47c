"""Issue 27 finding 6: the token endpoint cost a scrypt hash for a known client id and none for an
unknown one (its timing told which client ids exist), and it was never throttled. The refusal of
an unknown or a revoked client now costs the same hashing (counted here, not timed), and failures
are throttled per client id and per address (back-off, then a lockout)."""

from __future__ import annotations

import pytest
from partners_kit import OP, embedded, new_partner

from partners.domain import secret_hash
from partners.service_layer.token_throttle import ADDRESS_POLICY, CLIENT_POLICY, Policy, Throttle, TokenThrottle

FORM = {"grant_type": "client_credentials"}


@pytest.fixture
async def suite(tmp_path):
    async with embedded(tmp_path) as running:
        yield running.suite, running.client


async def test_unknown_known_and_revoked_clients_cost_one_hash_each(suite):
    s, c = suite
    service = s.services["partners"].extras["partners"]
    hashed: list[str] = []

    def counting(secret: str, stored: str) -> bool:
        hashed.append(stored)
        return secret_hash.verify_secret(secret, stored)

    service.verify_secret = counting
    cred = await new_partner(c, "app-one", ["results:read"], prefix="/partners")
    for client_id in ("gpc_unknown", cred["client_id"]):
        hashed.clear()
        r = await c.post("/partners/oauth/token", data=FORM, auth=(client_id, "gps_wrong"))
        assert r.status_code == 401 and r.json()["error"] == "invalid_client", r.text
        assert len(hashed) == 1, client_id  # the same scrypt work for both
    assert (
        await c.post(f"/partners/v1/credentials/{cred['client_id']}/revoke", headers=OP, json={})
    ).status_code == 200
    hashed.clear()
    r = await c.post("/partners/oauth/token", data=FORM, auth=(cred["client_id"], cred["client_secret"]))
    assert r.status_code == 401 and hashed == [secret_hash.dummy_hash()]


async def test_the_token_endpoint_backs_off_then_locks_a_client_id_out(suite):
    _, c = suite
    cred = await new_partner(c, "app-one", ["results:read"], prefix="/partners")
    answers = [
        await c.post("/partners/oauth/token", data=FORM, auth=(cred["client_id"], "gps_wrong"))
        for _ in range(CLIENT_POLICY.lockout_after)
    ]
    assert [a.status_code for a in answers[: CLIENT_POLICY.free + 1]] == [401] * (CLIENT_POLICY.free + 1)
    assert {a.status_code for a in answers[CLIENT_POLICY.free + 1 :]} <= {401, 429}
    locked = await c.post("/partners/oauth/token", data=FORM, auth=(cred["client_id"], cred["client_secret"]))
    assert locked.status_code == 429 and locked.json()["error"] == "too_many_attempts", locked.text
    assert CLIENT_POLICY.max_backoff_s < int(locked.headers["retry-after"]) <= CLIENT_POLICY.lockout_s
    assert locked.headers["cache-control"] == "no-store"
    # another client id from another address is not held up by it
    other = await new_partner(c, "app-two", ["results:read"], prefix="/partners")
    form = {**FORM, "client_id": other["client_id"], "client_secret": other["client_secret"]}
    answer = await c.post("/partners/oauth/token", data=form, headers={"x-forwarded-for": "203.0.113.9"})
    assert answer.status_code == 200, answer.text


class Ticking:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_waits_double_after_the_free_failures_and_end_in_the_lockout():
    policy = Policy(free=2, lockout_after=6, lockout_s=900, max_backoff_s=3)
    assert [policy.wait_s(n) for n in range(1, 8)] == [0, 0, 1, 2, 3, 900, 900]
    assert CLIENT_POLICY.free < CLIENT_POLICY.lockout_after and ADDRESS_POLICY.free > CLIENT_POLICY.free


def test_failures_are_forgotten_and_a_success_forgets_only_the_client_id():
    clock = Ticking()
    throttle = TokenThrottle(
        Throttle(Policy(free=0, lockout_after=99, lockout_s=900), clock),
        Throttle(Policy(free=0, lockout_after=99, lockout_s=900), clock),
    )
    throttle.failed("gpc_1", "198.51.100.1")
    assert throttle.retry_after_s("gpc_1", "198.51.100.2") == 1  # the client id waits
    assert throttle.retry_after_s("gpc_2", "198.51.100.1") == 1  # the address waits
    throttle.succeeded("gpc_1")
    assert throttle.retry_after_s("gpc_1", "198.51.100.2") == 0
    assert throttle.retry_after_s("gpc_2", "198.51.100.1") == 1  # one good secret pays for no guesses
    clock.now += 901  # forgotten a while after the last failure
    assert throttle.retry_after_s("gpc_2", "198.51.100.1") == 0
