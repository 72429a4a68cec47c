"""Helpers of the staff-account tests (issue 29): an operator creating an organisation and
inviting people, a person accepting and signing in, and the claims of a staff token."""

from __future__ import annotations

import base64
import json

import httpx

OP = {"x-api-key": "op-key"}
PASSWORD = "a long enough password"


def claims(token: str) -> dict:
    body = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


async def organisation(client: httpx.AsyncClient, org_id: str, prefix: str = "") -> dict:
    r = await client.post(f"{prefix}/v1/organisations", headers=OP, json={"id": org_id, "name": org_id.title()})
    assert r.status_code == 201, r.text
    return r.json()


async def invite(
    client: httpx.AsyncClient,
    org_id: str,
    login: str,
    *,
    by: dict[str, str] = OP,
    roles: list[str] | None = None,
    events: dict | None = None,
    prefix: str = "",
) -> dict:
    body = {"login": login, "name": login.split("@")[0].title(), "roles": roles or [], "events": events or {}}
    r = await client.post(f"{prefix}/v1/organisations/{org_id}/invitations", headers=by, json=body)
    assert r.status_code == 201, r.text
    return r.json()


async def accept(client: httpx.AsyncClient, link: dict, password: str = PASSWORD, prefix: str = "") -> dict:
    r = await client.post(f"{prefix}/v1/invitations/{link['token']}/accept", json={"password": password})
    assert r.status_code == 201, r.text
    return r.json()


async def sign_in(client: httpx.AsyncClient, login: str, password: str = PASSWORD, prefix: str = "", **extra) -> dict:
    r = await client.post(f"{prefix}/v1/staff/sign-in", json={"login": login, "password": password, **extra})
    assert r.status_code == 200, r.text
    return r.json()


def refused(r: httpx.Response, status: int, code: str) -> dict:
    assert r.status_code == status, r.text
    error = r.json()["error"]
    assert error["code"] == code, error
    return error
