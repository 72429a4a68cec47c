"""What the API shows of organisations, staff accounts and invitations (never a hash, a
secret or a token)."""

from __future__ import annotations

from typing import Any

from ..domain.staff import Account, Invitation, Organisation, Roles


def organisation(org: Organisation) -> dict[str, Any]:
    return {"id": org.org_id, "name": org.name, "name_zh": org.name_zh, "created_at": org.created_at.isoformat()}


def account(found: Account) -> dict[str, Any]:
    return {
        "account_id": found.account_id,
        "name": found.name,
        "login": found.login,
        "disabled": found.disabled,
        "totp_enabled": found.totp_enabled,
        "created_at": found.created_at.isoformat(),
    }


def held(roles: dict[str, Roles]) -> dict[str, Any]:
    """A person's roles: {"organisations": {org: [roles]}, "events": {code: [roles]}}."""
    orgs = {org: held.as_json()["roles"] for org, held in sorted(roles.items()) if held.org_roles}
    events: dict[str, list[str]] = {}
    for held_roles in roles.values():
        for code, listed in held_roles.as_json()["events"].items():
            events[code] = sorted(set(events.get(code, [])) | set(listed))
    return {"organisations": orgs, "events": dict(sorted(events.items()))}


def invitation(found: Invitation, org: Organisation, existing_account: bool) -> dict[str, Any]:
    return {
        "invitation_id": found.invitation_id,
        "kind": found.kind,
        "organisation": organisation(org),
        "login": found.login,
        "name": found.name,
        **found.roles.as_json(),
        "expires_at": found.expires_at.isoformat(),
        "existing_account": existing_account,
    }
