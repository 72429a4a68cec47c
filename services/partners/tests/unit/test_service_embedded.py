"""The partners service in the embedded process (in-memory bus, SQLite): operators manage
partners and credentials, partners obtain tokens (RFC 6749 §4.4) and every service verifies
them in-process: scopes, expiry, revocation, key rotation, rate limits."""

from __future__ import annotations

import base64

import pytest
from partners_kit import OP, bearer, embedded, new_partner, token

from gomoku_shared.ratelimit import LocalBuckets

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow


@pytest.fixture
async def suite(tmp_path):
    only = ("partners", "registration", "pairing", "gameplay")
    async with embedded(tmp_path, only=only, ACCESS_TOKEN_TTL_S=300, CREDENTIAL_GRACE_S=600) as running:
        yield running.suite, running.client, running.clock


async def test_a_token_carries_the_partner_role_id_and_scopes_into_every_service(suite):
    s, c, _ = suite
    cred = await new_partner(c, "app-one", ["entries:write", "results:read"], prefix="/partners")
    tok = await token(c, cred, prefix="/partners")
    for service in ("registration", "pairing"):
        r = await c.get(f"/{service}/v1/whoami", headers=bearer(tok))
        assert r.status_code == 200, r.text
        assert r.json() | {"service": "-"} == {
            "role": "partner",
            "partner_id": "app-one",
            "service": "-",
            "scopes": ["entries:write", "results:read"],
            "client_id": cred["client_id"],
        }
        assert r.headers["ratelimit-policy"] == '"partner";q=600;w=60'


async def test_client_secret_post_and_basic_both_work_and_refusals_follow_rfc6749(suite):
    _, c, _ = suite
    cred = await new_partner(c, "app-one", ["results:read"], prefix="/partners")
    r = await c.post(
        "/partners/oauth/token",
        data={
            "grant_type": "client_credentials",
            "client_id": cred["client_id"],
            "client_secret": cred["client_secret"],
        },
    )
    assert r.status_code == 200 and r.json()["token_type"] == "Bearer" and r.headers["cache-control"] == "no-store"
    assert r.json()["expires_in"] == 300 and r.json()["scope"] == "results:read"

    basic = "Basic " + base64.b64encode(f"{cred['client_id']}:wrong".encode()).decode()
    r = await c.post(
        "/partners/oauth/token", data={"grant_type": "client_credentials"}, headers={"authorization": basic}
    )
    assert r.status_code == 401 and r.json()["error"] == "invalid_client"
    assert r.headers["www-authenticate"].startswith("Basic")

    auth = (cred["client_id"], cred["client_secret"])
    r = await c.post("/partners/oauth/token", data={"grant_type": "password"}, auth=auth)
    assert r.status_code == 400 and r.json()["error"] == "unsupported_grant_type"
    r = await c.post("/partners/oauth/token", data={}, auth=auth)
    assert r.status_code == 400 and r.json()["error"] == "invalid_request"
    r = await c.post(
        "/partners/oauth/token", data={"grant_type": "client_credentials", "scope": "games:play"}, auth=auth
    )
    assert r.status_code == 400 and r.json()["error"] == "invalid_scope"
    r = await c.post("/partners/oauth/token", json={"grant_type": "client_credentials"}, auth=auth)
    assert r.status_code == 400 and r.json()["error"] == "invalid_request"
    both = {"grant_type": "client_credentials", "client_id": cred["client_id"], "client_secret": cred["client_secret"]}
    r = await c.post("/partners/oauth/token", data=both, auth=auth)
    assert r.status_code == 400 and r.json()["error"] == "invalid_request"


async def test_a_wrong_scope_is_403_and_a_staff_only_write_is_refused_to_any_token(suite):
    _, c, _ = suite
    cred = await new_partner(c, "app-one", ["results:read"], prefix="/partners")
    tok = await token(c, cred, prefix="/partners")
    r = await c.post("/registration/v1/events", headers=bearer(tok), json={"preset_id": "sz-2022", "event_code": "x"})
    assert r.status_code == 403
    assert r.json()["error"]["code"] in ("forbidden_role", "insufficient_scope")
    # a partner route that writes: the role allows it, the scope does not
    r = await c.post("/registration/v1/events/nope/entries", headers=bearer(tok), json={})
    assert r.status_code == 403 and r.json()["error"]["code"] == "insufficient_scope", r.text
    assert r.json()["error"]["details"] == {"required": ["entries:write"], "granted": ["results:read"]}
    assert 'error="insufficient_scope"' in r.headers["www-authenticate"]


