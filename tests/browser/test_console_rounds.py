"""The staff console's round actions in a real Chromium, against the embedded runner served over a
socket: a signed-in arbiter holds the next round as a draft, reviews it, tries an adjustment the
pairing service refuses (a repeat pairing, PAIR-2: shown in words beside the form), adjusts it
legally (two boards' second players swapped, checked by the service), publishes it; adds a bye
for a coming round; the section's ties are listed; publishing the awards of a section still
playing is refused by the awards service, in words. Screenshots go to test-output/browser/."""

from __future__ import annotations

from browser_kit import OUT, browser_or_fail, chromium_page, console_signed_in, first_round_played, until


def _met(rounds: list[dict]) -> set[frozenset[str]]:
    return {frozenset((p["first"], p["second"])) for r in rounds for p in r["pairings"] if p.get("second")}


def _legal_swap(boards: list[dict], met: set[frozenset[str]]) -> tuple[int, int]:
    """Two boards whose second players can change places without a repeat pairing."""
    for i in range(len(boards)):
        for j in range(i + 1, len(boards)):
            a, b = boards[i], boards[j]
            if frozenset((a["first"], b["second"])) not in met and frozenset((b["first"], a["second"])) not in met:
                return i, j
    raise AssertionError(f"no legal swap among {boards}")


async def test_an_arbiter_holds_adjusts_and_publishes_a_round_in_chromium(served):
    browser_or_fail()  # before the event is set up: a missing browser fails at once
    platform, driver, _game = await first_round_played(served)
    code, base = driver.code, f"/v1/events/{driver.code}/sections/open"
    try:
        async with chromium_page() as (page, problems):
            await console_signed_in(page, served, f"/staff/events/{code}/sections/open")

            # hold the next round as a draft (the pairing service's hold, audited)
            await page.click("#hold button[type=submit]")
            await page.wait_for_selector("#hold .done")
            assert "下一轮先作草案" in await page.inner_text("#hold")
            assert (await platform.get("pairing", base))["hold"] is True

            # round 2 ends (the arbiter's results through the API); round 3 waits as a draft
            round_two = await platform.get("pairing", f"{base}/rounds/2")
            for p in round_two["pairings"]:
                if p.get("second") and not p.get("result"):
                    await platform.post(
                        "pairing",
                        f"{base}/rounds/2/results",
                        {"pairing_id": p["pairing_id"], "result": "first_wins"},
                        role="arbiter",
                    )

            async def draft_three():
                section = await platform.get("pairing", base)
                if section["current_round"] != 3:
                    return None
                rnd = await platform.get("pairing", f"{base}/rounds/3")
                return rnd if rnd["status"] == "draft" else None

            draft = await until("round 3 paired as a draft", draft_three)
            boards = [p for p in draft["pairings"] if p.get("second")]
            met = _met([await platform.get("pairing", f"{base}/rounds/{n}") for n in (1, 2)])
            await page.goto(f"{served}/staff/events/{code}/sections/open")
            assert "草案" in await page.inner_text("#draft")
            await page.screenshot(path=str(OUT / "staff-section-draft.png"), full_page=True)

            # a repeat pairing: refused by the pairing service, said in words beside the form
            first = boards[0]["first"]
            old_opponent = next(x for pair in met if first in pair for x in pair if x != first)
            holder = next(b for b in boards if old_opponent in (b["first"], b["second"]))
            form = page.locator("form.adjust")
            selects = {b["board"]: page.locator(f'form.adjust tr[data-board="{b["board"]}"] select') for b in boards}
            if holder is boards[0]:
                raise AssertionError("round 3 repeats a pairing already")
            side = 0 if holder["first"] == old_opponent else 1
            await selects[holder["board"]].nth(side).select_option(boards[0]["second"])
            await selects[boards[0]["board"]].nth(1).select_option(old_opponent)
            await form.locator("button[type=submit]").click()
            await page.wait_for_selector("#draft .refusal")
            said = await page.inner_text("#draft .refusal")
            assert "不符合编排规则" in said and "{" not in said, said
            await page.screenshot(path=str(OUT / "staff-adjust-refused.png"), full_page=True)
            assert (await platform.get("pairing", f"{base}/rounds/3"))["pairings"] == draft["pairings"]

            # a legal adjustment: two boards' second players change places (checked, audited)
            i, j = _legal_swap(boards, met)
            await page.goto(f"{served}/staff/events/{code}/sections/open")
            await selects[boards[i]["board"]].nth(1).select_option(boards[j]["second"])
            await selects[boards[j]["board"]].nth(1).select_option(boards[i]["second"])
            await page.locator("form.adjust button[type=submit]").click()
            await page.wait_for_selector("#draft .done")
            adjusted = await platform.get("pairing", f"{base}/rounds/3")
            pairs = {frozenset((p["first"], p["second"])) for p in adjusted["pairings"] if p.get("second")}
            assert frozenset((boards[i]["first"], boards[j]["second"])) in pairs
            assert adjusted["status"] == "draft"

            # published: the round is final and starts
            await page.click("form.publish button[type=submit]")
            await page.wait_for_selector("#draft .done")
            assert "本轮已公布" in await page.inner_text("#draft .done")
            assert (await platform.get("pairing", f"{base}/rounds/3"))["status"] != "draft"
            await page.screenshot(path=str(OUT / "staff-round-published.png"), full_page=True)

            # a bye for a round that is published already: refused in words, in English too
            await page.goto(f"{served}/staff/events/{code}/sections/open?lang=en")
            bye = page.locator("form.bye-form")
            await bye.locator("select[name=entrant_id]").select_option(first)
            await bye.locator("select[name=round]").select_option(label="Round 3")  # issue 28: chosen from a list
            await bye.locator("button[type=submit]").click()
            await page.wait_for_selector("#byes .refusal")
            said = await page.inner_text("#byes .refusal")
            assert "already" in said and "{" not in said, said
            assert "No ties to decide" in await page.inner_text("#ties")
            await page.screenshot(path=str(OUT / "staff-bye-refused-en.png"), full_page=True)

            # the awards of a section still playing: the awards service refuses, said in words
            await page.goto(f"{served}/staff/events/{code}/awards?lang=zh")
            row = page.locator('tr[data-section="open"]')
            assert "尚未公布" in await row.inner_text()
            await row.locator("button[type=submit]").click()
            await page.wait_for_selector('tr[data-section="open"] .refusal')
            said = await page.inner_text('tr[data-section="open"] .refusal')
            assert "还没有赛完" in said and "{" not in said, said
            await page.screenshot(path=str(OUT / "staff-awards-refused.png"), full_page=True)

            # a form posted without its CSRF token changes nothing
            refused = await page.request.post(
                f"{served}/staff/events/{code}/sections/open/hold", form={"hold": "false"}
            )
            assert refused.status == 403
            assert (await platform.get("pairing", base))["hold"] is True
    finally:
        await platform.aclose()
    assert problems == [], problems
