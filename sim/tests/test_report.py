"""What the demo prints about the schedule (EVT-7) and the venue (PLAY-9, PLAY-10)."""

from __future__ import annotations

import io
from types import SimpleNamespace

from gomoku_sim.report import print_schedule, print_venue

ROUND_TIMES = {
    "final-men": [
        {
            "round": 1,
            "scheduled_at": "2022-11-13T00:30:00+00:00",
            "starts_at": "2022-11-13T00:30:00+00:00",
            "status": "complete",
        },
        {
            "round": 2,
            "scheduled_at": "2022-11-13T02:00:00+00:00",
            "starts_at": "2022-11-13T02:30:00+00:00",
            "status": "complete",
        },
        {
            "round": 3,
            "scheduled_at": "2022-11-13T03:30:00+00:00",
            "starts_at": "2022-11-13T03:30:00+00:00",
            "status": "not_paired",
        },
    ],
    "final-women": [
        {
            "round": 1,
            "scheduled_at": "2022-11-13T00:30:00+00:00",
            "starts_at": "2022-11-13T00:30:00+00:00",
            "status": "published",
        },
    ],
}


def test_the_schedule_groups_the_sections_of_a_slot_in_the_events_time_zone():
    """EVT-7, SZ 五 (线下决赛 11-13): rounds by slot in Asia/Shanghai; a late start is shown, a round
    never paired is not."""
    out = io.StringIO()
    print_schedule(ROUND_TIMES, "Asia/Shanghai", out)
    lines = out.getvalue().splitlines()
    first = next(line for line in lines if "08:30" in line)
    assert "2022-11-13 08:30  2022-11-13 08:30  yes" in first and "final-men r1, final-women r1" in first
    late = next(line for line in lines if "10:00" in line)
    assert "10:30" in late and "DELAYED" in late and "final-men r2" in late
    assert not any("r3" in line for line in lines)


def test_the_venue_counts_slips_recorder_steps_and_records_and_names_the_flagged_record():
    """PLAY-9 / PLAY-10: how each stage was played, the slips, the recorder's steps, the records
    entered after the game and the one flagged to the arbiter."""
    summary = {
        "games": {
            "sz22.online.men-pro.r1.b1.g1": {"mode": "online"},
            "sz22.final.final-men.r1.b1.g1": {"mode": "offline"},
            "sz22.final.final-men.r1.b2.g1": {"mode": "offline"},
        }
    }
    flag = {"ply": 17, "code": "forbidden", "reason": "black's h9 is a forbidden double_three (PLAY-3)"}
    venue = SimpleNamespace(
        slips=2, recorded=40, records=2, flagged=[{"game_id": "sz22.final.final-men.r1.b1.g1", "flags": [flag]}]
    )
    out = io.StringIO()
    print_venue(summary, venue, out)
    text = out.getvalue()
    assert "stage online: 1 online games" in text and "stage final: 2 offline games" in text
    assert "2 result slips entered and confirmed" in text and "40 steps by the live recorder" in text
    assert "2 records entered after the game" in text
    assert "sz22.final.final-men.r1.b1.g1 ply 17 forbidden" in text


def test_an_online_event_says_nothing_of_a_venue():
    out = io.StringIO()
    print_venue({"games": {"x.online.s.r1.b1.g1": {"mode": "online"}}}, SimpleNamespace(), out)
    assert "at the venue" not in out.getvalue()
