"""Issue 29 in registration, in-process on PostgreSQL: every event belongs to an organisation,
its staff act on it in their roles (an arbiter's API key of another organisation, a person
without the role: 403 with words), its organiser chooses the partner apps that may register
(an unchosen partner: 403 partner_not_chosen), event.access_changed is sent on creation and on
each change, and the audits name the person who acted."""

from __future__ import annotations

import asyncio
from datetime import datetime

from registration_kit import ARB, ARB_A, CST, OP, P1, P2, pg_harness, sz_entry
from sqlalchemy.ext.asyncio import create_async_engine

from gomoku_shared.migrate import upgrade
from gomoku_shared.testing.people import StaffTokens
from registration import presets
from registration.adapters import orm
from registration.adapters.stored_config import config_columns

CHECK_IN_DAY = datetime(2022, 11, 4, 9, 0, tzinfo=CST)
GRADE = [{"kind": "grade_certificate", "document_ref": "G-29", "grade": "2k"}]


SZ_OPEN = datetime(2022, 10, 26, 10, 0, tzinfo=CST)
DA_OPEN = datetime(2023, 8, 5, 10, 0, tzinfo=CST)


def mint(people: StaffTokens, name: str, at: datetime = SZ_OPEN, **roles) -> str:
    """A staff token issued at the service's (fake) time, valid through the event's weeks."""
    return people.token(name, issued_at=at.timestamp(), ttl_s=60 * 86400, **roles)


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def refused(response, code: str) -> dict:
    """The 403 of ``code``, with its words in Chinese and English."""
    assert response.status_code == 403, response.text
    error = response.json()["error"]
    assert error["code"] == code, error
    words = error["details"]["words"]
    assert words["zh"] and words["en"], error
    return error


async def create(h, code: str, organisation: str | None, headers=OP, preset: str = "sz-2022"):
    body = {"preset_id": preset, "event_code": code} | ({"organisation": organisation} if organisation else {})
    return await h.client.post("/v1/events", headers=headers, json=body)


async def event_with_entries(h, code: str, organisation: str) -> dict:
    """An SZ event of ``organisation`` with an ordinary entry and a wildcard whose certificate waits."""
    assert (await create(h, code, organisation)).status_code == 201
    plain = await h.client.post(f"/v1/events/{code}/entries", headers=P1, json=sz_entry(1))
    assert plain.status_code == 201, plain.text
    body = {**sz_entry(2, section="men-pro", evidence=GRADE), "facts": {"intends_to_represent": True}}
    wildcard = await h.client.post(f"/v1/events/{code}/entries", headers=P1, json=body)
    assert wildcard.json()["status"] == "pending_review", wildcard.text
    pending = (await h.client.get(f"/v1/events/{code}/evidence?status=pending", headers=OP)).json()["evidence"]
    return {"entry": plain.json()["entry_id"], "evidence": pending[0]["evidence_id"]}


async def staff_actions(h, code: str, made: dict, headers: dict) -> list:
    """Evidence review, check-in and closing on the event, as ``headers``."""
    decision = await h.client.post(
        f"/v1/evidence/{made['evidence']}/decision", headers=headers, json={"decision": "approve", "note": "seen"}
    )
    h.clock.set(CHECK_IN_DAY)
    check_in = await h.client.post(
        f"/v1/events/{code}/stages/online/check-in",
        headers=headers,
        json={"entry_ids": [made["entry"]], "documents_shown": ["id_card"]},
    )
    close = await h.client.post(
        f"/v1/events/{code}/stages/online/close", headers=headers, json={"not_checked_in": "absent"}
    )
    h.clock.set(SZ_OPEN)
    return [decision, check_in, close]


async def test_issue29_an_arbiter_key_acts_on_its_organisations_events_only(fresh_database):
    """Issue 29, per-event authorisation: an arbiter's API key of organisation A gets 403
    not_your_event on evidence review, check-in and closing of B's event, and does all three on A's."""
    async with pg_harness(await fresh_database()) as h:
        theirs = await event_with_entries(h, "sz-b", "org-b")
        ours = await event_with_entries(h, "sz-a", "org-a")
        for response in await staff_actions(h, "sz-b", theirs, ARB_A):
            refused(response, "not_your_event")
        decision, check_in, close = await staff_actions(h, "sz-a", ours, ARB_A)
        assert decision.status_code == 200, decision.text
        assert check_in.status_code == 200, check_in.text
        assert close.status_code == 200, close.text