async def test_expired_garbage_and_forged_tokens_are_401_with_the_common_error(suite):
    _, c, clock = suite
    cred = await new_partner(c, "app-one", ["results:read"], prefix="/partners")
    tok = await token(c, cred, prefix="/partners")
    head, claims, signature = tok.split(".")
    forged = f"{head}.{claims}.{signature[:-4]}AAAA"
    for presented, code in ((forged, "invalid_token"), ("eyJ.garbage.x", "invalid_token"), ("nope", "invalid_api_key")):
        r = await c.get("/registration/v1/whoami", headers=bearer(presented))
        assert r.status_code == 401 and r.json()["error"]["code"] == code, (presented, r.text)
    clock.advance(300 + 10)
    r = await c.get("/registration/v1/whoami", headers=bearer(tok))
    assert r.status_code == 401 and r.json()["error"]["code"] == "expired_token"
    assert set(r.json()) == {"error"} and set(r.json()["error"]) == {"code", "message"}


async def test_revoking_a_credential_ends_its_tokens_everywhere_before_they_expire(suite):
    s, c, _ = suite
    cred = await new_partner(c, "app-one", ["results:read"], prefix="/partners")
    tok = await token(c, cred, prefix="/partners")
    assert (await c.get("/pairing/v1/whoami", headers=bearer(tok))).status_code == 200
    r = await c.post(f"/partners/v1/credentials/{cred['client_id']}/revoke", headers=OP, json={"reason": "leaked"})
    assert r.status_code == 200 and r.json()["status"] == "revoked"
    await s.drain()  # partner.credentials_revoked reaches every service
    for service in ("registration", "pairing", "partners"):
        r = await c.get(f"/{service}/v1/whoami", headers=bearer(tok))
        assert r.status_code == 401 and r.json()["error"]["code"] == "revoked_token", service
    r = await c.post(
        "/partners/oauth/token",
        data={"grant_type": "client_credentials"},
        auth=(cred["client_id"], cred["client_secret"]),
    )
    assert r.status_code == 401 and r.json()["error"] == "invalid_client"
    r = await c.post(f"/partners/v1/credentials/{cred['client_id']}/rotate", headers=OP, json={})
    assert r.status_code == 409 and r.json()["error"]["code"] == "credential_revoked"


async def test_rotation_old_and_new_secrets_both_work_until_the_grace_period_ends(suite):
    _, c, clock = suite
    cred = await new_partner(c, "app-one", ["results:read"], prefix="/partners")
    r = await c.post(f"/partners/v1/credentials/{cred['client_id']}/rotate", headers=OP, json={"grace_s": 120})
    assert r.status_code == 200, r.text
    new = r.json()
    assert new["client_id"] == cred["client_id"] and new["client_secret"] != cred["client_secret"]
    await token(c, cred, prefix="/partners")
    await token(c, new, prefix="/partners")
    clock.advance(121)
    r = await c.post(
        "/partners/oauth/token",
        data={"grant_type": "client_credentials"},
        auth=(cred["client_id"], cred["client_secret"]),
    )
    assert r.status_code == 401 and r.json()["error"] == "invalid_client"
    await token(c, new, prefix="/partners")


async def test_a_rotated_signing_key_stays_in_the_jwks_until_its_tokens_expire(suite):
    _, c, clock = suite
    cred = await new_partner(c, "app-one", ["results:read"], prefix="/partners")
    old_token = await token(c, cred, prefix="/partners")
    old_kids = {k["kid"] for k in (await c.get("/partners/.well-known/jwks.json")).json()["keys"]}
    r = await c.post("/partners/v1/signing-keys/rotate", headers=OP)
    assert r.status_code == 200 and r.json()["retired"] == sorted(old_kids)
    new_kid = r.json()["kid"]
    new_token = await token(c, cred, prefix="/partners")
    # registration has never seen the new key: it fetches the JWKS once and accepts the token
    assert (await c.get("/registration/v1/whoami", headers=bearer(new_token))).status_code == 200
    assert (await c.get("/registration/v1/whoami", headers=bearer(old_token))).status_code == 200
    kids = {k["kid"] for k in (await c.get("/partners/.well-known/jwks.json")).json()["keys"]}
    assert kids == old_kids | {new_kid}
    clock.advance(300 + 11)
    kids = {k["kid"] for k in (await c.get("/partners/.well-known/jwks.json")).json()["keys"]}
    assert kids == {new_kid}


async def test_a_spectator_token_reads_with_the_viewer_role_and_cannot_act(suite):
    _, c, _ = suite
    cred = await new_partner(c, "tv-app", ["results:read"], prefix="/partners", kind="spectator")
    tok = await token(c, cred, prefix="/partners")
    r = await c.get("/registration/v1/whoami", headers=bearer(tok))
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden_role"  # whoami: acting roles
    r = await c.post("/registration/v1/events/x/entries", headers=bearer(tok), json={})
    assert r.status_code == 403


