"""A player's history page and the rating list (issue 32) in a real Chromium against the served
embedded runner, at 1366 and 390 pixels, in Chinese and English. The events are DA 2023 made rated
(``ratings.rated``) with six players in its junior section, whose places grant titles (DA 九(三),
AWD-5: 第1名 二段, 不顺延), played in August and again in November: the winner's page says the title and since when, draws the rating as
server-side SVG (no script), lists the grants, the event with its games and replays, and masks the
name as every public read does; the event's player page shows the title and links to the history;
the organisation's rating list links its CSV and finds a player by the first character of a name."""

from __future__ import annotations

import os
import re
from datetime import date, timedelta
from pathlib import Path

from browser_kit import OUT, chromium_page, settle, until

from gomoku_sim.bots import BotPolicy
from gomoku_sim.client import Platform
from gomoku_sim.driver import EventDriver, RunSpec, SimClock

SHOTS = Path(os.environ.get("SHOTS_DIR") or OUT)
WIDTHS = (1366, 390)


def _later(value, days: int):
    """Every date in ``value`` moved by ``days`` (times of day kept)."""
    if isinstance(value, dict):
        return {k: _later(v, days) for k, v in value.items()}
    if isinstance(value, list):
        return [_later(v, days) for v in value]
    if isinstance(value, str) and re.match(r"^\d{4}-\d{2}-\d{2}", value):
        moved = date.fromisoformat(value[:10]) + timedelta(days=days)
        return moved.isoformat() + value[10:]
    return value


def _autumn() -> dict:
    """DA 2023 again eleven weeks later, in November (the same junior section; registration until
    20 October): a second rated event of the season, so the person has more periods and grants."""
    from gomoku_sim.driver import load_config

    config = load_config("da-2023").model_dump(mode="json")
    later = _later({k: v for k, v in config.items() if k not in ("id", "schema_version")}, 77)
    # the same juniors: the sections' birth windows stay as they were
    for stage, was in zip(later["stages"], config["stages"]):
        for section, before in zip(stage["sections"], was["sections"]):
            section["birth"] = before["birth"]
    closes = "2023-10-20T00:00:00+08:00"
    return {
        **later,
        "name": "2023 Ding'an Autumn Open",
        "name_zh": "2023年定安秋季公开赛",
        "registration": {**later["registration"], "closes_at": closes},
        "ratings": {"rated": True},
    }


async def _rated_junior_played(base: str) -> tuple[str, str, dict]:
    """Two rated DA events played by the same six juniors (the same field: the same ID numbers, so
    the same registry people): the summer's code, the organisation and its winner (pairing's
    entrant, with its registry id)."""
    platform = Platform.distributed({s: f"{base}/{s}" for s in ("registration", "pairing", "gameplay", "awards")})
    codes = []
    try:
        for code, overrides in (("da23", {"ratings": {"rated": True}}), ("da23-autumn", _autumn())):
            spec = RunSpec(
                preset_id="da-2023",
                seed=7,
                event_code=code,
                sizes={"open": 0, "junior": 6, "public": 0},
                rounds=3,
                overrides=overrides,
                policy=BotPolicy(no_show_rate=0, timeout_rate=0),
                progress=False,
            )
            await EventDriver(platform, SimClock(platform, ("gameplay",)), settle, spec).run()
            codes.append(code)
        code = codes[0]
        org = (await platform.get("registration", f"/v1/events/{code}"))["organisation"]
        standings = await platform.get("pairing", f"/v1/events/{code}/sections/junior/standings")
        first = next(r for r in standings["standings"] if r["place"] == 1)
        section = await platform.get("pairing", f"/v1/events/{code}/sections/junior")
        winner = next(e for e in section["entrants"] if e["entrant_id"] == first["entrant_id"])
        assert winner["registry_id"], "pairing's section names each entrant's registry person"

        async def titled():
            path = f"/v1/organisations/{org}/people/{winner['registry_id']}/titles"
            answer = await platform.get("awards", path)
            return answer if len(answer.get("history", [])) == 2 else None

        titles = await until("the winner's two grants", titled)
        # DA 九(三): 第1名 二段 in the summer; the autumn's grant never lowers it (不顺延, a grant never lowers)
        assert (titles["current"], titles["since"]) == ("2d", "2023-08-22")
        return code, org, winner
    finally:
        await platform.aclose()


