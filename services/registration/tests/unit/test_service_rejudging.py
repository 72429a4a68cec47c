"""REG-18: eligibility is judged again whenever its inputs change (evidence arriving, approved or
rejected), refused entries included, while the stage is open; materials count by the time they
arrive (SZ 十三(二), 八(四)). An entry admitted on declared evidence nobody approved yet says so in
every view, with the deadline and the consequence configured in the preset."""

from __future__ import annotations

from datetime import datetime

import pytest
from registration_kit import ARB, CST, OP, P1, P2, harness, player, sz_entry
from test_service_closing import close_online, qualifier_events, register_field

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow

PENDING_EV = "accepted_pending_evidence"
APPROVE_BY = "2022-11-13T00:00:00+08:00"  # sz-2022 preset: sz-residency.pending_evidence.approve_by


def wildcard_entry(n: int, evidence: list | None = None) -> dict:
    """SZ 六(4) / 八(四): a player from outside Shenzhen applying for a wildcard (外卡)."""
    return {
        **sz_entry(n, section="men-pro", evidence=evidence or []),
        "player": player(n, citizenship="CN"),
        "facts": {"intends_to_represent": True},
    }


CERTIFICATE = {"kind": "grade_certificate", "document_ref": "CQY-3K-0001", "grade": "3k"}


async def _decide(h, evidence_id: str, decision: str, note: str = "checked") -> dict:
    r = await h.client.post(
        f"/v1/evidence/{evidence_id}/decision", headers=ARB, json={"decision": decision, "note": note}
    )
    assert r.status_code == 200, r.text
    return r.json()


async def test_reg18_refused_wildcard_is_accepted_once_its_certificate_arrives_and_is_approved(tmp_path):
    """SZ 十三(二) (materials count when they arrive, by the deadline) and 八(四) (wildcard needs the
    certificate and the arbiter's approval): refused for missing materials -> the certificate
    arrives in time -> pending review -> approved -> accepted, with entry.accepted after entry.refused."""
    async with harness(tmp_path) as h:
        await h.create_sz()
        r = await h.client.post("/v1/events/sz22/entries", headers=P1, json=wildcard_entry(1))
        refused = r.json()
        assert (refused["status"], refused["clause"]) == ("refused", "sz-residency"), refused
        entry_id = refused["entry_id"]

        h.clock.set(datetime(2022, 10, 30, 15, 0, tzinfo=CST))  # before the deadline of 10-31
        r = await h.client.post("/v1/events/sz22/evidence", headers=P1, json={"entry_id": entry_id, **CERTIFICATE})
        assert r.status_code == 201, r.text
        assert r.json()["entries"] == [
            {
                "entry_id": entry_id,
                "status": "pending_review",
                "clause": "sz-residency/wildcard",
                "reason": r.json()["entries"][0]["reason"],
            }
        ]
        assert "awaiting the arbiter" in r.json()["entries"][0]["reason"]
        view = (await h.client.get(f"/v1/events/sz22/entries/{entry_id}", headers=P1)).json()
        assert view["status"] == "pending_review"

        h.clock.set(datetime(2022, 11, 2, 10, 0, tzinfo=CST))  # the arbiter's review period
        decided = await _decide(h, r.json()["evidence_id"], "approve")
        assert [(e["entry_id"], e["status"]) for e in decided["entries"]] == [(entry_id, "accepted")]
        view = (await h.client.get(f"/v1/events/sz22/entries/{entry_id}", headers=P1)).json()
        assert (view["status"], view["clause"]) == ("accepted", "sz-residency/wildcard")
        logs = [d for d in view["decisions"] if d["clause"] == "eligibility/rejudged"]
        assert [d["rule"] for d in logs] == ["REG-18", "REG-18"]
        assert "refused -> pending" in logs[0]["reason"] and "pending -> accepted" in logs[1]["reason"]
        await h.settle()
        kinds = [e.type for e in h.events() if e.type.startswith("entry.") and e.payload.section_id == "men-pro"]
        assert kinds == ["entry.refused", "entry.accepted"]
        accepted = h.events("entry.accepted")[-1].payload
        assert accepted.entry_id == entry_id and accepted.clause == "sz-residency/wildcard"


