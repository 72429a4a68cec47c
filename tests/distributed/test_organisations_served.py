"""Organisations and the people who run events (issue 29), over real sockets through the gateway:
the partners, registration, pairing, gameplay and awards processes as in docker-compose.yml, each
on its own PostgreSQL database, talking over RabbitMQ.

The operator creates two organisations; the people of organisation A are invited, accept, and
sign in with their passwords (the identity API of the partners service); registration creates an
event for each organisation and tells every service who owns it (``event.access_changed`` on the
broker). Then, in every service:

- an arbiter of organisation A gets 403 ``not_your_event`` on organisation B's event: evidence,
  ledger, check-in, closing (registration), results, corrections, tie and appeal decisions
  (pairing), result slips and early starts (gameplay), honours and publishing (awards); the
  same requests by A's chief arbiter on A's event pass the check (they meet the route's own
  answer: a missing record, a body to complete);
- a recorder records and enters slips, and gets 403 ``role_not_held`` on everything else;
- a partner app the organiser did not choose gets 403 ``partner_not_chosen`` registering an
  entry and acting in a game;
- public reads (a game of any event) and ``/v1/whoami`` are open to a signed-in person;
- signing out everywhere makes every service refuse the person's token at once.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import httpx
import pytest

from gomoku_shared.contracts import encode, envelope_for
from gomoku_shared.contracts.common import ClockSpec, Ruleset
from gomoku_shared.contracts.events import PairingSpec, RoundPaired
from gomoku_shared.messaging.rabbit import RabbitEventBus
from gomoku_shared.testing.bus import eventually

from .compose_commands import LocalCompose

SERVED = ("partners", "registration", "pairing", "gameplay", "awards")
KEYS = "op-key=operator,partner-key=partner:partner-1"
OP = {"x-api-key": "op-key"}
PARTNER = {"x-api-key": "partner-key"}
PASSWORD = "a long enough password"
#: SZ 2022's registration window is open at this simulation time
SZ_OPEN = "2022-10-26T10:00:00+08:00"
EV_A, EV_B = "orga22", "orgb22"
#: every role but the administrator's: the person whose requests on A's event pass every check
ALL_ROLES = ["organiser", "chief_arbiter", "arbiter", "pairing_officer", "fee_clerk", "arbitration"]


def game_of(event: str) -> str:
    return f"{event}.final.S1.r1.p1.g1"


def _round_paired(event: str) -> RoundPaired:
    spec = PairingSpec(
        pairing_id="p1",
        first="alice",
        second="bob",
        ruleset=Ruleset(track="professional"),
        clock=ClockSpec(kind="fischer", base_s=2700, increment_s=30),
    )
    return RoundPaired(
        event_code=event,
        stage="final",
        section_id="S1",
        round=1,
        starts_at=datetime(2022, 10, 26, 1, 0, tzinfo=UTC),
        no_show_minutes=15,
        pairings=[spec],
        mode="offline",
    )


def staff_actions(event: str) -> list[tuple[str, str, str, dict]]:
    """(what, method, path through the gateway, body) of every kind of staff action on ``event``."""
    game = game_of(event)
    section = f"/pairing/v1/events/{event}/sections/men-free"
    return [
        ("evidence review", "POST", f"/registration/v1/events/{event}/entries/{event}.online.men-free.0001/review", {}),
        ("ledger", "POST", f"/registration/v1/events/{event}/ledger", {}),
        ("check-in", "POST", f"/registration/v1/events/{event}/stages/online/check-in", {}),
        ("closing", "POST", f"/registration/v1/events/{event}/stages/online/close", {}),
        ("partner apps", "PUT", f"/registration/v1/events/{event}/partners", {"partners": None}),
        ("result", "POST", f"{section}/rounds/1/results", {}),
        ("tie decision", "POST", f"{section}/ties/t1/decision", {}),
        ("appeal decision", "POST", f"{section}/appeals/a1/decision", {}),
        ("result slip", "POST", f"/gameplay/v1/games/{game}/slips", {}),
        ("early start", "POST", f"/gameplay/v1/games/{game}/early-start", {}),
        ("honours", "POST", f"/awards/v1/events/{event}/honours", {}),
        ("publishing", "POST", f"/awards/v1/events/{event}/sections/men-free/publish", {}),
    ]


def bearer(session: dict) -> dict[str, str]:
    return {"authorization": f"Bearer {session['access_token']}"}


def refusal(r: httpx.Response) -> str | None:
    if r.status_code != 403:
        return None
    return r.json()["error"]["code"]


async def person(c: httpx.AsyncClient, org: str, login: str, roles: list[str]) -> dict:
    """Invited by the operator, accepted with a password, signed in: the sign-in's answer."""
    body = {"login": login, "name": login.split("@")[0].replace("-", " ").title(), "roles": roles, "events": {}}
    link = await c.post(f"/partners/v1/organisations/{org}/invitations", headers=OP, json=body)
    assert link.status_code == 201, link.text
    shown = await c.get(f"/partners/v1/invitations/{link.json()['token']}")
    assert shown.status_code == 200 and sorted(shown.json()["roles"]) == sorted(roles), shown.text
    accepted = await c.post(f"/partners/v1/invitations/{link.json()['token']}/accept", json={"password": PASSWORD})
    assert accepted.status_code == 201, accepted.text
    signed = await c.post("/partners/v1/staff/sign-in", json={"login": login, "password": PASSWORD})
    assert signed.status_code == 200, signed.text
    return signed.json()


@pytest.fixture
async def databases(fresh_database):
    return {s: await fresh_database() for s in SERVED}


