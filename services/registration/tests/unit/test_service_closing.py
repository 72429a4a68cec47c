"""Closing a stage over HTTP (REG-11 check-in/no-shows, REG-12 merge/cancel, section.closed with
the section's rules) and the next stage from qualifiers.selected (EVT-6, REG-7)."""

from __future__ import annotations

from datetime import datetime

import pytest
from registration_kit import ARB, CST, OP, P1, harness, sz_entry

from gomoku_shared.contracts import encode, envelope_for
from gomoku_shared.contracts.events import QualifiedPlayer, QualifiersSelected

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow

FIELD = (
    [("men-free", "male", n, "1990-05-05") for n in range(1, 9)]
    + [("women-free", "female", n, "1991-06-06") for n in range(11, 19)]
    + [("men-pro", "male", n, "1988-01-01") for n in range(21, 27)]
    + [("women-pro", "female", n, "1992-02-02") for n in range(31, 36)]
    + [("junior-boys-pro", "male", n, "2011-03-03") for n in range(41, 45)]
)
CHOICES = {"format_choices": {"men-free": {"kind": "swiss"}, "men-pro": {"kind": "swiss"}}}


async def register_field(h) -> dict[int, dict]:
    out = {}
    rows = [sz_entry(n, section=sec, gender=g, born=born) for sec, g, n, born in FIELD]
    r = await h.client.post("/v1/events/sz22/entries/bulk", headers=P1, json={"entries": rows})
    assert r.status_code == 201, r.text
    for (_, _, n, _), row in zip(FIELD, r.json()["rows"], strict=True):
        out[n] = row
    return out


async def close_online(h, entries) -> dict:
    h.clock.set(datetime(2022, 11, 4, 9, 0, tzinfo=CST))
    r = await h.client.post(
        "/v1/events/sz22/stages/online/check-in",
        headers=ARB,
        json={
            "entry_ids": [entries[n]["entry_id"] for n in (1, 2, 3)],
            "documents_shown": ["id_card"],
            "no_show": [entries[8]["entry_id"]],
        },
    )
    assert r.status_code == 200, r.text
    assert [x["status"] for x in r.json()["results"]] == ["checked_in"] * 3 + ["no_show"]
    r = await h.client.post("/v1/events/sz22/stages/online/close", headers=OP, json={})
    assert r.status_code == 422 and r.json()["error"]["code"] == "format_choice_required"
    assert {d["section_id"] for d in r.json()["error"]["details"]} == {"men-free", "men-pro"}
    r = await h.client.post("/v1/events/sz22/stages/online/close", headers=OP, json=CHOICES)
    assert r.status_code == 200, r.text
    return r.json()


