"""Issue 29 in the pairing service, on PostgreSQL and RabbitMQ: staff act only in the events of
their organisation and in their roles there; the audits, results and appeals name the person.

The event's owner comes as ``event.access_changed`` on the bus (registration sends it); staff
members present tokens shaped as the partners service issues them at sign-in
(``gomoku_shared.testing.people.StaffTokens``)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from pairing_kit import EV, Harness, closed, players, rules

from gomoku_shared.contracts.common import AppealTerms
from gomoku_shared.contracts.events import EventAccessChanged
from gomoku_shared.event_access import EventAccessDirectory
from gomoku_shared.messaging.rabbit import RabbitEventBus
from gomoku_shared.settings import ServiceSettings
from gomoku_shared.testing.people import StaffTokens
from pairing.adapters import orm

#: the default organisation's legacy arbiter key, another organisation's, the operator's
KEYS = "op-key=operator,arb-key=arbiter,ob-key=arbiter:org-b"
OP, ARB, ORG_B_KEY = ({"x-api-key": k} for k in ("op-key", "arb-key", "ob-key"))
BASE = f"/v1/events/{EV}/sections/a"


@pytest.fixture
async def svc(fresh_database, amqp_url, bus_namespace):
    url = await fresh_database()
    settings = ServiceSettings(
        DATABASE_URL=url, AMQP_URL=amqp_url, BUS_NAMESPACE=bus_namespace, API_KEYS=KEYS, RELAY_POLL_S=0.05
    )
    h = Harness(settings, observer_bus=RabbitEventBus(amqp_url, namespace=bus_namespace))
    await h.start()
    yield h
    await h.stop()


class People:
    """Staff members' tokens the service accepts, as Authorization headers."""

    def __init__(self, svc: Harness) -> None:
        self.svc = svc
        self.tokens = StaffTokens()
        self.tokens.install(svc.service.app.state.keyring)

    def of(self, name: str, org: str, *roles: str, account_id: str | None = None) -> dict[str, str]:
        # signed in now, by the service's (test) clock
        now = self.svc.clock.now().timestamp()
        token = self.tokens.token(name, orgs={org: roles}, account_id=account_id, issued_at=now)
        return {"authorization": f"Bearer {token}"}


async def _owned_by(svc: Harness, organisation: str) -> None:
    """``event.access_changed`` on the bus, and the service's table holding it."""
    await svc.publish(EventAccessChanged(event_code=EV, organisation=organisation, changed_at=datetime.now(UTC)))
    fresh = EventAccessDirectory.on_table(svc.service.runtime.sessionmaker, orm.event_access, ttl_s=0)

    async def stored() -> bool:
        return (await fresh.get(EV)).organisation == organisation

    for _ in range(200):
        if await stored():
            return
        await svc.settle(timeout=1)
    raise AssertionError(f"{EV} not recorded as {organisation}'s")


def _refused(answer, code: str) -> None:
    assert answer.status_code == 403, answer.text
    error = answer.json()["error"]
    assert error["code"] == code, answer.text
    assert error["details"]["words"]["zh"] and error["details"]["words"]["en"]


async def test_issue29_results_entered_and_corrected_only_by_the_events_staff_in_their_roles(svc):
    """Issue 29: entering a result needs an arbiter (or chief arbiter) of the event's organisation,
    a correction its chief arbiter; another organisation's staff and legacy keys get 403
    not_your_event, a recorder 403 role_not_held; the result, the audit and the revision
    conflict answer name the person."""
    people = People(svc)
    await svc.send(closed("a", players(6), rules(rounds=3)))
    await svc.settle()
    url = f"{BASE}/rounds/1/results"
    entry = {"pairing_id": "r1.b1", "result": "first_wins"}
    # no owner known yet: the default organisation's; a key bound to organisation B stays out
    _refused(await svc.client.post(url, json=entry, headers=ORG_B_KEY), "not_your_event")
    await _owned_by(svc, "org-a")
    # the default organisation's legacy arbiter key no longer reaches organisation A's event
    _refused(await svc.client.post(url, json=entry, headers=ARB), "not_your_event")
    _refused(await svc.client.post(url, json=entry, headers=people.of("B", "org-b", "arbiter")), "not_your_event")
    _refused(await svc.client.post(url, json=entry, headers=people.of("R", "org-a", "recorder")), "role_not_held")
    arbiter = people.of("李裁判", "org-a", "arbiter", account_id="li")
    entered = await svc.client.post(url, json=entry, headers=arbiter)
    assert entered.status_code == 200 and entered.json()["revision"] == 1, entered.text

    # a correction: the chief arbiter's, of organisation A
    correction = {"pairing_id": "r1.b1", "result": "draw", "expected_revision": 1}
    refused = await svc.client.post(url, json=correction, headers=arbiter)
    _refused(refused, "role_not_held")
    assert refused.json()["error"]["details"]["needs"] == ["chief_arbiter"]
    chief_b = people.of("B chief", "org-b", "chief_arbiter")
    _refused(await svc.client.post(url, json=correction, headers=chief_b), "not_your_event")
    chief = people.of("王裁判长", "org-a", "chief_arbiter", account_id="wang")
    stale = await svc.client.post(url, json={**correction, "expected_revision": 0}, headers=chief)
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "stale_revision"
    current = stale.json()["error"]["details"]["current"]
    assert (current["changed_by"], current["changed_by_name"]) == ("acct:li", "李裁判")  # who set it
    corrected = await svc.client.post(url, json=correction, headers=chief)
    assert corrected.status_code == 200 and corrected.json()["revision"] == 2, corrected.text
    # the operator's keys act on every event
    other = await svc.client.post(url, json={"pairing_id": "r1.b2", "result": "draw"}, headers=OP)
    assert other.status_code == 200, other.text

    # a tie decision is a correction's kind: refused to an arbiter before the tie is looked at
    tie = await svc.client.post(f"{BASE}/ties/t1-2/decision", json={"order": ["p001", "p002"]}, headers=arbiter)
    _refused(tie, "role_not_held")
    # rounds: the pairing officer's and the chief arbiter's
    _refused(await svc.client.post(f"{BASE}/hold", json={"hold": True}, headers=arbiter), "role_not_held")
    officer = people.of("编排长", "org-a", "pairing_officer")
    assert (await svc.client.post(f"{BASE}/hold", json={"hold": False}, headers=officer)).status_code == 200

    # staff reads in full: the event's staff but its recorders; the audit names people
    audit_url = f"{BASE}/audit"
    _refused(await svc.client.get(audit_url, headers=people.of("R", "org-a", "recorder")), "role_not_held")
    _refused(await svc.client.get(audit_url, headers=people.of("B", "org-b", "arbiter")), "not_your_event")
    audit = (await svc.client.get(audit_url, headers=arbiter)).json()["audit"]
    assert [(a["action"], a["actor"], a["actor_id"]) for a in audit[:2]] == [
        ("result", "李裁判", "acct:li"),
        ("result", "王裁判长", "acct:wang"),
    ]
    assert audit[2]["action"] == "result" and audit[2]["actor"] == audit[2]["actor_id"] != "op-key"
    assert (audit[-1]["action"], audit[-1]["actor"]) == ("hold", "编排长")