async def test_issue29_the_ledger_is_its_organisations_fee_clerks(fresh_database):
    """Issue 29: a fee clerk of A records a payment on A's event (the ledger names them), not on
    B's (not_your_event); an arbiter's key of A records on A's; an arbiter (a person) of A may not
    (role_not_held, with the roles the action needs in words)."""
    people = StaffTokens()
    clerk = mint(people, "李收费", DA_OPEN, orgs={"org-a": ["fee_clerk"]}, account_id="clerk-1")
    arbiter = mint(people, "张裁判", DA_OPEN, orgs={"org-a": ["arbiter"]})
    async with pg_harness(await fresh_database(), DA_OPEN, people) as h:
        for code, org in (("da-a", "org-a"), ("da-b", "org-b")):
            assert (await create(h, code, org, preset="da-2023")).status_code == 201
            unit = {"id": "hainan", "name": "Hainan", "kind": "province"}
            assert (await h.client.post(f"/v1/events/{code}/units", headers=P1, json=unit)).status_code == 201
        line = {"item": "lodging-standard", "amount_fen": 144_000, "unit_id": "hainan", "reference": "ICBC-29"}
        refused(await h.client.post("/v1/events/da-b/ledger", headers=bearer(clerk), json=line), "not_your_event")
        error = refused(
            await h.client.post("/v1/events/da-a/ledger", headers=bearer(arbiter), json=line), "role_not_held"
        )
        assert "收费员" in error["details"]["words"]["zh"] and "fee clerk" in error["details"]["words"]["en"]
        recorded = await h.client.post("/v1/events/da-a/ledger", headers=bearer(clerk), json=line)
        assert recorded.status_code == 201, recorded.text
        assert (await h.client.post("/v1/events/da-a/ledger", headers=ARB_A, json=line)).status_code == 201
        lines = (await h.client.get("/v1/events/da-a/ledger", headers=bearer(clerk))).json()["lines"]
        assert [x["recorded_by"] for x in lines] == ["李收费 (acct:clerk-1)", "arbiter:k5"]


async def test_issue29_a_fee_clerk_may_not_review_evidence_and_audits_name_the_reviewer(fresh_database):
    """Issue 29: a fee clerk of A gets 403 role_not_held (in words) reviewing evidence of A's
    event; the chief arbiter of A approves it and the evidence and the check-in name her."""
    people = StaffTokens()
    clerk = mint(people, "李收费", orgs={"org-a": ["fee_clerk"]})
    chief = mint(people, "王芳", events={"sz-a": ["chief_arbiter"]}, account_id="chief-1")
    async with pg_harness(await fresh_database(), people=people) as h:
        made = await event_with_entries(h, "sz-a", "org-a")
        decide = {"decision": "approve", "note": "certificate checked"}
        url = f"/v1/evidence/{made['evidence']}/decision"
        error = refused(await h.client.post(url, headers=bearer(clerk), json=decide), "role_not_held")
        assert error["details"]["action"] == "evidence.review" and error["details"]["holds"] == ["fee_clerk"]
        assert "审核资格证明" in error["details"]["words"]["zh"]
        assert (await h.client.post(url, headers=bearer(chief), json=decide)).status_code == 200
        evidence = (await h.client.get("/v1/events/sz-a/evidence", headers=bearer(chief))).json()["evidence"]
        assert {e["reviewed_by"] for e in evidence if e["status"] == "approved"} == {"王芳 (acct:chief-1)"}
        h.clock.set(CHECK_IN_DAY)
        body = {"entry_ids": [], "no_show": [made["entry"]]}
        r = await h.client.post("/v1/events/sz-a/stages/online/check-in", headers=bearer(chief), json=body)
        assert r.status_code == 200, r.text
        assert r.json()["results"][0]["reason"] == "marked absent by 王芳 (acct:chief-1)"


async def test_issue29_the_organiser_chooses_the_partner_apps(fresh_database):
    """Issue 29, partner apps per event: the organiser of A chooses partner 2 (audited with her
    name, event.access_changed sent); partner 1 then gets 403 partner_not_chosen registering,
    partner 2 registers; null lets every partner in again. Another organisation's organiser and a
    partner may not choose."""
    people = StaffTokens()
    organiser = mint(people, "陈组委", orgs={"org-a": ["organiser"]}, account_id="org-1")
    stranger = mint(people, "赵组委", orgs={"org-b": ["organiser"]})
    async with pg_harness(await fresh_database(), people=people) as h:
        assert (await create(h, "sz-a", "org-a")).status_code == 201
        url = "/v1/events/sz-a/partners"
        chosen = await h.client.put(url, headers=bearer(organiser), json={"partners": ["partner-2"]})
        assert chosen.status_code == 200, chosen.text
        assert chosen.json()["partners"] == ["partner-2"] and chosen.json()["organisation"] == "org-a"
        refused(await h.client.put(url, headers=bearer(stranger), json={"partners": None}), "not_your_event")
        assert (await h.client.put(url, headers=P2, json={"partners": None})).status_code == 403
        assert (await h.client.put(url, headers=bearer(organiser), json={})).status_code == 422

        refused(await h.client.post("/v1/events/sz-a/entries", headers=P1, json=sz_entry(1)), "partner_not_chosen")
        assert (await h.client.post("/v1/events/sz-a/entries", headers=P2, json=sz_entry(2))).status_code == 201
        await h.settle()
        changes = [(p.organisation, p.partners) for p in h.payloads("event.access_changed")]
        assert changes == [("org-a", None), ("org-a", ["partner-2"])]

        again = await h.client.put(url, headers=bearer(organiser), json={"partners": None})
        assert again.status_code == 200 and again.json()["partners"] is None
        assert (await h.client.post("/v1/events/sz-a/entries", headers=P1, json=sz_entry(1))).status_code == 201
        seen = (await h.client.get(url, headers=OP)).json()
        assert [c["chosen_by"] for c in seen["choices"]] == ["陈组委 (acct:org-1)"] * 2
        assert [c["partners"] for c in seen["choices"]] == [["partner-2"], None]