async def test_reg12_merge_seven_free_and_five_pro_cancel_four_reg11_no_show_out(tmp_path):
    """REG-12: a 7-entry free section (8 minus a no-show, REG-11) merges with its partner, a
    5-entry professional one into its partner, a 4-entry section is cancelled; one section.closed
    per resulting section with the section's rules."""
    async with harness(tmp_path) as h:
        await h.create_sz()
        entries = await register_field(h)
        closed = await close_online(h, entries)
        by = {s["section_id"]: s for s in closed["sections"]}
        assert (by["men-free"]["status"], by["men-free"]["entrants"]) == ("ready", 15)
        assert by["women-free"]["status"] == "merged" and by["women-free"]["merged_into"] == "men-free"
        assert (by["men-pro"]["status"], by["men-pro"]["entrants"]) == ("ready", 11)
        assert by["women-pro"]["merged_into"] == "men-pro"
        assert by["junior-boys-pro"]["status"] == "cancelled"
        await h.settle()
        events = {e.payload.section_id: e.payload for e in h.events("section.closed")}
        assert sorted(events) == [
            "junior-boys-free",
            "junior-boys-pro",
            "junior-girls-free",
            "junior-girls-pro",
            "men-free",
            "men-pro",
        ]
        free = events["men-free"]
        assert free.status == "ready" and free.merged_from == ["men-free", "women-free"]
        assert entries[8]["entry_id"] not in {e.entrant_id for e in free.entrants}
        assert free.rules.rank_by_gender and free.rules.two_game_rounds and free.rules.rounds == 7
        assert free.rules.format == "swiss" and free.rules.ruleset.track == "free"
        assert free.rules.clock.base_s == 900 and free.rules.tie_policy == "arbiter"
        assert free.rules.tiebreaks == ["points", "buchholz", "buchholz_of_buchholz"]
        assert all(
            e.partner_id == "partner-1" and e.birth_year and e.birth_date is None and e.gender for e in free.entrants
        )
        pro = events["men-pro"]
        assert pro.rules.rounds == 5 and pro.rules.ruleset.forbidden_policy == "loss"
        assert pro.rules.clock.kind == "fischer" and pro.rules.clock.increment_s == 15
        assert events["junior-boys-pro"].status == "cancelled" and len(events["junior-boys-pro"].entrants) == 4
        # REG-12 / AWD-6: the reason travels with it (awards names a cancelled source section)
        assert "at most 4" in (events["junior-boys-pro"].cancel_reason or "") and free.cancel_reason is None
        # closed means closed
        r = await h.client.post("/v1/events/sz22/entries", headers=P1, json=sz_entry(99))
        assert r.status_code == 409 and r.json()["error"]["code"] == "stage_closed"
        r = await h.client.post("/v1/events/sz22/stages/online/close", headers=OP, json=CHOICES)
        assert r.status_code == 409
        status = (await h.client.get("/v1/events/sz22/stages/online", headers=P1)).json()
        assert status["status"] == "closed"
        assert {s["section_id"]: s["no_show"] for s in status["sections"]}["men-free"] == 1


def qualifier_events(closed_events, event_code="sz22", revision=1):
    """What awards would send: per played section and gender cohort, top 4 + 4 substitutes."""
    out = []
    for sc in closed_events:
        if sc.status != "ready":
            continue
        for gender, target in (("male", "final-men"), ("female", "final-women")):
            cohort = [e for e in sc.entrants if e.gender == gender]
            players = [
                QualifiedPlayer(
                    entrant_id=e.entrant_id,
                    name=e.name,
                    gender=e.gender,
                    place=i + 1,
                    birth_year=e.birth_year,
                    attributes=e.attributes,
                )
                for i, e in enumerate(cohort)
            ]
            out.append(
                QualifiersSelected(
                    event_code=event_code,
                    from_stage="online",
                    to_stage="final",
                    section_id=sc.section_id,
                    target_section_id=target,
                    qualifiers=players[:4],
                    substitutes=players[4:8],
                    gender=gender,
                    revision=revision,
                )
            )
    return out


