"""Registration service over HTTP on SQLite + the in-memory bus: entries, caps, windows,
idempotency, partner isolation (REG-1, REG-2, REG-3, REG-6, REG-9, REG-10, REG-13)."""

from __future__ import annotations

from datetime import datetime

import pytest
from registration_kit import ARB, CST, OP, P1, P2, harness, player, sz_entry

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow

#: REG-18: an SZ online entry admitted on declared residency evidence an arbiter has not approved yet
PENDING_EV = "accepted_pending_evidence"


async def test_reg1_window_judged_by_the_service_clock_at_arrival(tmp_path):
    """REG-1: the complete application must arrive before closes_at (exclusive), by the service clock;
    an incomplete application is refused."""
    async with harness(tmp_path, start=datetime(2022, 10, 31, 23, 59, tzinfo=CST)) as h:
        await h.create_sz()
        r = await h.client.post("/v1/events/sz22/entries", headers=P1, json=sz_entry(1))
        assert r.status_code == 201 and r.json()["status"] == PENDING_EV
        h.clock.set(datetime(2022, 11, 1, 0, 0, tzinfo=CST))  # the deadline minute: closed
        r = await h.client.post("/v1/events/sz22/entries", headers=P1, json=sz_entry(2))
        body = r.json()
        assert body["status"] == "refused" and body["clause"] == "registration/window", body
        h.clock.set(datetime(2022, 10, 31, 23, 59, 30, tzinfo=CST))  # fake clock may be set back in tests
        r = await h.client.post("/v1/events/sz22/entries", headers=P1, json={**sz_entry(3), "items": []})
        assert r.json()["status"] == "refused" and r.json()["clause"] == "registration/complete"
        await h.settle()
        refused = h.events("entry.refused")
        assert [e.payload.clause for e in refused] == ["registration/window", "registration/complete"]


async def test_reg2_cap_refuses_the_next_entry_with_a_clear_reason(tmp_path):
    """REG-2: a section stops at its cap; the next gets a refusal naming the cap."""
    async with harness(tmp_path) as h:
        await h.create_sz(overrides={"stages": {"online": {"sections": {"men-free": {"cap": 3}}}}})
        for n in range(1, 4):
            r = await h.client.post("/v1/events/sz22/entries", headers=P1, json=sz_entry(n))
            assert r.json()["status"] == PENDING_EV
        r = await h.client.post("/v1/events/sz22/entries", headers=P1, json=sz_entry(4))
        assert r.json()["status"] == "refused"
        assert r.json()["clause"] == "men-free/cap" and "cap of 3" in r.json()["reason"]


async def test_reg2_waiting_list_and_reg10_withdrawal_promotes_the_first(tmp_path):
    """REG-2 (Decision: waiting list where enabled) + REG-10 (withdrawal needs a written reason)."""
    async with harness(tmp_path) as h:
        await h.create_sz(
            overrides={"waiting_list": True, "stages": {"online": {"sections": {"men-free": {"cap": 2}}}}}
        )
        ids = []
        for n in range(1, 5):
            ids.append((await h.client.post("/v1/events/sz22/entries", headers=P1, json=sz_entry(n))).json())
        assert [x["status"] for x in ids] == [PENDING_EV, PENDING_EV, "waiting_list", "waiting_list"]
        assert ids[3]["waitlist_position"] == 2
        url = f"/v1/events/sz22/entries/{ids[0]['entry_id']}/withdraw"
        r = await h.client.post(url, headers=P1, json={"reason": "  "})
        assert r.status_code == 422 and "written reason" in r.json()["error"]["message"]
        r = await h.client.post(url, headers=P1, json={"reason": "injured wrist"})
        assert r.status_code == 200, r.text
        assert r.json()["status"] == "withdrawn" and r.json()["promoted"] == ids[2]["entry_id"]
        await h.settle()
        assert [e.payload.entry_id for e in h.events("entry.withdrawn")] == [ids[0]["entry_id"]]
        promoted = [e for e in h.events("entry.accepted") if e.payload.entry_id == ids[2]["entry_id"]]
        assert [e.payload.waiting_list for e in promoted] == [True, False]
        r = await h.client.get(f"/v1/events/sz22/entries/{ids[3]['entry_id']}", headers=OP)
        assert r.json()["waitlist_position"] == 1


