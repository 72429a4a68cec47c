"""Partner access tokens over real sockets: the partners and registration services as their
own processes (the docker-compose.yml commands) on PostgreSQL + RabbitMQ, behind the gateway.

A partner obtains a token by the client-credentials grant at the gateway's
``/partners/oauth/token`` and registers an entry in registration with it (REG: a partner acts
only on its own entries); another partner's token neither reads nor acts on it, nor sees or finds its player by the first partner's
own user id (``external_id``); a token without
the scope, an expired, a revoked (revocation broadcast over RabbitMQ) and a forged token are
refused with the common error; over its rate limit a client gets 429 with the RateLimit headers.
"""

from __future__ import annotations

import time

import httpx
import pytest

from .compose_commands import LocalCompose

KEYS = "op-key=operator,arb-key=arbiter"
OP = {"x-api-key": "op-key"}
#: the SZ 2022 registration window is open at this simulation time
SZ_OPEN = "2022-10-26T10:00:00+08:00"
SERVED = ("partners", "registration")


def _entry(name: str, id_number: str, n: int) -> dict:
    return {
        "stage": "online",
        "section_id": "men-free",
        "player": {"name": name, "gender": "male", "birth_date": "1991-03-07", "id_number": id_number},
        "evidence": [{"kind": "household_registration", "document_ref": f"HK-TOK-{n:04d}", "region": "Shenzhen"}],
        "insurance": {"confirmed": True, "document_ref": f"POL-TOK-{n:04d}"},
    }


def _partner(c: httpx.Client, partner_id: str, scopes: list[str], **extra) -> dict:
    r = c.post(
        "/partners/v1/partners",
        headers=OP,
        json={"partner_id": partner_id, "name": partner_id, "scopes": scopes, **extra},
    )
    assert r.status_code == 201, r.text
    r = c.post(f"/partners/v1/partners/{partner_id}/credentials", headers=OP, json={"label": "test"})
    assert r.status_code == 201, r.text
    return r.json()


def _token(c: httpx.Client, cred: dict, basic: bool = True) -> dict[str, str]:
    form = {"grant_type": "client_credentials"}
    if basic:
        r = c.post("/partners/oauth/token", data=form, auth=(cred["client_id"], cred["client_secret"]))
    else:
        form |= {"client_id": cred["client_id"], "client_secret": cred["client_secret"]}
        r = c.post("/partners/oauth/token", data=form)
    assert r.status_code == 200, r.text
    assert r.headers["cache-control"] == "no-store"
    return {"authorization": f"Bearer {r.json()['access_token']}"}


def _pages_of_entries(c: httpx.Client, token: dict[str, str], first_id: str) -> None:
    """Cursor pagination over the gateway: a second entry, then the list one entry a page."""
    r = c.post("/registration/v1/events/sz22/entries", headers=token, json=_entry("Wang Fang", "440301199103070074", 3))
    assert r.status_code == 201, r.text
    seen, cursor = [], None
    while True:
        params = {"limit": 1} | ({"cursor": cursor} if cursor else {})
        answer = c.get("/registration/v1/events/sz22/entries", headers=token, params=params)
        assert answer.status_code == 200 and len(answer.json()["entries"]) <= 1, answer.text
        seen += [e["entry_id"] for e in answer.json()["entries"]]
        if (cursor := answer.json()["next_cursor"]) is None:
            break
    whole = c.get("/registration/v1/events/sz22/entries", headers=token).json()
    assert seen == [e["entry_id"] for e in whole["entries"]] and len(seen) == 2 and first_id in seen
    assert whole["next_cursor"] is None
    _refused(
        c.get("/registration/v1/events/sz22/entries", headers=token, params={"cursor": "bm9wZQ"}), 400, "bad_cursor"
    )
    # the operator's list of partners pages too
    partners = c.get("/partners/v1/partners", headers=OP, params={"limit": 2}).json()
    assert len(partners["items"]) == 2 and partners["next_cursor"]
    rest = c.get("/partners/v1/partners", headers=OP, params={"cursor": partners["next_cursor"]}).json()
    assert {p["partner_id"] for p in partners["items"] + rest["items"]} == {
        "app-one",
        "app-two",
        "app-reader",
        "app-limited",
    }


