"""Throttling of failed sign-ins: wrong API keys (every service) and the staff console's sign-in
(portal), counted per client address and per presented credential.

A failure is counted; the first ``free`` failures cost nothing, every further one makes the
address (or credential) wait before its next try, doubling from 1 s up to ``max_delay_s``; at
``lockout_after`` failures it is locked out for ``lockout_s``. While it waits, every try from it
is answered 429 with ``Retry-After`` without being checked, a right key too (otherwise the 429s
and the 200 would tell a guesser which key is right). Failures are forgotten ``forget_s`` after
the last one. A success is never delayed and adds nothing: only failures are throttled, so a
client using many right keys is never slowed.

Kept in the process (as ``ratelimit.LocalBuckets``): every replica counts the failures it sees.
Behind a gateway that spreads requests over N replicas a guesser gets up to N times the figures
before every replica has locked it out; the lockout still bounds guessing to a few tries per
quarter hour per address. Presented credentials are kept only as a keyed hash (the key is
random per process).
"""

from __future__ import annotations

import hashlib
import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass

#: entries kept before the ones neither waiting nor recent are dropped
MAX_ENTRIES = 20_000


@dataclass(frozen=True)
class ThrottlePolicy:
    #: failures that cost nothing (a person mistyping)
    free: int = 5
    #: failures that lock the address (or credential) out
    lockout_after: int = 20
    lockout_s: int = 900
    #: the longest wait between two tries before the lockout
    max_delay_s: int = 60
    #: failures are forgotten this long after the last one
    forget_s: int = 900


@dataclass
class _Entry:
    failures: int
    last_failure: float
    blocked_until: float


class FailureThrottle:
    """Failures per key (``address:…`` or ``credential:…``) and the wait they impose."""

    def __init__(self, policy: ThrottlePolicy | None = None, monotonic: Callable[[], float] = time.monotonic) -> None:
        self.policy = policy or ThrottlePolicy()
        self._now = monotonic
        self._entries: dict[str, _Entry] = {}
        self._salt = os.urandom(16)

    @property
    def active(self) -> bool:
        """Whether any failure is remembered (none: a try needs no look-up at all)."""
        return bool(self._entries)

    def keys(self, address: str | None, credential: str | None) -> tuple[str, ...]:
        """The keys a try is counted under: its client address and its credential (hashed)."""
        out = []
        if address:
            out.append(f"address:{address}")
        if credential:
            digest = hashlib.blake2b(credential.encode("utf-8", "replace"), key=self._salt, digest_size=16)
            out.append(f"credential:{digest.hexdigest()}")
        return tuple(out)

    def wait_s(self, keys: tuple[str, ...]) -> int:
        """Seconds until a try under ``keys`` is admitted (0: now)."""
        now = self._now()
        longest = 0.0
        for key in keys:
            entry = self._entries.get(key)
            if entry is not None and entry.blocked_until > now:
                longest = max(longest, entry.blocked_until - now)
        return math.ceil(longest)

    def failed(self, keys: tuple[str, ...]) -> None:
        """Count a failed try under each of ``keys``."""
        now = self._now()
        policy = self.policy
        for key in keys:
            entry = self._entries.get(key)
            if entry is None or now - entry.last_failure > policy.forget_s:
                if entry is None and len(self._entries) >= MAX_ENTRIES:
                    self._forget(now)
                entry = self._entries[key] = _Entry(0, now, now)
            entry.failures += 1
            entry.last_failure = now
            if entry.failures >= policy.lockout_after:
                entry.blocked_until = now + policy.lockout_s
            elif entry.failures > policy.free:
                delay = min(2 ** (entry.failures - policy.free - 1), policy.max_delay_s)
                entry.blocked_until = max(entry.blocked_until, now + delay)

    def _forget(self, now: float) -> None:
        for key, entry in list(self._entries.items()):
            if entry.blocked_until <= now:
                del self._entries[key]
        if len(self._entries) >= MAX_ENTRIES:  # all of them waiting: the oldest failures go
            oldest = sorted(self._entries, key=lambda k: self._entries[k].last_failure)
            for key in oldest[: len(oldest) // 2]:
                del self._entries[key]


def throttled_details(wait_s: int, policy: ThrottlePolicy) -> dict[str, int]:
    """The ``details`` of a 429 ``too_many_failures``: the wait and the documented figures."""
    return {
        "retry_after_s": wait_s,
        "free_failures": policy.free,
        "lockout_after": policy.lockout_after,
        "lockout_s": policy.lockout_s,
    }
