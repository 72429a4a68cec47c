"""EVT-7: rounds start at their scheduled time (round.paired carries it; a round paired late
starts when published), and an arbiter delays a round: audited (who, when, reason, old and new
time), announced with round.rescheduled, refused when it is no delay or the round is under way."""

from __future__ import annotations

from datetime import timedelta

import pytest
from pairing_kit import ARB, EV, START, Harness, closed, players, rules, sqlite_settings

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow

BASE = f"/v1/events/{EV}/sections"
SLOTS = [START + timedelta(minutes=m) for m in (60, 150, 240)]  # 10:00, 11:30, 13:00


@pytest.fixture
async def svc(tmp_path):
    h = Harness(sqlite_settings(tmp_path))
    await h.start()
    yield h
    await h.stop()


async def _open(svc, sid="a"):
    scheduled = rules(rounds=3).model_copy(update={"round_starts": SLOTS})
    await svc.send(closed(sid, players(6), scheduled))
    await svc.settle()


async def test_evt7_round_paired_carries_the_scheduled_start(svc):
    """EVT-7: round 1 closed at 09:00 starts at 10:00; round 2, paired at 09:00 when round 1 is
    complete, starts at its 11:30 slot; round 3, paired after its 13:00 slot, starts then (now)."""
    await _open(svc)
    assert svc.payloads("round.paired", "a")[0].starts_at == SLOTS[0]
    await svc.play_round("a", 1)
    assert svc.payloads("round.paired", "a")[1].starts_at == SLOTS[1]
    late = SLOTS[2] + timedelta(minutes=20)
    svc.clock.set(late)
    await svc.play_round("a", 2)
    assert svc.payloads("round.paired", "a")[2].starts_at == late
    times = (await svc.client.get(f"{BASE}/a/round-times")).json()["rounds"]
    assert [t["scheduled_at"] for t in times] == [s.isoformat() for s in SLOTS]
    assert times[2]["starts_at"] == late.isoformat()


async def test_evt7_arbiter_delays_a_round_audited_and_announced(svc):
    """EVT-7: the arbiter delays round 1 (published, not started) from 10:00 to 10:30 and round 2
    (not paired yet) from 11:30 to 12:00: each is audited and announced; round 2 is then paired
    for 12:00."""
    await _open(svc)
    url = f"{BASE}/a/rounds/1/delay"
    body = {"starts_at": (SLOTS[0] + timedelta(minutes=30)).isoformat(), "reason": "the hall opens late"}
    assert (await svc.client.post(url, json=body)).status_code == 401
    assert (await svc.client.post(url, json=body, headers={"x-api-key": "pa-key"})).status_code == 403
    answer = await svc.client.post(url, json=body, headers=ARB)
    assert answer.status_code == 200, answer.text
    assert answer.json()["previous_starts_at"] == SLOTS[0].isoformat()
    body2 = {"starts_at": (SLOTS[1] + timedelta(minutes=30)).isoformat(), "reason": "lunch overran"}
    assert (await svc.client.post(f"{BASE}/a/rounds/2/delay", json=body2, headers=ARB)).status_code == 200
    await svc.settle()
    moved = svc.payloads("round.rescheduled", "a")
    audit = (await svc.client.get(f"{BASE}/a/audit", headers=ARB)).json()["audit"]
    delays = [a for a in audit if a["action"] == "delay"]
    assert [(d["round"], d["role"], d["details"]["reason"]) for d in delays] == [
        (1, "arbiter", "the hall opens late"),
        (2, "arbiter", "lunch overran"),
    ]
    who = delays[0]["key_id"]  # the staff key's id (never the key itself)
    assert who and who != "arb-key"
    assert delays[0]["details"]["starts_at"] == body["starts_at"] and delays[0]["at"] == START.isoformat()
    assert [(m.round, m.previous_starts_at, m.decided_by) for m in moved] == [
        (1, SLOTS[0], who),
        (2, SLOTS[1], who),
    ]
    await svc.play_round("a", 1)
    assert svc.payloads("round.paired", "a")[1].starts_at == SLOTS[1] + timedelta(minutes=30)
    times = (await svc.client.get(f"{BASE}/a/round-times")).json()["rounds"]
    assert times[0]["delayed_to"] == body["starts_at"] and times[1]["starts_at"] == body2["starts_at"]


