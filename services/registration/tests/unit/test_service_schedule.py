"""EVT-7: the schedule in the API — per event and per player, as JSON and as iCalendar — with an
arbiter's delay (round.rescheduled from pairing) shown."""

from __future__ import annotations

from datetime import datetime

import pytest
from icalendar import Calendar
from registration_kit import ARB, CST, OP, P1, P2, harness, sz_entry

from gomoku_shared.contracts.events import RoundRescheduled

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow

URL = "/v1/events/sz22/schedule"


def _slot(h, day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2022, 11, day, hour, minute, tzinfo=CST)


async def test_evt7_event_schedule_json_lists_the_seed_dates_and_shared_slots(tmp_path):
    """EVT-7, SZ 五: registration 10-25..10-31, men's/women's rounds on 11-5 (one session per
    slot: the four sections start together), juniors on 11-6, the final on 11-13."""
    async with harness(tmp_path) as h:
        await h.create_sz()
        answer = await h.client.get(URL, headers=P1)
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert body["registration"] == {
            "opens_at": "2022-10-25T00:00:00+08:00",
            "closes_at": "2022-11-01T00:00:00+08:00",
        }
        online, final = body["stages"]
        first = online["sessions"][0]
        assert first["starts_at"] == "2022-11-05T09:00:00+08:00" and first["round"] == 1
        assert sorted(first["sections"]) == ["men-free", "men-pro", "women-free", "women-pro"]
        days = {s["starts_at"][:10]: set() for s in online["sessions"]}
        for session in online["sessions"]:
            days[session["starts_at"][:10]] |= set(session["sections"])
        assert days["2022-11-05"] == {"men-free", "women-free", "men-pro", "women-pro"}
        assert days["2022-11-06"] == {"junior-boys-free", "junior-girls-free", "junior-boys-pro", "junior-girls-pro"}
        assert {s["starts_at"][:10] for s in final["sessions"]} == {"2022-11-13"}
        assert (await h.client.get("/v1/events/nope/schedule", headers=P1)).status_code == 404


async def test_evt7_event_calendar_is_icalendar_and_shows_a_delay(tmp_path):
    """EVT-7: the .ics parses (RFC 5545) with one event per session, the registration window;
    after pairing announces a delay of men-free round 2, that round is its own event at the new
    time, with the reason, and the other sections keep their slot."""
    async with harness(tmp_path) as h:
        await h.create_sz()
        answer = await h.client.get(URL + ".ics", headers=P1)
        assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/calendar")
        events = [c for c in Calendar.from_ical(answer.content).walk("VEVENT")]
        online_sessions = 14  # 7 + 7 slots of the online stage (SZ 五)
        assert len(events) == 1 + online_sessions + 7
        later = _slot(h, 5, 11, 0)
        await h.send(
            RoundRescheduled(
                event_code="sz22",
                stage="online",
                section_id="men-free",
                round=2,
                starts_at=later,
                previous_starts_at=_slot(h, 5, 10, 30),
                reason="server maintenance",
                decided_by="k2",
                decided_at=_slot(h, 5, 9, 30),
            )
        )
        await h.settle()
        events = list(Calendar.from_ical((await h.client.get(URL + ".ics", headers=P1)).content).walk("VEVENT"))
        assert len(events) == 1 + online_sessions + 1 + 7
        moved = [e for e in events if e.decoded("dtstart") == later]
        assert len(moved) == 1 and "server maintenance" in str(moved[0].get("description"))
        slot = [e for e in events if e.decoded("dtstart") == _slot(h, 5, 10, 30)]
        assert len(slot) == 1 and "Men, free rules" not in str(slot[0].get("summary"))
        body = (await h.client.get(URL, headers=P1)).json()
        delayed = [s for s in body["stages"][0]["sessions"] if s["delayed"]]
        assert [(s["sections"], s["delay_reason"]) for s in delayed] == [(["men-free"], "server maintenance")]


async def test_evt7_calendar_summaries_in_the_language_asked_for(tmp_path):
    """EVT-7, issue 28: ``?lang=zh`` gives a calendar all in Chinese (the event, stage dates and
    sections by their Chinese names), ``?lang=en`` all in English; a delay says the first time
    in the event's zone, not in UTC; any other language is a 422."""
    async with harness(tmp_path) as h:
        await h.create_sz()
        await h.send(
            RoundRescheduled(
                event_code="sz22",
                stage="online",
                section_id="men-free",
                round=2,
                starts_at=_slot(h, 5, 11, 0),
                previous_starts_at=_slot(h, 5, 10, 30),
                reason="服务器维护",
                decided_by="k2",
                decided_at=_slot(h, 5, 9, 30),
            )
        )
        await h.settle()

        async def summaries(lang: str) -> list[str]:
            answer = await h.client.get(URL + ".ics", params={"lang": lang}, headers=P1)
            assert answer.status_code == 200, answer.text
            events = Calendar.from_ical(answer.content).walk("VEVENT")
            return [str(e.get("summary")) + " " + str(e.get("description") or "") for e in events]

        chinese = await summaries("zh")
        assert "报名 " in chinese and any(
            s.startswith("2022年深圳市五子棋锦标赛：第 1 轮（男子组（大众规则组）") for s in chinese
        )
        assert not [s for s in chinese if any(word in s for word in ("round", "Registration", "free rules", "Men"))]
        assert any("推迟，原定 2022-11-05 10:30" in s for s in chinese), chinese
        english = await summaries("en")
        assert "Registration " in english and any(
            s.startswith("2022 Shenzhen Gomoku Championship: round 1") for s in english
        )
        assert not [s for s in english if any("\u4e00" <= ch <= "\u9fff" for ch in s.replace("服务器维护", ""))]
        assert any("delayed from 2022-11-05 10:30:" in s for s in english), english
        refused = await h.client.get(URL + ".ics", params={"lang": "fr"}, headers=P1)
        assert refused.status_code == 422


