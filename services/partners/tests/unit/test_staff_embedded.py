"""Issue 29 in the embedded process (in-memory bus, SQLite, fake clock): organisations,
invitations and their links, roles per organisation and per event, the last administrator,
sign-in with sessions, TOTP, and the revocation of a person's tokens."""

from __future__ import annotations

import pyotp
import pytest
from partners_kit import START, embedded
from staff_kit import OP, PASSWORD, accept, bearer, claims, invite, organisation, refused, sign_in

from partners.service_layer.ambient import own_transaction

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow


@pytest.fixture
async def suite(tmp_path):
    async with embedded(tmp_path, base_url="http://embedded/partners") as running:
        yield running.suite, running.client, running.clock


async def _event(s, code: str, organisation_id: str) -> None:
    """What event.access_changed from registration records: the event's owner."""
    svc = s.services["partners"]
    async with own_transaction(svc.runtime) as uow:
        await svc.app.state.organisations.on_access_changed(uow, code, organisation_id, None, START)


async def test_issue_29_an_organisation_its_admin_and_an_arbiter_for_one_event(suite):
    s, c, _ = suite
    await organisation(c, "sz-assoc")
    refused(
        await c.post("/v1/organisations", headers=OP, json={"id": "sz-assoc", "name": "Again"}),
        409,
        "duplicate_organisation",
    )
    listed = (await c.get("/v1/organisations", headers=OP)).json()["items"]
    assert {o["id"] for o in listed} == {"default", "sz-assoc"}
    assert next(o for o in listed if o["id"] == "default")["name_zh"] == "平台默认组织"
    await _event(s, "sz22", "sz-assoc")
    await _event(s, "ny22", "default")

    link = await invite(c, "sz-assoc", "Admin@SZ.example", roles=["admin"])
    assert link["accept_path"] == f"/staff/invitations/{link['token']}"
    shown = (await c.get(f"/v1/invitations/{link['token']}")).json()
    assert (shown["organisation"]["id"], shown["login"], shown["roles"]) == ("sz-assoc", "admin@sz.example", ["admin"])
    refused(await c.post(f"/v1/invitations/{link['token']}/accept", json={"password": "short"}), 422, "weak_password")
    await accept(c, link)
    refused(await c.get(f"/v1/invitations/{link['token']}"), 409, "invitation_used")
    admin = await sign_in(c, "admin@sz.example")
    assert claims(admin["access_token"])["orgs"] == {"sz-assoc": ["admin"]}
    by_admin = bearer(admin["access_token"])

    arbiter_link = await invite(c, "sz-assoc", "13800138000", by=by_admin, events={"sz22": ["arbiter"]})
    await accept(c, arbiter_link)
    arbiter = await sign_in(c, "+86 ".replace("+86 ", "") + "138-0013-8000")
    token = claims(arbiter["access_token"])
    assert (token["role"], token["orgs"], token["events"]) == ("staff", {}, {"sz22": ["arbiter"]})
    assert token["sub"] == f"acct:{token['account_id']}" and token["exp"] - token["iat"] == 600

    # the arbiter is not an admin; an admin of another organisation neither
    refused(
        await c.get("/v1/organisations/sz-assoc/staff", headers=bearer(arbiter["access_token"])),
        403,
        "not_your_organisation",
    )
    refused(await c.get("/v1/organisations/default/staff", headers=by_admin), 403, "not_your_organisation")
    refused(
        await c.get("/v1/organisations/sz-assoc/staff", headers={"x-api-key": "arb-key"}), 403, "not_your_organisation"
    )
    for events, code in (
        ({"ny22": ["arbiter"]}, "event_of_another_organisation"),
        ({"xx": ["arbiter"]}, "unknown_event"),
        ({"sz22": ["admin"]}, "admin_is_organisation_wide"),
    ):
        r = await c.post(
            "/v1/organisations/sz-assoc/invitations",
            headers=by_admin,
            json={"login": "x@sz.example", "name": "X", "events": events},
        )
        assert refused(r, 422, code)["details"]["words"]["zh"]
    r = await c.post(
        "/v1/organisations/sz-assoc/invitations",
        headers=by_admin,
        json={"login": "x@sz.example", "name": "X", "roles": ["referee"]},
    )
    refused(r, 422, "unknown_role")

    staff = (await c.get("/v1/organisations/sz-assoc/staff", headers=by_admin)).json()["items"]
    assert sorted((m["login"], m["roles"], m["events"]) for m in staff) == [
        ("13800138000", [], {"sz22": ["arbiter"]}),
        ("admin@sz.example", ["admin"], {}),
    ]
    me = (await c.get("/v1/staff/me", headers=by_admin)).json()
    assert me["organisations"][0]["id"] == "sz-assoc" and me["organisations"][0]["roles"] == ["admin"]
    mine = (await c.get("/v1/organisations", headers=bearer(arbiter["access_token"]))).json()["items"]
    assert [o["id"] for o in mine] == ["sz-assoc"]