async def test_idempotency_key_replays_the_stored_response_and_creates_one_entry(tmp_path):
    async with harness(tmp_path) as h:
        await h.create_sz()
        headers = {**P1, "Idempotency-Key": "abc-1"}
        first = await h.client.post("/v1/events/sz22/entries", headers=headers, json=sz_entry(1))
        again = await h.client.post("/v1/events/sz22/entries", headers=headers, json=sz_entry(1))
        assert first.status_code == again.status_code == 201
        assert first.json() == again.json()
        assert again.headers["idempotent-replayed"] == "true" and "idempotent-replayed" not in first.headers
        r = await h.client.get("/v1/events/sz22/entries", headers=OP)
        assert len(r.json()["entries"]) == 1
        other_body = await h.client.post("/v1/events/sz22/entries", headers=headers, json=sz_entry(2))
        assert other_body.status_code == 409 and other_body.json()["error"]["code"] == "idempotency_key_reused"
        # the same key from another principal is another request
        r = await h.client.post("/v1/events/sz22/entries", headers={**P2, "Idempotency-Key": "abc-1"}, json=sz_entry(2))
        assert r.status_code == 201
        # another path (another event) with the same key and body is another request
        await h.create_sz("sz23")
        r = await h.client.post("/v1/events/sz23/entries", headers=headers, json=sz_entry(1))
        assert r.status_code == 409 and r.json()["error"]["code"] == "idempotency_key_reused"
        await h.settle()
        assert len(h.events("entry.accepted")) == 2
        r = await h.client.post(
            "/v1/events/sz22/entries", headers={**P1, "Idempotency-Key": "k" * 201}, json=sz_entry(4)
        )
        assert r.status_code == 422 and r.json()["error"]["details"][0]["loc"] == ["header", "Idempotency-Key"]
        # keys expire (IDEMPOTENCY_TTL_S, a day by default, service clock): then the key is free
        h.clock.advance(86400 + 1)
        r = await h.client.post("/v1/events/sz22/entries", headers=headers, json=sz_entry(3))
        assert r.status_code != 409 and "idempotent-replayed" not in r.headers, r.text


async def test_partner_sees_and_acts_only_on_its_own_players(tmp_path):
    """REG-11 / edges: another partner's entries answer 404; staff see all."""
    async with harness(tmp_path) as h:
        await h.create_sz()
        mine = (await h.client.post("/v1/events/sz22/entries", headers=P1, json=sz_entry(1))).json()
        theirs = (await h.client.post("/v1/events/sz22/entries", headers=P2, json=sz_entry(2))).json()
        listed = (await h.client.get("/v1/events/sz22/entries", headers=P1)).json()["entries"]
        assert [e["entry_id"] for e in listed] == [mine["entry_id"]]
        assert (await h.client.get(f"/v1/events/sz22/entries/{theirs['entry_id']}", headers=P1)).status_code == 404
        r = await h.client.post(
            f"/v1/events/sz22/entries/{theirs['entry_id']}/withdraw", headers=P1, json={"reason": "not mine"}
        )
        assert r.status_code == 404
        r = await h.client.post(
            "/v1/events/sz22/evidence",
            headers=P1,
            json={
                "player_id": theirs["player_id"],
                "kind": "student_status",
                "document_ref": "S-1",
                "region": "Shenzhen",
            },
        )
        assert r.status_code == 404
        assert len((await h.client.get("/v1/events/sz22/entries", headers=ARB)).json()["entries"]) == 2
        # partners cannot act as arbiters or operators
        r = await h.client.post("/v1/events/sz22/stages/online/close", headers=P1, json={})
        assert r.status_code == 403


