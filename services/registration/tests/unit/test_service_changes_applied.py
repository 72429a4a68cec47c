"""REG-10 changes applied over HTTP (NT 十二(二): 人员变更须经竞赛组委会批准，赛前两天不接受变更;
六(五) 分台定人制): an approved substitution replaces the player on the same board, judged again;
audited on the change request, visible to the partner who made the entry, entry.accepted
emitted with the new team; refused inside the freeze and once the field is published."""

from __future__ import annotations

from datetime import datetime

from registration_kit import ARB, CST, OP, P1, P2, harness, player


def _member(n: int, gender: str, board: int) -> dict:
    evidence = [{"kind": "household_registration", "document_ref": f"H{n}", "region": "Hubei"}]
    return {**player(n, gender=gender), "board": board, "evidence": evidence}


async def _team(h) -> tuple[str, list[str]]:
    r = await h.client.post("/v1/events", headers=OP, json={"preset_id": "nt-2023", "event_code": "nt23"})
    assert r.status_code == 201
    unit = {"id": "hubei", "name": "Hubei", "kind": "province", "region": "Hubei"}
    assert (await h.client.post("/v1/events/nt23/units", headers=P1, json=unit)).status_code == 201
    body = {
        "section_id": "mixed-team",
        "unit": "hubei",
        "team_name": "Hubei",
        "members": [_member(1, "male", 1), _member(2, "male", 2), _member(3, "female", 3)],
        "insurance": {"confirmed": True, "document_ref": "P"},
    }
    r = await h.client.post("/v1/events/nt23/teams", headers=P1, json=body)
    assert r.json()["status"] == "accepted", r.text
    return r.json()["entry_id"], [p["player_id"] for p in r.json()["players"]]


def _substitution(replaces: str, n: int, gender: str, region: str = "Hubei") -> dict:
    return {
        "kind": "substitute_player",
        "details": "board 3 is ill",
        "replaces_player_id": replaces,
        "substitute": player(n, gender=gender),
        "substitute_evidence": [{"kind": "household_registration", "document_ref": f"H{n}", "region": region}],
    }


async def test_reg10_an_approved_substitution_is_applied_on_the_same_board(tmp_path):
    async with harness(tmp_path, start=datetime(2023, 6, 10, 10, 0, tzinfo=CST)) as h:
        team, boards = await _team(h)
        r = await h.client.post(
            f"/v1/events/nt23/entries/{team}/changes", headers=P1, json=_substitution(boards[2], 9, "female")
        )
        assert r.status_code == 201 and r.json()["state"] == "awaiting_arbiter", r.text
        change = r.json()["change_id"]
        substitute = r.json()["substitute_player_id"]
        assert r.json()["replaces_player_id"] == boards[2] and r.json()["applied_at"] is None
        assert (await h.client.get("/v1/events/nt23/changes", headers=P2)).json()["changes"] == []
        await h.settle()
        before = len(h.payloads("entry.accepted"))

        r = await h.client.post(
            f"/v1/changes/{change}/decision", headers=ARB, json={"decision": "approve", "note": "ok"}
        )
        assert r.status_code == 200 and r.json()["state"] == "approved", r.text
        assert r.json()["applied_at"] == "2023-06-10T02:00:00+00:00"
        assert "replaces" in r.json()["decision"]["reason"] and "on board 3" in r.json()["decision"]["reason"]
        entry = (await h.client.get(f"/v1/events/nt23/entries/{team}", headers=P1)).json()
        assert [p["player_id"] for p in entry["players"]] == [boards[0], boards[1], substitute]
        mine = (await h.client.get("/v1/events/nt23/changes", headers=P1)).json()["changes"]
        assert [(c["change_id"], c["applied_at"] is not None) for c in mine] == [(change, True)]
        await h.settle()
        accepted = h.payloads("entry.accepted")[before:]
        assert [m.player_id for m in accepted[-1].entrant.members] == [boards[0], boards[1], substitute]
        assert accepted[-1].entrant.members[2].board == 3

        # NT 六(三)(五): a woman on board 1 would leave the team without its two men: refused, unchanged
        r = await h.client.post(
            f"/v1/events/nt23/entries/{team}/changes", headers=P1, json=_substitution(boards[0], 10, "female")
        )
        r = await h.client.post(
            f"/v1/changes/{r.json()['change_id']}/decision", headers=ARB, json={"decision": "approve"}
        )
        assert r.json()["state"] == "refused" and "not applied" in r.json()["decision"]["reason"], r.text
        entry = (await h.client.get(f"/v1/events/nt23/entries/{team}", headers=P1)).json()
        assert [p["player_id"] for p in entry["players"]] == [boards[0], boards[1], substitute]

        # NT 六(二): a substitute who cannot represent the unit is refused
        wrong = _substitution(boards[1], 11, "male", region="Anhui")
        r = await h.client.post(f"/v1/events/nt23/entries/{team}/changes", headers=P1, json=wrong)
        r = await h.client.post(
            f"/v1/changes/{r.json()['change_id']}/decision", headers=ARB, json={"decision": "approve"}
        )
        assert r.json()["state"] == "refused", r.text

        # a substitution names who is replaced, among the entry's players
        bad = {**_substitution(boards[1], 12, "male"), "replaces_player_id": "nt23.p99999"}
        r = await h.client.post(f"/v1/events/nt23/entries/{team}/changes", headers=P1, json=bad)
        assert r.status_code == 422 and r.json()["error"]["code"] == "not_in_entry"


