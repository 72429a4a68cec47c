"""Credential rules: rotation with a grace period, revocation, the scopes a token may get."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from partners.domain.model import Credential, PartnerRuleError, RateLimit, grant, new_partner

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def _credential() -> Credential:
    return Credential("gpc_1", "app-one", "server", "hash-1", "active", T0)


def _partner(kind="partner", scopes=("entries:write", "results:read")):
    return new_partner("app-one", "App One", kind, list(scopes), RateLimit(60, 60), T0)


def test_rotation_keeps_the_old_secret_for_the_grace_period_only():
    rotated = _credential().rotated("hash-2", T0, timedelta(hours=1))
    assert rotated.hashes_accepted(T0 + timedelta(minutes=59)) == ["hash-2", "hash-1"]
    assert rotated.hashes_accepted(T0 + timedelta(hours=1)) == ["hash-2"]


def test_rotation_without_grace_ends_the_old_secret_at_once():
    rotated = _credential().rotated("hash-2", T0, timedelta(0))
    assert rotated.hashes_accepted(T0) == ["hash-2"]
    assert rotated.previous_valid_until is None


def test_a_second_rotation_drops_the_oldest_secret_even_within_its_grace():
    twice = (
        _credential()
        .rotated("hash-2", T0, timedelta(days=1))
        .rotated("hash-3", T0 + timedelta(hours=1), timedelta(days=1))
    )
    assert twice.hashes_accepted(T0 + timedelta(hours=2)) == ["hash-3", "hash-2"]


def test_a_revoked_credential_accepts_no_secret_and_cannot_be_rotated_or_revoked_again():
    rotated = _credential().rotated("hash-2", T0, timedelta(days=1))
    revoked = rotated.revoked(T0 + timedelta(minutes=5))
    assert revoked.status == "revoked" and revoked.hashes_accepted(T0 + timedelta(minutes=6)) == []
    with pytest.raises(PartnerRuleError) as refused:
        revoked.rotated("hash-3", T0, timedelta(0))
    assert refused.value.code == "credential_revoked"
    with pytest.raises(PartnerRuleError):
        revoked.revoked(T0)


def test_a_token_gets_every_scope_of_the_partner_unless_it_asks_for_fewer():
    partner = _partner()
    assert grant(partner, []) == {"entries:write", "results:read"}
    assert grant(partner, ["results:read"]) == {"results:read"}


@pytest.mark.parametrize("asked", [["games:play"], ["results:read", "admin"]])
def test_asking_for_a_scope_the_partner_lacks_is_refused_not_narrowed(asked):
    with pytest.raises(PartnerRuleError) as refused:
        grant(_partner(), asked)
    assert refused.value.code == "invalid_scope"


def test_a_suspended_partner_gets_no_token():
    from dataclasses import replace

    with pytest.raises(PartnerRuleError) as refused:
        grant(replace(_partner(), status="suspended"), [])
    assert refused.value.code == "partner_suspended"


def test_a_spectator_app_reads_only_and_its_tokens_have_the_viewer_role():
    spectator = _partner("spectator", ["results:read"])
    assert spectator.role == "viewer"
    with pytest.raises(PartnerRuleError) as refused:
        _partner("spectator", ["results:read", "games:play"])
    assert refused.value.code == "spectator_scope"


def test_unknown_scopes_and_no_scope_are_refused():
    with pytest.raises(PartnerRuleError) as unknown:
        _partner(scopes=["everything"])
    assert unknown.value.code == "unknown_scope"
    with pytest.raises(PartnerRuleError) as empty:
        _partner(scopes=[])
    assert empty.value.code == "no_scope"