async def test_issue29_events_have_owners_and_people_are_kept_off_partner_and_operator_routes(fresh_database):
    """Issue 29: an organiser of A creates an event of A (not of B; an arbiter's key creates none);
    event.access_changed names its owner on creation; the event, and the list of an organisation's
    events, show the owner; an event created without one is the default organisation's. A person
    on a route for partner apps and the operator's keys gets 403 staff_account_not_allowed."""
    people = StaffTokens()
    organiser = mint(people, "陈组委", orgs={"org-a": ["organiser"]})
    async with pg_harness(await fresh_database(), people=people) as h:
        made = await create(h, "sz-a", "org-a", headers=bearer(organiser))
        assert made.status_code == 201 and made.json()["organisation"] == "org-a", made.text
        refused(await create(h, "sz-b", "org-b", headers=bearer(organiser)), "not_your_event")
        assert (await create(h, "sz-c", "org-a", headers=ARB_A)).status_code == 403
        assert (await create(h, "sz-d", None)).json()["organisation"] == "default"
        await h.settle()
        owners = [(p.event_code, p.organisation, p.partners) for p in h.payloads("event.access_changed")]
        assert owners == [("sz-a", "org-a", None), ("sz-d", "default", None)]
        assert (await h.client.get("/v1/events/sz-a", headers=bearer(organiser))).json()["organisation"] == "org-a"
        listed = (await h.client.get("/v1/events?organisation=org-a", headers=OP)).json()["events"]
        assert [(e["event_code"], e["organisation"]) for e in listed] == [("sz-a", "org-a")]
        every = (await h.client.get("/v1/events", headers=OP)).json()["events"]
        assert [e["event_code"] for e in every] == ["sz-a", "sz-d"]

        entry = await h.client.post("/v1/events/sz-a/entries", headers=bearer(organiser), json=sz_entry(3))
        refused(entry, "staff_account_not_allowed")


async def _event_before_organisations(url: str, code: str) -> None:
    """An SZ event as revision 0012 stored it (no owner, no event_access record)."""
    await asyncio.to_thread(upgrade, "registration", url, "0012")
    config = presets.load("sz-2022", {"id": code}).model_dump(mode="json")
    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            created = {"code": code, "preset_id": "sz-2022", "name": config["name"], "overrides": {}}
            values = {**created, **config_columns(config), "created_at": SZ_OPEN, "created_by": "operator"}
            await conn.execute(orm.events.insert().values(**values))  # only the columns 0012 has
            for stage in config["stages"]:
                status = {"event_code": code, "stage_id": stage["id"], "status": "open"}
                await conn.execute(orm.stages.insert().values(**status))
    finally:
        await engine.dispose()


async def test_issue29_events_from_before_organisations_are_the_default_ones(fresh_database):
    """Issue 29, migration 0013: an event stored before organisations belongs to the default
    organisation (its view and the list say so) and nothing is published for it; every partner
    may register; the arbiter's key without an organisation acts on it, organisation A's does not."""
    url = await fresh_database()
    await _event_before_organisations(url, "old")
    async with pg_harness(url) as h:
        assert (await h.client.get("/v1/events/old", headers=OP)).json()["organisation"] == "default"
        listed = (await h.client.get("/v1/events", headers=OP)).json()["events"]
        assert [(e["event_code"], e["organisation"]) for e in listed] == [("old", "default")]
        entry = await h.client.post("/v1/events/old/entries", headers=P1, json=sz_entry(1))
        assert entry.status_code == 201, entry.text
        absent = {"entry_ids": [], "no_show": [entry.json()["entry_id"]]}
        h.clock.set(CHECK_IN_DAY)
        url_check_in = "/v1/events/old/stages/online/check-in"
        refused(await h.client.post(url_check_in, headers=ARB_A, json=absent), "not_your_event")
        assert (await h.client.post(url_check_in, headers=ARB, json=absent)).status_code == 200
        await h.settle()
        assert h.payloads("event.access_changed") == []
