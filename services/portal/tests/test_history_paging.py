"""Issue 32: a player of many events has a history page in pages of sections (newest first, links
to older and newer ones), so that the page's reads do not grow with the person's record; the
title table keeps every grant that raised the title and those of the sections shown."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from portal_kit import pages

from portal import history_paging as hp

SECTIONS = [{"event_code": f"ev{n:03d}", "section_id": "open"} for n in range(45)]


def test_issue32_a_history_shows_the_latest_sections_first_a_page_at_a_time():
    first = hp.window(SECTIONS, 1)
    assert first is not None and (first.page, first.pages, first.total) == (1, 5, 45)
    assert [s["event_code"] for s in first.shown][:2] == ["ev044", "ev043"] and len(first.shown) == hp.SHOWN
    last = hp.window(SECTIONS, 5)
    assert last is not None and [s["event_code"] for s in last.shown] == [f"ev{n:03d}" for n in range(4, -1, -1)]
    assert (last.first, last.last) == (41, 45)
    assert hp.window(SECTIONS, 6) is None
    assert hp.window([], 1) is not None and hp.window([], 2) is None
    # awards asked for page 2's sections answers those ten (oldest first) and the total
    assert hp.asked(2) == {"latest": hp.SHOWN, "skip": hp.SHOWN}
    second = hp.window(SECTIONS[25:35], 2, 45)
    assert second is not None and [s["event_code"] for s in second.shown][::9] == ["ev034", "ev025"]
    assert (second.pages, second.first, second.last) == (5, 11, 20) and hp.window([], 6, 45) is None


@pytest.mark.parametrize(
    "raw, page", [(None, 1), ("", 1), ("2", 2), ("0", None), ("-1", None), ("x", None), ("99999", None)]
)
def test_issue32_the_page_number_is_a_number_from_one_or_no_page(raw, page):
    assert hp.page_number(raw) == page


def test_issue32_the_title_table_keeps_the_raising_grants_and_those_shown():
    grants = [
        {"event_code": "ev000", "section_id": "open", "raised": True},
        {"event_code": "ev001", "section_id": "open", "raised": False},
        {"event_code": "ev044", "section_id": "open", "raised": False},
    ]
    listed, unlisted = hp.listed_grants({"history": grants}, SECTIONS[-hp.SHOWN :])
    assert [g["event_code"] for g in listed] == ["ev000", "ev044"] and unlisted == 1


async def _season(suite, person: str, events: int) -> None:
    """``events`` one-section events of the default organisation where ``person`` played one rated
    game and took 3rd place (a title raised in the first only), stored as awards stores them."""
    from awards.adapters.season_repository import SeasonRepository

    async with suite.services["awards"].runtime.sessionmaker() as session:
        repo = SeasonRepository(session)
        for n in range(events):
            on = date(2023, 1, 7) + timedelta(days=7 * n)
            grant = {"person_id": person, "organisation": "default", "title": "1d", "place": 3}
            game = {
                "pairing_id": "r1.b1",
                "organisation": "default",
                "round": 1,
                "first_id": person,
                "second_id": f"R-other-{n}",
                "first_name": "陈星",
                "second_name": "王伟",
                "score": 1.0,
                "played_on": on,
            }
            await repo.replace_section(f"ev{n:03d}", "open", [{**grant, "granted_on": on, "name": "陈星"}], [game])
        await session.commit()


@pytest.mark.slow
async def test_issue32_a_player_of_45_events_pages_through_them_zh_en(tmp_path, monkeypatch):
    async with pages(tmp_path, monkeypatch) as site:
        await _season(site.suite, "R-star", 45)
        first = await site.client.get("/people/default/R-star?lang=en")
        assert first.status_code == 200
        assert first.text.count('class="person-event"') == hp.SHOWN
        assert "Events 1–10 of 45, latest first" in first.text and 'rel="next" href="?page=2"' in first.text
        assert 'rel="prev"' not in first.text
        # the 1-dan raised in the first event is listed; the 34 others not shown here are counted
        assert "34 more grants that did not raise the title" in first.text
        last = await site.client.get("/people/default/R-star?page=5&lang=zh")
        assert last.status_code == 200 and last.text.count('class="person-event"') == 5
        assert "第41–45项，共45项赛事" in last.text and "较近的赛事" in last.text and 'rel="next"' not in last.text
        for beyond in ("6", "0", "two"):
            answer = await site.client.get(f"/people/default/R-star?page={beyond}&lang=en")
            assert answer.status_code == 404 and "This page does not exist." in answer.text, beyond
