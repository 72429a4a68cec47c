"""The public pages in a real Chromium, against the embedded runner served over a socket.

A small DA 2023 field plays its first round through the APIs (bot players of gomoku_sim); DA is
played over the board (PLAY-9, DA 四), so the bots play at the venue and a live recorder enters
their moves (PLAY-10). The browser opens the event page, a section's pairings, standings and
cross table, then a recorded game of round 2 and the round's board wall while the recorder enters
a move: the stone must appear on both without a reload (PLAY-8 / PLAY-10 live broadcast). Screenshots go to
test-output/browser/ (git-ignored).
"""

from __future__ import annotations

import time

import httpx
from browser_kit import CHROMIUM, OUT, attribute_at_least, browser_or_fail, first_round_played, move_in

#: words that must never reach a page: service identifiers instead of translated labels
RAW = (
    "first_wins",
    "second_wins",
    "median_buchholz",
    "buchholz",
    "round_robin",
    "time_forfeit",
    "resignation",
    "published",
    "running",
    "da23.main",
)


async def test_public_pages_and_a_live_board_in_chromium(served):
    async_playwright = browser_or_fail()
    OUT.mkdir(parents=True, exist_ok=True)
    platform, driver, game_id = await first_round_played(served)
    # a few moves first, so the board has stones when the page opens
    for _ in range(3):
        await move_in(driver, platform, game_id)
    problems: list[str] = []
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = await browser.new_page(viewport={"width": 1200, "height": 900})
            page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
            page.on("pageerror", lambda e: problems.append(f"page error: {e}"))

            await page.goto(f"{served}/events/{driver.code}")
            assert "2023" in await page.title()
            body = await page.inner_text("main")
            assert "阶段" in body and "瑞士制" in body and "进行中" in body  # stage, Swiss, in progress
            # EVT-7: the schedule — DA 十(二)1 arrival by 8-18 19:00, meeting 20:00; round 1 on 8-19
            schedule = await page.inner_text("#schedule-main")
            assert "赛程" in schedule and "报到截止" in schedule and "2023-08-18 19:00" in schedule, schedule
            assert "赛前技术会" in schedule and "2023-08-18 20:00" in schedule, schedule
            rows = await page.locator("#schedule-main table.schedule-table tbody tr").all_inner_texts()
            # the stage closed with 3 rounds (browser_kit): after closing only the rounds it plays are listed
            assert len(rows) == 3 and rows[0].startswith("2023-08-19 09:00") and "第 1 轮" in rows[0], rows
            assert rows[2].startswith("2023-08-20 09:00") and "第 3 轮" in rows[2], rows
            assert "公开组" in rows[0], rows  # the sections in Chinese
            await page.screenshot(path=str(OUT / "event.png"), full_page=True)
            await page.goto(f"{served}/events/{driver.code}?lang=en")
            schedule = await page.inner_text("#schedule-main")
            assert (
                "Schedule" in schedule
                and "Arrival (check-in) by" in schedule
                and "Round 3" in schedule
                and "Round 4" not in schedule
            ), schedule
            calendar = httpx.get(f"{served}/events/{driver.code}/schedule.ics", timeout=30)
            assert calendar.status_code == 200 and calendar.text.startswith("BEGIN:VCALENDAR"), calendar.text[:200]
            await page.goto(f"{served}/events/{driver.code}?lang=zh")

            await page.click("table a >> text=公开组")  # the section by its Chinese name (issue 28)
            await page.wait_for_url("**/sections/open")
            body = await page.inner_text("main")
            assert "第 1 轮" in body and "第 2 轮" in body and "直播中" in body
            _no_raw(body, "section")
            await page.screenshot(path=str(OUT / "section.png"), full_page=True)

            await page.click("nav.tabs >> text=排名")
            await page.wait_for_url("**/standings")
            heads = await page.locator("table.standings th").all_inner_texts()
            # PAIR-7 (Swiss, DA): points → 对手分 → 中间对手分 → wins, in the section's order
            assert heads[3:7] == ["大分", "对手分", "中间对手分", "胜局"], heads
            _no_raw(await page.inner_text("main"), "standings")
            await page.screenshot(path=str(OUT / "standings.png"), full_page=True)

            await page.click("nav.tabs >> text=对阵总表")
            await page.wait_for_url("**/crosstable")
            assert await page.locator("table.cross tbody tr").count() == 6
            await page.screenshot(path=str(OUT / "crosstable.png"), full_page=True)

            await page.goto(f"{served}/events/{driver.code}/sections/open/standings?lang=en")
            heads = await page.locator("table.standings th").all_inner_texts()
            assert heads[3:7] == ["Points", "Buchholz", "Median Buchholz", "Wins"], heads
            await page.screenshot(path=str(OUT / "standings-en.png"), full_page=True)
            await page.goto(f"{served}/?lang=zh")

            await page.goto(f"{served}/games/{game_id}")
            shown = int(await page.get_attribute(".game-status", "data-moves"))
            assert await page.locator(".board .stone").count() == shown > 0
            assert await page.locator(".board .stone.last").count() == 1
            await page.wait_for_timeout(300)  # the stream is open (EventSource connects on load)
            moves = await move_in(driver, platform, game_id)
            made = time.monotonic()
            # the move reaches the open page without a reload within a second (issue 15, PLAY-8)
            await attribute_at_least(page, ".game-status", "data-moves", moves)
            assert time.monotonic() - made < 1.0
            assert await page.locator(".board .stone").count() == moves
            assert "黑方" in await page.inner_text("main")
            # PLAY-9 / PLAY-10: an over-the-board game, no server clock, moves by the recorder
            assert (await platform.get("gameplay", f"/v1/games/{game_id}"))["mode"] == "offline"
            assert "记录员" in await page.inner_text(".over-the-board")
            assert await page.locator(".clock").count() == 0
            await page.screenshot(path=str(OUT / "game.png"), full_page=True)

            # the round's board wall: every game small, one stream for all; a move shows up there too
            wall = await browser.new_page(viewport={"width": 1200, "height": 900})
            wall.on(
                "console", lambda m: problems.append(f"wall console {m.type}: {m.text}") if m.type == "error" else None
            )
            wall.on("pageerror", lambda e: problems.append(f"wall page error: {e}"))
            await wall.goto(f"{served}/events/{driver.code}/sections/open/rounds/2/wall")
            tile = f'.tile[data-game="{game_id}"] .game-status'
            assert int(await wall.get_attribute(tile, "data-moves")) == moves
            assert await wall.locator(".tile").count() == 3  # 6 players: three boards
            _no_raw(await wall.inner_text("main"), "wall")
            await wall.wait_for_timeout(300)  # the stream is open
            moves = await move_in(driver, platform, game_id)
            await attribute_at_least(wall, tile, "data-moves", moves)
            await wall.screenshot(path=str(OUT / "wall.png"), full_page=True)
            # the open game page followed the same move (both viewers share one upstream stream)
            await attribute_at_least(page, ".game-status", "data-moves", moves)
            stats = httpx.get(f"{served}/live/stats").json()
            assert stats["viewers"] >= 2 and stats["upstream_opened"] <= stats["games"] + 1, stats

            phone = await browser.new_page(
                viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True
            )
            phone.on(
                "console", lambda m: problems.append(f"phone console {m.type}: {m.text}") if m.type == "error" else None
            )
            await phone.goto(f"{served}/games/{game_id}")
            width = await phone.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"the game page is wider than a phone: {width}px"
            await phone.screenshot(path=str(OUT / "game-phone.png"), full_page=True)
            await phone.goto(f"{served}/events/{driver.code}/sections/open/standings")
            await phone.screenshot(path=str(OUT / "standings-phone.png"), full_page=True)
        finally:
            await browser.close()
            await platform.aclose()
    assert problems == [], problems


def _no_raw(text: str, page: str) -> None:
    found = [w for w in RAW if w in text]
    assert not found, f"raw identifiers on the {page} page: {found}"