def _appeal() -> dict:
    return {
        "unit_id": "U1",
        "signatory_role": "leader",
        "signatory_name": "张三丰",
        "grounds": "the opponent's device was in use during the game",
        "round": 1,
        "pairing_id": "r1.b1",
        "fee_fen": 50_000,
        "payment_reference": "receipt 0042",
    }


async def test_issue29_appeals_are_decided_by_the_events_arbitration_committee(svc):
    """Issue 29, AWD-10: the event's staff record an appeal; only a member of the arbitration
    committee of the event's organisation decides it (an arbiter: 403 role_not_held; another
    organisation's member: 403 not_your_event; a recorder can do neither); the appeal names
    who recorded and who decided it."""
    people = People(svc)
    await svc.send(closed("a", players(6), rules(rounds=3)).model_copy(update={"appeals": AppealTerms(fee_fen=50_000)}))
    await svc.settle()
    await _owned_by(svc, "org-a")
    await svc.play_section("a", 3)
    recorder = people.of("R", "org-a", "recorder")
    _refused(await svc.client.post(f"{BASE}/appeals", json=_appeal(), headers=recorder), "role_not_held")
    outsider = people.of("B", "org-b", "arbiter")
    _refused(await svc.client.post(f"{BASE}/appeals", json=_appeal(), headers=outsider), "not_your_event")
    arbiter = people.of("李裁判", "org-a", "arbiter", account_id="li")
    lodged = await svc.client.post(f"{BASE}/appeals", json=_appeal(), headers=arbiter)
    assert lodged.status_code == 200, lodged.text
    assert (lodged.json()["lodged_by"], lodged.json()["lodged_by_name"]) == ("acct:li", "李裁判")

    url = f"{BASE}/appeals/a-1/decision"
    decision = {"upheld": False, "reasons": "no breach was seen"}
    refused = await svc.client.post(url, json=decision, headers=arbiter)
    _refused(refused, "role_not_held")
    assert refused.json()["error"]["details"]["needs"] == ["arbitration"]
    _refused(await svc.client.post(url, json=decision, headers=recorder), "role_not_held")
    member_b = people.of("B 仲裁", "org-b", "arbitration")
    _refused(await svc.client.post(url, json=decision, headers=member_b), "not_your_event")
    _refused(await svc.client.post(url, json=decision, headers=ORG_B_KEY), "not_your_event")
    member = people.of("赵仲裁", "org-a", "arbitration", account_id="zhao")
    decided = await svc.client.post(url, json=decision, headers=member)
    assert decided.status_code == 200, decided.text
    assert (decided.json()["decided_by"], decided.json()["decided_by_name"]) == ("acct:zhao", "赵仲裁")
    shown = (await svc.client.get(f"{BASE}/appeals/a-1", headers=member)).json()
    assert (shown["status"], shown["lodged_by_name"], shown["decided_by_name"]) == ("rejected", "李裁判", "赵仲裁")
    audit = (await svc.client.get(f"{BASE}/audit", headers=OP)).json()["audit"]
    assert [(a["action"], a["actor"]) for a in audit[-2:]] == [
        ("appeal_lodged", "李裁判"),
        ("appeal_decided", "赵仲裁"),
    ]
