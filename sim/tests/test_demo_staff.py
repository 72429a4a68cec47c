"""Issue 29, the demo: one staff account per role in the default organisation, created through
the partners API (an operator's invitation, then its acceptance), each able to sign in with
the printed password and holding its role."""

from __future__ import annotations

import base64
import json

import pytest

from gomoku_shared.staff_roles import STAFF_ROLES
from gomoku_sim.demo import _staff_accounts
from gomoku_sim.demo_staff import demo_login
from gomoku_sim.stack import embedded_stack

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow


def _claims(token: str) -> dict:
    body = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))


async def test_issue_29_the_demo_creates_one_account_per_role_and_prints_them(tmp_path, capsys):
    async with embedded_stack(tmp_path) as stack:
        await _staff_accounts(stack, "embedded", None)
        printed = capsys.readouterr().out
        rows = {line.split()[0]: line.split()[1] for line in printed.splitlines() if "@demo.example" in line}
        assert set(rows) == {demo_login(role) for role in STAFF_ROLES}
        answer = await stack.platform.client.post(
            "/partners/v1/staff/sign-in",
            json={"login": "organiser@demo.example", "password": rows["organiser@demo.example"]},
        )
        assert answer.status_code == 200, answer.text
        assert _claims(answer.json()["access_token"])["orgs"] == {"default": ["organiser"]}
