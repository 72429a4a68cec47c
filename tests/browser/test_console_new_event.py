"""A new event from the staff console, in a real Chromium against the served embedded runner: an
operator creates one from the DA 2023 preset with its name overridden and one setting given as
JSON (registration's API, the operator's own key); the same code again, overrides that are not a
JSON object, and an arbiter (who may not create events) are refused in words beside the form.
Screenshots go to test-output/browser/."""

from __future__ import annotations

from browser_kit import CHROMIUM, OUT, browser_or_fail, key_sign_in

from gomoku_sim.client import Keys, Platform


async def _sign_in(page, served: str, key: str) -> None:
    await page.goto(f"{served}/staff/new-event")
    await key_sign_in(page)
    await page.fill("input[name=api_key]", key)
    await page.click("form button[type=submit]")
    await page.wait_for_url("**/staff/new-event")


async def test_an_operator_creates_an_event_from_a_preset_with_overrides_in_chromium(served):
    async_playwright = browser_or_fail()
    OUT.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    platform = Platform.distributed({s: f"{served}/{s}" for s in ("registration", "pairing", "gameplay", "awards")})
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            context = await browser.new_context(viewport={"width": 1200, "height": 900})
            page = await context.new_page()
            page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
            await _sign_in(page, served, Keys().operator)
            form = page.locator("form.new-event")
            await form.locator("select[name=preset_id]").select_option("da-2023")
            await form.locator("input[name=event_code]").fill("da-club")
            await form.locator("input[name=name_zh]").fill("俱乐部五子棋公开赛")
            await form.locator("input[name=name]").fill("Club Gomoku Open")
            await form.locator("textarea[name=overrides]").fill("[1, 2]")
            await form.locator("button[type=submit]").click()
            said = await page.inner_text(".refusal")
            assert "JSON" in said and "未新建" in said, said
            await page.screenshot(path=str(OUT / "staff-new-event-refused.png"), full_page=True)
            form = page.locator("form.new-event")
            await form.locator("textarea[name=overrides]").fill('{"registration": {"id_number_required": false}}')
            await form.locator("button[type=submit]").click()
            await page.wait_for_url("**/staff/events/da-club")
            # the Chinese page names the event by its Chinese name; the English one by its name
            assert "俱乐部五子棋公开赛" in await page.inner_text("main")
            await page.goto(f"{served}/staff/events/da-club?lang=en")
            assert "Club Gomoku Open" in await page.inner_text("main")
            await page.screenshot(path=str(OUT / "staff-new-event.png"), full_page=True)
            created = await platform.get("registration", "/v1/events/da-club")
            assert created["name"] == "Club Gomoku Open" and created["preset_id"] == "da-2023"

            # the same code again: refused in words (back in Chinese)
            await page.goto(f"{served}/staff/new-event?lang=zh")
            form = page.locator("form.new-event")
            await form.locator("input[name=event_code]").fill("da-club")
            await form.locator("button[type=submit]").click()
            assert "已有这个赛事代码" in await page.inner_text(".refusal")

            # an arbiter may not create events (registration says so; the console says it in words)
            await page.click("form.sign-out button")
            await _sign_in(page, served, Keys().arbiter)
            form = page.locator("form.new-event")
            await form.locator("input[name=event_code]").fill("da-other")
            await form.locator("button[type=submit]").click()
            said = await page.inner_text(".refusal")
            assert "{" not in said and "无权" in said, said
        finally:
            await browser.close()
            await platform.aclose()
    assert problems == [], problems
