"""Issue 32 in a real Chromium: a player of 25 events has a history page in pages of sections
(the latest first, links to older and more recent ones), at 1366 and 390 pixels, in Chinese and
English. The season is written into the served process's awards database as awards stores it
(no event needs playing for a page of sections). Screenshots go to SHOTS_DIR or test-output."""

from __future__ import annotations

import os
import re
import sqlite3
from datetime import date, timedelta
from pathlib import Path

from browser_kit import OUT, chromium_page, settle

SHOTS = Path(os.environ.get("SHOTS_DIR") or OUT)
WIDTHS = (1366, 390)
EVENTS = 25


def _season(data_dir: Path) -> None:
    """R-star in EVENTS one-section events a week apart of the default organisation: one rated
    game each, 1st place (2-dan raised in the first only)."""
    with sqlite3.connect(data_dir / "awards.sqlite") as db:
        for n in range(EVENTS):
            on = (date(2023, 1, 7) + timedelta(days=7 * n)).isoformat()
            db.execute(
                "INSERT INTO title_grants (event_code, section_id, person_id, organisation, title, place,"
                " granted_on, name) VALUES (?, 'open', 'R-star', 'default', '2d', 1, ?, '陈星')",
                (f"ev{n:02d}", on),
            )
            db.execute(
                "INSERT INTO rated_games (event_code, section_id, pairing_id, organisation, round, first_id,"
                " second_id, first_name, second_name, score, played_on) VALUES"
                " (?, 'open', 'r1.b1', 'default', 1, 'R-star', ?, '陈星', '王伟', 1.0, ?)",
                (f"ev{n:02d}", f"R-{n}", on),
            )


async def test_issue32_a_long_history_in_pages_zh_en_1366_390(served, tmp_path):
    _season(tmp_path)
    SHOTS.mkdir(parents=True, exist_ok=True)
    words = {
        "zh": ("更早的赛事", "较近的赛事", "第1–10项，共25项赛事"),
        "en": ("Older events", "More recent events", "Events 1–10 of 25"),
    }
    for width in WIDTHS:
        async with chromium_page() as (page, problems):
            await page.set_viewport_size({"width": width, "height": 900})
            for lang, (older, newer, window) in words.items():
                await page.goto(f"{served}/people/default/R-star?lang={lang}")
                await settle()
                assert window in await page.inner_text("main")
                assert await page.locator("section.person-event").count() == 10
                assert await page.locator("a[rel=prev]").count() == 0
                for n in (2, 3):
                    await page.click(f"a[rel=next]:has-text('{older}')")
                    await page.wait_for_url(re.compile(rf"page={n}"))
                assert await page.locator("section.person-event").count() == 5
                assert await page.locator("a[rel=next]").count() == 0
                assert await page.inner_text("a[rel=prev]") == newer
                # no page wider than the phone
                assert await page.evaluate("document.documentElement.scrollWidth") <= width
                await page.screenshot(path=str(SHOTS / f"history-pager-{lang}-{width}.png"), full_page=True)
            assert problems == []