async def test_reg6_wildcard_pending_until_the_arbiter_approves_its_evidence(tmp_path):
    """REG-6 (4): wildcard by grade is pending review; approving the evidence admits the player
    under sz-residency/wildcard; rejecting another one refuses with the clause."""
    async with harness(tmp_path) as h:
        await h.create_sz()
        grade = [{"kind": "grade_certificate", "document_ref": "G-1", "grade": "2k"}]
        body = {**sz_entry(1, section="men-pro", evidence=grade), "facts": {"intends_to_represent": True}}
        first = (await h.client.post("/v1/events/sz22/entries", headers=P1, json=body)).json()
        assert first["status"] == "pending_review" and first["clause"] == "sz-residency/wildcard"
        result = {"kind": "past_result", "document_ref": "R-1", "result_level": "provincial", "result_place": 8}
        body2 = {**sz_entry(2, section="men-pro", evidence=[result]), "facts": {"intends_to_represent": True}}
        second = (await h.client.post("/v1/events/sz22/entries", headers=P1, json=body2)).json()
        assert second["status"] == "pending_review"
        pending = (await h.client.get("/v1/events/sz22/evidence?status=pending", headers=ARB)).json()["evidence"]
        assert len(pending) == 2 and all(e["document"] == "[protected]" for e in pending)
        r = await h.client.post(
            f"/v1/evidence/{pending[0]['evidence_id']}/decision", headers=P1, json={"decision": "approve"}
        )
        assert r.status_code == 403
        r = await h.client.post(
            f"/v1/evidence/{pending[0]['evidence_id']}/decision",
            headers=ARB,
            json={"decision": "approve", "note": "certificate checked"},
        )
        assert r.status_code == 200, r.text
        assert r.json()["entries"][0]["status"] == "accepted"
        assert r.json()["clause"] == "sz-residency/wildcard"
        r = await h.client.post(
            f"/v1/evidence/{pending[1]['evidence_id']}/decision", headers=ARB, json={"decision": "reject"}
        )
        assert r.status_code == 422  # a rejection needs a note
        r = await h.client.post(
            f"/v1/evidence/{pending[1]['evidence_id']}/decision",
            headers=ARB,
            json={"decision": "reject", "note": "event not officially recognised"},
        )
        assert r.json()["entries"][0]["status"] == "refused"
        await h.settle()
        accepted = [e.payload for e in h.events("entry.accepted")]
        assert [(a.entry_id, a.clause) for a in accepted] == [(first["entry_id"], "sz-residency/wildcard")]
        refused = [e.payload for e in h.events("entry.refused")]
        assert refused[0].application_id == second["entry_id"] and refused[0].clause == "sz-residency"


async def test_reg6_each_residency_clause_alone_and_missing(tmp_path):
    """REG-6 (1)-(3) over HTTP: household, residence permit + 12 consecutive months (11 refused),
    student status; nothing -> refused naming sz-residency."""

    def months(n):
        return [f"{2021 + (i + 9) // 12:04d}-{(i + 9) % 12 + 1:02d}" for i in range(n)]

    cases = [
        (
            [{"kind": "household_registration", "document_ref": "H", "region": "Shenzhen"}],
            PENDING_EV,
            "sz-residency/household",
        ),
        (
            [
                {"kind": "residence_permit", "document_ref": "RP", "region": "Shenzhen"},
                {"kind": "social_insurance", "document_ref": "SI", "region": "Shenzhen", "months_paid": months(12)},
            ],
            PENDING_EV,
            "sz-residency/residence_permit",
        ),
        (
            [
                {"kind": "residence_permit", "document_ref": "RP", "region": "Shenzhen"},
                {"kind": "social_insurance", "document_ref": "SI", "region": "Shenzhen", "months_paid": months(11)},
            ],
            "refused",
            "sz-residency",
        ),
        (
            [{"kind": "student_status", "document_ref": "ST", "region": "Shenzhen"}],
            PENDING_EV,
            "sz-residency/student_status",
        ),
        ([], "refused", "sz-residency"),
    ]
    async with harness(tmp_path) as h:
        await h.create_sz()
        for n, (evidence, status, clause) in enumerate(cases, start=1):
            r = await h.client.post("/v1/events/sz22/entries", headers=P1, json=sz_entry(n, evidence=evidence))
            assert (r.json()["status"], r.json()["clause"]) == (status, clause), (n, r.json())


