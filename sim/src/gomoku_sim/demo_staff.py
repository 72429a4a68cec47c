"""The demo's staff accounts (issue 29): one account per staff role in the organisation that
owns the demo's events (the default one), created through the partners service's API as an
operator would (an invitation with the operator key, then its acceptance), and the table of
their sign-in names, passwords and roles printed at start."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any, TextIO

from gomoku_shared.staff_roles import DEFAULT_ORGANISATION, ROLE_WORDS, STAFF_ROLES


@dataclass(frozen=True)
class DemoAccount:
    login: str
    password: str
    role: str


def demo_login(role: str) -> str:
    return f"{role.replace('_', '-')}@demo.example"


async def create_demo_staff(
    client: Any, partners_base: str, operator_key: str, organisation: str = DEFAULT_ORGANISATION
) -> list[DemoAccount]:
    """One account per role in ``organisation`` (a fresh password each run)."""
    made = []
    headers = {"X-API-Key": operator_key}
    for role in STAFF_ROLES:
        login = demo_login(role)
        password = f"demo-{secrets.token_urlsafe(9)}"
        body = {"login": login, "name": f"Demo {ROLE_WORDS[role][1]}", "roles": [role]}
        invited = await client.post(
            f"{partners_base}/v1/organisations/{organisation}/invitations", json=body, headers=headers
        )
        invited.raise_for_status()
        token = invited.json()["token"]
        accepted = await client.post(f"{partners_base}/v1/invitations/{token}/accept", json={"password": password})
        accepted.raise_for_status()
        made.append(DemoAccount(login, password, role))
    return made


def print_demo_staff(accounts: list[DemoAccount], sign_in_at: str, out: TextIO) -> None:
    out.write(f"\nstaff accounts (organisation {DEFAULT_ORGANISATION}; sign in at {sign_in_at}):\n")
    width = max(len(a.login) for a in accounts)
    out.write(f"  {'sign-in name':<{width}}  {'password':<17}  role\n")
    for account in accounts:
        zh, en = ROLE_WORDS[account.role]
        out.write(f"  {account.login:<{width}}  {account.password:<17}  {account.role} ({zh}, {en})\n")
    out.flush()
