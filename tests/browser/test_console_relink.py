"""Issue 34: the organiser re-issues a registrant's secret link from the staff console's entries
page, in a real Chromium against the embedded runner. Two SZ 2022 juniors are entered on the
public form (SZ 十三(一) 网上报名), one more through the partner app: only the form's entries have
the button "重新发送报名链接 / Re-issue the registrant's link", and only for the roles holding
``registrants.relink`` (the organiser; the arbiter sees no such column). The new link is shown
once, with the words saying the old one stops working; the old link then says it is not valid
and the new one opens the entry. At 390 px in Chinese and at 1366 px in English; screenshots go
to test-output/browser/console-relink/."""

from __future__ import annotations

import httpx
from browser_kit import OUT, account_sign_in, account_sign_out, chromium_page, demo_accounts
from test_entry_form import DESKTOP, PHONE, _fits, _sz_event

from gomoku_sim.client import Keys

SHOTS = OUT / "console-relink"


def _girl(n: int) -> dict:
    return {
        "section_id": "junior-girls-free",
        "name": f"李小红{n}",
        "gender": "female",
        "birth_date": "2011-05-06",
        "id_number": f"44030720110506{n:04d}",
        "guardian_phone": "13511113333",
        "residency": {"kind": "household_registration", "region": "福田区"},
        "insurance_policy": f"PICC-G{n:04d}",
    }


async def test_issue34_the_organiser_reissues_a_registrants_link_and_the_old_one_stops_working(served):
    code, _clock = await _sz_event(served)
    base = f"{served}/registration/v1/events/{code}"
    tokens = []
    async with httpx.AsyncClient(timeout=30) as http:
        for n in (1, 2):
            made = await http.post(f"{base}/public-entries", json=_girl(n))
            assert made.status_code == 201, made.text
            tokens.append(made.json()["token"])
        # an entry the partner app made: no registrant link to re-issue
        partner = await http.post(
            f"{base}/entries",
            headers={"x-api-key": Keys().partner},
            json={
                "stage": "online",
                "section_id": "junior-girls-free",
                "player": {k: v for k, v in _girl(3).items() if k in ("name", "gender", "birth_date", "id_number")},
                "evidence": [{"kind": "household_registration", "region": "Shenzhen", "document_ref": "hr-3"}],
                "insurance": {"confirmed": True, "document_ref": "PICC-G0003"},
            },
        )
        assert partner.status_code in (200, 201), partner.text
    accounts = await demo_accounts(served)
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = f"/staff/events/{code}/entries"
    async with chromium_page() as (page, problems):
        # the arbiter (no registrants.relink) sees the entries without the column or its buttons
        await page.set_viewport_size(PHONE)
        await account_sign_in(page, served, accounts["arbiter"], "zh")
        await page.goto(f"{served}{path}?lang=zh")
        assert "李小红1" in await page.inner_text("main")
        assert await page.locator("button", has_text="重新发送报名链接").count() == 0
        assert "报名链接" not in await page.inner_text("table.entries thead")
        await account_sign_out(page)

        for n, (viewport, lang) in enumerate(((PHONE, "zh"), (DESKTOP, "en")), start=1):
            zh, width = lang == "zh", viewport["width"]
            await page.set_viewport_size(viewport)
            await account_sign_in(page, served, accounts["organiser"], lang)
            await page.goto(f"{served}{path}?lang={lang}")
            label = "重新发送报名链接" if zh else "Re-issue the registrant's link"
            buttons = page.locator("table.entries button", has_text=label)
            # the two form entries have the button, the partner's entry none
            assert await buttons.count() == 2
            partner_row = page.locator("table.entries tbody tr", has_text="李小红3")
            assert await partner_row.locator("button").count() == 0
            assert ("旧链接立即失效" if zh else "the old one stops working at once") in await page.inner_text("main")
            await _fits(page, width, "entries page")
            await page.screenshot(path=str(SHOTS / f"{width}-{lang}-1-entries.png"), full_page=True)

            row = page.locator("table.entries tbody tr", has_text=f"李小红{n}")
            await row.locator("button", has_text=label).click()
            box = page.locator(".new-link")
            await box.wait_for()
            said = await box.inner_text()
            assert (f"李小红{n} 的新报名链接" if zh else f"The new link to 李小红{n}'s entry") in said, said
            assert ("旧链接已失效" if zh else "The old link no longer works") in said, said
            assert ("只显示这一次" if zh else "shown only this once") in said, said
            new_url = await box.locator(".link-once").inner_text()
            assert new_url.startswith(f"{served}/entry/") and tokens[n - 1] not in new_url
            await _fits(page, width, "entries page with the new link")
            await page.screenshot(path=str(SHOTS / f"{width}-{lang}-2-new-link.png"), full_page=True)

            # shown once: the page read again has no link on it
            await page.goto(f"{served}{path}?lang={lang}")
            assert await page.locator(".new-link").count() == 0
            assert "/entry/" not in await page.content()
            await account_sign_out(page)

            # the old link is not valid any more, in words; the new one opens the entry
            old = await page.goto(f"{served}/entry/{tokens[n - 1]}?lang={lang}")
            assert old is not None and old.status == 404
            assert ("这个链接无效" if zh else "This link is not valid") in await page.inner_text("main")
            # (the browser notes the 404 in its console: that answer is the point here)
            assert [p for p in problems if "404" in p] == [problems.pop()], problems
            await page.screenshot(path=str(SHOTS / f"{width}-{lang}-3-old-link.png"), full_page=True)
            await page.goto(f"{new_url}?lang={lang}")
            assert f"李小红{n}" in await page.inner_text("main")
            await page.screenshot(path=str(SHOTS / f"{width}-{lang}-4-new-link-opens.png"), full_page=True)
        assert problems == []
