"""An arbiter's tie decision in a real Chromium (PAIR-8): a DA 2023 open section of 4 where ties
go to the arbiter (the preset's playoff policy overridden to ``arbiter_decision``, as SZ online
decides them) ends with every game drawn, so all four share every tiebreak; the signed-in arbiter
orders the tie in the console and the public standings show the new order and who decided it
(裁判). Screenshots go to test-output/browser/."""

from __future__ import annotations

from browser_kit import CHROMIUM, OUT, browser_or_fail, key_sign_in, settle, until

from gomoku_sim.bots import BotPolicy
from gomoku_sim.client import ApiError, Keys, Platform
from gomoku_sim.driver import EventDriver, RunSpec, SimClock
from portal.i18n import Words

ROUNDS = 3
ARBITER_TIES = {"stages": {"main": {"sections": {"open": {"playoffs": {"policy": "arbiter_decision", "stages": []}}}}}}


async def _all_drawn(base: str) -> tuple[Platform, str]:
    platform = Platform.distributed({s: f"{base}/{s}" for s in ("registration", "pairing", "gameplay", "awards")})
    spec = RunSpec(
        preset_id="da-2023",
        seed=11,
        sizes={"open": 4, "junior": 0, "public": 0},
        rounds=ROUNDS,
        overrides=ARBITER_TIES,
        policy=BotPolicy(no_show_rate=0, timeout_rate=0),
        progress=False,
    )
    driver = EventDriver(platform, SimClock(platform, ("gameplay",)), settle, spec)
    await driver.create_event()
    await driver.create_units()
    await driver.register()
    await driver.verify_evidence()
    await driver.check_in_and_close(driver.config.stages[0].id)
    section = f"/v1/events/{driver.code}/sections/open"

    async def paired(n: int):
        try:
            return int((await platform.get("pairing", section))["current_round"]) >= n
        except ApiError as exc:
            if exc.status != 404:
                raise
            return False

    for n in range(1, ROUNDS + 1):
        await until(f"round {n} paired", lambda n=n: paired(n))
        for board in (await platform.get("pairing", f"{section}/rounds/{n}"))["pairings"]:
            if board.get("second") and not board.get("result"):
                body = {"pairing_id": board["pairing_id"], "result": "draw"}
                await platform.post("pairing", f"{section}/rounds/{n}/results", body, role="arbiter")

    async def open_tie():
        ties = (await platform.get("pairing", f"{section}/ties"))["ties"]
        return [t for t in ties if t["status"] == "open" and t["action"] == "arbiter"]

    await until("the tie to wait for the arbiter", open_tie)
    return platform, driver.code


async def test_an_arbiters_tie_decision_shows_on_the_public_standings(served):
    async_playwright = browser_or_fail()
    OUT.mkdir(parents=True, exist_ok=True)
    platform, code = await _all_drawn(served)
    section = f"/v1/events/{code}/sections/open"
    try:
        [tie] = [t for t in (await platform.get("pairing", f"{section}/ties"))["ties"] if t["status"] == "open"]
        before = await platform.get("pairing", f"{section}/standings")
        names = {e["entrant_id"]: e["name"] for e in (await platform.get("pairing", section))["entrants"]}
        problems: list[str] = []
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            try:
                page = await browser.new_page(viewport={"width": 1200, "height": 900})
                page.on(
                    "console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None
                )
                page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
                # the public standings first: the tie is shared, nobody has decided it
                await page.goto(f"{served}/events/{code}/sections/open/standings")
                assert Words("zh").v("decided_by", "arbiter") not in await page.inner_text("table.standings")
                await page.screenshot(path=str(OUT / "tie-standings-before.png"), full_page=True)

                await page.goto(f"{served}/staff/events/{code}/sections/open")
                await key_sign_in(page)
                await page.fill("input[name=api_key]", Keys().arbiter)
                await page.click("form button[type=submit]")
                await page.wait_for_url("**/sections/open")
                # the arbiter's order: the tie's players in reverse of how they are listed
                order = list(reversed(tie["entrant_ids"]))
                form = page.locator(f'div.tie[data-tie="{tie["tie_id"]}"] form')
                selects = form.locator("select[name=place]")
                for index, entrant in enumerate(order):
                    await selects.nth(index).select_option(entrant)
                await page.screenshot(path=str(OUT / "tie-console-order.png"), full_page=True)
                await form.locator("button[type=submit]").click()
                await page.wait_for_selector(f'div.tie[data-tie="{tie["tie_id"]}"] .done')
                assert "裁判决定" in await page.inner_text(f'div.tie[data-tie="{tie["tie_id"]}"]')
                await page.screenshot(path=str(OUT / "tie-console-decided.png"), full_page=True)

                # the public standings on the next load: the arbiter's order, and who decided it
                await page.goto(f"{served}/events/{code}/sections/open/standings")
                rows = await page.locator("table.standings tbody tr").all_inner_texts()
                shown = [next(eid for eid in order if names[eid] in row) for row in rows[: len(order)]]
                assert shown == order, (rows, order)
                decided = Words("zh").v("decided_by", "arbiter")  # the standings' column says 裁判
                assert all(row.rstrip().endswith(decided) for row in rows[: len(order)]), rows
                await page.screenshot(path=str(OUT / "tie-standings-after.png"), full_page=True)
                await page.goto(f"{served}/events/{code}/sections/open/standings?lang=en")
                assert "arbiter" in await page.inner_text("table.standings")
            finally:
                await browser.close()
        after = await platform.get("pairing", f"{section}/standings")
        assert [r["entrant_id"] for r in after["standings"]][: len(order)] == order
        assert [r["entrant_id"] for r in before["standings"]] != [r["entrant_id"] for r in after["standings"]] or (
            all(r["shared"] for r in before["standings"][: len(order)])
        )
        assert not problems, problems
    finally:
        await platform.aclose()
