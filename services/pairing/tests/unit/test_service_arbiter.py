"""The arbiter's HTTP API (PAIR-11): results entered and corrected with an audit record, draft
rounds reviewed and corrected before publishing, byes, withdrawals; public reads (standings,
cross table, TRF) with every tiebreak value (AWD-8)."""

from __future__ import annotations

import pytest
from pairing_kit import ARB, EV, Harness, closed, players, rules, sqlite_settings

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow

BASE = f"/v1/events/{EV}/sections"


@pytest.fixture
async def svc(tmp_path):
    h = Harness(sqlite_settings(tmp_path))
    await h.start()
    yield h
    await h.stop()


async def _open(svc, sid="a", n=6, rounds=3, **kw):
    await svc.send(closed(sid, players(n), rules(rounds=rounds, **kw)))
    await svc.settle()


async def test_pair11_arbiter_enters_results_and_the_next_round_follows(svc):
    """Results entered by the arbiter complete a round like game results do; writes need a staff key."""
    await _open(svc)
    r1 = svc.payloads("round.paired", "a")[0]
    url = f"{BASE}/a/rounds/1/results"
    body = {"pairing_id": r1.pairings[0].pairing_id, "result": "first_wins"}
    assert (await svc.client.post(url, json=body)).status_code == 401
    assert (await svc.client.post(url, json=body, headers={"x-api-key": "pa-key"})).status_code == 403
    for s in r1.pairings:
        r = await svc.client.post(url, json={"pairing_id": s.pairing_id, "result": "draw"}, headers=ARB)
        assert r.status_code == 200 and r.json()["changed"] is True
    await svc.settle()
    assert [p.round for p in svc.payloads("round.paired", "a")] == [1, 2]
    audit = (await svc.client.get(f"{BASE}/a/audit", headers=ARB)).json()["audit"]
    assert [a["action"] for a in audit] == ["result"] * 3 and audit[0]["details"]["after"] == "=-="
    bad = await svc.client.post(url, json={"pairing_id": "r1.b99", "result": "draw"}, headers=ARB)
    assert bad.status_code == 404
    late = await svc.client.post(
        f"{BASE}/a/rounds/5/results", json={"pairing_id": "r5.b1", "result": "draw"}, headers=ARB
    )
    assert late.status_code == 409


async def test_pair11_correcting_a_past_result_does_not_repair_later_rounds_and_republishes(svc):
    """AWD-8 / PAIR-11: after completion a corrected result recomputes standings, keeps every pairing
    and republishes section.completed with revision + 1; the same correction again changes nothing."""
    await _open(svc)
    await svc.play_section("a", 3)
    pairings_before = [p.pairings for p in svc.payloads("round.paired", "a")]
    done = svc.payloads("section.completed", "a")
    assert len(done) == 1
    spec = svc.payloads("round.paired", "a")[0].pairings[0]
    cur = (await svc.client.get(f"{BASE}/a/rounds/1")).json()["pairings"][0]["result"]
    new = "second_wins" if cur != "second_wins" else "first_wins"
    seen = await svc.revision("a", 1, spec.pairing_id)
    correction = {"pairing_id": spec.pairing_id, "result": new, "expected_revision": seen}
    r = await svc.client.post(f"{BASE}/a/rounds/1/results", json=correction, headers=ARB)
    assert r.status_code == 200 and r.json()["revision"] == seen + 1
    await svc.settle()
    done = svc.payloads("section.completed", "a")
    assert [d.revision for d in done] == [1, 2]
    assert [p.pairings for p in svc.payloads("round.paired", "a")] == pairings_before
    pts = {x.entrant_id: x.points for x in done[1].standings}
    old = {x.entrant_id: x.points for x in done[0].standings}
    assert pts != old and sum(pts.values()) == sum(old.values())
    again = await svc.client.post(
        f"{BASE}/a/rounds/1/results", json={"pairing_id": spec.pairing_id, "result": new}, headers=ARB
    )
    assert again.json()["changed"] is False
    await svc.settle()
    assert len(svc.payloads("section.completed", "a")) == 2
    sections = (await svc.client.get(f"/v1/events/{EV}/sections")).json()["sections"]
    assert sections[0]["revision"] == 2 and sections[0]["status"] == "completed"


