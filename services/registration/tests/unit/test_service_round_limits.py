"""PAIR-1 at closing over HTTP (DA 七(四) 实际赛制和轮次视最终报名人数确定，原则上不超过7轮): the
maximum holds in principle, so the organiser may close a 9-player round robin of 9 rounds by
giving a reason — once the schedule starts every one of those rounds (EVT-7). The refusal says
so; the reason is kept with the close and the section."""

from __future__ import annotations

from datetime import datetime

import pytest
from registration_kit import CST, OP, P1, harness, player

from registration import presets

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow

#: two more rounds on the last day, so that every round of a 9-round round robin has its start
EXTRA_SLOTS = [
    {"round": 8, "starts_at": "2023-08-22T14:30:00+08:00", "sections": ["open", "junior", "public"]},
    {"round": 9, "starts_at": "2023-08-22T19:00:00+08:00", "sections": ["open", "junior", "public"]},
]


def _overrides(extra_slots: list[dict]) -> dict:
    schedule = presets.load("da-2023").model_dump(mode="json")["schedule"]
    schedule["stages"][0]["slots"] += extra_slots
    # the fee ledger is REG-14's concern, not this test's
    return {"schedule": schedule, "fees": {"required_for_validity": False}}


async def _nine_in_open(h, code: str, extra_slots: list[dict]) -> None:
    body = {"preset_id": "da-2023", "event_code": code, "overrides": _overrides(extra_slots)}
    r = await h.client.post("/v1/events", headers=OP, json=body)
    assert r.status_code == 201, r.text
    unit = {"id": "hainan", "name": "Hainan", "kind": "province"}
    assert (await h.client.post(f"/v1/events/{code}/units", headers=P1, json=unit)).status_code == 201
    for n in range(1, 10):
        entry = {
            "section_id": "open",
            "player": player(600 + n, unit="hainan"),
            "insurance": {"confirmed": True, "document_ref": f"INS-{n}"},
        }
        r = await h.client.post(f"/v1/events/{code}/entries", headers=P1, json=entry)
        assert r.json()["status"] == "accepted", r.text
    h.clock.set(datetime(2023, 8, 18, 20, 0, tzinfo=CST))


def _close(choice: dict) -> dict:
    return {"format_choices": {"open": choice}, "not_checked_in": "present"}


async def test_pair1_da_the_organiser_goes_beyond_seven_rounds_with_a_recorded_reason(tmp_path):
    """PAIR-1 (DA 七(四) 原则上) / EVT-7: refused without a reason (the refusal offers the reason
    and a Swiss); with a reason, the 9-round round robin closes, says why, and every round has
    its scheduled start."""
    async with harness(tmp_path, start=datetime(2023, 8, 5, 10, 0, tzinfo=CST)) as h:
        await _nine_in_open(h, "da-rl", EXTRA_SLOTS)
        r = await h.client.post("/v1/events/da-rl/stages/main/close", headers=OP, json=_close({"kind": "round_robin"}))
        assert r.status_code == 422, r.text
        details = r.json()["error"]["details"]
        assert (details["rule"], details["max_rounds"], details["max_rounds_binding"]) == ("PAIR-1", 7, "in_principle")
        assert (details["rounds"], details["scheduled_rounds"], details["override"]) == (9, 9, "over_max_reason")
        assert "over_max_reason" in r.json()["error"]["message"]

        reason = "nine players: the organiser lets everyone meet everyone"
        r = await h.client.post(
            "/v1/events/da-rl/stages/main/close",
            headers=OP,
            json=_close({"kind": "round_robin", "over_max_reason": reason}),
        )
        assert r.status_code == 200, r.text
        section = next(s for s in r.json()["sections"] if s["section_id"] == "open")
        assert (section["format"], section["rounds"]) == ("round_robin", 9)
        assert reason in section["reason"] and "maximum of 7" in section["reason"]
        await h.settle()
        closed = next(e.payload for e in h.events("section.closed") if e.payload.section_id == "open")
        assert closed.rules.rounds == 9 and len(closed.rules.round_starts) == 9


async def test_pair1_evt7_a_reason_never_covers_rounds_the_schedule_does_not_start(tmp_path):
    """EVT-7 / PAIR-1 (DA 七(四)): with the preset's 7 slots, the 9-round round robin is refused even
    with a reason (no round without a scheduled start); the refusal offers a Swiss of at most 7."""
    async with harness(tmp_path, start=datetime(2023, 8, 5, 10, 0, tzinfo=CST)) as h:
        await _nine_in_open(h, "da-rs", [])
        choice = {"kind": "round_robin", "over_max_reason": "as many rounds as players"}
        r = await h.client.post("/v1/events/da-rs/stages/main/close", headers=OP, json=_close(choice))
        assert r.status_code == 422, r.text
        details = r.json()["error"]["details"]
        assert (details["scheduled_rounds"], details["override"], details["round_robin_rounds"]) == (7, None, None)
        assert [c["kind"] for c in details["choices"]] == ["swiss"] and details["swiss_rounds"] <= 7
        stage = (await h.client.get("/v1/events/da-rs/stages/main", headers=OP)).json()
        assert stage["status"] != "closed"
