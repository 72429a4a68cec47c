"""Publishing awards from the staff console, in a real Chromium against the served embedded runner:
after a small DA 2023 event has finished (the awards service published the open section's awards
on its own), a signed-in arbiter republishes them from the final standings — nothing changed, so
the current revision stands (AWD-8) — and the request is audited by the awards service with the
arbiter's role. Screenshots go to test-output/browser/."""

from __future__ import annotations

from browser_kit import CHROMIUM, OUT, browser_or_fail, key_sign_in, platform_at

from gomoku_sim.client import Keys


async def test_an_arbiter_republishes_the_awards_of_a_finished_section_in_chromium(da_served):
    async_playwright = browser_or_fail()
    OUT.mkdir(parents=True, exist_ok=True)
    served, code = da_served
    platform = platform_at(served)
    problems: list[str] = []
    try:
        before = await platform.get("awards", f"/v1/events/{code}/sections/open/publications")
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            try:
                page = await browser.new_page(viewport={"width": 1200, "height": 900})
                page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
                page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
                await page.goto(f"{served}/staff/events/{code}/awards")
                await key_sign_in(page)
                await page.fill("input[name=api_key]", Keys().arbiter)
                await page.click("form button[type=submit]")
                await page.wait_for_url("**/awards")
                row = page.locator('tr[data-section="open"]')
                assert "第 1 版" in await row.inner_text()
                await row.locator("button[type=submit]").click()
                await page.wait_for_selector('tr[data-section="open"] .done')
                assert "无变化" in await page.inner_text('tr[data-section="open"] .done')
                await page.screenshot(path=str(OUT / "staff-awards-republished.png"), full_page=True)
            finally:
                await browser.close()
        after = await platform.get("awards", f"/v1/events/{code}/sections/open/publications")
        assert after == before  # the same content: no new revision
        audit = await platform.get("awards", f"/v1/events/{code}/sections/open/staff-actions", role="arbiter")
        # the arbiter's key (k2) acted: "arbiter:k2" before issue 29, the key id since audits name who acted
        assert [(a["action"], a["published"], a["actor"].split(":")[-1]) for a in audit["actions"]] == [
            ("publish", False, "k2")
        ]
    finally:
        await platform.aclose()
    assert problems == [], problems
