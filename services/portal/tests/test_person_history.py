"""Issue 32: the pieces of a player's history page — the rating chart drawn as SVG numbers from
the ratings (no script), the search of masked names, the season's words in Chinese and English —
and the pages of a person or a list awards has no record of (a page saying so, never a 500).
The pages with a played rated event: tests/browser/test_person_history.py."""

from __future__ import annotations

import re

import pytest
from portal_kit import pages

from portal import i18n, people_pages, rating_chart
from portal.i18n import Words


def _rows(*ratings: tuple[int, float]) -> list[dict]:
    return [
        {"period": f"2023-{m:02d}", "rating": r, "rd": rd, "provisional": rd > 110}
        for m, (r, rd) in enumerate(ratings, start=8)
    ]


def _numbers(path: str) -> list[tuple[float, float]]:
    values = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", path)]
    return list(zip(values[::2], values[1::2]))


def test_issue32_the_chart_draws_one_point_per_period_higher_rating_higher_up():
    chart = rating_chart.chart(_rows((1500, 300), (1620, 200), (1580, 90)))
    assert chart is not None
    assert chart.line.startswith("M ") and chart.line.count("L ") == 2
    points = _numbers(chart.line)
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    assert xs == sorted(xs) and xs[0] == rating_chart.LEFT and xs[-1] == rating_chart.WIDTH - rating_chart.RIGHT
    # SVG's y grows downwards: 1620 is drawn above 1580, which is above 1500
    assert ys[1] < ys[2] < ys[0]
    # every point inside the drawing area, the RD band too
    for x, y in points + _numbers(chart.band):
        assert rating_chart.LEFT <= x <= rating_chart.WIDTH - rating_chart.RIGHT
        assert rating_chart.TOP <= y <= rating_chart.HEIGHT - rating_chart.BOTTOM
    assert [p["provisional"] for p in chart.points] == [True, True, False]
    # the band is closed and goes out along the upper edge and back along the lower one
    assert chart.band.endswith(" Z") and len(_numbers(chart.band)) == 6
    assert [label for _, label in chart.labels] == ["2023-08", "2023-09", "2023-10"]
    ticks = [v for _, v in chart.ticks]
    assert ticks == sorted(ticks) and ticks[0] <= 1500 - 300 and ticks[-1] >= 1620 + 200


def test_issue32_one_period_sits_in_the_middle_and_no_rating_draws_nothing():
    assert rating_chart.chart([]) is None
    chart = rating_chart.chart(_rows((1500, 350)))
    assert chart is not None
    [(x, y)] = _numbers(chart.line)
    assert x == rating_chart.LEFT + (rating_chart.WIDTH - rating_chart.LEFT - rating_chart.RIGHT) / 2
    # the one period's deviation is still drawn: a bar from 1500 + 350 above the point to 1500 - 350 below
    [(bar_x, top, bottom)] = chart.bars
    assert bar_x == x and top < y < bottom and round(y - top, 1) == round(bottom - y, 1)


def test_issue32_many_periods_label_at_most_seven_first_and_last_always():
    history = [{"period": f"{2020 + i // 12}-{i % 12 + 1:02d}", "rating": 1500 + i, "rd": 60} for i in range(30)]
    chart = rating_chart.chart(history)
    assert chart is not None
    labels = [label for _, label in chart.labels]
    assert labels[0] == "2020-01" and labels[-1] == "2022-06" and len(labels) <= 7


def test_issue32_the_search_compares_the_first_character_the_masked_name_keeps():
    assert people_pages.matches("张**", "张三")
    assert people_pages.matches("张**", "张")
    assert not people_pages.matches("李**", "张三")
    assert people_pages.matches("L**", "li wei")  # a Latin name, case aside
    assert people_pages.matches("张**", "")  # no query: every row
    assert not people_pages.matches("", "张")


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_issue32_the_season_words_in_both_languages(lang):
    w = Words(lang)
    since = "2023年8月22日" if lang == "zh" else "22 Aug 2023"
    said = w.t("season.title_since", title=w.title("2d"), since=since)
    assert said == ("二段，自2023年8月22日起" if lang == "zh" else "2-dan since 22 Aug 2023")
    keys = [k for k in i18n._T if k.startswith("season.")]
    assert len(keys) > 20
    zh, en = Words("zh"), Words("en")
    for key in keys:
        assert zh.t(key) != en.t(key), key


@pytest.mark.slow
async def test_issue32_an_unknown_person_or_list_is_a_page_saying_so_not_a_500(tmp_path, monkeypatch):
    async with pages(tmp_path, monkeypatch) as site:
        nobody = await site.client.get("/people/default/R-nobody?lang=en")
        assert nobody.status_code == 404 and "This page does not exist." in nobody.text
        empty = await site.client.get("/ratings/default?lang=en")
        assert empty.status_code == 404 and "There is no rating list for this period." in empty.text
        for bad in ("/ratings/default/2023-13", "/ratings/-bad/2023-08", "/ratings/-bad", "/people/-bad/R1"):
            answer = await site.client.get(f"{bad}?lang=zh")
            assert answer.status_code == 404 and "找不到该页面。" in answer.text, bad
        too_long = await site.client.get("/people/default/" + "R" * 65)
        assert too_long.status_code == 404 and "找不到该页面。" in too_long.text
        listed = await site.client.get("/ratings/default/2023-08?lang=zh")
        assert listed.status_code == 200 and "这一期没有等级分榜。" in listed.text