async def test_pair11_draft_round_is_reviewed_corrected_and_published(svc):
    """With hold on, the next round is a draft: the arbiter's correction is checked (no rematch,
    PAIR-2) before it is stored; after publishing the pairing is final (409)."""
    await _open(svc, n=4)
    r = await svc.client.post(f"{BASE}/a/hold", json={"hold": True}, headers=ARB)
    assert r.status_code == 200
    await svc.play_round("a", 1)
    assert [p.round for p in svc.payloads("round.paired", "a")] == [1]
    draft = (await svc.client.get(f"{BASE}/a/rounds/2")).json()
    assert draft["status"] == "draft" and len(draft["pairings"]) == 2
    r1 = svc.payloads("round.paired", "a")[0].pairings
    url = f"{BASE}/a/rounds/2/pairings"
    rematch = {
        "boards": [{"first": r1[0].first, "second": r1[0].second}, {"first": r1[1].first, "second": r1[1].second}]
    }
    r = await svc.client.put(url, json=rematch, headers=ARB)
    assert r.status_code == 422 and any("rematch" in p for p in r.json()["error"]["details"]["problems"])
    good = {"boards": [{"first": r1[0].second, "second": r1[1].second}, {"first": r1[1].first, "second": r1[0].first}]}
    r = await svc.client.put(url, json=good, headers=ARB)
    assert r.status_code == 200, r.text
    pub = await svc.client.post(f"{BASE}/a/rounds/2/publish", headers=ARB)
    assert pub.status_code == 200
    await svc.settle()
    r2 = svc.payloads("round.paired", "a")[1]
    assert [(s.first, s.second) for s in r2.pairings] == [(r1[0].second, r1[1].second), (r1[1].first, r1[0].first)]
    assert (await svc.client.put(url, json=good, headers=ARB)).status_code == 409
    assert (await svc.client.post(f"{BASE}/a/rounds/2/publish", headers=ARB)).status_code == 409


async def test_pair11_forced_and_requested_byes_and_withdrawal_apply_to_the_next_round(svc):
    """A forced bye (full point), a requested bye (half point) and a withdrawal take effect in the
    next round only; the published round is never re-paired (409 for it)."""
    await _open(svc, n=8, rounds=3)
    r1 = svc.payloads("round.paired", "a")[0]
    ids = [s.first for s in r1.pairings] + [s.second for s in r1.pairings]
    late = await svc.client.post(
        f"{BASE}/a/byes", json={"entrant_id": ids[0], "kind": "forced", "round": 1}, headers=ARB
    )
    assert late.status_code == 409
    assert (
        await svc.client.post(f"{BASE}/a/byes", json={"entrant_id": ids[0], "kind": "forced"}, headers=ARB)
    ).status_code == 200
    assert (
        await svc.client.post(f"{BASE}/a/byes", json={"entrant_id": ids[1], "kind": "requested"}, headers=ARB)
    ).status_code == 200
    w = await svc.client.post(f"{BASE}/a/withdrawals", json={"entrant_id": ids[2], "reason": "ill"}, headers=ARB)
    assert w.status_code == 200 and w.json()["after_round"] == 1
    unknown = await svc.client.post(f"{BASE}/a/withdrawals", json={"entrant_id": "nobody"}, headers=ARB)
    assert unknown.status_code == 422
    await svc.play_round("a", 1)
    r2 = svc.payloads("round.paired", "a")[1]
    paired = {x for s in r2.pairings for x in (s.first, s.second)}
    assert not paired & {ids[0], ids[1], ids[2]}
    byes = {b.entrant_id: (b.kind, b.points) for b in r2.byes}
    assert byes[ids[0]] == ("forced", 2) and byes[ids[1]] == ("requested", 1)
    # 5 players left: one pairing-allocated bye
    assert sorted(k for k, _ in byes.values()) == ["forced", "pairing", "requested"]
    await svc.play_round("a", 2)
    await svc.play_round("a", 3)
    done = svc.payloads("section.completed", "a")[0]
    gone = next(e for e in done.entrants if e.entrant_id == ids[2])
    assert gone.attributes["withdrawn"] is True