async def test_evt6_reg7_qualifiers_build_the_final_and_redelivery_is_harmless(tmp_path):
    """EVT-6: the final fills from qualifiers.selected once every feeding cohort reported; REG-7:
    a qualifier without verified (approved) residency evidence loses the place to the next
    substitute. The stage is then ready; redelivered lists change nothing."""
    async with harness(tmp_path) as h:
        await h.create_sz()
        entries = await register_field(h)
        await close_online(h, entries)
        await h.settle()
        status = (await h.client.get("/v1/events/sz22/stages/final", headers=OP)).json()
        assert status["status"] == "awaiting_qualifiers" and len(status["waiting_for"]) == 4
        # the arbiter verifies the residency evidence of everybody except player 4 (REG-7)
        evidence = (await h.client.get("/v1/events/sz22/evidence", headers=ARB)).json()["evidence"]
        p4 = entries[4]["player_id"]
        for ev in evidence:
            if ev["player_id"] != p4:
                r = await h.client.post(
                    f"/v1/evidence/{ev['evidence_id']}/decision",
                    headers=ARB,
                    json={"decision": "approve", "note": "seen"},
                )
                assert r.status_code == 200
        lists = qualifier_events([e.payload for e in h.events("section.closed")])
        assert len(lists) == 4
        envs = [envelope_for(p, correlation_id="sz22", occurred_at=h.clock.now()) for p in lists]
        for env in envs[:3]:
            await h.bus.publish([encode(env)])
        await h.settle()
        status = (await h.client.get("/v1/events/sz22/stages/final", headers=OP)).json()
        assert status["status"] == "awaiting_qualifiers" and len(status["waiting_for"]) == 1
        await h.bus.publish([encode(envs[3])])
        await h.settle()
        status = (await h.client.get("/v1/events/sz22/stages/final", headers=OP)).json()
        assert status["status"] == "ready"
        final = (await h.client.get("/v1/events/sz22/entries?stage=final", headers=OP)).json()["entries"]
        men = [e["players"][0]["player_id"] for e in final if e["section_id"] == "final-men"]
        free_men = [entries[n]["player_id"] for n in (1, 2, 3, 5)]
        assert men[:4] == free_men and p4 not in men  # REG-7: 4 passes, substitute 5 in
        assert len(men) == 8 and len([e for e in final if e["section_id"] == "final-women"]) == 8
        assert status["selection"]["passed_over"][0]["player_id"] == p4
        accepted_final = [e for e in h.events("entry.accepted") if e.payload.stage == "final"]
        assert len(accepted_final) == 16
        # redelivery (same event) and a duplicate list of the same revision change nothing
        await h.bus.publish([encode(envs[0])])
        await h.publish(lists[0])
        assert len([e for e in h.events("entry.accepted") if e.payload.stage == "final"]) == 16
        # REG-7 until the final closes: rejecting a qualifier's evidence passes the place on,
        # approving it again restores it (the same state twice makes distinct events)
        p1_evidence = next(ev for ev in evidence if ev["player_id"] == free_men[0])
        for decision, note in (
            ("reject", "forged"),
            ("approve", "original seen"),
            ("reject", "forged after all"),
            ("approve", "court order"),
        ):
            r = await h.client.post(
                f"/v1/evidence/{p1_evidence['evidence_id']}/decision",
                headers=ARB,
                json={"decision": decision, "note": note},
            )
            assert r.status_code == 200 and r.json()["rebuilt_stages"] == ["final"], r.text
            final = (await h.client.get("/v1/events/sz22/entries?stage=final&section_id=final-men", headers=OP)).json()[
                "entries"
            ]
            assert (free_men[0] in [e["players"][0]["player_id"] for e in final]) is (decision == "approve")
        await h.settle()
        withdrawn = [e.payload for e in h.events("entry.withdrawn") if e.payload.stage == "final"]
        # player 1 twice, and twice the substitute who stood in for him
        assert sorted(w.entry_id.rsplit(".", 1)[1] for w in withdrawn) == ["p00001", "p00001", "p00006", "p00006"]
        ours = [e for e in h.events() if e.type != "qualifiers.selected"]  # the test redelivered one of those
        assert len({e.event_id for e in ours}) == len(ours)
        # the final closes like any stage; its field carries seeds and the final's rules
        r = await h.client.post(
            "/v1/events/sz22/stages/final/close",
            headers=OP,
            json={
                "format_choices": {"final-men": {"kind": "round_robin"}, "final-women": {"kind": "swiss", "rounds": 4}}
            },
        )
        assert r.status_code == 200, r.text
        await h.settle()
        fm = next(e.payload for e in h.events("section.closed") if e.payload.section_id == "final-men")
        assert fm.rules.format == "round_robin" and fm.rules.rounds == 7
        assert fm.rules.playoff_clock.base_s == 300 and fm.rules.playoff_decider_clock.base_s == 180
        assert fm.rules.tie_policy == "playoff" and fm.rules.places_that_matter == 4
        assert [e.attributes["seed"] for e in fm.entrants] == list(range(1, 9))
        assert [e.rating for e in fm.entrants] == list(range(8, 0, -1))
        assert fm.entrants[0].attributes["player_id"] == free_men[0]
        assert fm.entrants[0].attributes["admitted_by"] == "sz-final-residency/household"