async def test_over_the_rate_limit_a_token_gets_429_with_retry_after_and_ratelimit_headers(suite):
    s, c, _ = suite
    # time stands still for the buckets: the answers do not depend on how fast the test runs
    s.services["registration"].app.state.keyring.limits = LocalBuckets(1, monotonic=lambda: 0.0)
    cred = await new_partner(
        c, "app-one", ["results:read"], prefix="/partners", rate_limit={"quota": 3, "window_s": 60}
    )
    tok = await token(c, cred, prefix="/partners")
    answers = [await c.get("/registration/v1/whoami", headers=bearer(tok)) for _ in range(4)]
    assert [r.status_code for r in answers] == [200, 200, 200, 429]
    assert [r.headers["ratelimit"] for r in answers[:3]] == [
        '"partner";r=2;t=20',
        '"partner";r=1;t=40',
        '"partner";r=0;t=60',
    ]
    limited = answers[3]
    assert limited.json()["error"]["code"] == "rate_limited"
    assert int(limited.headers["retry-after"]) >= 1
    assert limited.headers["ratelimit-policy"] == '"partner";q=3;w=60'
    # API keys have no such limit
    for _ in range(5):
        assert (await c.get("/registration/v1/whoami", headers=OP)).status_code == 200


async def test_every_use_is_audited_and_the_audit_pages_by_cursor(suite):
    _, c, _ = suite
    cred = await new_partner(c, "app-one", ["results:read"], prefix="/partners")
    await token(c, cred, prefix="/partners")
    await c.post("/partners/oauth/token", data={"grant_type": "client_credentials"}, auth=(cred["client_id"], "wrong"))
    r = await c.get("/partners/v1/audit", headers=OP, params={"partner_id": "app-one", "limit": 2})
    page = r.json()
    assert [e["action"] for e in page["items"]] == ["token.refused", "token.issued"]
    assert page["items"][0]["details"]["reason"] == "wrong_secret" and page["next_cursor"]
    rest = (
        await c.get("/partners/v1/audit", headers=OP, params={"partner_id": "app-one", "cursor": page["next_cursor"]})
    ).json()
    assert [e["action"] for e in rest["items"]] == ["credential.issued", "partner.created"] and rest[
        "next_cursor"
    ] is None
    text = r.text + (await c.get("/partners/v1/partners/app-one", headers=OP)).text
    assert cred["client_secret"] not in text and "scrypt$" not in text


async def test_partner_management_is_for_operators_only(suite):
    _, c, _ = suite
    cred = await new_partner(c, "app-one", ["results:read"], prefix="/partners")
    tok = await token(c, cred, prefix="/partners")
    for headers in ({"x-api-key": "arb-key"}, bearer(tok)):
        r = await c.get("/partners/v1/partners", headers=headers)
        assert r.status_code == 403, r.text
    r = await c.post(
        "/partners/v1/partners", headers=OP, json={"partner_id": "app-one", "name": "x", "scopes": ["results:read"]}
    )
    assert r.status_code == 409 and r.json()["error"]["code"] == "partner_exists"
    r = await c.post("/partners/v1/partners/nobody/credentials", headers=OP, json={})
    assert r.status_code == 404


async def test_the_gameplay_lean_lane_checks_tokens_scopes_and_rates_like_the_routes(suite):
    """The move lane (gameplay's lean ASGI path) goes through the same shared check."""
    _, c, _ = suite
    player = await new_partner(c, "app-one", ["games:play", "results:read"], prefix="/partners")
    reader = await new_partner(c, "app-two", ["results:read"], prefix="/partners")
    move = {"player_id": "p1", "point": "h8"}
    r = await c.post(
        "/gameplay/v1/games/NO-SUCH-GAME/move", headers=bearer(await token(c, reader, prefix="/partners")), json=move
    )
    assert r.status_code == 403 and r.json()["error"]["code"] == "insufficient_scope", r.text
    assert r.json()["error"]["details"]["required"] == ["games:play"]
    r = await c.post(
        "/gameplay/v1/games/NO-SUCH-GAME/move", headers=bearer(await token(c, player, prefix="/partners")), json=move
    )
    assert r.status_code == 404, r.text  # past the credential check: there is no such game
    assert r.headers["ratelimit-policy"] == '"partner";q=600;w=60'
    r = await c.post("/gameplay/v1/games/NO-SUCH-GAME/move", headers=bearer("eyJx.y.z"), json=move)
    assert r.status_code == 401 and r.json()["error"]["code"] == "invalid_token"
