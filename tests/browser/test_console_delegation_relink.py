"""Issue 34: the organiser re-issues a delegation's secret link from the staff console's entries
page, in a real Chromium against the embedded runner. Two NY 2022 delegations are started
through the roster door (NY 七(一)), one with its roster sent: the entries page lists both under
"代表队 / Delegations", each with "重新发送代表队链接 / Re-issue the delegation's link", for the
roles holding ``registrants.relink`` only (the arbiter sees the list for the documents only). The new link is shown
once, with the words saying the old one stops working; the old link then says it is not valid
and the new one opens the delegation's page with its entry. At 390 px in Chinese and at 1366 px
in English; screenshots go to test-output/browser/console-delegation-relink/."""

from __future__ import annotations

import httpx
from browser_kit import OUT, account_sign_in, account_sign_out, chromium_page, demo_accounts
from test_delegation_roster import DESKTOP, PHONE, _fits, _ny_event, id_number

SHOTS = OUT / "console-delegation-relink"
UNITS = ("浙江省", "江苏省")


def _player(n: int) -> dict:
    return {
        "role": "player",
        "name": f"选手{n}",
        "gender": "male",
        "birth_date": "2005-03-03",
        "id_number": id_number(n),
        "sections": [{"section_id": "youth-male"}],
    }


async def test_issue34_the_organiser_reissues_a_delegations_link_and_the_old_one_stops_working(served):
    code, _platform = await _ny_event(served)
    tokens = {}
    async with httpx.AsyncClient(timeout=30) as http:
        for n, unit in enumerate(UNITS, start=1):
            body = {"unit_name": unit, "leader_name": f"领队{n}", "leader_phone": f"1390000{n:04d}"}
            made = await http.post(f"{served}/registration/v1/events/{code}/delegations", json=body)
            assert made.status_code == 201, made.text
            tokens[unit] = made.json()["token"]
        roster = {"people": [{"role": "leader", "name": "领队1"}, _player(1)]}
        headers = {"X-Delegation-Token": tokens["浙江省"]}
        sent = await http.put(f"{served}/registration/v1/delegation/roster", headers=headers, json=roster)
        assert sent.status_code == 200, sent.text
    accounts = await demo_accounts(served)
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = f"/staff/events/{code}/entries"
    async with chromium_page() as (page, problems):
        # the arbiter (no registrants.relink) sees the entries but not the delegations' links
        await page.set_viewport_size(PHONE)
        await account_sign_in(page, served, accounts["arbiter"], "zh")
        await page.goto(f"{served}{path}?lang=zh")
        assert "选手1" in await page.inner_text("main")
        # (it lists the delegations for their documents: evidence.review)
        assert await page.locator("table.delegations a.unit-documents").count() == 2
        assert await page.locator("button", has_text="重新发送代表队链接").count() == 0
        await account_sign_out(page)

        for unit, (viewport, lang) in zip(UNITS, ((PHONE, "zh"), (DESKTOP, "en")), strict=True):
            zh, width = lang == "zh", viewport["width"]
            await page.set_viewport_size(viewport)
            await account_sign_in(page, served, accounts["organiser"], lang)
            await page.goto(f"{served}{path}?lang={lang}")
            label = "重新发送代表队链接" if zh else "Re-issue the delegation's link"
            table = page.locator("table.delegations")
            assert await table.locator("button", has_text=label).count() == 2
            assert set(UNITS) <= set((await table.inner_text()).split())
            assert ("旧链接立即失效" if zh else "the old one stops working at once") in await page.inner_text("main")
            await _fits(page, width, "entries page")
            await page.screenshot(path=str(SHOTS / f"{width}-{lang}-1-entries.png"), full_page=True)

            row = table.locator("tbody tr", has_text=unit)
            await row.locator("button", has_text=label).click()
            box = page.locator(".new-link")
            await box.wait_for()
            said = await box.inner_text()
            assert (f"{unit} 代表队的新链接" if zh else f"The new link to the {unit} delegation") in said, said
            assert ("旧链接已失效" if zh else "The old link no longer works") in said, said
            assert ("只显示这一次" if zh else "shown only this once") in said, said
            new_url = await box.locator(".link-once").inner_text()
            assert new_url.startswith(f"{served}/delegation/") and tokens[unit] not in new_url
            await _fits(page, width, "entries page with the new link")
            await page.screenshot(path=str(SHOTS / f"{width}-{lang}-2-new-link.png"), full_page=True)

            # shown once: the page read again has no link on it
            await page.goto(f"{served}{path}?lang={lang}")
            assert await page.locator(".new-link").count() == 0
            assert "/delegation/" not in await page.content()
            await account_sign_out(page)

            # the old link is not valid any more, in words; the new one opens the delegation's page
            old = await page.goto(f"{served}/delegation/{tokens[unit]}?lang={lang}")
            assert old is not None and old.status == 404
            assert ("这个代表队链接无效" if zh else "This delegation link is not valid") in await page.inner_text(
                "main"
            )
            # (the browser notes the 404 in its console: that answer is the point here)
            assert [p for p in problems if "404" in p] == [problems.pop()], problems
            await page.screenshot(path=str(SHOTS / f"{width}-{lang}-3-old-link.png"), full_page=True)
            await page.goto(f"{new_url}?lang={lang}")
            main = await page.inner_text("main")
            assert unit in main
            if unit == "浙江省":
                assert "选手1" in main  # the roster and its entry stay as they were
            await page.screenshot(path=str(SHOTS / f"{width}-{lang}-4-new-link-opens.png"), full_page=True)
        assert problems == []