async def test_reg18_materials_arriving_after_the_deadline_do_not_count(tmp_path):
    """SZ 十三(二) 以收到报名资料时间为准: a certificate received after the close never admits, even
    approved; the refusal stands and no entry.accepted is published."""
    async with harness(tmp_path) as h:
        await h.create_sz()
        entry_id = (await h.client.post("/v1/events/sz22/entries", headers=P1, json=wildcard_entry(1))).json()[
            "entry_id"
        ]
        h.clock.set(datetime(2022, 11, 1, 0, 0, tzinfo=CST))  # the close (exclusive)
        r = await h.client.post("/v1/events/sz22/evidence", headers=P1, json={"entry_id": entry_id, **CERTIFICATE})
        assert r.status_code == 201 and r.json()["entries"] == []
        await _decide(h, r.json()["evidence_id"], "approve")
        view = (await h.client.get(f"/v1/events/sz22/entries/{entry_id}", headers=P1)).json()
        assert (view["status"], view["clause"]) == ("refused", "sz-residency")
        await h.settle()
        assert h.events("entry.accepted") == []


async def test_reg18_declared_evidence_is_visibly_pending_until_approved_and_rejection_refuses(tmp_path):
    """REG-18 / SZ 八(四): admitted on declared (unapproved) residency evidence ->
    accepted_pending_evidence in the answer, the entry, the list and the stage counts, with the
    deadline and what happens otherwise; approval clears it (entry.accepted again, not pending);
    a rejection refuses the entry (entry.refused) and frees its place."""
    async with harness(tmp_path) as h:
        await h.create_sz()
        r = await h.client.post("/v1/events/sz22/entries", headers=P1, json=sz_entry(1))
        first = r.json()
        assert first["status"] == PENDING_EV
        assert first["pending_evidence"]["approve_by"] == APPROVE_BY
        assert first["pending_evidence"]["otherwise"] == "next_stage_place_passes_on"
        assert "final passes to the next eligible qualifier" in first["pending_evidence"]["note"]
        assert first["pending_evidence"]["players"] == [first["player_id"]]
        second = (await h.client.post("/v1/events/sz22/entries", headers=P1, json=sz_entry(2))).json()
        for key in (P1, OP, ARB):
            listed = (await h.client.get("/v1/events/sz22/entries", headers=key)).json()["entries"]
            assert [e["status"] for e in listed] == [PENDING_EV, PENDING_EV]
            one = (await h.client.get(f"/v1/events/sz22/entries/{first['entry_id']}", headers=key)).json()
            assert one["status"] == PENDING_EV and one["pending_evidence"]["approve_by"] == APPROVE_BY
        filtered = (await h.client.get(f"/v1/events/sz22/entries?status={PENDING_EV}", headers=OP)).json()
        assert len(filtered["entries"]) == 2
        stage = (await h.client.get("/v1/events/sz22/stages/online", headers=OP)).json()
        men = next(s for s in stage["sections"] if s["section_id"] == "men-free")
        assert (men["accepted"], men[PENDING_EV]) == (2, 2)
        await h.settle()
        assert [
            (e.payload.evidence_pending, e.payload.evidence_approve_by.isoformat()) for e in h.events("entry.accepted")
        ] == [(True, APPROVE_BY)] * 2

        evidence = (await h.client.get("/v1/events/sz22/evidence", headers=ARB)).json()["evidence"]
        mine = {ev["player_id"]: ev["evidence_id"] for ev in evidence}
        decided = await _decide(h, mine[first["player_id"]], "approve")
        assert [(e["entry_id"], e["status"]) for e in decided["entries"]] == [(first["entry_id"], "accepted")]
        one = (await h.client.get(f"/v1/events/sz22/entries/{first['entry_id']}", headers=P1)).json()
        assert one["status"] == "accepted" and one["pending_evidence"] is None

        decided = await _decide(h, mine[second["player_id"]], "reject", "not a Shenzhen hukou")
        assert [(e["entry_id"], e["status"]) for e in decided["entries"]] == [(second["entry_id"], "refused")]
        await h.settle()
        again = [e.payload for e in h.events("entry.accepted") if e.payload.entry_id == first["entry_id"]]
        assert [p.evidence_pending for p in again] == [True, False]
        refused = h.events("entry.refused")
        assert [(e.payload.application_id, e.payload.clause) for e in refused] == [(second["entry_id"], "sz-residency")]
        stage = (await h.client.get("/v1/events/sz22/stages/online", headers=OP)).json()
        men = next(s for s in stage["sections"] if s["section_id"] == "men-free")
        assert (men["accepted"], men[PENDING_EV], men["refused"]) == (1, 0, 1)