async def test_reg4_reg5_age_and_gender_refusals_name_the_rule(tmp_path):
    async with harness(tmp_path) as h:
        await h.create_sz()
        r = await h.client.post(
            "/v1/events/sz22/entries", headers=P1, json=sz_entry(1, section="junior-boys-free", born="2009-12-31")
        )
        assert r.json()["status"] == "refused" and r.json()["clause"] == "junior-boys-free/birth"
        r = await h.client.post(
            "/v1/events/sz22/entries", headers=P1, json=sz_entry(2, section="junior-boys-free", born="2010-01-01")
        )
        assert r.json()["status"] == PENDING_EV
        r = await h.client.post(
            "/v1/events/sz22/entries", headers=P1, json=sz_entry(3, section="women-free", gender="male")
        )
        assert r.json()["status"] == "refused" and r.json()["clause"] == "women-free/gender"


async def test_reg13_insurance_needs_a_document_reference(tmp_path):
    async with harness(tmp_path) as h:
        await h.create_sz()
        body = {**sz_entry(1), "insurance": {"confirmed": True}}
        r = await h.client.post("/v1/events/sz22/entries", headers=P1, json=body)
        assert r.json()["status"] == "refused" and r.json()["clause"] == "insurance/participant"


async def test_same_player_is_found_again_by_id_number_and_duplicates_refused(tmp_path):
    """REG-3: one entry per player and section; the player is recognised by the ID number."""
    async with harness(tmp_path) as h:
        await h.create_sz()
        a = (await h.client.post("/v1/events/sz22/entries", headers=P1, json=sz_entry(1))).json()
        b = (await h.client.post("/v1/events/sz22/entries", headers=P1, json=sz_entry(1))).json()
        assert a["player_id"] == b["player_id"]
        assert b["status"] == "refused" and b["clause"] == "men-free/duplicate"
        other = sz_entry(1)
        other["player"] = {**other["player"], "name": "Someone Else"}
        r = await h.client.post("/v1/events/sz22/entries", headers=P1, json=other)
        assert r.status_code == 409 and r.json()["error"]["code"] == "player_mismatch"


async def test_bulk_registration_is_all_or_nothing_with_a_row_report(tmp_path):
    async with harness(tmp_path) as h:
        await h.create_sz()
        rows = [
            sz_entry(1),
            sz_entry(2),
            sz_entry(3, section="women-free", gender="male"),
            sz_entry(4, section="no-such-section"),
        ]
        r = await h.client.post("/v1/events/sz22/entries/bulk", headers=P1, json={"entries": rows})
        assert r.status_code == 422, r.text
        report = r.json()["error"]["details"]["rows"]
        assert [x["ok"] for x in report] == [True, True, False, False]
        assert report[2]["clause"] == "women-free/gender" and report[3]["error"]["code"] == "unknown_section"
        assert (await h.client.get("/v1/events/sz22/entries", headers=OP)).json()["entries"] == []
        r = await h.client.post("/v1/events/sz22/entries/bulk", headers=P1, json={"entries": rows[:2]})
        assert r.status_code == 201 and r.json()["registered"] == 2
        await h.settle()
        assert len(h.events("entry.accepted")) == 2 and not h.events("entry.refused")


