"""Issue 29, the domain of staff accounts: logins are normalised, passwords have rules and are
argon2id hashes, links expire and work once, the last administrator stays, roles are checked
against the role table and the events' owners, TOTP codes match within a step."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pyotp
import pytest

from gomoku_shared.errors import ServiceError
from partners.domain import passwords
from partners.domain.claims import staff_claims
from partners.domain.staff import (
    Invitation,
    Roles,
    check_administrators,
    check_password,
    normalise_login,
    validated_roles,
)

NOW = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def _refusal(call) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        call()
    error = caught.value
    assert set(error.details["words"]) == {"zh", "en"} and all(error.details["words"].values())
    return error


def test_issue_29_logins_are_normalised_phone_numbers_or_email_addresses():
    assert normalise_login("  Li.Wei@Example.COM ") == "li.wei@example.com"
    assert normalise_login("+86 138-0013-8000") == "+8613800138000"
    assert normalise_login("(0755) 8888 1234") == "075588881234"
    for bad in ("nobody", "a@b", "12", "li wei@example.com", "x" * 300 + "@example.com"):
        assert _refusal(lambda bad=bad: normalise_login(bad)).code == "invalid_login"


def test_issue_29_password_rules_min_length_and_not_the_login():
    check_password("correct horse", "li@example.com")
    assert _refusal(lambda: check_password("short", "li@example.com")).code == "weak_password"
    error = _refusal(lambda: check_password("13800138000", "13800138000"))
    assert error.code == "weak_password" and error.status == 422
    assert _refusal(lambda: check_password("Li@Example.com", "li@example.com")).code == "weak_password"


def test_issue_29_passwords_are_argon2id_hashes_and_verify():
    stored = passwords.hash_password("correct horse")
    assert stored.startswith("$argon2id$") and "correct horse" not in stored
    assert passwords.verify_password("correct horse", stored)
    assert not passwords.verify_password("wrong horse!", stored)
    assert not passwords.verify_password("correct horse", "not a hash")
    assert not passwords.verify_password("anything at all", passwords.dummy_hash())


def _invitation(**changes) -> Invitation:
    base = {
        "invitation_id": "inv-1",
        "token_hash": passwords.token_hash("t"),
        "kind": "invite",
        "org_id": "sz-assoc",
        "login": "li@example.com",
        "name": "Li Wei",
        "roles": Roles(frozenset({"arbiter"})),
        "created_by": "operator:k1",
        "created_at": NOW,
        "expires_at": NOW + timedelta(days=7),
    }
    return Invitation(**(base | changes))


def test_issue_29_an_invitation_expires_and_works_once():
    _invitation().check_open(NOW + timedelta(days=6))
    expired = _refusal(lambda: _invitation().check_open(NOW + timedelta(days=7)))
    assert (expired.code, expired.status) == ("invitation_expired", 410)
    used = _refusal(lambda: _invitation(used_at=NOW).check_open(NOW))
    assert (used.code, used.status) == ("invitation_used", 409)
    assert passwords.token_hash("t") != "t" and len(passwords.token_hash("t")) == 64


def test_issue_29_the_last_administrator_cannot_be_removed_or_disabled():
    check_administrators("a1", still_admin=False, other_admins=1, is_admin=True)
    check_administrators("a1", still_admin=False, other_admins=0, is_admin=False)
    check_administrators("a1", still_admin=True, other_admins=0, is_admin=True)
    error = _refusal(lambda: check_administrators("a1", still_admin=False, other_admins=0, is_admin=True))
    assert (error.code, error.status) == ("last_administrator", 409)


def test_issue_29_roles_validation():
    owners = {"sz22": "sz-assoc", "ny22": "ny-assoc", "unheard": None}
    roles = validated_roles("sz-assoc", ["admin", "organiser"], {"sz22": ["arbiter"]}, owners)
    assert roles.org_roles == {"admin", "organiser"} and roles.events == {"sz22": {"arbiter"}}
    cases = [
        (["referee"], {}, "unknown_role"),
        ([], {"sz22": ["boss"]}, "unknown_role"),
        ([], {"sz22": ["admin"]}, "admin_is_organisation_wide"),
        ([], {"unheard": ["arbiter"]}, "unknown_event"),
        ([], {"ny22": ["arbiter"]}, "event_of_another_organisation"),
    ]
    for org_roles, events, code in cases:
        error = _refusal(
            lambda org_roles=org_roles, events=events: validated_roles("sz-assoc", org_roles, events, owners)
        )
        assert (error.code, error.status) == (code, 422)


def test_issue_29_totp_codes_match_within_one_step():
    secret = passwords.new_totp_secret()
    code = pyotp.TOTP(secret).at(NOW)
    assert passwords.totp_matches(secret, code, NOW)
    assert passwords.totp_matches(secret, code, NOW + timedelta(seconds=30))
    assert not passwords.totp_matches(secret, code, NOW + timedelta(minutes=5))
    assert not passwords.totp_matches(secret, "abcdef", NOW)
    assert passwords.totp_uri(secret, "li@example.com").startswith("otpauth://totp/Gomoku:li%40example.com?secret=")


def test_issue_29_staff_token_claims_as_the_shared_core_reads_them():
    roles = {"sz-assoc": Roles(frozenset({"admin"}), {"sz22": frozenset({"arbiter", "recorder"})})}
    claims = staff_claims("acc-1", "Li Wei", roles, NOW, 600, "jti-1", after=NOW)
    assert claims == {
        "iss": "gomoku-partners",
        "aud": "gomoku-platform",
        "sub": "acct:acc-1",
        "account_id": "acc-1",
        "name": "Li Wei",
        "role": "staff",
        "orgs": {"sz-assoc": ["admin"]},
        "events": {"sz22": ["arbiter", "recorder"]},
        "iat": int(NOW.timestamp()) + 1,  # dated after the person's last revocation
        "exp": int(NOW.timestamp()) + 601,
        "jti": "jti-1",
    }