async def test_issue29_people_act_only_on_their_organisations_events_in_every_service(
    databases, amqp_url, bus_namespace, tmp_path
):
    stack = LocalCompose(
        database_urls=databases,
        amqp_url=amqp_url,
        namespace=bus_namespace,
        log_dir=tmp_path,
        extra_env={"API_KEYS": KEYS, "CLOCK": "fake", "CLOCK_START": SZ_OPEN, "RELAY_POLL_S": "0.2"},
    )
    publisher = RabbitEventBus(amqp_url, namespace=bus_namespace)
    try:
        await stack.serve_all(*SERVED)
        gateway = stack.start_gateway()
        await asyncio.to_thread(stack.wait_gateway)
        await publisher.start()
        async with httpx.AsyncClient(base_url=gateway.url, timeout=60) as c:
            for org in ("org-a", "org-b"):
                r = await c.post("/partners/v1/organisations", headers=OP, json={"id": org, "name": f"Org {org[-1]}"})
                assert r.status_code == 201, r.text
            for event, org in ((EV_A, "org-a"), (EV_B, "org-b")):
                body = {"preset_id": "sz-2022", "event_code": event, "organisation": org}
                r = await c.post("/registration/v1/events", headers=OP, json=body)
                assert r.status_code == 201, r.text
                assert (await c.get(f"/registration/v1/events/{event}", headers=OP)).json()["organisation"] == org
                # games of the event, as pairing sends them
                await publisher.publish([encode(envelope_for(_round_paired(event), correlation_id=event))])

            arbiter = await person(c, "org-a", "arbiter@a.example", ["arbiter"])
            chief = await person(c, "org-a", "chief@a.example", ALL_ROLES)
            recorder = await person(c, "org-a", "recorder@a.example", ["recorder"])

            # every service has heard who owns A's event: A's chief passes every check there
            async def chief_passes_everywhere() -> bool:
                for _what, method, path, body in staff_actions(EV_A):
                    if refusal(await c.request(method, path, json=body, headers=bearer(chief))) is not None:
                        return False
                return True

            await eventually(chief_passes_everywhere, "every service knows who owns the events", timeout=90)

            # an arbiter of A on B's event: refused in every service, with words
            for what, method, path, body in staff_actions(EV_B):
                r = await c.request(method, path, json=body, headers=bearer(arbiter))
                assert refusal(r) == "not_your_event", (what, r.status_code, r.text)
                words = r.json()["error"]["details"]["words"]
                assert "其他组织" in words["zh"] and "another organisation" in words["en"], words
                # and so is A's chief, who holds every role in A
                r = await c.request(method, path, json=body, headers=bearer(chief))
                assert refusal(r) == "not_your_event", (what, r.status_code, r.text)

            # public reads and "who am I" are open to a signed-in person, in any organisation's event
            r = await c.get(f"/gameplay/v1/games/{game_of(EV_B)}", headers=bearer(arbiter))
            assert r.status_code == 200, r.text
            r = await c.get("/pairing/v1/whoami", headers=bearer(arbiter))
            assert r.status_code == 200 and r.json()["role"] == "arbiter", r.text

            # a recorder records and enters slips, and nothing else
            record = f"/gameplay/v1/games/{game_of(EV_A)}/record-entries"
            assert refusal(await c.post(record, json={}, headers=bearer(recorder))) is None
            for what, method, path, body in staff_actions(EV_A):
                r = await c.request(method, path, json=body, headers=bearer(recorder))
                expected = None if what == "result slip" else "role_not_held"
                assert refusal(r) == expected, (what, r.status_code, r.text)

            # the organiser chooses partner apps: partner-1 is not one of them
            r = await c.put(
                f"/registration/v1/events/{EV_A}/partners", json={"partners": ["partner-2"]}, headers=bearer(chief)
            )
            assert r.status_code == 200, r.text
            entry = {
                "stage": "online",
                "section_id": "men-free",
                "player": {
                    "name": "Zhang Wei",
                    "gender": "male",
                    "birth_date": "1991-03-07",
                    "id_number": "440301199103070031",
                },
                "evidence": [{"kind": "household_registration", "document_ref": "HK-0001", "region": "Shenzhen"}],
                "insurance": {"confirmed": True, "document_ref": "POL-0001"},
            }
            r = await c.post(f"/registration/v1/events/{EV_A}/entries", json=entry, headers=PARTNER)
            assert refusal(r) == "partner_not_chosen", r.text
            r = await c.post(f"/registration/v1/events/{EV_B}/entries", json=entry, headers=PARTNER)
            assert refusal(r) is None, r.text

            async def move_refused() -> bool:
                r = await c.post(
                    f"/gameplay/v1/games/{game_of(EV_A)}/move",
                    json={"player_id": "alice", "point": "h8"},
                    headers=PARTNER,
                )
                return refusal(r) == "partner_not_chosen"

            await eventually(move_refused, "gameplay refuses the partner that was not chosen", timeout=60)

            # signing out everywhere: every service refuses the token at once
            r = await c.post("/partners/v1/staff/sign-out-everywhere", headers=bearer(arbiter))
            assert r.status_code == 200, r.text

            async def refused_everywhere() -> bool:
                actions = staff_actions(EV_A)
                # one of each service: registration, pairing, gameplay, awards
                for _what, method, path, body in (actions[0], actions[5], actions[8], actions[10]):
                    r = await c.request(method, path, json=body, headers=bearer(arbiter))
                    if r.status_code != 401 or r.json()["error"]["code"] != "revoked_token":
                        return False
                return True

            await eventually(refused_everywhere, "the revocation reached every service", timeout=30)
    finally:
        await publisher.close()
        stack.stop_all()
