"""Partner isolation: a partner's request never reveals whether another partner's person, entry
or ID number exists — the answer is the one for an unknown one — and evidence goes only to the
partner's own entries (REG-11 personal data, REG-6 evidence)."""

from __future__ import annotations

import pytest
from registration_kit import ARB, OP, P1, P2, harness, id_number, player, sz_entry

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow


def _shape(body: dict) -> dict:
    """An answer without the ids that differ between any two registrations."""
    view = {k: v for k, v in body.items() if k not in ("entry_id", "entrant_id", "player_id", "players", "decisions")}
    return {**view, "pending_evidence": {**view["pending_evidence"], "players": None}}


async def test_another_partners_id_number_is_answered_like_an_unknown_one(tmp_path):
    """Partner 2 sending partner 1's player's ID number (with other details, or the same ones)
    gets exactly what an unknown number gets: a new person of its own, no 409 player_mismatch."""
    async with harness(tmp_path) as h:
        await h.create_sz()
        mine = (await h.client.post("/v1/events/sz22/entries", headers=P1, json=sz_entry(1))).json()

        probe = sz_entry(1)
        probe["player"] = {**probe["player"], "name": "Someone Else"}
        known = await h.client.post("/v1/events/sz22/entries", headers=P2, json=probe)
        unknown_body = sz_entry(2)
        unknown_body["player"] = {**unknown_body["player"], "name": "Someone Else"}
        unknown = await h.client.post("/v1/events/sz22/entries", headers=P2, json=unknown_body)
        assert known.status_code == unknown.status_code == 201, known.text
        assert _shape(known.json()) == _shape(unknown.json())
        assert known.json()["player_id"] not in (mine["player_id"], unknown.json()["player_id"])

        # partner 2 finds again the person it made (and only that one)
        same = await h.client.post("/v1/events/sz22/entries", headers=P2, json={**probe, "section_id": "men-pro"})
        assert same.status_code == 201 and same.json()["player_id"] == known.json()["player_id"]
        # ... while partner 1's own mismatch is still its own business
        again = sz_entry(1, section="men-pro")
        again["player"] = {**again["player"], "name": "Typo Name"}
        r = await h.client.post("/v1/events/sz22/entries", headers=P1, json=again)
        assert r.status_code == 409 and r.json()["error"]["code"] == "player_mismatch"

        # staff see both registrants' people; neither partner sees the other's
        everyone = (await h.client.get("/v1/events/sz22/entries", headers=OP)).json()["entries"]
        assert len(everyone) == 4
        p1_view = (await h.client.get("/v1/events/sz22/entries", headers=P1)).json()["entries"]
        assert [e["entry_id"] for e in p1_view] == [mine["entry_id"]]


async def test_evidence_only_for_the_partners_own_entries_and_players(tmp_path):
    """Evidence names an entry or a player of the partner's own entries; another partner's entry
    or player answers 404 exactly like one that does not exist, and nothing changes for it."""
    async with harness(tmp_path) as h:
        await h.create_sz()
        mine = (await h.client.post("/v1/events/sz22/entries", headers=P1, json=sz_entry(1, evidence=[]))).json()
        assert mine["status"] == "refused"
        doc = {"kind": "household_registration", "document_ref": "HK-X", "region": "Shenzhen"}
        for target, ghost in (
            (("entry_id", mine["entry_id"]), ("entry_id", "sz22.online.men-free.0099")),
            (("player_id", mine["player_id"]), ("player_id", "sz22.p00099")),
        ):
            theirs = await h.client.post("/v1/events/sz22/evidence", headers=P2, json={**doc, target[0]: target[1]})
            nobody = await h.client.post("/v1/events/sz22/evidence", headers=P2, json={**doc, ghost[0]: ghost[1]})
            assert theirs.status_code == nobody.status_code == 404
            assert theirs.json()["error"]["code"] == nobody.json()["error"]["code"]
            assert theirs.json()["error"]["message"].replace(target[1], "?") == nobody.json()["error"][
                "message"
            ].replace(ghost[1], "?")
        # the duplicate partner 2 made of partner 1's player is a person of its own: its evidence
        # is partner 2's and changes nothing for partner 1's entry
        dup = (
            await h.client.post("/v1/events/sz22/entries", headers=P2, json=sz_entry(1, section="men-pro", evidence=[]))
        ).json()
        r = await h.client.post("/v1/events/sz22/evidence", headers=P2, json={**doc, "player_id": dup["player_id"]})
        assert r.status_code == 201 and r.json()["player_id"] == dup["player_id"]
        mine_now = (await h.client.get(f"/v1/events/sz22/entries/{mine['entry_id']}", headers=P1)).json()
        assert mine_now["status"] == "refused"
        assert (await h.client.get("/v1/events/sz22/evidence", headers=P1)).json()["evidence"] == []
        assert len((await h.client.get("/v1/events/sz22/evidence", headers=ARB)).json()["evidence"]) == 1
        # reading another partner's entry is the same 404 as reading one that does not exist
        a = await h.client.get(f"/v1/events/sz22/entries/{mine['entry_id']}", headers=P2)
        b = await h.client.get("/v1/events/sz22/entries/sz22.online.men-free.0099", headers=P2)
        assert a.status_code == b.status_code == 404 and a.json()["error"]["code"] == b.json()["error"]["code"]
        assert id_number(1) == player(1)["id_number"]
