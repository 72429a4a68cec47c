"""Arbiter results travel to gameplay (result.decided) and stay authoritative (PAIR-11, AWD-8);
a double forfeit scores 0:0 (PAIR-6, PLAY-7). SQLite + the in-memory bus."""

from __future__ import annotations

import pytest
from pairing_kit import ARB, EV, Harness, closed, players, rules, sqlite_settings

from gomoku_shared.contracts import encode, envelope_for
from gomoku_shared.contracts.events import GameFinished, PairingOutcome

# a whole service through its API on SQLite: the same use cases run on the fakes in the fast
# lane (test_use_cases_rounds.py), so make test-fast leaves this module out
pytestmark = pytest.mark.slow

BASE = f"/v1/events/{EV}/sections"


@pytest.fixture
async def svc(tmp_path):
    h = Harness(sqlite_settings(tmp_path))
    await h.start()
    yield h
    await h.stop()


def _finished(spec, *, winner, result, reason="five", double=False) -> GameFinished:
    pts = (0, 0) if double else (2, 0) if winner == spec.first else (0, 2) if winner else (1, 1)
    return GameFinished(
        event_code=EV,
        stage="main",
        section_id="a",
        round=1,
        pairing_id=spec.pairing_id,
        game_id=f"a.1.{spec.pairing_id}.g1",
        black=spec.first,
        white=spec.second,
        winner=winner,
        result=result,
        reason=reason,
        double_forfeit=double,
        first=spec.first,
        second=spec.second,
        outcome=PairingOutcome(first_points=pts[0], second_points=pts[1]),
    )


async def _send(svc, g: GameFinished) -> None:
    await svc.observer_bus.publish([encode(envelope_for(g, correlation_id=EV, occurred_at=svc.clock.now()))])
    await svc.settle()


async def test_pair11_arbiter_result_goes_to_gameplay_and_a_later_game_finished_is_not_counted(svc):
    """PAIR-11: the arbiter's result is sent as result.decided; gameplay's game.finished for the same
    pairing arriving afterwards (played out to another result) is recorded but not scored again —
    the arbiter wins, the round is paired once."""
    await svc.send(closed("a", players(4), rules(rounds=2)))
    await svc.settle()
    s1, s2 = svc.payloads("round.paired", "a")[0].pairings
    r = await svc.client.post(
        f"{BASE}/a/rounds/1/results",
        headers=ARB,
        json={"pairing_id": s1.pairing_id, "result": "first_wins", "note": "dispute"},
    )
    assert r.status_code == 200
    await svc.settle()
    [d] = svc.payloads("result.decided", "a")
    assert (d.pairing_id, d.round, d.first, d.second, d.outcome, d.reason, d.note) == (
        s1.pairing_id,
        1,
        s1.first,
        s1.second,
        "first_wins",
        "arbiter",
        "dispute",
    )
    await _send(svc, _finished(s1, winner=s1.second, result="white", reason="resignation"))
    await _send(svc, _finished(s2, winner=s2.first, result="black"))
    await _send(svc, _finished(s2, winner=s2.first, result="black"))  # a replay: nothing new
    rnd = (await svc.client.get(f"{BASE}/a/rounds/1")).json()
    by = {p["pairing_id"]: p for p in rnd["pairings"]}
    assert (by[s1.pairing_id]["result"], by[s1.pairing_id]["result_source"]) == ("first_wins", "arbiter")
    assert by[s1.pairing_id]["first_points"] == 2 and by[s1.pairing_id]["second_points"] == 0
    assert [p.round for p in svc.payloads("round.paired", "a")] == [1, 2]
    st = {x["entrant_id"]: x["points"] for x in (await svc.client.get(f"{BASE}/a/standings")).json()["standings"]}
    assert st[s1.first] == 2 and st[s1.second] == 0 and sum(st.values()) == 4


async def test_pair6_double_forfeit_from_gameplay_and_from_the_arbiter_scores_nothing(svc):
    """PAIR-6 / PLAY-7: both absent is a double forfeit — 0 points each, shown as double_forfeit
    (never a draw) in the round and the cross table; entered by the arbiter it is sent to gameplay
    with the forfeit reason."""
    await svc.send(closed("a", players(4), rules(rounds=2)))
    await svc.settle()
    s1, s2 = svc.payloads("round.paired", "a")[0].pairings
    await _send(svc, _finished(s1, winner=None, result="double_forfeit", reason="no_show", double=True))
    r = await svc.client.post(
        f"{BASE}/a/rounds/1/results", headers=ARB, json={"pairing_id": s2.pairing_id, "result": "double_forfeit"}
    )
    assert r.status_code == 200
    await svc.settle()
    [d] = svc.payloads("result.decided", "a")
    assert (d.outcome, d.reason) == ("double_forfeit", "no_show")
    rnd = (await svc.client.get(f"{BASE}/a/rounds/1")).json()
    assert [(p["result"], p["first_points"], p["second_points"]) for p in rnd["pairings"]] == [
        ("double_forfeit", 0, 0),
        ("double_forfeit", 0, 0),
    ]
    assert rnd["pairings"][0]["game_results"][0]["result"] == "double_forfeit"
    rows = (await svc.client.get(f"{BASE}/a/standings")).json()["standings"]
    assert all(x["points"] == 0 and x["wins"] == 0 and x["games_played"] == 0 for x in rows)
    ct = (await svc.client.get(f"{BASE}/a/crosstable")).json()
    assert all(c["points"] == 0 for p in ct["players"] for c in p["rounds"][:1])


async def test_awd8_correction_is_sent_again_with_a_higher_sequence(svc):
    """AWD-8: a correction after completion republishes the section and sends the new result to
    gameplay with a higher sequence (gameplay applies only the latest)."""
    await svc.send(closed("a", players(4), rules(rounds=1)))
    await svc.settle()
    s1, s2 = svc.payloads("round.paired", "a")[0].pairings
    await _send(svc, _finished(s1, winner=s1.first, result="black"))
    await _send(svc, _finished(s2, winner=s2.first, result="black"))
    assert [c.revision for c in svc.payloads("section.completed", "a")] == [1]
    seen = await svc.revision("a", 1, s1.pairing_id)
    for result in ("second_wins", "draw"):
        body = {"pairing_id": s1.pairing_id, "result": result, "expected_revision": seen}
        r = await svc.client.post(f"{BASE}/a/rounds/1/results", headers=ARB, json=body)
        assert r.json()["changed"] is True
        seen = r.json()["revision"]
    await svc.settle()
    decided = svc.payloads("result.decided", "a")
    assert [x.outcome for x in decided] == ["second_wins", "draw"]
    assert decided[0].sequence < decided[1].sequence
    assert [c.revision for c in svc.payloads("section.completed", "a")] == [1, 2, 3]