async def test_awd8_reads_standings_csv_crosstable_trf_and_idempotent_posts(svc):
    """Standings (JSON, CSV) list every tiebreak value; cross table JSON/CSV; TRF export; an
    Idempotency-Key replays the first answer."""
    await _open(svc, n=6, rounds=2)
    await svc.play_section("a", 2)
    st = (await svc.client.get(f"{BASE}/a/standings")).json()
    assert st["order"] == ["points", "buchholz", "median_buchholz", "wins"]
    assert all(set(r["tiebreaks"]) == {"buchholz", "median_buchholz", "wins"} for r in st["standings"])
    csv = (await svc.client.get(f"{BASE}/a/standings", params={"format": "csv"})).text.splitlines()
    assert csv[0].startswith("place,shared,entrant_id,name") and "median_buchholz" in csv[0] and len(csv) == 7
    ct = (await svc.client.get(f"{BASE}/a/crosstable")).json()
    assert ct["rounds"] == 2 and len(ct["players"]) == 6 and len(ct["players"][0]["rounds"]) == 2
    assert ct["players"][0]["rounds"][0]["opponent"].startswith("p")
    ctcsv = (await svc.client.get(f"{BASE}/a/crosstable", params={"format": "csv"})).text.splitlines()
    assert ctcsv[0].endswith("R1,R2") and len(ctcsv) == 7
    trf = (await svc.client.get(f"{BASE}/a/trf")).text
    assert sum(1 for line in trf.splitlines() if line.startswith("001")) == 6
    detail = (await svc.client.get(f"{BASE}/a")).json()
    assert detail["status"] == "completed" and detail["current_round"] == 2 and len(detail["entrants"]) == 6
    spec = svc.payloads("round.paired", "a")[0].pairings[0]
    h = {**ARB, "Idempotency-Key": "k1"}
    seen = await svc.revision("a", 1, spec.pairing_id)
    body = {"pairing_id": spec.pairing_id, "result": "double_forfeit", "expected_revision": seen}
    first = await svc.client.post(f"{BASE}/a/rounds/1/results", json=body, headers=h)
    second = await svc.client.post(f"{BASE}/a/rounds/1/results", json=body, headers=h)
    assert first.json() == second.json() and first.json()["changed"] is True
    assert second.headers["idempotent-replayed"] == "true" and "idempotent-replayed" not in first.headers
    # the same key with another request (another result, another round, another action) is refused
    for url, other in [
        (f"{BASE}/a/rounds/1/results", {**body, "result": "draw"}),
        (f"{BASE}/a/rounds/2/results", body),
        (f"{BASE}/a/hold", {"hold": True}),
    ]:
        r = await svc.client.post(url, json=other, headers=h)
        assert r.status_code == 409 and r.json()["error"]["code"] == "idempotency_key_reused", (url, r.text)
    rd = (await svc.client.get(f"{BASE}/a/rounds/1")).json()
    assert next(p for p in rd["pairings"] if p["pairing_id"] == spec.pairing_id)["result"] in ("double_forfeit", "---")
    assert (await svc.client.get(f"{BASE}/nope")).status_code == 404
    assert (await svc.client.get(f"{BASE}/a/rounds/9")).status_code == 404


async def test_reg12_merged_section_ranks_each_gender(svc):
    """REG-12: rank_by_gender gives each row its place among its gender (gender_place)."""
    await svc.send(closed("g", players(8, genders=True), rules(rounds=2, rank_by_gender=True)))
    await svc.settle()
    await svc.play_section("g", 2)
    done = svc.payloads("section.completed", "g")[0]
    for g in ("male", "female"):
        places = sorted(r.gender_place for r in done.standings if r.gender == g)
        assert places[0] == 1 and len(places) == 4


async def test_reg12_cancelled_section_is_listed_never_paired_and_completed_as_cancelled(svc):
    """REG-12 (SZ 九(三), 十二(一)): a section cancelled at closing is never paired; it goes out
    once as section.completed with ``cancelled`` and the closing's reason, no standings, so
    awards can compute a team score fed by it (AWD-6) instead of waiting for it."""
    cancelled = closed("c", players(3), rules(rounds=2), status="cancelled").model_copy(
        update={"cancel_reason": "3 entries (at most 4): section cancelled"}
    )
    await svc.send(cancelled)
    await svc.send(cancelled)  # a re-sent section.closed changes nothing
    await svc.settle()
    assert not svc.payloads("round.paired", "c")
    [done] = svc.payloads("section.completed", "c")
    assert (done.cancelled, done.cancel_reason) == (True, "3 entries (at most 4): section cancelled")
    assert done.standings == [] and done.rounds_played == 0 and done.revision == 1
    s = (await svc.client.get(f"/v1/events/{EV}/sections")).json()["sections"]
    assert [(x["section_id"], x["status"]) for x in s] == [("c", "cancelled")]