async def test_evt7_player_schedule_has_only_their_sections_rounds(tmp_path):
    """EVT-7: a junior player's calendar has the junior section's seven rounds on 11-6 and the
    final's dates (the stage they may qualify for is not theirs yet: only the online stage);
    another partner cannot read it (404)."""
    async with harness(tmp_path) as h:
        await h.create_sz()
        entry = await h.client.post(
            "/v1/events/sz22/entries", headers=P1, json=sz_entry(1, section="junior-boys-free", born="2011-03-03")
        )
        assert entry.status_code == 201, entry.text
        player_id = entry.json()["player_id"]
        url = f"/v1/events/sz22/players/{player_id}/schedule"
        body = (await h.client.get(url, headers=P1)).json()
        [stage] = body["stages"]
        assert [s["round"] for s in stage["sessions"]] == list(range(1, 8))
        assert all(s["starts_at"].startswith("2022-11-06") for s in stage["sessions"])
        calendar = await h.client.get(url + ".ics", headers=ARB)
        assert calendar.status_code == 200
        assert len(list(Calendar.from_ical(calendar.content).walk("VEVENT"))) == 1 + 7
        assert (await h.client.get(url, headers=P2)).status_code == 404
        assert (await h.client.get(url + ".ics", headers=P2)).status_code == 404


FIELD = (
    [("men-free", "male", n, "1990-05-05") for n in range(1, 9)]
    + [("women-free", "female", n, "1991-06-06") for n in range(11, 19)]
    + [("men-pro", "male", n, "1988-01-01") for n in range(21, 27)]
    + [("women-pro", "female", n, "1992-02-02") for n in range(31, 37)]
)
CLOSE = {
    "format_choices": {
        "men-free": {"kind": "swiss", "rounds": 4},
        "women-free": {"kind": "round_robin"},
        "men-pro": {"kind": "round_robin"},
        "women-pro": {"kind": "swiss", "rounds": 3},
    },
    "not_checked_in": "present",
}


def _rounds_by_section(body: dict, stage: str = "online") -> dict[str, list[int]]:
    [found] = [s for s in body["stages"] if s["stage"] == stage]
    out: dict[str, list[int]] = {}
    for session in found["sessions"]:
        for section in session["sections"]:
            out.setdefault(section, []).append(session["round"])
    return out


async def test_evt7_after_closing_a_section_lists_only_the_rounds_it_will_play(tmp_path):
    """EVT-7 / PAIR-1: before the close the schedule lists the preset's slots (SZ 九(一): 7 free,
    5 professional rounds); after the arbiter chose 4 rounds for men-free and 3 for women-pro,
    their later slots are gone — in the JSON, the .ics and a player's schedule — while a round
    robin keeps its rounds and the cancelled junior sections (no entries, REG-12) have none.
    The final, not closed yet, keeps the preset's slots."""
    async with harness(tmp_path) as h:
        await h.create_sz()
        rows = [sz_entry(n, section=sec, gender=g, born=born) for sec, g, n, born in FIELD]
        r = await h.client.post("/v1/events/sz22/entries/bulk", headers=P1, json={"entries": rows})
        assert r.status_code == 201, r.text
        player_id = r.json()["rows"][0]["player_id"]
        published = (await h.client.get(URL, headers=P1)).json()
        before = _rounds_by_section(published)
        assert before["men-free"] == before["women-free"] == before["junior-boys-free"] == list(range(1, 8))
        assert before["men-pro"] == before["women-pro"] == list(range(1, 6))
        h.clock.set(datetime(2022, 11, 4, 9, 0, tzinfo=CST))
        closed = await h.client.post("/v1/events/sz22/stages/online/close", headers=OP, json=CLOSE)
        assert closed.status_code == 200, closed.text

        body = (await h.client.get(URL, headers=P1)).json()
        after = _rounds_by_section(body)
        assert after == {
            "men-free": [1, 2, 3, 4],
            "women-free": list(range(1, 8)),
            "men-pro": list(range(1, 6)),
            "women-pro": [1, 2, 3],
        }
        final = _rounds_by_section(body, "final")
        assert final == _rounds_by_section(published, "final") and {len(rounds) for rounds in final.values()} == {7}

        events = list(Calendar.from_ical((await h.client.get(URL + ".ics", headers=P1)).content).walk("VEVENT"))
        online = [e for e in events if e.decoded("dtstart").date() == datetime(2022, 11, 5).date()]
        assert len(events) == 1 + 7 + 7  # registration, the 7 slots of 11-5 (women-free), the final
        men_free = [e for e in online if "Men, free rules" in str(e.get("summary"))]
        assert sorted(e.decoded("dtstart") for e in men_free) == sorted(e.decoded("dtstart") for e in online)[:4]

        own = f"/v1/events/sz22/players/{player_id}/schedule"
        assert _rounds_by_section((await h.client.get(own, headers=P1)).json()) == {"men-free": [1, 2, 3, 4]}
        calendar = Calendar.from_ical((await h.client.get(own + ".ics", headers=P1)).content)
        assert len(list(calendar.walk("VEVENT"))) == 1 + 4