async def test_reg10_changes_need_the_arbiter_after_close_and_none_in_the_freeze(tmp_path):
    async with harness(tmp_path) as h:
        await h.create_sz()
        e = (await h.client.post("/v1/events/sz22/entries", headers=P1, json=sz_entry(1))).json()
        url = f"/v1/events/sz22/entries/{e['entry_id']}/changes"
        r = await h.client.post(url, headers=P1, json={"kind": "details", "details": "spelling of the name"})
        assert r.status_code == 201 and r.json()["state"] == "approved"
        h.clock.set(datetime(2022, 11, 2, 9, 0, tzinfo=CST))  # after the close
        r = await h.client.post(url, headers=P1, json={"kind": "details", "details": "new phone number"})
        change = r.json()
        assert change["state"] == "awaiting_arbiter"
        r = await h.client.post(f"/v1/changes/{change['change_id']}/decision", headers=P1, json={"decision": "approve"})
        assert r.status_code == 403
        r = await h.client.post(
            f"/v1/changes/{change['change_id']}/decision", headers=ARB, json={"decision": "approve", "note": "ok"}
        )
        assert r.json()["state"] == "approved" and r.json()["decision"]["clause"] == "changes/arbiter"
        h.clock.set(datetime(2022, 11, 3, 0, 0, tzinfo=CST))  # 2 days before 11-05: frozen
        r = await h.client.post(url, headers=P1, json={"kind": "details", "details": "too late"})
        assert r.json()["state"] == "refused" and r.json()["decision"]["clause"] == "changes/freeze"
        changes = (await h.client.get("/v1/events/sz22/changes", headers=P2)).json()["changes"]
        assert changes == []


async def test_reg3_unit_officials_limited_by_the_event(tmp_path):
    async with harness(tmp_path) as h:
        await h.create_sz()
        r = await h.client.post(
            "/v1/events/sz22/units",
            headers=P1,
            json={"id": "futian", "name": "Futian Club", "region": "Shenzhen", "leader": "Ms Li", "coaches": ["Mr Wu"]},
        )
        assert r.status_code == 201, r.text
        assert [o["role"] for o in r.json()["officials"]] == ["leader", "coach"]
        r = await h.client.post(
            "/v1/events/sz22/units/futian/officials", headers=P1, json={"role": "coach", "name": "Mr Zhao"}
        )
        assert r.status_code == 422 and "max 1" in r.json()["error"]["message"]
        entry = {**sz_entry(1), "player": {**player(1), "unit": "futian"}}
        r = await h.client.post("/v1/events/sz22/entries", headers=P1, json=entry)
        assert r.json()["status"] == PENDING_EV
        units = (await h.client.get("/v1/events/sz22/units", headers=P1)).json()["units"]
        assert units[0]["players"] == [r.json()["player_id"]]
        assert (await h.client.get("/v1/events/sz22/units", headers=P2)).json()["units"] == []
        r = await h.client.post(
            "/v1/events/sz22/units/futian/officials", headers=P2, json={"role": "leader", "name": "Intruder"}
        )
        assert r.status_code == 404


