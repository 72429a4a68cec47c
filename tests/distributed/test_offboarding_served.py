"""Offboarding and the partners' edges (issue 27 findings 5, 6 and 10) over real sockets: the
partners and registration services as their own processes (the docker-compose.yml commands) on
PostgreSQL + RabbitMQ, behind the gateway, a partner's webhook receiver on a socket of its own.

* finding 5: an operator lists, disables and enables any partner's subscriptions (it got 403);
  a suspended partner's token is refused by another service (the revocation broadcast) and its
  webhooks stop, with the suspension audited; resumed, it gets new tokens and webhooks again;
  once all its credentials are revoked its webhooks stop too.
* finding 10: ``Idempotency-Key`` on the partners' POSTs (a retry gives one subscription, the
  same key with another body 409); an identical subscription is refused as a duplicate;
  ``standings.updated`` carries exactly its documented fields (no name, gender or unit); a
  replica that cannot verify tokens (partners unreachable, or its credential refused) is not ready.
* finding 6: the revocation list needs the services' credential; the token endpoint answers
  429 with ``Retry-After`` after repeated failures, then locks the client id out.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from datetime import UTC, datetime

import httpx
import pytest

from gomoku_shared.contracts import encode, envelope_for
from gomoku_shared.contracts.common import ClockSpec, Ruleset
from gomoku_shared.contracts.events import PairingSpec, RoundPaired, StandingRow, StandingsUpdated
from gomoku_shared.messaging.rabbit import RabbitEventBus
from gomoku_shared.testing.webhooks import WebhookReceiver, free_port, serving

from .compose_commands import LocalCompose, Proc

OP = {"x-api-key": "op-key"}
SERVICE_KEY = "served-test-service-key"
SERVED = ("partners", "registration")
HOOKS = "/partners/v1/webhooks/subscriptions"


def _standings(after_round: int) -> StandingsUpdated:
    row = StandingRow(place=1, entrant_id="OB.e1", name="Ann", gender="female", unit="Club", points=2.0, wins=2)
    return StandingsUpdated(event_code="OB", stage="main", section_id="S1", after_round=after_round, standings=[row])


async def _partner(c: httpx.AsyncClient, partner_id: str) -> dict:
    body = {"partner_id": partner_id, "name": partner_id, "scopes": ["webhooks:manage", "results:read"]}
    r = await c.post("/partners/v1/partners", headers=OP, json=body)
    assert r.status_code == 201, r.text
    r = await c.post(f"/partners/v1/partners/{partner_id}/credentials", headers=OP, json={"label": "server"})
    assert r.status_code == 201, r.text
    return r.json()


async def _token(c: httpx.AsyncClient, cred: dict) -> dict[str, str]:
    form = {"grant_type": "client_credentials"}
    r = await c.post("/partners/oauth/token", data=form, auth=(cred["client_id"], cred["client_secret"]))
    assert r.status_code == 200, r.text
    return {"authorization": f"Bearer {r.json()['access_token']}"}


def _refused(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code, r.text


async def _until(what: str, check: Callable[[], object], timeout_s: float = 60) -> None:
    """Wait until ``check`` (a function, or a coroutine function) answers true."""
    try:
        async with asyncio.timeout(timeout_s):
            while True:
                done = check()
                if asyncio.iscoroutine(done):
                    done = await done
                if done:
                    return
                await asyncio.sleep(0.1)
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}") from None


async def _log_says(proc: Proc, words: str) -> None:
    """Wait until the process logged ``words`` (its first key fetch has been tried)."""
    async with asyncio.timeout(60):
        while words not in proc.log.read_text(errors="replace"):
            await asyncio.sleep(0.1)


def _rows(received: WebhookReceiver) -> list[int]:
    return [body["data"]["after_round"] for body in received.bodies()]


@pytest.fixture
async def databases(fresh_database):
    return {s: await fresh_database() for s in SERVED}


async def test_offboarding_idempotency_throttling_and_readiness_over_real_sockets(
    databases, amqp_url, bus_namespace, tmp_path
):
    env = {
        "API_KEYS": "op-key=operator,arb-key=arbiter",
        "PARTNERS_SERVICE_KEY": SERVICE_KEY,
        "WEBHOOK_ALLOW_LOOPBACK": "true",  # the receiver is on 127.0.0.1
        "WEBHOOK_BREAKER_AFTER": "1000",
    }
    stack = LocalCompose(
        database_urls=databases, amqp_url=amqp_url, namespace=bus_namespace, log_dir=tmp_path, extra_env=env
    )
    publisher = RabbitEventBus(amqp_url, namespace=bus_namespace)
    first, second = WebhookReceiver(free_port(), status=204), WebhookReceiver(free_port(), status=204)
    try:
        await stack.serve_all(*SERVED)
        gateway = stack.start_gateway()
        await asyncio.to_thread(stack.wait_gateway)
        await publisher.start()
        async with (
            httpx.AsyncClient(base_url=gateway.url, timeout=30) as c,
            serving(first, first.port),
            serving(second, second.port),
        ):
            # finding 6: the revocation list is the services' (their verifiers read it with the
            # credential: registration is ready with its tokens check), not anyone's
            _refused(await c.get("/partners/v1/revocations"), 401, "missing_api_key")
            _refused(await c.get("/partners/v1/revocations", headers={"x-api-key": "guess"}), 401, "invalid_api_key")
            listed = await c.get("/partners/v1/revocations", headers={"x-api-key": SERVICE_KEY})
            assert listed.status_code == 200 and listed.json() == {"revoked": {}}, listed.text
            ready = (await c.get("/registration/readyz")).json()
            assert ready["status"] == "ready" and ready["checks"]["tokens"] is True, ready

            one, two = await _partner(c, "app-one"), await _partner(c, "app-two")
            t_one, t_two = await _token(c, one), await _token(c, two)
            _refused(await c.get("/partners/v1/revocations", headers=t_one), 403, "forbidden_role")

            # finding 10: Idempotency-Key: the retry replays the first answer (one subscription)
            body = {"url": first.url, "event_types": ["standings.updated"], "description": "standings"}
            keyed = {**t_one, "idempotency-key": "sub-1"}
            created = await c.post(HOOKS, headers=keyed, json=body)
            again = await c.post(HOOKS, headers=keyed, json=body)
            assert created.status_code == again.status_code == 201, (created.text, again.text)
            assert again.headers["idempotent-replayed"] == "true" and again.json() == created.json()
            subscription_id = created.json()["subscription_id"]
            other = {**body, "description": "another body"}
            _refused(await c.post(HOOKS, headers=keyed, json=other), 409, "idempotency_key_reused")
            # ... and the same subscription again without a key is a duplicate
            duplicate = await c.post(HOOKS, headers=t_one, json=body)
            _refused(duplicate, 409, "duplicate_subscription")
            assert duplicate.json()["error"]["details"] == {"subscription_id": subscription_id}
            mine = (await c.get(HOOKS, headers=t_one)).json()["items"]
            assert [s["subscription_id"] for s in mine] == [subscription_id]
            # two twins with one key at the same moment: one subscription, both answered it
            theirs = {"url": second.url, "event_types": ["standings.updated"], "description": "standings"}
            twins = await asyncio.gather(
                *(c.post(HOOKS, headers={**t_two, "idempotency-key": "twin"}, json=theirs) for _ in range(2))
            )
            assert [t.status_code for t in twins] == [201, 201], [t.text for t in twins]
            assert twins[0].json()["subscription_id"] == twins[1].json()["subscription_id"]
            assert len((await c.get(HOOKS, headers=t_two)).json()["items"]) == 1

            # finding 5: the operator lists any partner's subscriptions and disables one; only an
            # operator enables it again
            seen = await c.get("/partners/v1/partners/app-one/subscriptions", headers=OP)
            assert seen.status_code == 200, seen.text
            assert [(s["subscription_id"], s["status"]) for s in seen.json()["items"]] == [(subscription_id, "active")]
            path = f"/partners/v1/partners/app-one/subscriptions/{subscription_id}"
            off = await c.post(f"{path}/disable", headers=OP, json={"reason": "floods the help desk"})
            assert off.status_code == 200 and off.json()["status"] == "disabled", off.text
            assert off.json()["disabled_by"].startswith("operator:")
            _refused(
                await c.post(f"{HOOKS}/{subscription_id}/enable", headers=t_one),
                409,
                "subscription_disabled_by_operator",
            )
            on = await c.post(f"{path}/enable", headers=OP)
            assert on.status_code == 200 and on.json()["status"] == "active", on.text
            _refused(await c.get("/partners/v1/partners/app-one/subscriptions", headers=t_one), 403, "forbidden_role")

            # a delivery to each partner; finding 10: the body is its documented fields, no name
            # or attribute in a standings row
            await publisher.publish(
                [encode(envelope_for(_standings(1), correlation_id="OB", occurred_at=datetime.now(UTC)))]
            )
            await _until("round 1 standings at both", lambda: _rows(first) == [1] and _rows(second) == [1])
            document = (await c.get("/partners/openapi.json")).json()
            schemas = document["components"]["schemas"]
            row = first.bodies()[0]["data"]["standings"][0]
            assert set(first.bodies()[0]["data"]) == set(schemas["StandingsUpdatedData"]["properties"])
            assert set(row) <= set(schemas["PartnerStandingRow"]["properties"]) and row["entrant_id"] == "OB.e1"
            assert not {"name", "gender", "unit"} & set(row) and "Ann" not in json.dumps(first.bodies())

            # finding 5: suspended, its token is refused by registration at once (before it
            # expires), it gets no new token, and its webhooks stop; the suspension is audited
            assert (await c.get("/registration/v1/whoami", headers=t_one)).status_code == 200
            suspended = await c.post(
                "/partners/v1/partners/app-one/suspend", headers=OP, json={"reason": "contract ended"}
            )
            assert suspended.status_code == 200 and suspended.json()["status"] == "suspended", suspended.text

            async def refused_by_registration() -> bool:
                return (await c.get("/registration/v1/whoami", headers=t_one)).status_code == 401

            await _until("registration refuses the suspended partner's token", refused_by_registration)
            _refused(await c.get("/registration/v1/whoami", headers=t_one), 401, "revoked_token")
            _refused(await c.get(HOOKS, headers=t_one), 401, "revoked_token")
            form = {"grant_type": "client_credentials"}
            r = await c.post("/partners/oauth/token", data=form, auth=(one["client_id"], one["client_secret"]))
            assert r.status_code == 400 and r.json()["error"] == "unauthorized_client", r.text
            assert (await c.get("/registration/v1/whoami", headers=t_two)).status_code == 200
            await publisher.publish(
                [encode(envelope_for(_standings(2), correlation_id="OB", occurred_at=datetime.now(UTC)))]
            )
            # the other partner's delivery of the same event shows it was fanned out (one transaction)
            await _until("round 2 standings at the other partner", lambda: _rows(second) == [1, 2])
            audit = (await c.get("/partners/v1/audit", headers=OP, params={"partner_id": "app-one"})).json()["items"]
            entry = next(e for e in audit if e["action"] == "partner.suspended")
            assert entry["actor"].startswith("operator:") and entry["details"]["reason"] == "contract ended"
            assert entry["details"]["client_ids"] == [one["client_id"]]

            # resumed: a new token works everywhere, the old one stays refused, webhooks resume
            resumed = await c.post("/partners/v1/partners/app-one/resume", headers=OP, json={"reason": "renewed"})
            assert resumed.status_code == 200 and resumed.json()["status"] == "active", resumed.text
            t_new = await _token(c, one)
            assert (await c.get("/registration/v1/whoami", headers=t_new)).status_code == 200
            _refused(await c.get("/registration/v1/whoami", headers=t_one), 401, "revoked_token")
            await publisher.publish(
                [encode(envelope_for(_standings(3), correlation_id="OB", occurred_at=datetime.now(UTC)))]
            )
            await _until("round 3 standings at both", lambda: _rows(first) == [1, 3] and _rows(second) == [1, 2, 3])

            # every credential revoked: its webhooks stop too
            r = await c.post(f"/partners/v1/credentials/{one['client_id']}/revoke", headers=OP, json={"reason": "gone"})
            assert r.status_code == 200, r.text
            await publisher.publish(
                [encode(envelope_for(_standings(4), correlation_id="OB", occurred_at=datetime.now(UTC)))]
            )
            await _until("round 4 standings at the other partner", lambda: _rows(second) == [1, 2, 3, 4])
            assert _rows(first) == [1, 3]

            # finding 6: wrong secrets for one client id: five cost nothing more, then 429 with
            # Retry-After (back-off), and at 20 failures a lockout that refuses even the right secret
            statuses: list[int] = []
            retry_after: list[int] = []
            for _ in range(25):
                r = await c.post("/partners/oauth/token", data=form, auth=(two["client_id"], "wrong-secret"))
                statuses.append(r.status_code)
                if r.status_code == 429:
                    assert r.json()["error"] == "too_many_attempts", r.text
                    retry_after.append(int(r.headers["retry-after"]))
            assert statuses[:6] == [401] * 6, statuses
            assert set(statuses) == {401, 429} and retry_after and min(retry_after) >= 1, statuses
            locked = await c.post("/partners/oauth/token", data=form, auth=(two["client_id"], two["client_secret"]))
            assert locked.status_code == 429 and int(locked.headers["retry-after"]) > 60, locked.text

        # finding 10: a replica that cannot verify tokens is not ready: one whose credential the
        # partners service refuses, one whose partners service is unreachable
        partners_url = stack.procs["partners"].url
        for name, extra in (
            ("wrong-key", {"PARTNERS_URL": partners_url, "PARTNERS_SERVICE_KEY": "not-the-key"}),
            ("no-partners", {"PARTNERS_URL": f"http://127.0.0.1:{free_port()}"}),
        ):
            log_dir = tmp_path / name
            log_dir.mkdir()
            other = LocalCompose(
                database_urls=databases,
                amqp_url=amqp_url,
                namespace=bus_namespace,
                log_dir=log_dir,
                extra_env={**env, **extra},
            )
            try:
                replica = other.start("registration", replica=2)
                await _log_says(replica, "could not fetch the token keys")
                answer = httpx.get(replica.url + "/readyz", timeout=5)
                assert answer.status_code == 503, (name, answer.text)
                checks = answer.json()["checks"]
                assert checks == {"database": True, "bus": True, "tokens": False}, (name, checks)
            finally:
                other.stop_all()
    finally:
        await publisher.close()
        stack.stop_all()


async def test_another_partners_game_is_public_by_design_and_lists_are_a_partners_own_view(
    fresh_database, amqp_url, bus_namespace, tmp_path
):
    """Issue 27 finding 10: another partner's game answered 200 though the docs said 404. Decided:
    a game, its record and its streams are public (the public pages show every game of a public
    event to anyone), so any reading credential reads it by its id; the lists and the event stream
    show a partner its own players' games only. The docs say so now; this holds the behaviour to them."""
    stack = LocalCompose(
        database_urls={"gameplay": await fresh_database()}, amqp_url=amqp_url, namespace=bus_namespace, log_dir=tmp_path
    )
    publisher = RabbitEventBus(amqp_url, namespace=bus_namespace)
    game = "PB.main.S1.r1.p1.g1"
    try:
        proc = await stack.serve("gameplay")
        await publisher.start()
        pairing = PairingSpec(
            pairing_id="p1",
            first="alice",
            second="bob",
            games=1,
            ruleset=Ruleset(track="free"),
            clock=ClockSpec(kind="sudden_death", base_s=1800, increment_s=0),
            first_partner="partner-2",
            second_partner="partner-2",
        )
        paired = RoundPaired(
            event_code="PB",
            stage="main",
            section_id="S1",
            round=1,
            starts_at=datetime.now(UTC),
            no_show_minutes=120,
            pairings=[pairing],
        )
        await publisher.publish([encode(envelope_for(paired, correlation_id="PB", occurred_at=datetime.now(UTC)))])
        other_partner = {"x-api-key": "partner-key"}  # the kit's static key of partner-1
        async with httpx.AsyncClient(base_url=proc.url, timeout=30) as c:

            async def created() -> bool:
                return (await c.get(f"/v1/games/{game}", headers=OP)).status_code == 200

            await _until("the game is created", created)
            seen = await c.get(f"/v1/games/{game}", headers=other_partner)
            assert seen.status_code == 200 and seen.json()["game_id"] == game, seen.text
            record = await c.get(f"/v1/games/{game}/record", headers=other_partner)
            assert record.status_code == 200, record.text
            listed = await c.get("/v1/games", headers=other_partner, params={"event": "PB"})
            assert listed.status_code == 200 and listed.json()["games"] == [], listed.text
            staff = await c.get("/v1/games", headers=OP, params={"event": "PB"})
            assert [g["game_id"] for g in staff.json()["games"]] == [game]
            # acting stays the players' partner's alone
            joined = await c.post(f"/v1/games/{game}/join", headers=other_partner, json={"player_id": "alice"})
            assert joined.status_code == 403 and joined.json()["error"]["code"] == "not_your_player", joined.text
    finally:
        await publisher.close()
        stack.stop_all()
