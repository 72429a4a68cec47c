"""Issue 28 (items 4 and 7): the pages on a 390 px phone and at 1366 px, in Chinese and English,
with every state said in words, on the SZ 2022 qualifier played with its small field (its
sections merged and cancelled as the regulation says, REG-12): the registration's last day
(SZ 十三(二): 10月31日), a merged section's page pointing to the section its players play in,
the cancelled sections (never "awards published"), men and women ranked apart in the merged
section (男女按成绩分开录取名次), game numbers on the two-game rounds of the free sections and
the winning five ringed in a replay. No page is wider than the window; the essential columns of
the pairings (names, opponent, result) and the arbiter's result form are on screen."""

from __future__ import annotations

from typing import Any

from browser_kit import OUT, chromium_page, first_round_played, key_sign_in, platform_at

from gomoku_sim.client import Keys, all_games

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}


async def _open(page: Any, url: str) -> int:
    answer = await page.goto(url)
    assert answer is not None
    return answer.status


async def _fits(page: Any, width: int, what: str) -> None:
    scroll = await page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"{what}: the page is {scroll} px wide in a {width} px window"


async def _on_screen(page: Any, selector: str, width: int) -> dict[str, float]:
    """The box of the first element ``selector``: shown, and not beyond the window's right edge."""
    box = await page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not shown"
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, f"{selector} is off screen: {box}"
    return box


async def test_sz_states_in_words_on_a_phone_and_a_desktop(sz_served):
    served, code = sz_served
    platform = platform_at(served)
    games = await all_games(platform, {"event": code, "section": "men-free"})
    won_by_five = next(g for g in games if g["reason"] == "five" and g["status"] == "finished")

    async with chromium_page() as (page, problems):
        for viewport in (PHONE, DESKTOP):
            width = viewport["width"]
            await page.set_viewport_size(viewport)
            for lang in ("zh", "en"):
                zh = lang == "zh"
                shot = f"phone-states-{width}-{lang}"

                # the event page: the last day of registration, merged and cancelled sections, the status column
                assert await _open(page, f"{served}/events/{code}?lang={lang}") == 200
                await _fits(page, width, "event page")
                deadline = await page.inner_text("dd.deadline")
                assert ("2022年10月31日" if zh else "31 October 2022") in deadline, deadline
                merged_row = await page.inner_text("tr.section-merged")
                says = "报名人数不足，与男子组（大众规则组）合并比赛" if zh else "plays together with Men, free rules"
                assert says in merged_row, merged_row
                for row in await page.locator("tr.section-cancelled").all_inner_texts():
                    assert ("按规程取消" if zh else "cancelled under the regulation") in row, row
                    assert ("获奖名单已公布" if zh else "Awards published") not in row, row
                await _on_screen(page, "table.sections th:last-child", width)  # the status column stays
                await page.screenshot(path=str(OUT / f"{shot}-event.png"), full_page=True)

                # REG-12: the merged section's page says where its players play, and lists them there
                assert await _open(page, f"{served}/events/{code}/sections/women-free?lang={lang}") == 200
                await _fits(page, width, "merged section")
                notice = await page.inner_text(".state-merged")
                assert (
                    "本组因报名人数不足，与男子组（大众规则组）合并比赛" if zh else "it is merged with Men, free rules"
                ) in notice, notice
                assert ("男女按成绩分开录取名次" if zh else "men and women are ranked separately") in notice
                players = page.locator(".merged-players a")
                assert await players.count() == 4  # the four women entered (the simulator's small field)
                await page.screenshot(path=str(OUT / f"{shot}-merged.png"), full_page=True)
                first_woman = await players.first.inner_text()
                await players.first.click()
                await page.wait_for_url("**/sections/men-free/players/**")
                assert first_woman in await page.inner_text("main h2")

                # a cancelled section says so and why
                assert await _open(page, f"{served}/events/{code}/sections/junior-boys-free?lang={lang}") == 200
                cancelled = await page.inner_text(".state-cancelled")
                assert ("参赛人数不足（0 人），按竞赛规程取消比赛" if zh else "only 0 players") in cancelled, cancelled

                # 男女按成绩分开录取名次: the merged section's standings rank each gender apart
                assert await _open(page, f"{served}/events/{code}/sections/men-free/standings?lang={lang}") == 200
                await _fits(page, width, "standings")
                host = await page.inner_text(".state-host")
                assert (
                    "女子组（大众规则组）因报名人数不足，并入本组比赛" if zh else "Too few entered Women, free rules"
                ) in host
                gender = await page.inner_text(".state-gender")
                assert ("男女按成绩分开录取名次" if zh else "ranks them separately") in gender, gender
                places = await page.locator("table.standings td.gender-place").all_inner_texts()
                women = [p for p in places if ("女子第" if zh else "among women") in p]
                men = [p for p in places if ("男子第" if zh else "among men") in p]
                assert len(women) == 4 and len(men) == 6, places
                assert women[0] == ("女子第1名" if zh else "1 among women") and men[0] == (
                    "男子第1名" if zh else "1 among men"
                )
                await page.screenshot(path=str(OUT / f"{shot}-standings.png"), full_page=True)

                # the awards: the gender column of the merged section; a cancelled section has no awards
                assert await _open(page, f"{served}/events/{code}/awards?lang={lang}") == 200
                await _fits(page, width, "awards")
                assert await page.locator("#awards-men-free td.gender-place").count() == 10
                gone = await page.inner_text("#awards-junior-boys-free")
                assert ("按竞赛规程取消比赛" if zh else "This section is cancelled") in gone, gone
                assert ("第 1 版" if zh else "revision 1") not in gone and "PDF" not in gone, gone

                # a two-game round: 第1局 / 第2局 beside the replays; names, result and opponent on screen
                assert await _open(page, f"{served}/events/{code}/sections/men-free?lang={lang}") == 200
                await _fits(page, width, "pairings")
                first_row = page.locator("table.pairings tbody tr").first
                numbers = await first_row.locator(".game-no").all_inner_texts()
                assert numbers == (["第1局", "第2局"] if zh else ["Game 1", "Game 2"]), numbers
                for column in (2, 3, 4, 6):  # first player, result, second player, the games
                    await _on_screen(page, f"table.pairings tbody tr:first-child td:nth-child({column})", width)
                await page.screenshot(path=str(OUT / f"{shot}-pairings.png"), full_page=True)

                # the board wall fits
                assert await _open(page, f"{served}/events/{code}/sections/men-free/rounds/7/wall?lang={lang}") == 200
                await _fits(page, width, "wall")

                # the replay rings the winning five, from its ply on
                replay = f"{served}/games/{won_by_five['game_id']}/replay?lang={lang}"
                assert await _open(page, replay) == 200
                await _fits(page, width, "replay")
                five = page.locator("svg .win-five")
                assert len((await five.get_attribute("data-points") or "").split()) >= 5
                assert await five.locator("circle.five-ring").count() >= 5 and await five.is_visible()
                assert ("连成五子" if zh else "winning five") in await page.inner_text(".five-note")
                await page.screenshot(path=str(OUT / f"{shot}-replay.png"), full_page=True)
                await page.click("[data-step=first]")
                assert not await five.is_visible()  # not before the move that made it

        # the arbiter's result form on a phone: every control on screen and 44 px high
        await page.set_viewport_size(PHONE)
        path = f"/staff/events/{code}/sections/men-free/rounds/7"
        await page.goto(f"{served}{path}")
        await key_sign_in(page)
        await page.fill("input[name=api_key]", Keys().arbiter)
        await page.click("form button[type=submit]")
        await page.wait_for_url(f"**{path}")
        await _fits(page, 390, "result entry")
        for control in ("select[name=result]", "input[name=note]", "form.inline button[type=submit]"):
            box = await _on_screen(page, control, 390)
            assert box["height"] >= 44, f"{control} is {box['height']} px high"
        await page.screenshot(path=str(OUT / "phone-states-390-result-entry.png"), full_page=True)
        assert problems == []