async def test_reg9_nt_team_board_order_fixed_at_registration(tmp_path):
    """REG-9 / REG-8: NT mixed team = 2 men + 1 woman on board 3; board order never changed."""
    async with harness(tmp_path, start=datetime(2023, 6, 1, 10, 0, tzinfo=CST)) as h:
        r = await h.client.post("/v1/events", headers=OP, json={"preset_id": "nt-2023", "event_code": "nt23"})
        assert r.status_code == 201, r.text
        await h.client.post(
            "/v1/events/nt23/units",
            headers=P1,
            json={"id": "hubei", "name": "Hubei", "kind": "province", "region": "Hubei"},
        )
        hh = [{"kind": "household_registration", "document_ref": "H", "region": "Hubei"}]

        def member(n, gender, board):
            return {**player(n, gender), "board": board, "evidence": hh}

        good = {
            "section_id": "mixed-team",
            "unit": "hubei",
            "team_name": "Hubei A",
            "insurance": {"confirmed": True, "document_ref": "P"},
            "members": [member(1, "male", 1), member(2, "male", 2), member(3, "female", 3)],
        }
        r = await h.client.post("/v1/events/nt23/teams", headers=P1, json=good)
        assert r.status_code == 201 and r.json()["status"] == "accepted", r.text
        assert [p["board"] for p in r.json()["players"]] == [1, 2, 3]
        team_id = r.json()["entry_id"]
        bad = {
            **good,
            "team_name": "Hubei B",
            "members": [member(4, "female", 1), member(5, "male", 2), member(6, "male", 3)],
        }
        r = await h.client.post("/v1/events/nt23/teams", headers=P1, json=bad)
        assert r.json()["status"] == "refused" and r.json()["clause"] == "mixed-team/team/board"
        dup = {**good, "members": [member(7, "male", 1), member(8, "male", 1), member(9, "female", 3)]}
        assert (await h.client.post("/v1/events/nt23/teams", headers=P1, json=dup)).status_code == 422
        r = await h.client.post(
            f"/v1/events/nt23/entries/{team_id}/changes",
            headers=P1,
            json={"kind": "board_order", "details": "swap boards 1 and 2"},
        )
        assert r.json()["state"] == "refused" and r.json()["decision"]["clause"] == "changes/board_order"
        await h.settle()
        accepted = h.events("entry.accepted")[0].payload
        assert [(m.board, m.gender) for m in accepted.entrant.members] == [(1, "male"), (2, "male"), (3, "female")]
        assert accepted.entrant.partner_id == "partner-1" and accepted.clause == "nt-representation/household"


async def test_reg2_cap_holds_under_concurrent_submissions_on_sqlite(tmp_path):
    """REG-2 with 12 applications at once for 5 places: commands on one event are serialised."""
    import asyncio

    async with harness(tmp_path) as h:
        await h.create_sz(overrides={"stages": {"online": {"sections": {"men-free": {"cap": 5}}}}})
        rs = await asyncio.gather(
            *[h.client.post("/v1/events/sz22/entries", headers=P1, json=sz_entry(n)) for n in range(1, 13)]
        )
        assert [r.status_code for r in rs] == [201] * 12
        assert sorted(r.json()["status"] for r in rs) == [PENDING_EV] * 5 + ["refused"] * 7
        assert len({r.json()["entry_id"] for r in rs}) == 12


