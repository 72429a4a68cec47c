"""Issue 27 finding 6: failed sign-ins throttled per client address and per credential
(``gomoku_shared.throttle``), the client address as trusted proxies name it, and the key ring's
429 ``too_many_failures``."""

from __future__ import annotations

import pytest

from gomoku_shared.auth import KeyRing, RateLimited, Unauthorized
from gomoku_shared.client_address import TrustedProxies
from gomoku_shared.throttle import FailureThrottle, ThrottlePolicy


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_free_failures_then_a_doubling_wait_then_the_lockout():
    clock = Clock()
    throttle = FailureThrottle(ThrottlePolicy(free=3, lockout_after=8, lockout_s=900, max_delay_s=4), clock)
    keys = throttle.keys("192.0.2.1", None)
    waits = []
    for _ in range(8):
        throttle.failed(keys)
        waits.append(throttle.wait_s(keys))
        clock.now += waits[-1]  # the client waits as told
    assert waits == [0, 0, 0, 1, 2, 4, 4, 900]


def test_failures_are_forgotten_and_other_addresses_are_not_slowed():
    clock = Clock()
    throttle = FailureThrottle(ThrottlePolicy(free=1, lockout_after=3, lockout_s=60, forget_s=600), clock)
    guesser, person = throttle.keys("192.0.2.1", None), throttle.keys("198.51.100.2", None)
    for _ in range(3):
        throttle.failed(guesser)
    assert throttle.wait_s(guesser) == 60 and throttle.wait_s(person) == 0
    clock.now += 601  # the lockout is over and the failures are forgotten
    throttle.failed(guesser)
    assert throttle.wait_s(guesser) == 0


def test_a_credential_is_kept_only_as_a_keyed_hash():
    throttle = FailureThrottle()
    keys = throttle.keys("192.0.2.1", "a-secret-key")
    assert keys[0] == "address:192.0.2.1" and "a-secret-key" not in keys[1]
    assert FailureThrottle().keys(None, "a-secret-key") != throttle.keys(None, "a-secret-key")  # salted per process


def test_the_key_ring_refuses_unchecked_while_an_address_waits_and_never_counts_successes():
    ring = KeyRing("op-key=operator")
    ring.throttle = FailureThrottle(ThrottlePolicy(free=2, lockout_after=3, lockout_s=300))
    for _ in range(50):  # successes from one address are never slowed
        ring.admit("op-key", scope="results:read", client="192.0.2.1")
    for n in range(3):
        with pytest.raises(Unauthorized):
            ring.admit(f"guess-{n}", scope="results:read", client="192.0.2.1")
    with pytest.raises(RateLimited) as refused:
        ring.admit("op-key", scope="results:read", client="192.0.2.1")
    assert refused.value.code == "too_many_failures" and refused.value.headers == {"Retry-After": "300"}
    assert refused.value.details["lockout_s"] == 300
    principal, _ = ring.admit("op-key", scope="results:read", client="198.51.100.2")
    assert principal.role == "operator"


def test_x_forwarded_for_counts_only_from_a_trusted_proxy():
    def scope(peer: str, forwarded: str | None = None) -> dict:
        headers = [(b"x-forwarded-for", forwarded.encode())] if forwarded else []
        return {"client": (peer, 5000), "headers": headers}

    default = TrustedProxies()
    assert default.client(scope("127.0.0.1", "203.0.113.5, 10.0.0.1")) == "203.0.113.5"
    assert default.client(scope("192.0.2.7", "203.0.113.5")) == "192.0.2.7"  # not a proxy of ours
    networks = TrustedProxies("10.0.0.0/8, 172.16.0.0/12")
    assert networks.client(scope("10.1.2.3", "203.0.113.5")) == "203.0.113.5"
    assert networks.client(scope("10.1.2.3")) == "10.1.2.3"
    assert TrustedProxies("*").client(scope("192.0.2.7", "203.0.113.5")) == "203.0.113.5"
    assert default.client({"headers": []}) is None
