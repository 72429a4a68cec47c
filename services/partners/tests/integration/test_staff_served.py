"""Issue 29 over a real socket: the partners service served by uvicorn on PostgreSQL and
RabbitMQ, the owner of an event arriving as registration publishes it (event.access_changed on
the broker). The operator creates an organisation and invites its administrator, who accepts,
signs in and invites an arbiter for one event; the arbiter signs in and the token's claims are
as the shared core reads them; wrong passwords are throttled (429); sign-out everywhere makes a
revocation visible in /v1/revocations and on the broadcast; the last administrator stays (409);
an expired invitation answers 410."""

from __future__ import annotations

from datetime import UTC, datetime

import httpx
from staff_kit import OP, PASSWORD, accept, bearer, claims, invite, organisation, refused, sign_in
from webhooks_kit import free_port, messages, serving

from gomoku_shared.clock import FakeClock
from gomoku_shared.contracts import decode
from gomoku_shared.contracts.access_events import EventAccessChanged
from gomoku_shared.messaging.bus import Message
from gomoku_shared.messaging.rabbit import RabbitEventBus
from gomoku_shared.migrate import upgrade_async
from gomoku_shared.testing.bus import eventually
from partners.bootstrap import build
from partners.config import PartnersSettings

START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


async def _owned(client: httpx.AsyncClient, auth: dict, code: str) -> bool:
    """The service has heard who owns ``code``: an event role there is accepted."""
    r = await client.post(
        "/v1/organisations/sz-assoc/invitations",
        headers=auth,
        json={"login": "probe@sz.example", "name": "Probe", "events": {code: ["recorder"]}},
    )
    return r.status_code == 201


async def test_issue_29_organisation_admin_and_arbiter_over_a_socket(fresh_database, amqp_url, bus_namespace):
    clock = FakeClock(START)
    url = await fresh_database()
    settings = PartnersSettings(
        DATABASE_URL=url,
        AMQP_URL=amqp_url,
        BUS_NAMESPACE=bus_namespace,
        API_KEYS="op-key=operator",
        PARTNERS_KEY="staff-test-partners-key",
        RELAY_POLL_S=0.05,
        INVITATION_TTL_S=3600,
        STAFF_TOKEN_TTL_S=600,
    )
    await upgrade_async("partners", settings.database_url)
    service = build(settings, clock=clock)
    port = free_port()
    producer = RabbitEventBus(amqp_url, namespace=bus_namespace)
    heard: list[Message] = []

    async def hear(message: Message) -> None:
        heard.append(message)

    await producer.start()
    await producer.subscribe_broadcast(["partner.credentials_revoked"], hear)
    try:
        async with (
            service.running(),
            serving(service.app, port),
            httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as c,
        ):
            await organisation(c, "sz-assoc")
            stale = await invite(c, "sz-assoc", "late@sz.example", roles=["organiser"])
            link = await invite(c, "sz-assoc", "admin@sz.example", roles=["admin"])
            shown = (await c.get(f"/v1/invitations/{link['token']}")).json()
            assert (shown["organisation"]["name"], shown["roles"]) == ("Sz-Assoc", ["admin"])
            await accept(c, link)
            admin = await sign_in(c, "Admin@SZ.example")
            by_admin = bearer(admin["access_token"])

            # registration says sz-assoc owns sz22 (over the broker, as it publishes it)
            change = EventAccessChanged(event_code="sz22", organisation="sz-assoc", partners=None, changed_at=START)
            await producer.publish(messages(change))
            await eventually(lambda: _owned(c, by_admin, "sz22"), "the event's owner, consumed")
            await accept(
                c, await invite(c, "sz-assoc", "arbiter@sz.example", by=by_admin, events={"sz22": ["arbiter"]})
            )
            arbiter = await sign_in(c, "arbiter@sz.example")
            token = claims(arbiter["access_token"])
            account_id = arbiter["account"]["account_id"]
            assert set(token) == {
                "iss",
                "aud",
                "sub",
                "account_id",
                "name",
                "role",
                "orgs",
                "events",
                "iat",
                "exp",
                "jti",
            }
            assert (token["iss"], token["aud"], token["sub"], token["account_id"], token["role"]) == (
                "gomoku-partners",
                "gomoku-platform",
                f"acct:{account_id}",
                account_id,
                "staff",
            )
            assert (token["name"], token["orgs"], token["events"]) == ("Arbiter", {}, {"sz22": ["arbiter"]})
            assert token["exp"] - token["iat"] == 600 and arbiter["expires_in"] == 600
            assert (await c.get("/v1/staff/me", headers=bearer(arbiter["access_token"]))).json()["events"] == {
                "sz22": ["arbiter"]
            }

            # sign-out everywhere: the revocation is listed and broadcast; the token is refused
            r = await c.post("/v1/staff/sign-out-everywhere", headers=bearer(arbiter["access_token"]))
            assert r.status_code == 200 and r.json()["revoked"] == f"acct:{account_id}"
            assert f"acct:{account_id}" in (await c.get("/v1/revocations", headers=OP)).json()["revoked"]
            await eventually(lambda: len(heard) == 1, "the revocation broadcast")
            assert decode(heard[0]).payload.client_ids == [f"acct:{account_id}"]
            refused(await c.get("/v1/staff/me", headers=bearer(arbiter["access_token"])), 401, "revoked_token")
            session = {"session_id": arbiter["session_id"], "refresh_token": arbiter["refresh_token"]}
            refused(await c.post("/v1/staff/refresh", json=session), 401, "session_ended")

            # the last administrator stays
            admin_id = admin["account"]["account_id"]
            r = await c.put(f"/v1/organisations/sz-assoc/staff/{admin_id}/roles", headers=by_admin, json={"roles": []})
            assert refused(r, 409, "last_administrator")["details"]["words"]["zh"]

            # an invitation past INVITATION_TTL_S
            clock.advance(3601)
            refused(
                await c.post(f"/v1/invitations/{stale['token']}/accept", json={"password": PASSWORD}),
                410,
                "invitation_expired",
            )
            # wrong passwords (the last: the address and the login must wait): five free, then 429 with Retry-After
            wrong = {"login": "arbiter@sz.example", "password": "not my password"}
            statuses = [(await c.post("/v1/staff/sign-in", json=wrong)).status_code for _ in range(6)]
            assert statuses == [401] * 6
            r = await c.post("/v1/staff/sign-in", json=wrong)
            refused(r, 429, "too_many_failures")
            assert int(r.headers["retry-after"]) >= 1

            await service.runtime.bus.delete_declared()
    finally:
        await producer.delete_declared()
        await producer.close()