async def test_qualifiers_for_an_unknown_event_are_ignored(tmp_path):
    async with harness(tmp_path) as h:
        await h.publish(
            QualifiersSelected(
                event_code="nope",
                from_stage="online",
                to_stage="final",
                section_id="men-free",
                target_section_id="final-men",
                qualifiers=[],
            )
        )
        assert await h.bus.dead_letters("registration") == []


async def test_evt6_seeded_players_enter_the_final_once_their_evidence_is_verified(tmp_path):
    """EVT-6 (SZ): the 2022 Shenzhen Cup top 4 are seeded straight into the final; REG-7 re-checks
    them like every qualifier (verified evidence), and they are seeded ahead of the qualifiers."""
    async with harness(tmp_path) as h:
        await h.create_sz()
        entries = await register_field(h)
        await close_online(h, entries)
        await h.settle()
        for ev in (await h.client.get("/v1/events/sz22/evidence", headers=ARB)).json()["evidence"]:
            await h.client.post(
                f"/v1/evidence/{ev['evidence_id']}/decision", headers=ARB, json={"decision": "approve", "note": "ok"}
            )
        for payload in qualifier_events([e.payload for e in h.events("section.closed")]):
            await h.publish(payload)
        seeded = [
            {
                **sz_entry(70 + i)["player"],
                "evidence": [{"kind": "household_registration", "document_ref": f"S-{i}", "region": "Shenzhen"}],
            }
            for i in range(4)
        ]
        r = await h.client.post(
            "/v1/events/sz22/stages/final/seeded",
            headers=P1,
            json={"source": "2022 Shenzhen Cup", "to_section": "final-men", "qualifiers": seeded},
        )
        assert r.status_code == 403
        r = await h.client.post(
            "/v1/events/sz22/stages/final/seeded",
            headers=OP,
            json={"source": "2022 Shenzhen Cup", "to_section": "final-men", "qualifiers": seeded},
        )
        assert r.status_code == 201, r.text
        seeded_ids = r.json()["qualifiers"]
        status = (await h.client.get("/v1/events/sz22/stages/final", headers=OP)).json()
        assert {p["player_id"] for p in status["selection"]["passed_over"]} >= set(seeded_ids)  # not verified yet
        pending = (await h.client.get("/v1/events/sz22/evidence?status=pending", headers=ARB)).json()["evidence"]
        assert {e["player_id"] for e in pending} == set(seeded_ids)
        for ev in pending:
            r = await h.client.post(
                f"/v1/evidence/{ev['evidence_id']}/decision",
                headers=ARB,
                json={"decision": "approve", "note": "household register seen"},
            )
            assert r.json()["rebuilt_stages"] == ["final"]
        final = (await h.client.get("/v1/events/sz22/entries?stage=final&section_id=final-men", headers=OP)).json()
        men = [e["players"][0]["player_id"] for e in final["entries"]]
        assert men[:4] == seeded_ids and len(men) == 12
        assert (await h.client.get("/v1/events/sz22", headers=P1)).json()["stages"][1]["status"] == "ready"


