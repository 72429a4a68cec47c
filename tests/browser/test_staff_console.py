"""The staff console in a real Chromium, against the embedded runner served over a socket.

A DA 2023 field plays its first round (bot players); one entry has a grade certificate still to
review. The arbiter signs in with the arbiter's key, approves the evidence with a note (REG-6),
enters the results of round 2 (PAIR-11: an arbiter's result, audited) and the public standings
change; a record with a forbidden move is flagged in the console and accepted with a note (PLAY-9); a form posted without its CSRF token is refused and changes nothing; signing out ends
the session. Screenshots go to test-output/browser/.
"""

from __future__ import annotations

from browser_kit import CHROMIUM, OUT, browser_or_fail, first_round_played, key_sign_in, save_result

from gomoku_sim.client import Keys


async def test_an_arbiter_reviews_evidence_and_enters_results_in_chromium(served):
    async_playwright = browser_or_fail()
    OUT.mkdir(parents=True, exist_ok=True)
    platform, driver, _game_id = await first_round_played(served, pending_evidence=True)
    code = driver.code
    pending = await platform.get(
        "registration", f"/v1/events/{code}/evidence", role="arbiter", params={"status": "pending"}
    )
    assert len(pending["evidence"]) == 1
    evidence_id = pending["evidence"][0]["evidence_id"]
    problems: list[str] = []
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            context = await browser.new_context(viewport={"width": 1200, "height": 900})
            page = await context.new_page()
            page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
            page.on("pageerror", lambda e: problems.append(f"page error: {e}"))

            # not signed in: the console sends you to sign in
            await page.goto(f"{served}/staff/events/{code}/evidence")
            assert "/staff/sign-in" in page.url
            await key_sign_in(page)
            await page.fill("input[name=api_key]", "not-a-key")
            await page.click("form button[type=submit]")
            assert "密钥无效" in await page.inner_text(".refusal")  # said in words, not JSON
            await page.screenshot(path=str(OUT / "staff-sign-in-refused.png"), full_page=True)
            # a partner's key is a valid key, but not a staff key
            await page.fill("input[name=api_key]", Keys().partner)
            await page.click("form button[type=submit]")
            assert "不是裁判或运营人员的密钥" in await page.inner_text(".refusal")
            await page.fill("input[name=api_key]", Keys().arbiter)
            await page.click("form button[type=submit]")
            await page.wait_for_url("**/evidence")
            cookie = next(c for c in await context.cookies() if c["name"] == "staff_session")
            assert cookie["httpOnly"] and cookie["sameSite"] == "Strict" and Keys().arbiter not in cookie["value"]

            # the evidence queue: approve with a note (REG-6)
            card = page.locator(f'.evidence[data-evidence="{evidence_id}"]')
            assert "段级位证书" in await card.inner_text()
            await page.screenshot(path=str(OUT / "staff-evidence.png"), full_page=True)
            await card.locator("input[name=note]").fill("证书原件已核对")
            await card.locator("button[value=approve]").click()
            await page.wait_for_selector(".done")
            assert "材料已通过" in await page.inner_text(".done")
            decided = await platform.get("registration", f"/v1/events/{code}/evidence", role="arbiter")
            record = next(r for r in decided["evidence"] if r["evidence_id"] == evidence_id)
            assert record["status"] == "approved" and record["note"] == "证书原件已核对"

            # entries with filters; ID numbers masked
            await page.goto(f"{served}/staff/events/{code}/entries?section=open")
            rows = page.locator("table.entries tbody tr")
            assert await rows.count() == 6
            ids = await page.locator("table.entries td.mono").all_inner_texts()
            assert ids and all(text.startswith("*") and len(text.strip("*")) == 4 for text in ids), ids
            await page.screenshot(path=str(OUT / "staff-entries.png"), full_page=True)

            # a form without its CSRF token changes nothing (same browser, same session cookie)
            refused = await page.request.post(
                f"{served}/staff/events/{code}/sections/open/rounds/2/results",
                form={"pairing_id": "r2.b1", "result": "first_wins"},
            )
            assert refused.status == 403 and "表单已失效" in await refused.text()
            round_two = await platform.get("pairing", f"/v1/events/{code}/sections/open/rounds/2")
            assert all(not p.get("result") for p in round_two["pairings"])

            # the public standings before: after round 1
            await page.goto(f"{served}/events/{code}/sections/open/standings")
            before = await page.inner_text("main")
            assert "第 1 轮后" in before

            # results of round 2 entered by the arbiter (PAIR-11): every board, first-listed wins
            await page.goto(f"{served}/staff/events/{code}/sections/open/rounds/2")
            await page.screenshot(path=str(OUT / "staff-round.png"), full_page=True)
            boards = [p["pairing_id"] for p in round_two["pairings"]]
            for pairing_id in boards:
                question = await save_result(page, pairing_id, "first_wins", "裁判判定")  # issue 28: confirmed
                assert "录入 先列胜？" in question and "第 2 轮" in question, question
                await page.wait_for_selector(f'tr[data-pairing="{pairing_id}"] .done')
            await page.screenshot(path=str(OUT / "staff-round-entered.png"), full_page=True)

            # the public standings follow: after round 2, each first-listed player won
            await page.goto(f"{served}/events/{code}/sections/open/standings")
            after = await page.inner_text("main")
            assert "第 2 轮后" in after and after != before
            table = await platform.get("pairing", f"/v1/events/{code}/sections/open/standings")
            winners = {p["first"] for p in round_two["pairings"]}
            assert all(r["points"] >= 2 for r in table["standings"] if r["entrant_id"] in winners)
            await page.screenshot(path=str(OUT / "standings-after-results.png"), full_page=True)

            # closing a stage that is closed already: refused in words beside the form
            await page.goto(f"{served}/staff/events/{code}")
            await page.screenshot(path=str(OUT / "staff-event.png"), full_page=True)
            await page.locator("form[action$='/close'] button[type=submit]").first.click()
            await page.wait_for_selector(".refusal")
            text = await page.inner_text(".refusal")
            assert "{" not in text and "error" not in text, text
            await page.screenshot(path=str(OUT / "staff-close-refused.png"), full_page=True)

            # PLAY-9, NT 十二(五) / DA 四: a record entered after a game over the board, with black's
            # forbidden move, is flagged to the arbiter in the console; accepted with a note
            flagged = (
                await platform.get("gameplay", "/v1/games", params={"event": code, "section": "open", "round": 1})
            )["games"][0]["game_id"]
            record = {
                "moves": ["h8", "h9", "h10", "a1", "j8", "a3", "j10", "a5", "i9"],
                "opening": {"n": 1, "swapped": False, "offers": ["j8"]},
            }
            entered = await platform.post("gameplay", f"/v1/games/{flagged}/record-entries", record, role="arbiter")
            assert entered["status"] == "flagged"
            await page.goto(f"{served}/staff/events/{code}/record-flags")
            card = page.locator(f'.record-flag[data-game="{flagged}"]')
            assert "黑棋禁手" in await card.inner_text() and "第 9 手" in await card.inner_text()
            # issue 28: the game by its section's name and board in words, not by ids
            said = await card.inner_text()
            assert "公开组 · 第 1 轮 第 " in said and ".b" not in said and "open" not in said, said
            await page.screenshot(path=str(OUT / "staff-record-flags.png"), full_page=True)
            await card.locator("input[name=note]").fill("现场已判禁手负")
            await card.locator("button[type=submit]").click()
            await page.wait_for_selector(".done")
            assert await page.locator(".record-flag").count() == 0
            entries = await platform.get("gameplay", f"/v1/games/{flagged}/record-entries")
            assert entries["entries"][-1]["status"] == "accepted" and entries["entries"][-1]["note"] == "现场已判禁手负"

            # signing out ends the session: the console asks to sign in again
            await page.click("form.sign-out button")
            await page.wait_for_url("**/staff/sign-in")
            await page.goto(f"{served}/staff/events/{code}/entries")
            assert "/staff/sign-in" in page.url
        finally:
            await browser.close()
            await platform.aclose()
    assert problems == [], problems