async def test_reg3_ny_delegation_quota_exemption_host_and_organiser_insurance(tmp_path):
    """REG-3 (NY): entries only through units; a delegation quota (here overridden to 2) with the
    previous year's top finishers outside it; the host may exceed it with approval; REG-13: the
    organiser insures, so only the ID number is needed."""
    async with harness(tmp_path, start=datetime(2022, 7, 20, 10, 0, tzinfo=CST)) as h:
        r = await h.client.post(
            "/v1/events",
            headers=OP,
            json={"preset_id": "ny-2022", "event_code": "ny22", "overrides": {"units": {"delegation_max_players": 2}}},
        )
        assert r.status_code == 201, r.text

        def entry(n, unit=None, **facts):
            p = player(n, born="2005-03-03")
            if unit:
                p["unit"] = unit
            return {"section_id": "youth-male", "player": p, "facts": facts}

        r = await h.client.post("/v1/events/ny22/entries", headers=P1, json=entry(1))
        assert r.json()["status"] == "refused" and r.json()["clause"] == "units/individual"
        await h.client.post("/v1/events/ny22/units", headers=P1, json={"id": "zj", "name": "Zhejiang"})
        await h.client.post("/v1/events/ny22/units", headers=OP, json={"id": "hz", "name": "Hangzhou", "is_host": True})
        assert [
            (await h.client.post("/v1/events/ny22/entries", headers=P1, json=entry(n, "zj"))).json()["status"]
            for n in (2, 3)
        ] == ["accepted", "accepted"]
        r = await h.client.post("/v1/events/ny22/entries", headers=P1, json=entry(4, "zj"))
        assert r.json()["status"] == "refused" and r.json()["clause"] == "units/quota"
        # NY 七(三): a claim is checked against the list the organiser loaded
        claim = entry(5, "zj", quota_exempt_ref="2021 youth male 3rd")
        r = await h.client.post("/v1/events/ny22/entries", headers=P1, json=claim)
        assert r.json()["status"] == "refused" and "no list of the previous top 8" in r.text
        listed = {"section": "youth-male", "place": 3, "name": "Player 0005", "id_number": claim["player"]["id_number"]}
        body = {"edition": "2021", "source": "2021 final standings", "players": [listed]}
        r = await h.client.post("/v1/events/ny22/quota-exemptions", headers=OP, json=body)
        assert r.status_code == 201, r.text
        r = await h.client.post("/v1/events/ny22/entries", headers=P1, json=claim)
        assert r.json()["status"] == "accepted", r.text
        no_id = entry(6, "zj", quota_exempt_ref="2021 youth male 5th")
        no_id["player"].pop("id_number")
        r = await h.client.post("/v1/events/ny22/entries", headers=P1, json=no_id)
        assert r.json()["status"] == "refused" and r.json()["clause"] == "insurance/organiser"
        for n in (7, 8):
            await h.client.post("/v1/events/ny22/entries", headers=OP, json=entry(n, "hz"))
        host = (await h.client.post("/v1/events/ny22/entries", headers=OP, json=entry(9, "hz"))).json()
        assert host["status"] == "pending_review" and host["clause"] == "units/quota_host"
        r = await h.client.post(
            f"/v1/events/ny22/entries/{host['entry_id']}/review",
            headers=ARB,
            json={"decision": "approve", "note": "host delegation addition"},
        )
        assert r.status_code == 200 and r.json()["status"] == "accepted"
        # NY: withdrawal after confirmation needs a reason and a supporting document
        url = f"/v1/events/ny22/entries/{host['entry_id']}/withdraw"
        r = await h.client.post(url, headers=OP, json={"reason": "ill"})
        assert r.status_code == 422 and "document" in r.json()["error"]["message"]
        r = await h.client.post(url, headers=OP, json={"reason": "ill", "proof_ref": "HOSPITAL-1"})
        assert r.status_code == 200 and r.json()["withdrawal"]["refund_requested"] is True


async def test_reg6_wildcard_evidence_in_the_last_minute_before_its_deadline_is_timely(tmp_path):
    """REG-6 (4): wildcard applications close on their own deadline (exclusive); evidence that
    arrives at 23:59 local the day before counts (times survive storage in UTC)."""
    async with harness(tmp_path, start=datetime(2022, 10, 31, 23, 59, tzinfo=CST)) as h:
        await h.create_sz()
        grade = [{"kind": "grade_certificate", "document_ref": "G-1", "grade": "1d"}]
        body = {**sz_entry(1, section="men-pro", evidence=grade), "facts": {"intends_to_represent": True}}
        r = await h.client.post("/v1/events/sz22/entries", headers=P1, json=body)
        assert r.json()["status"] == "pending_review", r.json()
        h.clock.set(datetime(2022, 11, 2, 9, 0, tzinfo=CST))
        evidence = (await h.client.get("/v1/events/sz22/evidence", headers=ARB)).json()["evidence"]
        assert evidence[0]["submitted_at"] == "2022-10-31T15:59:00+00:00"
        r = await h.client.post(
            f"/v1/evidence/{evidence[0]['evidence_id']}/decision",
            headers=ARB,
            json={"decision": "approve", "note": "1 dan certificate"},
        )
        assert r.json()["entries"][0]["status"] == "accepted" and r.json()["clause"] == "sz-residency/wildcard"