async def test_reg10_no_substitution_in_the_freeze_or_after_the_field_is_published(tmp_path):
    """NT 十二(二) 赛前两天不接受变更: starts 06-22, so from 06-20 00:00 a request is refused at
    once; an approval decided inside the freeze is refused too; after the close: 409."""
    async with harness(tmp_path, start=datetime(2023, 6, 10, 10, 0, tzinfo=CST)) as h:
        team, boards = await _team(h)
        r = await h.client.post(
            f"/v1/events/nt23/entries/{team}/changes", headers=P1, json=_substitution(boards[2], 9, "female")
        )
        pending = r.json()["change_id"]
        h.clock.set(datetime(2023, 6, 19, 23, 59, tzinfo=CST))
        r = await h.client.post(
            f"/v1/events/nt23/entries/{team}/changes", headers=P1, json=_substitution(boards[2], 8, "female")
        )
        assert r.json()["state"] == "awaiting_arbiter", r.text
        h.clock.set(datetime(2023, 6, 20, 0, 0, tzinfo=CST))
        r = await h.client.post(
            f"/v1/events/nt23/entries/{team}/changes", headers=P1, json=_substitution(boards[2], 7, "female")
        )
        assert r.json()["state"] == "refused" and r.json()["decision"]["clause"] == "changes/freeze", r.text
        assert r.json()["substitute_player_id"] is None
        r = await h.client.post(f"/v1/changes/{pending}/decision", headers=ARB, json={"decision": "approve"})
        assert r.json()["state"] == "refused" and r.json()["applied_at"] is None
        entry = (await h.client.get(f"/v1/events/nt23/entries/{team}", headers=P1)).json()
        assert [p["player_id"] for p in entry["players"]] == boards

        paid = {"item": "lodging", "amount_fen": 270_000, "unit_id": "hubei"}
        h.clock.set(datetime(2023, 6, 12, 10, 0, tzinfo=CST))  # (the fake clock may go back in a test)
        assert (await h.client.post("/v1/events/nt23/ledger", headers=OP, json=paid)).status_code == 201
        # NT 十一 (食宿标准另行通知): no amount announced, so the fee clerk confirms it paid in full
        confirm = {"item": "lodging"}
        r = await h.client.post(f"/v1/events/nt23/entries/{team}/fees/confirmation", headers=OP, json=confirm)
        assert r.status_code == 201, r.text
        h.clock.set(datetime(2023, 6, 21, 10, 0, tzinfo=CST))
        close = {"format_choices": {"mixed-team": {"kind": "round_robin"}}, "not_checked_in": "present"}
        closed = await h.client.post("/v1/events/nt23/stages/main/close", headers=OP, json=close)
        assert closed.status_code == 200, closed.text
        # REG-16, NT 十(一)4: Hubei named no leader: the close says it must name a player
        assert [d["clause"] for d in closed.json()["delegations"]] == ["units/acting_leader"]
        r = await h.client.post(
            f"/v1/events/nt23/entries/{team}/changes", headers=P1, json=_substitution(boards[2], 6, "female")
        )
        assert r.status_code == 409 and r.json()["error"]["code"] == "stage_closed"