async def test_pair11_late_entry_is_paired_from_the_next_round(svc):
    """PAIR-11 late entry: absent (0 points) in past rounds, paired from the next round on."""
    await _open(svc, n=5, rounds=3)
    r = await svc.client.post(f"{BASE}/a/entrants", json={"entrant_id": "late1", "name": "Late"}, headers=ARB)
    assert r.status_code == 200 and r.json()["entry_round"] == 2
    again = await svc.client.post(f"{BASE}/a/entrants", json={"entrant_id": "late1", "name": "Late"}, headers=ARB)
    assert again.status_code == 409
    await svc.play_round("a", 1)
    r2 = svc.payloads("round.paired", "a")[1]
    assert any("late1" in (s.first, s.second) for s in r2.pairings) and not r2.byes  # 6 players: no bye
    await svc.play_round("a", 2)
    await svc.play_round("a", 3)
    done = svc.payloads("section.completed", "a")[0]
    assert "late1" in {x.entrant_id for x in done.standings}
    ct = (await svc.client.get(f"{BASE}/a/crosstable")).json()
    late = next(p for p in ct["players"] if p["entrant_id"] == "late1")
    assert late["rounds"][0]["opponent"] is None and late["rounds"][0]["points"] == 0


async def test_pair11_no_legal_pairing_waits_for_the_arbiters_pairing(svc):
    """C.04.3 / PAIR-11: when no legal pairing exists (4 players, 4 Swiss rounds: round 4 would need
    rematches) the section waits for the arbiter, whose hand pairing is checked like any other."""
    await _open(svc, n=4, rounds=4)
    for r in (1, 2, 3):
        await svc.play_round("a", r)
    detail = (await svc.client.get(f"{BASE}/a")).json()
    assert detail["status"] == "awaiting_arbiter" and "no legal pairing" in detail["note"]
    assert detail["current_round"] == 3
    met = [(s.first, s.second) for p in svc.payloads("round.paired", "a") for s in p.pairings]
    r = await svc.client.put(
        f"{BASE}/a/rounds/4/pairings",
        json={"boards": [{"first": met[0][0], "second": met[0][1]}, {"first": met[1][0], "second": met[1][1]}]},
        headers=ARB,
    )
    assert r.status_code == 422  # rematches are refused even by hand (PAIR-2)
    ids = sorted({x for pair in met for x in pair})
    byes = {"boards": [], "byes": [{"entrant_id": i, "kind": "forced"} for i in ids]}
    r = await svc.client.put(f"{BASE}/a/rounds/4/pairings", json=byes, headers=ARB)
    assert r.status_code == 200, r.text
    await svc.settle()
    assert len(svc.payloads("section.completed", "a")) == 1


async def test_issue27_finding9_a_correction_names_the_revision_it_saw(svc):
    """Issue 27 finding 9 (PAIR-11): a result's revision starts at 0 and goes up with every change;
    the first entry may leave it out; a correction with an older revision, or without one once a
    result stands, is 409 ``stale_revision`` with the current result and changes nothing; the
    result that already stands is never refused (nothing is overwritten)."""
    await _open(svc)
    url = f"{BASE}/a/rounds/1/results"
    pairing_id = svc.payloads("round.paired", "a")[0].pairings[0].pairing_id
    assert await svc.revision("a", 1, pairing_id) == 0
    first = await svc.client.post(url, json={"pairing_id": pairing_id, "result": "draw"}, headers=ARB)
    assert first.status_code == 200 and first.json()["revision"] == 1
    for stale in ({}, {"expected_revision": 0}, {"expected_revision": 7}):
        refused = await svc.client.post(
            url, json={"pairing_id": pairing_id, "result": "first_wins", **stale}, headers=ARB
        )
        assert refused.status_code == 409, refused.text
        error = refused.json()["error"]
        assert error["code"] == "stale_revision"
        current = error["details"]["current"]
        assert (current["result"], current["revision"], current["result_source"]) == ("draw", 1, "arbiter")
        assert current["changed_by"] and current["changed_at"]
    same = await svc.client.post(
        url, json={"pairing_id": pairing_id, "result": "draw", "expected_revision": 0}, headers=ARB
    )
    assert same.status_code == 200 and same.json() == {
        "pairing_id": pairing_id,
        "result": "draw",
        "changed": False,
        "revision": 1,
    }
    ok = await svc.client.post(
        url, json={"pairing_id": pairing_id, "result": "first_wins", "expected_revision": 1}, headers=ARB
    )
    assert ok.status_code == 200 and ok.json()["revision"] == 2
    assert await svc.revision("a", 1, pairing_id) == 2
    audit = (await svc.client.get(f"{BASE}/a/audit", headers=ARB)).json()["audit"]
    assert [a["details"]["after"] for a in audit if a["action"] == "result"] == ["=-=", "1-0"]
    bad = await svc.client.post(
        url, json={"pairing_id": pairing_id, "result": "draw", "expected_revision": -1}, headers=ARB
    )
    assert bad.status_code == 422