def _moved(h, starts_at: datetime, decided_at: datetime, reason: str) -> RoundRescheduled:
    return RoundRescheduled(
        event_code="sz22",
        stage="online",
        section_id="men-free",
        round=1,
        starts_at=starts_at,
        previous_starts_at=_slot(h, 5, 9, 0),
        reason=reason,
        decided_by="k2",
        decided_at=decided_at,
    )


async def test_evt7_two_delays_decided_at_one_instant_keep_the_later_start(tmp_path):
    """EVT-7: a slot delay and a further delay of one of its sections decided at the same instant
    (a frozen clock) — the later start is the later delay (pairing only moves a round later), so
    the schedule shows it whatever order they arrive in; the earlier one redelivered changes nothing."""
    async with harness(tmp_path) as h:
        await h.create_sz()
        decided = _slot(h, 4, 10, 0)
        slot, further = _slot(h, 5, 9, 30), _slot(h, 5, 9, 45)
        await h.send(_moved(h, slot, decided, "the slot"))
        await h.send(_moved(h, further, decided, "the section alone"))
        await h.send(_moved(h, slot, decided, "the slot"))  # redelivered
        await h.settle()
        body = (await h.client.get(URL, headers=P1)).json()
        delayed = [s for s in body["stages"][0]["sessions"] if s["delayed"]]
        assert [(s["round"], s["sections"], datetime.fromisoformat(s["starts_at"])) for s in delayed] == [
            (1, ["men-free"], further)
        ], delayed
        assert delayed[0]["delay_reason"] == "the section alone"


async def test_reg12_the_public_schedule_says_how_each_section_closed(tmp_path):
    """REG-12 (SZ 九(一)): the public schedule tells the pages how each section closed — nothing
    before the close; after it, women-free (4 < 8 entries) merged into men-free (6 < 8), which
    plays the 10 and ranks men and women apart, the empty junior sections cancelled, the
    professional sections (6 each, not below 6) kept. The final, not closed, says nothing yet."""
    field = (
        [("men-free", "male", n, "1990-05-05") for n in range(1, 7)]
        + [("women-free", "female", n, "1991-06-06") for n in range(11, 15)]
        + [("men-pro", "male", n, "1988-01-01") for n in range(21, 27)]
        + [("women-pro", "female", n, "1992-02-02") for n in range(31, 37)]
    )
    close = {
        "format_choices": {
            "men-free": {"kind": "swiss", "rounds": 4},
            "men-pro": {"kind": "round_robin"},
            "women-pro": {"kind": "round_robin"},
        },
        "not_checked_in": "present",
    }
    async with harness(tmp_path) as h:
        await h.create_sz()
        rows = [sz_entry(n, section=sec, gender=g, born=born) for sec, g, n, born in field]
        r = await h.client.post("/v1/events/sz22/entries/bulk", headers=P1, json={"entries": rows})
        assert r.status_code == 201, r.text
        before = (await h.client.get(URL, headers=P1)).json()["sections"]
        assert {sid: s["closed"] for sid, s in before.items()} == {sid: None for sid in before}

        h.clock.set(datetime(2022, 11, 4, 9, 0, tzinfo=CST))
        closed = await h.client.post("/v1/events/sz22/stages/online/close", headers=OP, json=close)
        assert closed.status_code == 200, closed.text
        sections = (await h.client.get(URL, headers=P1)).json()["sections"]
        assert sections["women-free"]["closed"] == {
            "status": "merged",
            "merged_into": "men-free",
            "entrants": 4,
            "rank_by_gender": False,
        }
        assert sections["men-free"]["closed"] == {
            "status": "ready",
            "merged_into": None,
            "entrants": 10,
            "rank_by_gender": True,
        }
        assert sections["junior-boys-free"]["closed"]["status"] == "cancelled"
        assert sections["junior-girls-pro"]["closed"]["entrants"] == 0
        assert sections["men-pro"]["closed"]["status"] == sections["women-pro"]["closed"]["status"] == "ready"
        assert sections["final-men"]["closed"] is None
