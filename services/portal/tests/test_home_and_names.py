"""Issue 28: the home page finds the platform's events without an operator's list (newest first,
names in the page's language, dates, place, organiser and status in words, a search by name or
code, PORTAL_EVENTS as an optional pin); the team-score texts. (An event's days in words:
test_dates_in_words.py.)"""

from __future__ import annotations

import re

import pytest
from portal_kit import pages

from portal import home
from portal.i18n import Words
from portal.page_names import event_in
from portal.team_texts import member, note

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow

OP = {"x-api-key": "op-key"}


@pytest.fixture
async def client(tmp_path, monkeypatch):
    async with pages(tmp_path, monkeypatch, events=["sz22"]) as site:
        for preset, code in (("sz-2022", "sz22"), ("da-2023", "da23"), ("nt-2023", "nt23")):
            await site.create_event(preset, code)
        yield site.client


def _order(text: str, *names: str) -> list[int]:
    return [text.index(n) for n in names]


async def test_the_home_lists_every_event_by_name_newest_first_with_the_pin_on_top(client):
    zh = (await client.get("/")).text
    # the pinned SZ first (PORTAL_EVENTS), then DA (2023-08-19) before NT (2023-06-22)
    found = _order(zh, "2022年深圳市五子棋锦标赛", "2023年全国五子棋定安公开赛", "2023年全国五子棋团体锦标赛")
    assert found == sorted(found), found
    assert "2022年11月5日至13日" in zh and "深圳市坪山区体育中心体育馆" in zh and "深圳棋院" in zh
    assert "2023年6月22日至24日" in zh and "另行通知" in zh  # NT 三: the place is to be announced
    assert "Shenzhen" not in zh and "sz-2022" not in zh
    en = (await client.get("/?lang=en")).text
    assert "2022 Shenzhen Gomoku Championship" in en and "5–13 Nov 2022" in en and "To be announced" in en
    assert "深圳" not in en


async def test_the_home_searches_by_a_part_of_the_name_or_code_and_refuses_a_long_query(client):
    found = (await client.get("/", params={"q": "团体"})).text
    assert "2023年全国五子棋团体锦标赛" in found and "定安" not in found and "深圳市五子棋" not in found
    by_code = (await client.get("/", params={"q": "DA23", "lang": "en"})).text
    assert "National Gomoku Open, Ding&#39;an" in by_code and "Team Championship" not in by_code
    none = (await client.get("/", params={"q": "围棋", "lang": "zh"})).text
    assert "没有与“围棋”相符的赛事" in none
    refused = await client.get("/", params={"q": "x" * 65})
    assert refused.status_code == 422 and refused.headers["content-type"].startswith("application/json")


async def test_a_player_search_needs_a_name_of_1_to_32_characters(client):
    for bad in ("", "x" * 33):
        refused = await client.get("/events/sz22/players", params={"q": bad})
        assert refused.status_code == 422 and refused.headers["content-type"].startswith("application/json")
    empty = await client.get("/events/sz22/players", params={"q": "王"})
    assert empty.status_code == 200 and "本赛事没有姓名含“王”的棋手" in empty.text


async def test_the_event_page_names_stages_and_sections_in_the_pages_language(client):
    zh = (await client.get("/events/sz22")).text
    assert "线上初赛（弈客五子棋APP）" in zh and "男子组（大众规则组）" in zh and "北京时间" in zh
    assert "Men, free rules" not in zh and "Online qualifier" not in zh and "Asia/Shanghai" not in zh
    en = (await client.get("/events/sz22?lang=en")).text
    assert "Online qualifier (Yike Gomoku app)" in en and "Men, free rules" in en and "男子组" not in en


def test_event_in_names_the_event_its_stages_and_sections_in_chinese_only_on_chinese_pages():
    event = {
        "name": "Open",
        "name_zh": "公开赛",
        "stages": [{"name": "Main", "name_zh": "主赛", "sections": [{"id": "a", "name": "A", "name_zh": None}]}],
    }
    zh = event_in(event, "zh")
    assert (zh["name"], zh["stages"][0]["name"], zh["stages"][0]["sections"][0]["name"]) == ("公开赛", "主赛", "A")
    assert event_in(event, "en")["stages"][0]["name"] == "Main"


def test_awd6_team_score_texts_in_words_with_sections_by_name():
    """AWD-6: a team's counted member and an unscored team's reason, as awards writes them, in words."""
    names = {"final-men": "男子个人组"}
    zh, en = Words("zh"), Words("en")
    assert member("张三 (final-men #3, 5.0 pts)", names, zh) == "张三（男子个人组 第 3 名，5 分）"
    assert (
        member("张三 (final-men #3, 5.5 pts)", {"final-men": "Men (final)"}, en)
        == "张三 (Men (final): place 3, 5.5 points)"
    )
    reason = "not enough players — male: 1 of 2; female: 0 of 1 (section cancelled)"
    assert note(reason, names, zh) == "人数不足：男棋手 1/2 人；女棋手 0/1 人（该组取消）"
    assert note(reason, names, en) == "Not enough players: men 1 of 2; women 0 of 1 (section cancelled)"
    assert note("shared place", names, zh) == "并列"
    assert note("something else", names, en) == "—" and member("raw text", names, en) == "—"


async def test_the_home_pages_through_the_list_by_its_cursor(client, monkeypatch):
    monkeypatch.setattr(home, "PAGE", 1)
    first = (await client.get("/", params={"lang": "zh"})).text
    # the pin, then the newest (DA) alone; "more" goes on from there
    assert "2022年深圳市五子棋锦标赛" in first and "定安" in first and "团体锦标赛" not in first
    more = re.search(r'href="/\?cursor=([A-Za-z0-9_-]+)"', first)
    assert more, first
    second = (await client.get(f"/?cursor={more.group(1)}")).text
    assert "2023年全国五子棋团体锦标赛" in second and "定安" not in second
    refused = await client.get("/", params={"cursor": "not a cursor!"})
    assert refused.status_code == 422