@pytest.mark.parametrize(
    "moment,starts_at,reason,status,code",
    [
        # EVT-7: a delay moves the start later, never earlier, to a time still ahead
        (START, SLOTS[0] - timedelta(minutes=5), "x", 409, "not_a_delay"),
        (START, START - timedelta(minutes=5), "x", 409, "start_in_past"),
        (START, SLOTS[0] + timedelta(minutes=5), "  ", 422, "reason_required"),
        # the round started at 10:00: its games are under way
        (SLOTS[0] + timedelta(minutes=1), SLOTS[0] + timedelta(hours=1), "x", 409, "round_started"),
    ],
)
async def test_evt7_delays_refused(svc, moment, starts_at, reason, status, code):
    await _open(svc)
    svc.clock.set(moment)
    body = {"starts_at": starts_at.isoformat(), "reason": reason}
    answer = await svc.client.post(f"{BASE}/a/rounds/1/delay", json=body, headers=ARB)
    assert answer.status_code == status and answer.json()["error"]["code"] == code, answer.text


async def test_evt7_unknown_round_and_offsetless_time_are_422(svc):
    await _open(svc)
    for rnd, starts_at in ((9, (SLOTS[0] + timedelta(hours=1)).isoformat()), (1, "2026-05-01T11:00:00")):
        body = {"starts_at": starts_at, "reason": "x"}
        answer = await svc.client.post(f"{BASE}/a/rounds/{rnd}/delay", json=body, headers=ARB)
        assert answer.status_code == 422, answer.text


async def test_evt7_a_whole_time_slot_is_delayed_together_audited_all_or_nothing(svc):
    """EVT-7 (issue 16, Build 1: "all sections of a time slot together"): the arbiter delays
    round 1 of a's time slot — a and b, scheduled at 10:00, move together, each audited and
    announced; c, scheduled at another time, keeps its start. A slot delay refused for one of its
    sections (here not a delay for b, already moved later) moves none of them."""
    await _open(svc, "a")
    await _open(svc, "b")
    other = rules(rounds=3).model_copy(update={"round_starts": [s + timedelta(minutes=20) for s in SLOTS]})
    await svc.send(closed("c", players(6), other))
    await svc.settle()
    later = SLOTS[0] + timedelta(minutes=30)
    body = {"starts_at": later.isoformat(), "reason": "the hall opens late"}
    answer = await svc.client.post(f"{BASE}/a/rounds/1/delay-slot", json=body, headers=ARB)
    assert answer.status_code == 200, answer.text
    assert [s["section_id"] for s in answer.json()["sections"]] == ["a", "b"]
    assert answer.json()["scheduled_at"] == SLOTS[0].isoformat()
    await svc.settle()
    for sid in ("a", "b"):
        [moved] = svc.payloads("round.rescheduled", sid)
        assert (moved.starts_at, moved.previous_starts_at) == (later, SLOTS[0])
        [delay] = [
            a
            for a in (await svc.client.get(f"{BASE}/{sid}/audit", headers=ARB)).json()["audit"]
            if a["action"] == "delay"
        ]
        assert delay["details"]["slot_sections"] == ["a", "b"] and delay["details"]["reason"] == "the hall opens late"
        times = (await svc.client.get(f"{BASE}/{sid}/round-times")).json()["rounds"]
        assert times[0]["starts_at"] == later.isoformat()
    assert not svc.payloads("round.rescheduled", "c")
    assert (await svc.client.get(f"{BASE}/c/round-times")).json()["rounds"][0]["starts_at"] == (
        SLOTS[0] + timedelta(minutes=20)
    ).isoformat()

    # round 2: b alone is delayed to 12:30 first; the slot to 12:00 is then no delay for b → nothing moves
    late_b = {"starts_at": (SLOTS[1] + timedelta(hours=1)).isoformat(), "reason": "b's hall"}
    assert (await svc.client.post(f"{BASE}/b/rounds/2/delay", json=late_b, headers=ARB)).status_code == 200
    slot = {"starts_at": (SLOTS[1] + timedelta(minutes=30)).isoformat(), "reason": "lunch overran"}
    refused = await svc.client.post(f"{BASE}/a/rounds/2/delay-slot", json=slot, headers=ARB)
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "not_a_delay", refused.text
    assert refused.json()["error"]["details"] == {"section_id": "b", "slot_sections": ["a", "b"]}, refused.text
    await svc.settle()
    assert [m.round for m in svc.payloads("round.rescheduled", "a")] == [1]
    assert (await svc.client.get(f"{BASE}/a/round-times")).json()["rounds"][1]["delayed_to"] is None


async def test_evt7_a_slot_delay_of_an_unscheduled_round_is_422(svc):
    await svc.send(closed("u", players(4), rules(rounds=2)))
    await svc.settle()
    body = {"starts_at": (START + timedelta(hours=2)).isoformat(), "reason": "x"}
    answer = await svc.client.post(f"{BASE}/u/rounds/1/delay-slot", json=body, headers=ARB)
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "unscheduled_round", answer.text
    missing = await svc.client.post(f"{BASE}/nope/rounds/1/delay-slot", json=body, headers=ARB)
    assert missing.status_code == 404