async def test_evt1_events_from_presets_with_overrides_and_event_configured(tmp_path):
    """EVT-1..EVT-6: an event is a preset plus validated overrides; event.configured carries the
    whole configuration under the event code."""
    async with harness(tmp_path) as h:
        presets = (await h.client.get("/v1/presets")).json()["presets"]
        assert [p["id"] for p in presets] == ["da-2023", "nt-2023", "ny-2022", "sz-2022"]
        r = await h.client.post(
            "/v1/events",
            headers=OP,
            json={
                "preset_id": "sz-2022",
                "event_code": "sz22",
                "overrides": {"stages": {"online": {"sections": {"men-free": {"cap": 0}}}}},
            },
        )
        assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_event_config"
        assert any("cap" in d["path"] for d in r.json()["error"]["details"])
        r = await h.client.post("/v1/events", headers=OP, json={"preset_id": "nope", "event_code": "x1"})
        assert r.status_code == 404
        body = {"preset_id": "da-2023", "event_code": "da23", "overrides": {"waiting_list": True}}
        first = await h.client.post("/v1/events", headers={**OP, "Idempotency-Key": "create-da"}, json=body)
        again = await h.client.post("/v1/events", headers={**OP, "Idempotency-Key": "create-da"}, json=body)
        assert first.status_code == again.status_code == 201 and first.json() == again.json()
        assert (await h.client.post("/v1/events", headers=OP, json=body)).status_code == 409
        assert [s["id"] for s in first.json()["stages"][0]["sections"]] == ["open", "junior", "public"]
        assert (await h.client.post("/v1/events", headers=P1, json=body)).status_code == 403
        got = (await h.client.get("/v1/events/da23", headers=P1)).json()
        assert got["waiting_list"] is True and got["stages"][0]["status"] == "open"
        await h.settle()
        configured = h.events("event.configured")
        assert len(configured) == 1 and configured[0].payload.config["id"] == "da23"
        assert configured[0].payload.config["waiting_list"] is True


async def test_reg17_residency_regions_as_people_write_them(tmp_path):
    """REG-17 / SZ 六(1): 深圳市（含深汕特别合作区）: the Chinese and English names the preset lists
    are all Shenzhen; GET on the event shows them; another city is refused."""
    async with harness(tmp_path) as h:
        await h.create_sz()
        event = (await h.client.get("/v1/events/sz22", headers=P1)).json()
        shenzhen = next(r for r in event["regions"] if r["id"] == "Shenzhen")
        for name in ("Shenzhen", "深圳", "深圳市", "深汕特别合作区"):
            assert name in shenzhen["accepted_names"]
        assert next(c for c in event["eligibility"] if c["id"] == "sz-residency")["region"] == "Shenzhen"
        written = [
            "深圳",
            "深圳市",
            "深汕特别合作区",
            "深汕合作区",
            "深圳市南山区",
            " shenzhen ",
            "ＳＨＥＮＺＨＥＮ",
            "Shenshan",
        ]
        for n, region in enumerate(written, start=1):
            evidence = [{"kind": "household_registration", "document_ref": f"H{n}", "region": region}]
            r = await h.client.post("/v1/events/sz22/entries", headers=P1, json=sz_entry(n, evidence=evidence))
            assert (r.json()["status"], r.json()["clause"]) == (PENDING_EV, "sz-residency/household"), region
        for n, region in enumerate(["广州市", "Shenzhenx", "汕尾市"], start=20):
            evidence = [{"kind": "household_registration", "document_ref": f"H{n}", "region": region}]
            r = await h.client.post("/v1/events/sz22/entries", headers=P1, json=sz_entry(n, evidence=evidence))
            assert (r.json()["status"], r.json()["clause"]) == ("refused", "sz-residency"), region