async def test_issue_29_last_administrator_roles_and_disabling_revoke_tokens(suite):
    s, c, _ = suite
    await organisation(c, "sz-assoc")
    await accept(c, await invite(c, "sz-assoc", "admin@sz.example", roles=["admin"]))
    admin = await sign_in(c, "admin@sz.example")
    admin_id = admin["account"]["account_id"]
    roles_path = f"/v1/organisations/sz-assoc/staff/{admin_id}/roles"
    error = refused(await c.put(roles_path, headers=OP, json={"roles": ["organiser"]}), 409, "last_administrator")
    assert error["details"]["words"]["en"]
    refused(await c.post(f"/v1/organisations/sz-assoc/staff/{admin_id}/disable", headers=OP), 409, "last_administrator")
    assert (await c.get("/v1/staff/me", headers=bearer(admin["access_token"]))).status_code == 200  # nothing changed

    await accept(c, await invite(c, "sz-assoc", "second@sz.example", roles=["admin", "organiser"]))
    second = await sign_in(c, "second@sz.example")
    second_id = second["account"]["account_id"]
    r = await c.put(roles_path, headers=bearer(second["access_token"]), json={"roles": ["organiser"]})
    assert r.status_code == 200 and r.json()["roles"] == ["organiser"]
    refused(await c.get("/v1/staff/me", headers=bearer(admin["access_token"])), 401, "revoked_token")
    renewed = await c.post(
        "/v1/staff/refresh", json={"session_id": admin["session_id"], "refresh_token": admin["refresh_token"]}
    )
    assert claims(renewed.json()["access_token"])["orgs"] == {"sz-assoc": ["organiser"]}
    revoked = (await c.get("/v1/revocations", headers=OP)).json()["revoked"]
    assert f"acct:{admin_id}" in revoked

    r = await c.post(f"/v1/organisations/sz-assoc/staff/{second_id}/disable", headers=OP)
    refused(r, 409, "last_administrator")
    r = await c.post(f"/v1/organisations/sz-assoc/staff/{admin_id}/disable", headers=OP)
    assert r.status_code == 200 and r.json()["disabled"] is True
    refused(
        await c.post(
            "/v1/staff/refresh", json={"session_id": admin["session_id"], "refresh_token": admin["refresh_token"]}
        ),
        401,
        "session_ended",
    )
    refused(
        await c.post("/v1/staff/sign-in", json={"login": "admin@sz.example", "password": PASSWORD}),
        401,
        "sign_in_failed",
    )
    assert (await c.post(f"/v1/organisations/sz-assoc/staff/{admin_id}/enable", headers=OP)).status_code == 200
    await sign_in(c, "admin@sz.example")
    audit = (await c.get("/v1/audit", headers=OP, params={"client_id": f"acct:{admin_id}"})).json()["items"]
    actions = [(a["action"], a["actor"]) for a in audit]
    assert ("staff.roles_set", f"Second (acct:{second_id})") in actions
    assert ("staff.disabled", "operator:k1") in actions


