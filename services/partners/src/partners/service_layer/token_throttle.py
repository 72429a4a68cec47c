"""Throttling of the token endpoint: how long a client id, or a client address, waits after
failed authentications (guessing secrets costs time, then is locked out).

Failures are counted per client id and per client address. The first ``free`` failures cost
nothing; each further one makes that key wait twice as long as the one before (1 s, 2 s, 4 s, …,
at most ``max_backoff_s``); at ``lockout_after`` failures the key is locked out for
``lockout_s``. An attempt made while a key must wait is refused and counts as a failure too
(guessing at speed reaches the lockout sooner). A key's failures are forgotten ``forget_s`` after its last one; a successful
authentication forgets the client id's failures (not the address's: one valid credential must
not pay for guessing others). The state is the process's own (each replica counts its own).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Policy:
    free: int
    lockout_after: int
    lockout_s: float
    max_backoff_s: float = 60.0
    forget_s: float = 900.0

    def wait_s(self, failures: int) -> float:
        """How long a key waits after its ``failures``-th failure in a row."""
        if failures >= self.lockout_after:
            return self.lockout_s
        if failures <= self.free:
            return 0.0
        return min(self.max_backoff_s, 2.0 ** (failures - self.free - 1))


#: a client id: few tries before the back-off (a partner mistyping its secret), 15 minutes locked
#: out after 20 failures
CLIENT_POLICY = Policy(free=5, lockout_after=20, lockout_s=900.0)
#: a client address tries many client ids (an office behind one address): more before the back-off
ADDRESS_POLICY = Policy(free=20, lockout_after=100, lockout_s=900.0)
#: keys remembered at most (the oldest are forgotten first)
MAX_KEYS = 100_000


@dataclass
class _Failures:
    count: int
    last: float
    until: float


class Throttle:
    """Failures and waits of the keys of one kind (client ids or addresses)."""

    def __init__(self, policy: Policy, now: Callable[[], float] = time.monotonic) -> None:
        self.policy = policy
        self.now = now
        self._keys: OrderedDict[str, _Failures] = OrderedDict()

    def retry_after_s(self, key: str) -> int:
        """Whole seconds ``key`` must still wait (0: it may try now)."""
        found = self._keys.get(key)
        if found is None:
            return 0
        now = self.now()
        if now - found.last > self.policy.forget_s:
            del self._keys[key]
            return 0
        return max(0, math.ceil(found.until - now))

    def failed(self, key: str) -> None:
        now = self.now()
        found = self._keys.pop(key, None)
        count = 1 if found is None or now - found.last > self.policy.forget_s else found.count + 1
        self._keys[key] = _Failures(count, now, now + self.policy.wait_s(count))
        while len(self._keys) > MAX_KEYS:
            self._keys.popitem(last=False)

    def succeeded(self, key: str) -> None:
        self._keys.pop(key, None)


@dataclass
class TokenThrottle:
    """The token endpoint's two throttles: per client id and per client address."""

    clients: Throttle
    addresses: Throttle

    @classmethod
    def default(cls, now: Callable[[], float] = time.monotonic) -> TokenThrottle:
        return cls(Throttle(CLIENT_POLICY, now), Throttle(ADDRESS_POLICY, now))

    def retry_after_s(self, client_id: str | None, address: str) -> int:
        waits = [self.addresses.retry_after_s(address)]
        if client_id:
            waits.append(self.clients.retry_after_s(client_id))
        return max(waits)

    def failed(self, client_id: str | None, address: str) -> None:
        self.addresses.failed(address)
        if client_id:
            self.clients.failed(client_id)

    def succeeded(self, client_id: str) -> None:
        self.clients.succeeded(client_id)
