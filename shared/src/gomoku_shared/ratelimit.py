"""Rate limits per credential: a token bucket per access-token client, kept in each replica.

Holding across replicas: a service run as N replicas behind the gateway (round-robin) gives
each replica ``quota / N`` of the partner's quota (``RATE_LIMIT_REPLICAS=N``), so the whole
service admits about the partner's quota however requests are spread. Nothing is shared at
request time: taking a token is a dictionary look-up and a few float operations (the cost is
in ``bench/tokens.py``). The partner's policy travels in its access token (claim ``rl``), so a
changed limit applies to the next token, within the token lifetime.

Headers (IETF draft "RateLimit header fields for HTTP"): ``RateLimit-Policy: "partner";q=Q;w=W``
and ``RateLimit: "partner";r=R;t=T`` on every answer to a token, and ``Retry-After`` on a 429.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

#: the policy name in the headers
POLICY_NAME = "partner"
#: buckets kept before the full (idle) ones are dropped
MAX_BUCKETS = 10_000


@dataclass(frozen=True)
class Policy:
    """``quota`` requests per ``window_s`` seconds, in bursts of up to ``quota``."""

    quota: int
    window_s: int

    @property
    def rate(self) -> float:
        return self.quota / self.window_s


@dataclass(frozen=True)
class Decision:
    allowed: bool
    #: requests left in the partner's quota (this replica's share scaled to the whole service)
    remaining: int
    #: seconds until the bucket is full again
    reset_s: int
    #: seconds to wait before the next request is admitted (0 when allowed)
    retry_after_s: int
    policy: Policy

    def headers(self) -> dict[str, str]:
        out = {
            "RateLimit-Policy": f'"{POLICY_NAME}";q={self.policy.quota};w={self.policy.window_s}',
            "RateLimit": f'"{POLICY_NAME}";r={self.remaining};t={self.reset_s}',
        }
        if not self.allowed:
            out["Retry-After"] = str(self.retry_after_s)
        return out


class LocalBuckets:
    """Token buckets of one process, each holding this replica's share of a policy."""

    def __init__(self, replicas: int = 1, monotonic: Callable[[], float] = time.monotonic) -> None:
        if replicas < 1:
            raise ValueError("RATE_LIMIT_REPLICAS must be at least 1")
        self.replicas = replicas
        self._now = monotonic
        #: client id -> (tokens left, when last filled)
        self._buckets: dict[str, tuple[float, float]] = {}

    def take(self, client: str, policy: Policy) -> Decision:
        capacity = max(1.0, policy.quota / self.replicas)
        rate = policy.rate / self.replicas
        now = self._now()
        tokens, filled_at = self._buckets.get(client, (capacity, now))
        tokens = min(capacity, tokens + (now - filled_at) * rate)
        allowed = tokens >= 1.0
        if allowed:
            tokens -= 1.0
        if len(self._buckets) >= MAX_BUCKETS and client not in self._buckets:
            self._forget_full(now)
        self._buckets[client] = (tokens, now)
        retry = 0 if allowed else max(1, math.ceil((1.0 - tokens) / rate))
        return Decision(
            allowed=allowed,
            remaining=min(policy.quota, int(tokens * self.replicas)),
            reset_s=math.ceil((capacity - tokens) / rate),
            retry_after_s=retry,
            policy=policy,
        )

    def _forget_full(self, now: float) -> None:
        """Drop buckets that have refilled (an idle client starts full again anyway)."""
        for client, (tokens, filled_at) in list(self._buckets.items()):
            if filled_at < now - 3600 or tokens >= 1.0:
                del self._buckets[client]
