"""Offboarding and Idempotency-Key in the partners service (issue 27 findings 5 and 10), embedded
(SQLite, in-memory bus): the rules a served test need not repeat."""

from __future__ import annotations

import pytest
from partners_kit import OP, embedded, new_partner
from sqlalchemy import select

from partners.adapters.orm import idempotency_keys


@pytest.fixture
async def suite(tmp_path):
    async with embedded(tmp_path) as running:
        yield running.suite, running.client


async def test_a_keyed_credential_is_issued_once_and_its_secret_is_not_stored_in_clear(suite):
    s, c = suite
    await new_partner(c, "app-one", ["results:read"], prefix="/partners")
    keyed = {**OP, "idempotency-key": "cred-1"}
    path = "/partners/v1/partners/app-one/credentials"
    first = await c.post(path, headers=keyed, json={"label": "second server"})
    again = await c.post(path, headers=keyed, json={"label": "second server"})
    assert first.status_code == again.status_code == 201, (first.text, again.text)
    assert again.json() == first.json() and again.headers["idempotent-replayed"] == "true"
    detail = (await c.get("/partners/v1/partners/app-one", headers=OP)).json()
    assert len(detail["credentials"]) == 2  # the one of new_partner and this one, once
    reused = await c.post(path, headers=keyed, json={"label": "another"})
    assert reused.status_code == 409 and reused.json()["error"]["code"] == "idempotency_key_reused"
    runtime = s.services["partners"].runtime
    async with runtime.sessionmaker() as session:
        stored = (await session.execute(select(idempotency_keys.c.response))).scalars().all()
    assert stored and first.json()["client_secret"] not in str(stored)


async def test_suspension_and_resumption_are_refused_twice_and_audited(suite):
    _, c = suite
    await new_partner(c, "app-one", ["results:read"], prefix="/partners")
    base = "/partners/v1/partners"
    assert (await c.post(f"{base}/app-one/suspend", headers=OP, json={"reason": "audit"})).status_code == 200
    again = await c.post(f"{base}/app-one/suspend", headers=OP, json={"reason": "audit"})
    assert again.status_code == 409 and again.json()["error"]["code"] == "partner_suspended"
    issued = await c.post(f"{base}/app-one/credentials", headers=OP, json={"label": "x"})
    assert issued.status_code == 409 and issued.json()["error"]["code"] == "partner_suspended"
    assert (await c.post(f"{base}/app-one/resume", headers=OP, json={"reason": "ok"})).status_code == 200
    twice = await c.post(f"{base}/app-one/resume", headers=OP, json={"reason": "ok"})
    assert twice.status_code == 409 and twice.json()["error"]["code"] == "partner_not_suspended"
    empty = await c.post(f"{base}/app-one/suspend", headers=OP, json={"reason": ""})
    assert empty.status_code == 422  # a suspension says why
    missing = await c.post(f"{base}/nobody/suspend", headers=OP, json={"reason": "x"})
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "partner_not_found"
    actions = [e["action"] for e in (await c.get("/partners/v1/audit", headers=OP)).json()["items"]]
    assert actions[:2] == ["partner.resumed", "partner.suspended"]
    unknown = await c.post(f"{base}/app-one/subscriptions/sub_nope/disable", headers=OP, json={"reason": "x"})
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "subscription_not_found"