async def test_the_evidence_and_slip_forms_fit_a_thumb_on_a_phone(served):
    """REG-6 evidence review and PLAY-10 result slips at 390 px: the arbiter's every control is on
    screen and at least 44 px high, and neither page is wider than the phone (DA 2023, a record
    waiting for review, round 2 being played over the board)."""
    _platform, driver, _game_id = await first_round_played(served, pending_evidence=True)
    code = driver.code
    async with chromium_page() as (page, problems):
        await page.set_viewport_size(PHONE)
        for lang in ("zh", "en"):
            for path, controls in (
                (
                    f"/staff/events/{code}/evidence",
                    ("input[name=note]", "button[value=approve]", "button[value=reject]"),
                ),
                (
                    f"/staff/events/{code}/sections/open/rounds/2/slips",
                    ("select[name=result]", "select[name=reason]", "button[value=enter]"),
                ),
            ):
                await page.goto(f"{served}{path}?lang={lang}")
                if "/sign-in" in page.url:
                    await key_sign_in(page)
                    await page.fill("input[name=api_key]", Keys().arbiter)
                    await page.click("form button[type=submit]")
                    await page.wait_for_url(f"**{path}*")
                await _fits(page, 390, path)
                for control in controls:
                    box = await _on_screen(page, control, 390)
                    assert box["height"] >= 44, f"{path} {control} is {box['height']} px high"
                name = "evidence" if path.endswith("evidence") else "slips"
                await page.screenshot(path=str(OUT / f"phone-states-390-{lang}-{name}.png"), full_page=True)
        assert problems == []
