"""Issue 34: the secret links, one mechanism for registrants' and delegations' links (the kind is
data): issued, verified, re-issued and revoked the same way, kept only as hashes; wrong tokens
throttled per client address as wrong API keys are (`gomoku_shared.throttle`), the 429 answered
unchecked while the address waits, another client's right token never slowed."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import pytest

from gomoku_shared.auth import Principal
from gomoku_shared.errors import ServiceError
from gomoku_shared.throttle import FailureThrottle, ThrottlePolicy
from registration.service_layer import secret_links as sl

FREE = 3
NOW = datetime(2022, 10, 26, 10, tzinfo=UTC)


class FakeLinks:
    """A kind's links in memory, as the repository keeps them: by event and holder, hash only."""

    def __init__(self) -> None:
        self.rows: dict[tuple[str, str], SimpleNamespace] = {}

    async def add(self, code: str, holder_id: str, *, token_sha256: str, phone: str, masked: str, **_: Any) -> None:
        self.rows[(code, holder_id)] = SimpleNamespace(event_code=code, holder=holder_id, token_sha256=token_sha256)

    async def by_hash(self, digest: str) -> Any:
        return next((r for r in self.rows.values() if r.token_sha256 == digest), None)

    async def of_holder(self, code: str, holder_id: str) -> Any:
        return self.rows.get((code, holder_id))

    async def replace(self, code: str, holder_id: str, *, token_sha256: str, **_: Any) -> None:
        self.rows[(code, holder_id)].token_sha256 = token_sha256


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def _world() -> tuple[Any, FailureThrottle, Clock]:
    repos = SimpleNamespace(links=FakeLinks(), delegation_links=FakeLinks())
    clock = Clock()
    throttle = FailureThrottle(ThrottlePolicy(free=FREE, lockout_after=FREE + 3, lockout_s=600), monotonic=clock)
    cmd = SimpleNamespace(uow=repos, code="sz22", now=NOW, principal=Principal("operator", key_id="op"))
    return cmd, throttle, clock


async def _refusal(call: Any) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        await call
    return caught.value


@pytest.mark.parametrize("kind", [sl.REGISTRANT, sl.DELEGATION], ids=lambda k: k.name)
async def test_issue_34_a_link_of_either_kind_is_issued_verified_relinked_and_revoked(kind):
    """Only the token's SHA-256 is kept; a re-issued link replaces the old (which then proves
    nothing); a revoked link proves nothing and a later re-issue gives a working one."""
    cmd, throttle, _ = _world()
    here = sl.Attempt(throttle, "203.0.113.5")
    token = await sl.issue(cmd, kind, "holder-1", "13812345678")
    stored = getattr(cmd.uow, kind.repository).rows[("sz22", "holder-1")]
    assert stored.token_sha256 == hashlib.sha256(token.encode()).hexdigest() != token
    assert (await sl.verify(cmd.uow, kind, token, here)).holder == "holder-1"

    new = await sl.relink(cmd, kind, "holder-1")
    assert new != token and (await sl.verify(cmd.uow, kind, new, here)).holder == "holder-1"
    old = await _refusal(sl.verify(cmd.uow, kind, token, here))
    assert old.status == 404 and old.code == kind.unknown().code

    await sl.revoke(cmd, kind, "holder-1")
    assert (await _refusal(sl.verify(cmd.uow, kind, new, here))).status == 404
    again = await sl.relink(cmd, kind, "holder-1")
    assert (await sl.verify(cmd.uow, kind, again, here)).holder == "holder-1"
    unheld = await _refusal(sl.relink(cmd, kind, "holder-2"))
    assert unheld.status == 422 and unheld.code == kind.not_held().code


async def test_issue_34_wrong_tokens_are_throttled_per_address_and_others_are_not_slowed():
    """After the free wrong tokens (of either kind) an address waits: every try from it, the
    right token too, is answered 429 too_many_link_failures with Retry-After and the figures;
    another address's right token still works; after the wait the right token works again."""
    cmd, throttle, clock = _world()
    registrant = await sl.issue(cmd, sl.REGISTRANT, "entry-1", "13812345678")
    guesser = sl.Attempt(throttle, "198.51.100.7")
    parent = sl.Attempt(throttle, "203.0.113.5")
    for i in range(FREE + 1):  # the free ones and one more, the kinds mixed: 404 each
        kind = sl.REGISTRANT if i % 2 else sl.DELEGATION
        wrong = await _refusal(sl.verify(cmd.uow, kind, f"guess-{i:02d}-aaaaaaaaaaaaaaaa", guesser))
        assert wrong.status == 404, wrong.code
    blocked = await _refusal(sl.verify(cmd.uow, sl.REGISTRANT, registrant, guesser))
    assert blocked.status == 429 and blocked.code == "too_many_link_failures"
    assert blocked.details["retry_after_s"] >= 1 and blocked.details["free_failures"] == FREE
    assert blocked.headers == {"Retry-After": str(blocked.details["retry_after_s"])}
    assert registrant not in blocked.message

    assert (await sl.verify(cmd.uow, sl.REGISTRANT, registrant, parent)).holder == "entry-1"
    clock.t += blocked.details["retry_after_s"]
    assert (await sl.verify(cmd.uow, sl.REGISTRANT, registrant, guesser)).holder == "entry-1"


async def test_issue_34_a_right_token_adds_no_failure():
    """Only wrong tokens count: a parent reading their entry many times is never throttled."""
    cmd, throttle, _ = _world()
    token = await sl.issue(cmd, sl.DELEGATION, "unit-1", "13812345678")
    parent = sl.Attempt(throttle, "203.0.113.5")
    for _ in range(FREE * 3):
        assert (await sl.verify(cmd.uow, sl.DELEGATION, token, parent)).holder == "unit-1"
    assert not throttle.active