async def test_issue_29_links_expire_reset_passwords_and_existing_logins_add_roles(suite):
    s, c, clock = suite
    await organisation(c, "sz-assoc")
    await organisation(c, "ny-assoc")
    stale = await invite(c, "sz-assoc", "late@sz.example", roles=["organiser"])
    clock.advance(7 * 86400 + 1)
    refused(await c.get(f"/v1/invitations/{stale['token']}"), 410, "invitation_expired")
    refused(
        await c.post(f"/v1/invitations/{stale['token']}/accept", json={"password": PASSWORD}), 410, "invitation_expired"
    )
    refused(await c.get("/v1/invitations/no-such-token"), 404, "invitation_not_found")

    await accept(c, await invite(c, "sz-assoc", "li@example.com", roles=["organiser"]))
    joined = await invite(c, "ny-assoc", "LI@example.com", roles=["recorder"])
    assert (await c.get(f"/v1/invitations/{joined['token']}")).json()["existing_account"] is True
    refused(
        await c.post(f"/v1/invitations/{joined['token']}/accept", json={"password": "not the password"}),
        401,
        "sign_in_failed",
    )
    await accept(c, joined)
    li = await sign_in(c, "li@example.com")
    assert claims(li["access_token"])["orgs"] == {"ny-assoc": ["recorder"], "sz-assoc": ["organiser"]}

    reset = await c.post(f"/v1/organisations/sz-assoc/staff/{li['account']['account_id']}/password-reset", headers=OP)
    assert reset.status_code == 201 and reset.json()["kind"] == "reset"
    await accept(c, reset.json(), password="a brand new password")
    refused(await c.get("/v1/staff/me", headers=bearer(li["access_token"])), 401, "revoked_token")
    refused(
        await c.post("/v1/staff/sign-in", json={"login": "li@example.com", "password": PASSWORD}), 401, "sign_in_failed"
    )
    clock.advance(2)
    await sign_in(c, "li@example.com", "a brand new password")


async def test_issue_29_totp_sign_out_and_the_throttle(suite):
    s, c, clock = suite
    await organisation(c, "sz-assoc")
    await accept(c, await invite(c, "sz-assoc", "admin@sz.example", roles=["admin"]))
    admin = await sign_in(c, "admin@sz.example")
    auth = bearer(admin["access_token"])
    started = (await c.post("/v1/staff/totp", headers=auth)).json()
    assert started["otpauth_uri"].startswith("otpauth://totp/")
    refused(await c.post("/v1/staff/totp/confirm", headers=auth, json={"code": "000000"}), 422, "totp_wrong_code")
    code = pyotp.TOTP(started["secret"]).at(clock.now())
    assert (await c.post("/v1/staff/totp/confirm", headers=auth, json={"code": code})).json()["totp_enabled"]
    refused(
        await c.post("/v1/staff/sign-in", json={"login": "admin@sz.example", "password": PASSWORD}),
        401,
        "totp_required",
    )
    refused(
        await c.post(
            "/v1/staff/sign-in",
            json={
                "login": "admin@sz.example",
                "password": PASSWORD,
                "totp": "123456" if code != "123456" else "654321",
            },
        ),
        401,
        "sign_in_failed",
    )
    await sign_in(c, "admin@sz.example", totp=pyotp.TOTP(started["secret"]).at(clock.now()))

    r = await c.post(
        "/v1/staff/sign-out", json={"session_id": admin["session_id"], "refresh_token": admin["refresh_token"]}
    )
    assert r.json()["ended"] is True
    refused(
        await c.post(
            "/v1/staff/refresh", json={"session_id": admin["session_id"], "refresh_token": admin["refresh_token"]}
        ),
        401,
        "session_ended",
    )
    refused(await c.post("/v1/staff/sign-out-everywhere", headers=OP), 403, "staff_account_required")

    # the wrong code above was the address's first failure: five more are free, the next waits
    wrong = {"login": "nobody@sz.example", "password": "wrong one!"}
    statuses = [(await c.post("/v1/staff/sign-in", json=wrong)).status_code for _ in range(5)]
    assert statuses == [401] * 5
    r = await c.post("/v1/staff/sign-in", json=wrong)
    error = refused(r, 429, "too_many_failures")
    assert int(r.headers["retry-after"]) >= 1 and error["details"]["words"]["zh"]
    # a right password waits too (the answers must not tell a guesser which one is right)
    refused(
        await c.post("/v1/staff/sign-in", json={"login": "admin@sz.example", "password": PASSWORD}),
        429,
        "too_many_failures",
    )


async def test_issue_29_an_invitation_replayed_by_its_idempotency_key_shows_the_same_link(suite):
    _, c, _ = suite
    await organisation(c, "sz-assoc")
    body = {"login": "li@example.com", "name": "Li", "roles": ["organiser"]}
    keyed = {**OP, "Idempotency-Key": "invite-li-1"}
    first = await c.post("/v1/organisations/sz-assoc/invitations", headers=keyed, json=body)
    again = await c.post("/v1/organisations/sz-assoc/invitations", headers=keyed, json=body)
    assert first.status_code == again.status_code == 201 and again.headers["idempotent-replayed"] == "true"
    assert again.json() == first.json()
    await accept(c, first.json())
    assert (await c.get(f"/v1/invitations/{first.json()['token']}")).status_code == 409
