"""A partner's own user id on its players (``external_id``): stored with the person, found again
with ``?external_id=``, shown to the partner that set it and to nobody else — another partner can
neither see nor search it, staff see null (partner isolation, REG-11: no more personal data than
needed in any answer)."""

from __future__ import annotations

import pytest
from registration_kit import ARB, OP, P1, P2, harness, sz_entry

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow


def _with_external_id(n: int, external_id: str, **kw) -> dict:
    body = sz_entry(n, **kw)
    body["player"] = {**body["player"], "external_id": external_id}
    return body


async def test_a_partners_external_id_is_stored_searchable_and_its_own(tmp_path):
    async with harness(tmp_path) as h:
        await h.create_sz()
        mine = await h.client.post("/v1/events/sz22/entries", headers=P1, json=_with_external_id(1, "app1-user-42"))
        assert mine.status_code == 201, mine.text
        assert mine.json()["players"][0]["external_id"] == "app1-user-42"
        other = await h.client.post("/v1/events/sz22/entries", headers=P1, json=sz_entry(2))
        assert other.json()["players"][0]["external_id"] is None

        # the partner finds its player by its own id, in the list and in the entry
        found = (await h.client.get("/v1/events/sz22/entries?external_id=app1-user-42", headers=P1)).json()
        assert [e["entry_id"] for e in found["entries"]] == [mine.json()["entry_id"]]
        one = (await h.client.get(f"/v1/events/sz22/entries/{mine.json()['entry_id']}", headers=P1)).json()
        assert one["players"][0]["external_id"] == "app1-user-42"
        assert (await h.client.get("/v1/events/sz22/entries?external_id=nobody", headers=P1)).json()["entries"] == []

        # another partner using the same user id of its own gets a person of its own; searching
        # finds its own player only, never partner 1's
        theirs = await h.client.post("/v1/events/sz22/entries", headers=P2, json=_with_external_id(3, "app1-user-42"))
        assert theirs.status_code == 201, theirs.text
        p2_found = (await h.client.get("/v1/events/sz22/entries?external_id=app1-user-42", headers=P2)).json()
        assert [e["entry_id"] for e in p2_found["entries"]] == [theirs.json()["entry_id"]]

        # staff see every entry, but no partner's external id; their search matches nothing
        everyone = (await h.client.get("/v1/events/sz22/entries", headers=OP)).json()["entries"]
        assert len(everyone) == 3 and all(e["players"][0]["external_id"] is None for e in everyone)
        staff_one = (await h.client.get(f"/v1/events/sz22/entries/{mine.json()['entry_id']}", headers=OP)).json()
        assert staff_one["players"][0]["external_id"] is None
        staff = (await h.client.get("/v1/events/sz22/entries?external_id=app1-user-42", headers=OP)).json()
        assert staff["entries"] == []


async def test_one_player_per_external_id_and_only_partners_set_it(tmp_path):
    async with harness(tmp_path) as h:
        await h.create_sz()
        first = await h.client.post("/v1/events/sz22/entries", headers=P1, json=_with_external_id(1, "u-1"))
        assert first.status_code == 201, first.text
        # the same person (same ID number) entering another section keeps its external id
        again = await h.client.post(
            "/v1/events/sz22/entries", headers=P1, json=_with_external_id(1, "u-1", section="men-pro")
        )
        assert again.status_code == 201 and again.json()["players"][0]["external_id"] == "u-1"
        changed = await h.client.post(
            "/v1/events/sz22/entries", headers=P1, json=_with_external_id(1, "u-9", section="men-pro")
        )
        assert changed.status_code == 409 and changed.json()["error"]["code"] == "external_id_mismatch"
        # another person of the same partner cannot take it
        taken = await h.client.post("/v1/events/sz22/entries", headers=P1, json=_with_external_id(2, "u-1"))
        assert taken.status_code == 409 and taken.json()["error"]["code"] == "external_id_taken"
        # staff register people of no partner: an external id is a partner's own
        staff = await h.client.post("/v1/events/sz22/entries", headers=OP, json=_with_external_id(4, "u-4"))
        assert staff.status_code == 422 and staff.json()["error"]["code"] == "external_id_partner_only"
        # a person first entered without one gets it on a later entry
        plain = await h.client.post("/v1/events/sz22/entries", headers=P1, json=sz_entry(5))
        later = await h.client.post(
            "/v1/events/sz22/entries", headers=P1, json=_with_external_id(5, "u-5", section="men-pro")
        )
        assert later.status_code == 201 and later.json()["player_id"] == plain.json()["player_id"]
        found = (await h.client.get("/v1/events/sz22/entries?external_id=u-5", headers=P1)).json()["entries"]
        assert {e["entry_id"] for e in found} == {plain.json()["entry_id"], later.json()["entry_id"]}
        assert all(e["players"][0]["external_id"] == "u-5" for e in found)


async def test_the_entry_events_carry_the_registering_partners_external_ids_whoever_decides(tmp_path):
    """entry.accepted / entry.refused name the partner that registered the entry and its own user
    ids of the entry's people (its entry.decided webhook), also when an arbiter decides (REG-6
    evidence); a staff entry names no partner and no external id."""
    async with harness(tmp_path) as h:
        await h.create_sz()
        grade = [{"kind": "grade_certificate", "document_ref": "G-1", "grade": "2k"}]
        facts = {"facts": {"intends_to_represent": True}}
        first = await h.client.post(
            "/v1/events/sz22/entries",
            headers=P1,
            json={**_with_external_id(1, "u-1", section="men-pro", evidence=grade), **facts},
        )
        second = await h.client.post(
            "/v1/events/sz22/entries",
            headers=P1,
            json={**_with_external_id(2, "u-2", section="men-pro", evidence=grade), **facts},
        )
        assert first.json()["status"] == second.json()["status"] == "pending_review"
        staff = await h.client.post("/v1/events/sz22/entries", headers=OP, json=sz_entry(3))
        assert staff.status_code == 201, staff.text
        pending = (await h.client.get("/v1/events/sz22/evidence?status=pending", headers=ARB)).json()["evidence"]
        by_entry = {e["entry_id"]: e["evidence_id"] for e in pending}
        for entry, decision in ((first, {"decision": "approve"}), (second, {"decision": "reject", "note": "no"})):
            r = await h.client.post(
                f"/v1/evidence/{by_entry[entry.json()['entry_id']]}/decision", headers=ARB, json=decision
            )
            assert r.status_code == 200, r.text
        await h.settle()
        accepted = {e.payload.entry_id: e.payload for e in h.events("entry.accepted")}
        mine = accepted[first.json()["entry_id"]]
        assert mine.entrant.partner_id == "partner-1"
        assert mine.external_ids == {first.json()["player_id"]: "u-1"}
        [refused] = [e.payload for e in h.events("entry.refused")]
        assert (refused.entry_id, refused.partner_id) == (second.json()["entry_id"], "partner-1")
        assert refused.external_ids == {second.json()["player_id"]: "u-2"}
        theirs = accepted[staff.json()["entry_id"]]
        assert theirs.entrant.partner_id is None and theirs.external_ids == {}