async def test_reg9_nt_teams_close_into_a_team_section_with_boards(tmp_path):
    """REG-9 + REG-12 (NT): team entrants travel with their fixed boards; empty sections are
    cancelled (nothing to play), so no format is needed for them."""
    async with harness(tmp_path, start=datetime(2023, 6, 1, 10, 0, tzinfo=CST)) as h:
        r = await h.client.post("/v1/events", headers=OP, json={"preset_id": "nt-2023", "event_code": "nt23"})
        assert r.status_code == 201
        teams = []
        for k, region in enumerate(("Hubei", "Anhui")):
            await h.client.post(
                "/v1/events/nt23/units",
                headers=P1,
                json={"id": region.lower(), "name": region, "kind": "province", "region": region},
            )
            hh = [{"kind": "household_registration", "document_ref": f"H{k}", "region": region}]
            members = [
                {**sz_entry(10 * k + b, gender=g)["player"], "board": b, "evidence": hh}
                for b, g in ((1, "male"), (2, "male"), (3, "female"))
            ]
            r = await h.client.post(
                "/v1/events/nt23/teams",
                headers=P1,
                json={
                    "section_id": "mixed-team",
                    "unit": region.lower(),
                    "team_name": f"{region} team",
                    "members": members,
                    "insurance": {"confirmed": True, "document_ref": "P"},
                },
            )
            assert r.json()["status"] == "accepted", r.text
            teams.append(r.json()["entry_id"])
            # REG-14 (NT 十(一)3): the unit's board-and-lodging fee received before the close
            paid = {"item": "lodging", "amount_fen": 300000, "unit_id": region.lower(), "reference": f"BANK-{k}"}
            assert (await h.client.post("/v1/events/nt23/ledger", headers=OP, json=paid)).status_code == 201
            # NT 十一 (食宿标准另行通知): no amount announced, so the fee clerk confirms it paid in full
            confirm = f"/v1/events/nt23/entries/{teams[-1]}/fees/confirmation"
            assert (await h.client.post(confirm, headers=OP, json={"item": "lodging"})).status_code == 201
        h.clock.set(datetime(2023, 6, 21, 10, 0, tzinfo=CST))
        r = await h.client.post(
            "/v1/events/nt23/stages/main/check-in",
            headers=ARB,
            json={
                "entry_ids": teams,
                "insurance_refs": {t: f"NT-POLICY-{i}" for i, t in enumerate(teams)},
                "documents_shown": ["insurance_policy"],
            },
        )
        assert [x["status"] for x in r.json()["results"]] == ["checked_in", "checked_in"], r.text
        r = await h.client.post(
            "/v1/events/nt23/stages/main/close",
            headers=OP,
            json={"format_choices": {"mixed-team": {"kind": "round_robin"}}},
        )
        assert r.status_code == 200, r.text
        assert [s["status"] for s in r.json()["sections"]] == ["ready", "cancelled", "cancelled"]
        await h.settle()
        sc = next(e.payload for e in h.events("section.closed") if e.payload.section_id == "mixed-team")
        assert sc.rules.kind == "team" and sc.rules.boards == 3 and sc.rules.rounds == 1
        assert sc.rules.match_points.win == 2 and sc.rules.tiebreaks[0] == "match_points"
        assert [e.name for e in sc.entrants] == ["Hubei team", "Anhui team"]
        assert [[(m.board, m.gender) for m in e.members] for e in sc.entrants] == [
            [(1, "male"), (2, "male"), (3, "female")]
        ] * 2


async def test_evt6_a_selection_over_the_stage_cap_keeps_the_stage_waiting(tmp_path):
    """EVT-2: the SZ final takes at most cap_total players; a selection over it is not built and
    the stage is not ready (here cap_total is overridden to 10 for 16 qualifiers)."""
    async with harness(tmp_path) as h:
        await h.create_sz(overrides={"stages": {"final": {"cap_total": 10}}})
        entries = await register_field(h)
        await close_online(h, entries)
        await h.settle()
        for ev in (await h.client.get("/v1/events/sz22/evidence", headers=ARB)).json()["evidence"]:
            await h.client.post(
                f"/v1/evidence/{ev['evidence_id']}/decision", headers=ARB, json={"decision": "approve", "note": "ok"}
            )
        for payload in qualifier_events([e.payload for e in h.events("section.closed")]):
            await h.publish(payload)
        status = (await h.client.get("/v1/events/sz22/stages/final", headers=OP)).json()
        assert status["status"] == "awaiting_qualifiers" and "cap 10" in status["waiting_for"][0]
        r = await h.client.post("/v1/events/sz22/stages/final/close", headers=OP, json={})
        assert r.status_code == 409 and r.json()["error"]["code"] == "stage_not_ready"
        assert await h.bus.dead_letters("registration") == []