async def test_reg18_rejected_evidence_frees_the_place_for_the_waiting_list(tmp_path):
    """REG-18 with REG-2: an accepted entry refused on re-judging gives its place to the first
    entry of the waiting list."""
    async with harness(tmp_path) as h:
        await h.create_sz(
            overrides={"waiting_list": True, "stages": {"online": {"sections": {"men-free": {"cap": 1}}}}}
        )
        first = (await h.client.post("/v1/events/sz22/entries", headers=P1, json=sz_entry(1))).json()
        waiting = (await h.client.post("/v1/events/sz22/entries", headers=P1, json=sz_entry(2))).json()
        assert waiting["status"] == "waiting_list"
        ev = next(
            e
            for e in (await h.client.get("/v1/events/sz22/evidence", headers=ARB)).json()["evidence"]
            if e["player_id"] == first["player_id"]
        )
        decided = await _decide(h, ev["evidence_id"], "reject", "expired")
        assert {(e["entry_id"], e["status"]) for e in decided["entries"]} == {
            (first["entry_id"], "refused"),
            (waiting["entry_id"], PENDING_EV),
        }


async def test_reg18_stage_close_and_qualification_report_list_pending_evidence(tmp_path):
    """SZ 八(四) / REG-7: the online close lists the entries still on unapproved evidence; a
    qualifier whose evidence is still unapproved loses the final place to the next qualifier and
    the final's selection report says so, with the deadline; approved before the deadline the
    place comes back, approved after it (2022-11-13) it does not."""
    async with harness(tmp_path) as h:
        await h.create_sz()
        entries = await register_field(h)
        closed = await close_online(h, entries)
        pending = closed["pending_evidence"]
        assert {p["entry_id"] for p in pending} == {e["entry_id"] for e in entries.values()}
        assert all(p["approve_by"] == APPROVE_BY and p["otherwise"] == "next_stage_place_passes_on" for p in pending)
        await h.settle()
        evidence = (await h.client.get("/v1/events/sz22/evidence", headers=ARB)).json()["evidence"]
        p1, p4 = entries[1]["player_id"], entries[4]["player_id"]
        for ev in evidence:
            if ev["player_id"] not in (p1, p4):
                await _decide(h, ev["evidence_id"], "approve")
        # the online stage is closed: its entries keep their status, only the marks follow the evidence
        online = {
            e["entry_id"]: e
            for e in (await h.client.get("/v1/events/sz22/entries?stage=online", headers=OP)).json()["entries"]
        }
        assert online[entries[2]["entry_id"]]["status"] == "accepted"
        assert online[entries[1]["entry_id"]]["status"] == PENDING_EV
        for payload in qualifier_events([e.payload for e in h.events("section.closed")]):
            await h.publish(payload)
        final = (await h.client.get("/v1/events/sz22/stages/final", headers=OP)).json()
        assert final["status"] == "ready"
        report = final["selection"]["pending_evidence"]
        assert {(x["player_id"], x["approve_by"]) for x in report} == {(p1, APPROVE_BY), (p4, APPROVE_BY)}

        async def final_men() -> list[str]:
            rows = (await h.client.get("/v1/events/sz22/entries?stage=final&section_id=final-men", headers=OP)).json()[
                "entries"
            ]
            return [e["players"][0]["player_id"] for e in rows]

        assert p1 not in await final_men() and p4 not in await final_men()
        ev1 = next(ev for ev in evidence if ev["player_id"] == p1)
        h.clock.set(datetime(2022, 11, 12, 18, 0, tzinfo=CST))  # before the deadline
        decided = await _decide(h, ev1["evidence_id"], "approve")
        assert decided["rebuilt_stages"] == ["final"] and p1 in await final_men()
        ev4 = next(ev for ev in evidence if ev["player_id"] == p4)
        h.clock.set(datetime(2022, 11, 13, 0, 0, tzinfo=CST))  # the deadline: too late
        await _decide(h, ev4["evidence_id"], "approve")
        assert p4 not in await final_men()
        final = (await h.client.get("/v1/events/sz22/stages/final", headers=OP)).json()
        assert [x["player_id"] for x in final["selection"]["pending_evidence"]] == [p4]


