"""Helpers of the partners tests: an operator creating partners and credentials, and the
client-credentials grant as a partner's OAuth library sends it."""

from __future__ import annotations

import httpx

OP = {"x-api-key": "op-key"}
KEYS = "op-key=operator,arb-key=arbiter"


async def new_partner(
    client: httpx.AsyncClient, partner_id: str, scopes: list[str], *, prefix: str = "", **extra
) -> dict:
    r = await client.post(
        f"{prefix}/v1/partners",
        headers=OP,
        json={"partner_id": partner_id, "name": partner_id.title(), "scopes": scopes, **extra},
    )
    assert r.status_code == 201, r.text
    r = await client.post(f"{prefix}/v1/partners/{partner_id}/credentials", headers=OP, json={"label": "server"})
    assert r.status_code == 201, r.text
    return r.json()


async def token(client: httpx.AsyncClient, credential: dict, *, prefix: str = "", scope: str | None = None) -> str:
    form = {"grant_type": "client_credentials"}
    if scope:
        form["scope"] = scope
    r = await client.post(
        f"{prefix}/oauth/token", data=form, auth=(credential["client_id"], credential["client_secret"])
    )
    assert r.status_code == 200, r.text
    return r.json()["access_token"]


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}
