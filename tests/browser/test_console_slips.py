"""The staff console's result slips (PLAY-9) in a real Chromium, against the embedded runner
served over a socket. A DA 2023 field (DA 四: played over the board at the venue) starts round 2.
An arbiter enters table 1's slip and the operator, signed in on another browser, confirms it:
the game ends with it. At table 2 the confirmation differs from the slip: refused in words with
both entries named, nothing scored, both kept; the slip is then entered again. A draw "by five"
is refused in words; a form without its CSRF token changes nothing; the page in English.
Screenshots go to test-output/browser/."""

from __future__ import annotations

from browser_kit import CHROMIUM, OUT, browser_or_fail, first_round_played, key_sign_in

from gomoku_sim.client import Keys


async def _signed_in(browser, served: str, key: str, target: str, problems: list[str]):
    context = await browser.new_context(viewport={"width": 1200, "height": 1000})
    page = await context.new_page()
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    await page.goto(f"{served}{target}")
    await key_sign_in(page)
    await page.fill("input[name=api_key]", key)
    await page.click("form button[type=submit]")
    await page.wait_for_url(f"**{target}")
    return page


async def _slip(card, result: str, reason: str, note: str = "") -> None:
    await card.locator("select[name=result]").select_option(result)
    await card.locator("select[name=reason]").select_option(reason)
    if note:
        await card.locator("input[name=note]").fill(note)
    await card.locator("button[type=submit]").click()


async def test_arbiters_enter_and_confirm_result_slips_in_chromium(served):
    async_playwright = browser_or_fail()
    OUT.mkdir(parents=True, exist_ok=True)
    platform, driver, _game = await first_round_played(served)
    code = driver.code
    target = f"/staff/events/{code}/sections/open/rounds/2/slips"
    listed = await platform.get("gameplay", "/v1/games", params={"event": code, "section": "open", "round": 2})
    games = sorted(listed["games"], key=lambda g: (g["pairing_id"], g["game_no"]))
    assert len(games) >= 2 and all(g["mode"] == "offline" and g["status"] != "finished" for g in games), games
    first, second = games[0]["game_id"], games[1]["game_id"]
    problems: list[str] = []
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            arbiter = await _signed_in(browser, served, Keys().arbiter, target, problems)
            assert await arbiter.locator(".slip-table").count() == len(games)
            await arbiter.screenshot(path=str(OUT / "staff-slips.png"), full_page=True)

            # PLAY-9: table 1's slip, entered by the arbiter: it waits for its confirmation
            await _slip(arbiter.locator(f'.slip-table[data-game="{first}"]'), "black", "five", "1号台成绩单")
            await arbiter.wait_for_selector(f'.slip-table[data-game="{first}"] .done')
            card = arbiter.locator(f'.slip-table[data-game="{first}"]')
            assert "成绩单已录入，待确认" in await card.inner_text()
            assert "确认成绩单 1" in await card.inner_text()
            assert (await platform.get("gameplay", f"/v1/games/{first}"))["status"] != "finished"

            # ... confirmed by a second person (the operator, on another browser): it counts
            operator = await _signed_in(browser, served, Keys().operator, target, problems)
            await _slip(operator.locator(f'.slip-table[data-game="{first}"]'), "black", "five")
            await operator.wait_for_selector(f'.slip-table[data-game="{first}"] .done')
            assert "成绩单已确认，成绩已计入" in await operator.inner_text(f'.slip-table[data-game="{first}"]')
            game = await platform.get("gameplay", f"/v1/games/{first}")
            assert (game["status"], game["result"], game["reason"]) == ("finished", "black", "five"), game
            slips = (await platform.get("gameplay", f"/v1/games/{first}/slips"))["slips"]
            assert [s["status"] for s in slips] == ["confirmed", "confirmed"]
            assert slips[0]["entered_by"] != slips[1]["entered_by"]  # two people, their own keys

            # table 2: the confirmation differs from the slip -> refused in words, nothing scored
            await _slip(arbiter.locator(f'.slip-table[data-game="{second}"]'), "white", "resignation")
            await arbiter.wait_for_selector(f'.slip-table[data-game="{second}"] .done')
            await operator.reload()
            await _slip(operator.locator(f'.slip-table[data-game="{second}"]'), "black", "resignation")
            await operator.wait_for_selector(f'.slip-table[data-game="{second}"] .refusal')
            refused = await operator.inner_text(f'.slip-table[data-game="{second}"] .refusal')
            assert "确认与成绩单不一致" in refused and "白胜（认输）" in refused and "黑胜（认输）" in refused, refused
            assert "{" not in refused and "error" not in refused, refused
            table = await operator.inner_text(f'.slip-table[data-game="{second}"] table.slips')
            assert "有异议" in table and "确认不一致" in table, table
            await operator.screenshot(path=str(OUT / "staff-slips-mismatch.png"), full_page=True)
            assert (await platform.get("gameplay", f"/v1/games/{second}"))["status"] != "finished"
            statuses = [s["status"] for s in (await platform.get("gameplay", f"/v1/games/{second}/slips"))["slips"]]
            assert statuses == ["disputed", "mismatch"], statuses

            # a slip whose result and reason do not fit (a draw "by five"): refused in words
            await operator.reload()
            await _slip(operator.locator(f'.slip-table[data-game="{second}"]'), "draw", "five")
            await operator.wait_for_selector(f'.slip-table[data-game="{second}"] .refusal')
            assert "成绩与胜负方式不相符" in await operator.inner_text(f'.slip-table[data-game="{second}"] .refusal')

            # a form without its CSRF token changes nothing
            posted = await arbiter.request.post(
                f"{served}{target}/{second}", form={"result": "white", "reason": "time"}
            )
            assert posted.status == 403 and "表单已失效" in await posted.text()
            assert len((await platform.get("gameplay", f"/v1/games/{second}/slips"))["slips"]) == 2

            # the page in English: every label in words
            await arbiter.goto(f"{served}{target}?lang=en")
            main = await arbiter.inner_text("main")
            for words in ("Result slips", "Enter the slip", "How it ended", "disputed (enter it again)", "Black wins"):
                assert words in main, words
            await arbiter.screenshot(path=str(OUT / "staff-slips-en.png"), full_page=True)
        finally:
            await browser.close()
            await platform.aclose()
    assert problems == [], problems
