"""Issue 28: the platform's events as the home page lists them (``GET /v1/events``): newest
first, with their names in both languages, dates, place, organiser and where each stands, found
by a part of their name or code; a viewer's key reads it, and a bad query is a clear 422."""

from __future__ import annotations

from datetime import datetime

import pytest
from registration_kit import CST, OP, harness

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow

#: the key the portal reads with (a viewer's)
VIEWER = {"x-api-key": "view-key"}


async def test_events_newest_first_with_names_dates_place_and_organiser(tmp_path):
    async with harness(tmp_path) as h:
        for preset, code in (("sz-2022", "sz22"), ("nt-2023", "nt23"), ("da-2023", "da23")):
            made = await h.client.post("/v1/events", headers=OP, json={"preset_id": preset, "event_code": code})
            assert made.status_code == 201, made.text
        listed = (await h.client.get("/v1/events", headers=VIEWER)).json()["events"]
        # DA starts 2023-08-19, NT 2023-06-22, SZ 2022-11-05
        assert [e["event_code"] for e in listed] == ["da23", "nt23", "sz22"]
        sz = listed[2]
        assert sz["name_zh"] == "2022年深圳市五子棋锦标赛" and sz["name"] == "2022 Shenzhen Gomoku Championship"
        assert (sz["starts_on"], sz["ends_on"], sz["timezone"]) == ("2022-11-05", "2022-11-13", "Asia/Shanghai")
        assert "深圳棋院" in sz["organiser_zh"] and "Shenzhen Chess Academy" in sz["organiser"]
        assert "坪山区体育中心" in sz["venue_zh"]
        assert listed[1]["venue"] is None and listed[1]["venue_zh"] is None  # NT 三: 另行通知
        # the clock stands at 2022-10-26 10:00 (Beijing): SZ's registration (10-25..10-31) is open
        assert [e["status"] for e in listed] == ["registration_open", "registration_open", "registration_open"]
        h.clock.set(datetime(2022, 11, 2, 9, 0, tzinfo=CST))
        statuses = {
            e["event_code"]: e["status"] for e in (await h.client.get("/v1/events", headers=VIEWER)).json()["events"]
        }
        assert statuses["sz22"] == "registration_closed"
        h.clock.set(datetime(2022, 11, 5, 8, 0, tzinfo=CST))
        sz_now = (await h.client.get("/v1/events?q=sz22", headers=VIEWER)).json()["events"]
        assert [(e["event_code"], e["status"]) for e in sz_now] == [("sz22", "under_way")]
        h.clock.set(datetime(2022, 11, 14, 0, 30, tzinfo=CST))  # the day after the final, in Beijing
        sz_after = (await h.client.get("/v1/events?q=sz22", headers=VIEWER)).json()["events"]
        assert sz_after[0]["status"] == "finished"


async def test_events_found_by_a_part_of_their_name_or_code_and_paged(tmp_path):
    async with harness(tmp_path) as h:
        for preset, code in (("sz-2022", "sz22"), ("nt-2023", "nt23"), ("da-2023", "da23")):
            await h.client.post("/v1/events", headers=OP, json={"preset_id": preset, "event_code": code})

        async def found(q: str) -> list[str]:
            answer = await h.client.get("/v1/events", params={"q": q}, headers=VIEWER)
            assert answer.status_code == 200, answer.text
            return [e["event_code"] for e in answer.json()["events"]]

        assert await found("深圳") == ["sz22"]
        assert await found("team CHAMPIONSHIP") == ["nt23"]
        assert await found("DA2") == ["da23"]
        assert await found("五子棋") == ["da23", "nt23", "sz22"]
        assert await found("围棋") == []
        first = (await h.client.get("/v1/events", params={"limit": 2}, headers=VIEWER)).json()
        assert [e["event_code"] for e in first["events"]] == ["da23", "nt23"] and first["next_cursor"]
        rest = await h.client.get("/v1/events", params={"limit": 2, "cursor": first["next_cursor"]}, headers=VIEWER)
        assert [e["event_code"] for e in rest.json()["events"]] == ["sz22"] and rest.json()["next_cursor"] is None
        for bad in ("", "x" * 65):
            refused = await h.client.get("/v1/events", params={"q": bad}, headers=VIEWER)
            assert refused.status_code == 422, refused.text