async def test_issue32_history_page_and_rating_list_in_chromium(served):
    """Issue 32 in Chromium, zh and en, 1366 and 390 px: the winner's history (title 二段 since the
    event, DA 九(三)), an SVG rating chart with one point per period, the event with 3 rated games
    and their replays, the name masked; the event's player page shows the title and links here;
    the rating list has the CSV link and a search by the first character of a name."""
    code, org, winner = await _rated_junior_played(served)
    full_name, person = winner["name"], winner["registry_id"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    expect = {"zh": ("二段", "棋手档案", "等级分榜"), "en": ("2-dan", "Player history", "Rating list")}
    for width in WIDTHS:
        async with chromium_page() as (page, problems):
            await page.set_viewport_size({"width": width, "height": 900})
            for lang, (title, history_word, list_word) in expect.items():
                await page.goto(f"{served}/people/{org}/{person}?lang={lang}")
                await settle()
                text = await page.inner_text("main")
                assert title in await page.inner_text(".title-now")
                assert full_name not in text and (await page.inner_text("h1")) == full_name[:1] + "**"
                # in the page's language (the names are masked to one character): no English word on
                # the Chinese page, no Chinese character on the English one
                other = r"[A-Za-z]{3,}" if lang == "zh" else r"[\u3400-\u9fff]"
                assert re.findall(other, text) == [], (lang, re.findall(other, text))
                assert await page.locator("svg.rating-chart path.rating-line").count() == 1
                assert (await page.get_attribute("svg.rating-chart path.rating-line", "d") or "").startswith("M ")
                periods = await page.locator("table.rating-periods tbody tr").count()
                assert await page.locator("svg.rating-chart circle.rating-point").count() == periods >= 1
                # August to November: a list every month (idle months grow the deviation)
                assert periods == 4 and await page.locator("svg.rating-chart line.rd-bar").count() == 4
                assert await page.locator("table.title-grants tbody tr").count() == 2
                assert await page.locator("section.person-event").count() == 2
                assert await page.locator("table.person-games tbody tr").count() == 6
                assert await page.locator("table.person-games a[href$='/replay']").count() == 6
                assert await page.locator("script").count() == 0  # the chart is drawn by the server
                # the page fits the phone: nothing wider than the viewport but the scrolling tables
                assert await page.evaluate("document.documentElement.scrollWidth") <= width + 1
                await page.screenshot(path=str(SHOTS / f"history-{lang}-{width}.png"), full_page=True)

                await page.click(f".person-event h3 a[href*='/events/{code}/sections/junior/players/']")
                await page.wait_for_url(f"**/events/{code}/sections/junior/players/**")
                assert title in await page.inner_text("dd.title-now")
                link = await page.get_attribute("a.history-link", "href")
                assert link == f"/people/{org}/{person}" and history_word in await page.inner_text("main")
                await page.screenshot(path=str(SHOTS / f"history-player-{lang}-{width}.png"), full_page=True)

                await page.goto(f"{served}/ratings/{org}?lang={lang}")
                await page.wait_for_url(f"**/ratings/{org}/*")
                assert list_word in await page.inner_text("h1")
                rows = await page.locator("table.rating-list tbody tr").count()
                assert rows == 6  # the six players of the rated junior section
                assert (await page.get_attribute("a.csv-link", "href") or "").endswith(".csv")
                titles = await page.locator("table.rating-list td.title").all_inner_texts()
                assert title in titles and "—" not in titles  # every junior was granted a title (九(三))
                await page.fill("input[name=q]", full_name)
                await page.click("form.people-search button")
                await page.wait_for_url("**q=*")
                found = page.locator("table.rating-list tbody tr")
                assert 1 <= await found.count() <= rows
                assert f"/people/{org}/{person}" in await page.inner_html("table.rating-list")
                assert full_name not in await page.inner_text("main")
                await page.screenshot(path=str(SHOTS / f"ratings-{lang}-{width}.png"), full_page=True)
            assert problems == []