async def test_reg18_corrected_facts_are_judged_again(tmp_path):
    """REG-18 (facts corrected) with SZ 六(4): a wildcard applicant refused for a missing
    declaration of intent corrects it inside the window and is judged again (pending the
    arbiter); after the close only an arbiter may correct facts (REG-10), during the review period."""
    async with harness(tmp_path) as h:
        await h.create_sz()
        body = wildcard_entry(1, evidence=[CERTIFICATE])
        body["facts"] = {"intends_to_represent": False}
        refused = (await h.client.post("/v1/events/sz22/entries", headers=P1, json=body)).json()
        assert refused["status"] == "refused" and "intent" in refused["reason"]
        url = f"/v1/events/sz22/entries/{refused['entry_id']}/facts"
        r = await h.client.post(url, headers=P1, json={"intends_to_represent": True})
        assert r.status_code == 200, r.text
        assert (r.json()["status"], r.json()["clause"]) == ("pending_review", "sz-residency/wildcard")
        assert "facts corrected by partner:partner-1" in r.json()["decisions"][-1]["reason"]

        h.clock.set(datetime(2022, 11, 2, 9, 0, tzinfo=CST))  # window closed, stage still open
        r = await h.client.post(url, headers=P1, json={"intends_to_represent": False})
        assert r.status_code == 409 and r.json()["error"]["code"] == "change_needs_approval"
        r = await h.client.post(url, headers=ARB, json={"intends_to_represent": False})
        assert r.status_code == 200 and r.json()["status"] == "refused"
        await h.settle()
        assert [e.payload.application_id for e in h.events("entry.refused")] == [refused["entry_id"]] * 2
        # another partner cannot even tell the entry exists: the answer for a missing one
        theirs = await h.client.post(url, headers=P2, json={"intends_to_represent": True})
        nobody = await h.client.post(
            url.replace(refused["entry_id"], "sz22.online.men-pro.0099"),
            headers=P2,
            json={"intends_to_represent": True},
        )
        assert theirs.status_code == nobody.status_code == 404
        assert theirs.json()["error"]["code"] == nobody.json()["error"]["code"] == "unknown_entry"


async def test_reg18_an_arbiter_admitted_wildcard_stays_visibly_pending_until_its_evidence_is_approved(tmp_path):
    """SZ 八(四) / REG-7: settling a wildcard entry by review admits it to the online stage, but the
    final needs the certificate approved: until then it is accepted_pending_evidence."""
    async with harness(tmp_path) as h:
        await h.create_sz()
        pending = (
            await h.client.post("/v1/events/sz22/entries", headers=P1, json=wildcard_entry(1, evidence=[CERTIFICATE]))
        ).json()
        assert pending["status"] == "pending_review"
        r = await h.client.post(
            f"/v1/events/sz22/entries/{pending['entry_id']}/review",
            headers=ARB,
            json={"decision": "approve", "note": "known player"},
        )
        assert r.status_code == 200 and r.json()["status"] == PENDING_EV, r.text
        assert r.json()["pending_evidence"]["approve_by"] == APPROVE_BY
        ev = (await h.client.get("/v1/events/sz22/evidence", headers=ARB)).json()["evidence"][0]
        decided = await _decide(h, ev["evidence_id"], "approve")
        assert [(e["entry_id"], e["status"]) for e in decided["entries"]] == [(pending["entry_id"], "accepted")]


async def test_reg18_a_waiting_list_entry_is_judged_again_too(tmp_path):
    """REG-18 with REG-2: rejected evidence takes a waitlisted entry off the waiting list (the
    ones behind move up); still eligible, it keeps its place in the queue."""
    async with harness(tmp_path) as h:
        await h.create_sz(
            overrides={"waiting_list": True, "stages": {"online": {"sections": {"men-free": {"cap": 1}}}}}
        )
        rows = [
            (await h.client.post("/v1/events/sz22/entries", headers=P1, json=sz_entry(n))).json() for n in (1, 2, 3)
        ]
        assert [r["status"] for r in rows] == [PENDING_EV, "waiting_list", "waiting_list"]
        evidence = {
            e["player_id"]: e["evidence_id"]
            for e in (await h.client.get("/v1/events/sz22/evidence", headers=ARB)).json()["evidence"]
        }
        decided = await _decide(h, evidence[rows[1]["player_id"]], "reject", "not Shenzhen")
        assert [(e["entry_id"], e["status"]) for e in decided["entries"]] == [
            (rows[1]["entry_id"], "refused"),
            (rows[2]["entry_id"], "waiting_list"),
        ]
        third = (await h.client.get(f"/v1/events/sz22/entries/{rows[2]['entry_id']}", headers=P1)).json()
        assert third["waitlist_position"] == 1
        decided = await _decide(h, evidence[rows[2]["player_id"]], "approve")
        third = (await h.client.get(f"/v1/events/sz22/entries/{rows[2]['entry_id']}", headers=P1)).json()
        assert (third["status"], third["waitlist_position"]) == ("waiting_list", 1)