def _refused(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"} and body["error"]["code"] == code, body
    assert isinstance(body["error"]["message"], str) and r.headers["x-correlation-id"]


@pytest.fixture
async def databases(fresh_database):
    return {s: await fresh_database() for s in SERVED}


async def test_partner_tokens_over_the_gateway_on_postgres_and_rabbitmq(databases, amqp_url, bus_namespace, tmp_path):
    stack = LocalCompose(
        database_urls=databases,
        amqp_url=amqp_url,
        namespace=bus_namespace,
        log_dir=tmp_path,
        extra_env={"API_KEYS": KEYS, "CLOCK": "fake", "CLOCK_START": SZ_OPEN, "ACCESS_TOKEN_TTL_S": "300"},
    )
    try:
        await stack.serve_all(*SERVED)
        gateway = stack.start_gateway()
        stack.wait_gateway()
        with httpx.Client(base_url=gateway.url, timeout=30) as c:
            one = _partner(c, "app-one", ["entries:write", "results:read"])
            two = _partner(c, "app-two", ["entries:write", "results:read"])
            reader = _partner(c, "app-reader", ["results:read"])
            limited = _partner(c, "app-limited", ["results:read"], rate_limit={"quota": 3, "window_s": 3600})
            t_one, t_two, t_reader = _token(c, one), _token(c, two, basic=False), _token(c, reader)

            r = c.post("/registration/v1/events", headers=OP, json={"preset_id": "sz-2022", "event_code": "sz22"})
            assert r.status_code == 201, r.text

            # a partner registers its player with its token (and its own user id): the entry is its own
            body = _entry("Zhang Wei", "440301199103070031", 1)
            body["player"]["external_id"] = "one-user-7"
            r = c.post("/registration/v1/events/sz22/entries", headers=t_one, json=body)
            assert r.status_code == 201, r.text
            entry_id = r.json()["entry_id"]
            r = c.get(f"/registration/v1/events/sz22/entries/{entry_id}", headers=t_one)
            assert r.status_code == 200 and r.json()["partner_id"] == "app-one", r.text
            assert r.json()["players"][0]["external_id"] == "one-user-7"
            assert r.headers["ratelimit-policy"] == '"partner";q=600;w=60'
            found = c.get("/registration/v1/events/sz22/entries", headers=t_one, params={"external_id": "one-user-7"})
            assert [e["entry_id"] for e in found.json()["entries"]] == [entry_id], found.text
            _pages_of_entries(c, t_one, entry_id)

            # another partner's token: cannot see it, list it or act on it
            unseen = c.get(f"/registration/v1/events/sz22/entries/{entry_id}", headers=t_two)
            assert unseen.status_code == 404 and set(unseen.json()) == {"error"}, unseen.text
            listed = c.get("/registration/v1/events/sz22/entries", headers=t_two)
            assert listed.status_code == 200 and entry_id not in listed.text
            # ... nor find it by the first partner's user id; staff see the entry, not the user id
            searched = c.get(
                "/registration/v1/events/sz22/entries", headers=t_two, params={"external_id": "one-user-7"}
            )
            assert searched.status_code == 200 and searched.json()["entries"] == [], searched.text
            staff = c.get(f"/registration/v1/events/sz22/entries/{entry_id}", headers=OP).json()
            assert staff["players"][0]["external_id"] is None and "one-user-7" not in str(staff)
            withdraw = c.post(
                f"/registration/v1/events/sz22/entries/{entry_id}/withdraw", headers=t_two, json={"reason": "not mine"}
            )
            assert withdraw.status_code in (403, 404) and "error" in withdraw.json(), withdraw.text

            # the wrong scope: 403 with the scope named
            r = c.post(
                "/registration/v1/events/sz22/entries", headers=t_reader, json=_entry("Li Lei", "440301199103070058", 2)
            )
            _refused(r, 403, "insufficient_scope")
            assert r.json()["error"]["details"]["required"] == ["entries:write"]

            # forged and garbage tokens
            head, claims, _sig = t_one["authorization"].split(".")
            _refused(
                c.get("/registration/v1/whoami", headers={"authorization": f"{head}.{claims}.AAAA"}),
                401,
                "invalid_token",
            )
            _refused(
                c.get("/registration/v1/whoami", headers={"authorization": "Bearer eyJx.y.z"}), 401, "invalid_token"
            )

            # over the rate limit
            t_limited = _token(c, limited)
            answers = [c.get("/registration/v1/whoami", headers=t_limited) for _ in range(4)]
            assert [a.status_code for a in answers] == [200, 200, 200, 429]
            _refused(answers[3], 429, "rate_limited")
            assert int(answers[3].headers["retry-after"]) >= 1
            assert answers[3].headers["ratelimit-policy"] == '"partner";q=3;w=3600'
            assert answers[3].headers["ratelimit"].startswith('"partner";r=0;')

            # revoked: registration learns it over RabbitMQ and refuses before the token expires
            r = c.post(f"/partners/v1/credentials/{two['client_id']}/revoke", headers=OP, json={"reason": "test"})
            assert r.status_code == 200, r.text
            deadline = time.monotonic() + 30
            while (seen := c.get("/registration/v1/whoami", headers=t_two)).status_code == 200:
                assert time.monotonic() < deadline, "registration still accepts a revoked client's token"
                time.sleep(0.1)
            _refused(seen, 401, "revoked_token")
            assert c.get("/registration/v1/whoami", headers=t_one).status_code == 200

            # expired: the simulation clock of registration moves past the token's lifetime
            r = c.post("/registration/v1/ops/clock", headers=OP, json={"advance_s": 301 + 5})
            assert r.status_code == 200, r.text
            _refused(c.get("/registration/v1/whoami", headers=t_one), 401, "expired_token")
            _refused(c.get("/registration/v1/whoami"), 401, "missing_api_key")

            # the published contract names the webhooks a partner receives (OpenAPI 3.1 webhooks)
            described = c.get("/partners/openapi.json").json()["webhooks"]
            assert "game.finished" in described and "webhook-signature" in str(described["game.finished"])

            # every use is in the audit
            audit = c.get("/partners/v1/audit", headers=OP, params={"partner_id": "app-two"}).json()["items"]
            assert [e["action"] for e in audit] == [
                "credential.revoked",
                "token.issued",
                "credential.issued",
                "partner.created",
            ]
    finally:
        stack.stop_all()
