"""Issue 29 in a real Chromium, against the embedded runner served over a socket (the identity
API of the partners service, registration, pairing): the operator invites an organisation's
administrator through the API; the administrator accepts on the invitation page, signs in with
the password and invites the others from the organisation page (roles as checkboxes in words,
the one-time link shown); an arbiter accepts, signs in and enters a result; a recorder sees the
round without result buttons; an arbitration committee member sees the appeals; each signs out.
At 1366 and 390 pixels, in Chinese and in English. Screenshots go to /tmp/shots-portal2/ and
test-output/browser/.

The second pass (issue 29, the console in words): the organisation page offers the
organisation's events by name as boxes to tick (no event codes typed), the staff list and the
invitation page name the event, the invitation's expiry is said in Beijing time in words, the
console's home lists a person's events by name with their role in words (no code, no free
event-code box), and no page a person meets is wider than a 390-pixel phone.

The arbiter's result and the committee's decision go through pairing's per-event authorisation of
staff accounts (issue 29, pairing's part): without it pairing answers 403
``staff_account_not_allowed`` (the page says so in words) and this test fails at that step."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import httpx
from browser_kit import OUT, browser_or_fail, chromium_page, first_round_played, save_result

from gomoku_sim.client import Keys

SHOTS = Path("/tmp/shots-portal2")
#: the names of the DA 2023 event the simulator creates, in Chinese and in English
EVENT_ZH = "2023年全国五子棋定安公开赛"
EVENT_EN = "2023 National Gomoku Open, Ding'an"
PASSWORD = "a long enough password"
ORG = "default"  # the events the simulator creates have no owner: the default organisation's


async def _shot(page: Any, name: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(OUT / f"{name}.png"), full_page=True)
    SHOTS.mkdir(parents=True, exist_ok=True)
    shutil.copy(OUT / f"{name}.png", SHOTS / f"{name}.png")


async def _fits(page: Any, what: str) -> None:
    """Issue 29, the console in words: nothing of the page is off a phone's screen."""
    width = await page.evaluate("document.documentElement.scrollWidth")
    viewport = await page.evaluate("window.innerWidth")
    assert width <= viewport, f"{what} is wider than the screen: {width}px > {viewport}px"


async def _accept(page: Any, link: str, shot: str, says: str = "") -> None:
    await page.goto(link)
    await page.wait_for_selector("[data-part=invitation]")
    assert says in await page.inner_text("[data-part=invitation]")  # e.g. the event by name
    # issue 29, times in words: the expiry in Beijing time, never a bare "UTC"
    expires = await page.inner_text("[data-part=expires]")
    assert "北京时间" in expires or "Beijing time" in expires, expires
    assert "UTC" not in await page.inner_text("main")
    await _shot(page, f"{shot}-invitation")
    await _fits(page, "the invitation page")
    await page.fill("input[name=password]", PASSWORD)
    await page.fill("input[name=password_again]", PASSWORD)
    await page.click("form button[type=submit]")
    await page.wait_for_selector("a.btn[href='/staff/sign-in']")
    await page.click("a.btn[href='/staff/sign-in']")


async def _sign_in(page: Any, login: str, shot: str | None = None) -> None:
    await page.wait_for_selector("input[name=login]")
    await page.fill("input[name=login]", login)
    await page.fill("input[name=password]", PASSWORD)
    if shot:
        await _shot(page, shot)
    await page.click("form[data-form=account-sign-in] button[type=submit]")
    await page.wait_for_selector("[data-who=person]")


async def _sign_out(page: Any) -> None:
    await page.click("form.sign-out[action='/staff/sign-out'] button")
    await page.wait_for_url("**/staff/sign-in")


async def _invite_on_page(page: Any, login: str, name: str, roles: list[str], events: list[str]) -> str:
    form = page.locator("form[data-form=invite]")
    await form.locator("input[name=login]").fill(login)
    await form.locator("input[name=name]").fill(name)
    for role in roles:
        await form.locator(f"input[name=role][value={role}]").check()
    for code in events:  # the organisation's events are offered by name (issue 29)
        await form.locator(f"input[name=event][value={code}]").check()
    await form.locator("button[type=submit]").click()
    link = page.locator("[data-part=one-time-link] input")
    await link.wait_for()
    return await link.input_value()


async def test_issue_29_invite_accept_sign_in_act_by_role_and_sign_out_zh_en_1366_390(served):
    """Issue 29: invitations accepted on their page, sign-in with the password, each role's own
    console (an arbiter enters a result; a recorder sees no result buttons; an arbitration member
    sees the appeals), the organisation page, signing out."""
    browser_or_fail()
    platform, driver, _game = await first_round_played(served)
    code = driver.code
    round_two = await platform.get("pairing", f"/v1/events/{code}/sections/open/rounds/2")
    pairing_id = next(p["pairing_id"] for p in round_two["pairings"] if p.get("second") and not p.get("result"))
    op = {"x-api-key": Keys().operator}
    async with httpx.AsyncClient(base_url=f"{served}/partners", timeout=30) as api:
        made = await api.post(
            "/v1/organisations", headers=op, json={"id": ORG, "name": "City Club", "name_zh": "市棋院"}
        )
        assert made.status_code in (201, 409), made.text
        body = {"login": "li@example.org", "name": "李组委", "roles": ["admin", "organiser"], "events": {}}
        invited = await api.post(f"/v1/organisations/{ORG}/invitations", headers=op, json=body)
        assert invited.status_code == 201, invited.text
        admin_link = served + invited.json()["accept_path"]

    # the administrator, 1366 px, Chinese: accept, sign in, the organisation page, invite three
    async with chromium_page() as (page, problems):
        await page.set_viewport_size({"width": 1366, "height": 900})
        await _accept(page, admin_link, "admin-1366-zh")
        await _sign_in(page, "li@example.org", "sign-in-1366-zh")
        assert "李组委" in await page.inner_text("header")
        await page.click("header a[href='/staff/organisation']")
        await page.wait_for_selector("form[data-form=invite]")
        assert "组织管理员、组委会" in await page.inner_text("table.staff-list")
        # the events to tick are the organisation's, by name; no code is asked for
        offered = await page.inner_text("form[data-form=invite] [data-part=events]")
        assert EVENT_ZH in offered and code not in offered and "代码" not in offered, offered
        assert await page.locator("form[data-form=invite] input[name=events]").count() == 0
        arbiter_link = await _invite_on_page(page, "sun@example.org", "孙裁判", ["arbiter"], [code])
        recorder_link = await _invite_on_page(page, "zhao@example.org", "赵记录", ["recorder"], [code])
        member_link = await _invite_on_page(page, "zhou@example.org", "周仲裁", ["arbitration"], [])
        clerk_link = await _invite_on_page(page, "qian@example.org", "钱收费", ["fee_clerk"], [code])
        await _shot(page, "organisation-1366-zh")
        await page.set_viewport_size({"width": 390, "height": 800})
        await _fits(page, "the organisation page")
        await _shot(page, "organisation-390-zh")
        await _sign_out(page)
        assert not problems, problems

    # the arbiter, 390 px, English: accept, sign in, enter a result on round 2
    async with chromium_page() as (page, problems):
        await page.set_viewport_size({"width": 390, "height": 800})
        await page.goto(f"{served}/?lang=en")
        await _accept(page, arbiter_link, "arbiter-390-en", says=f"Roles ({EVENT_EN})")
        await _sign_in(page, "sun@example.org", "sign-in-390-en")
        # the console's home: the event by name and the role in words; no code, no code box
        mine = await page.inner_text("[data-list=my-events]")
        assert EVENT_EN in mine and "arbiter" in mine and code not in mine, mine
        assert await page.locator("input[name=code]").count() == 0
        await _fits(page, "the console's home")
        await _shot(page, "arbiter-home-390-en")
        await page.goto(f"{served}/staff/events/{code}")
        assert EVENT_EN in await page.inner_text("h1")
        await _fits(page, "the event's page")
        await _shot(page, "arbiter-event-390-en")
        await page.goto(f"{served}/staff/events/{code}/sections/open/rounds/2")
        await save_result(page, pairing_id, "first_wins")  # issue 28: with its confirmation
        said = page.locator(f'tr[data-pairing="{pairing_id}"] .done, tr[data-pairing="{pairing_id}"] .refusal')
        await said.first.wait_for()
        await _shot(page, "arbiter-result-390-en")
        assert await page.locator(f'tr[data-pairing="{pairing_id}"] .done').count() == 1, await said.first.inner_text()
        stored = await platform.get("pairing", f"/v1/events/{code}/sections/open/rounds/2")
        assert next(p for p in stored["pairings"] if p["pairing_id"] == pairing_id)["result"] == "first_wins"
        await _sign_out(page)
        assert not problems, problems

    # the recorder, 390 px, Chinese: the round without result buttons, the slips
    async with chromium_page() as (page, problems):
        await page.set_viewport_size({"width": 390, "height": 800})
        await _accept(page, recorder_link, "recorder-390-zh", says=f"职务（{EVENT_ZH}）")
        await _sign_in(page, "zhao@example.org")
        mine = await page.inner_text("[data-list=my-events]")
        assert EVENT_ZH in mine and "记录员" in mine and code not in mine, mine
        await _fits(page, "the console's home")
        await _shot(page, "recorder-home-390-zh")
        await page.goto(f"{served}/staff/events/{code}")
        assert EVENT_ZH in await page.inner_text("h1")  # the event's name in the page's language
        buttons = await page.inner_text("p.buttons")
        assert "报名名单" not in buttons and "申诉" not in buttons
        await page.goto(f"{served}/staff/events/{code}/sections/open/rounds/2")
        assert await page.locator("form[action$='/results']").count() == 0
        assert await page.locator("a[href$='/rounds/2/slips']").count() == 1
        await _shot(page, "recorder-round-390-zh")
        await page.goto(f"{served}/staff/events/{code}/appeals")
        assert "仲裁委员" in await page.inner_text(".refusal")  # said why, in words
        await _fits(page, "the refusal page")
        await _shot(page, "recorder-appeals-refused-390-zh")
        await _sign_out(page)
        # the refusal page answers 403 (Chromium notes the status); nothing else went wrong
        assert not [p for p in problems if "status of 403" not in p], problems

    await _fee_clerk_records_a_payment_by_name(served, clerk_link, code)

    # a team leader's appeal against the result the arbiter entered, lodged through the API
    base = f"/v1/events/{code}/sections/open"
    section = await platform.get("pairing", base)
    stored = next(
        p for p in (await platform.get("pairing", f"{base}/rounds/2"))["pairings"] if p["pairing_id"] == pairing_id
    )
    loser = next(e for e in section["entrants"] if e["entrant_id"] == stored["second"])
    appeal = {
        "unit_id": loser["unit"],
        "signatory_role": "leader",
        "signatory_name": "王领队",
        "grounds": "计时器故障",
        "round": 2,
        "pairing_id": pairing_id,
        "fee_fen": 0,
    }
    lodged = await platform.post("pairing", f"{base}/appeals", appeal, role="arbiter")

    # the arbitration committee member, 1366 px, English: the appeals, decided
    async with chromium_page() as (page, problems):
        await page.set_viewport_size({"width": 1366, "height": 900})
        await page.goto(f"{served}/?lang=en")
        await _accept(page, member_link, "member-1366-en")
        await _sign_in(page, "zhou@example.org")
        mine = await page.inner_text("[data-list=my-events]")
        assert EVENT_EN in mine and "arbitration committee member" in mine and code not in mine, mine
        await _shot(page, "member-home-1366-en")
        await page.goto(f"{served}/staff/events/{code}")
        await page.click(f"a[href='/staff/events/{code}/appeals']")
        await page.wait_for_selector("h1")
        assert "Appeals" in await page.inner_text("h1") or "appeal" in (await page.inner_text("h1")).lower()
        assert await page.locator("#lodge-appeal").count() == 0  # lodging is the arbiters'
        card = page.locator(f'.appeal[data-appeal="{lodged["appeal_id"]}"]')
        await card.locator("input[name=reasons]").fill("The clock was checked and worked.")
        await _shot(page, "member-appeals-1366-en")
        await card.locator("button[value=no]").click()
        await page.wait_for_selector(".done, .refusal")
        await _shot(page, "member-decided-1366-en")
        assert await page.locator(".done").count() == 1, await page.inner_text("main")
        await _sign_out(page)
        assert "Staff sign-in" in await page.inner_text("h1")
        assert not problems, problems

    # the administrator again, 390 px, English: everyone listed with their roles in words
    async with chromium_page() as (page, problems):
        await page.set_viewport_size({"width": 390, "height": 800})
        await page.goto(f"{served}/?lang=en")
        await page.goto(f"{served}/staff/organisation")
        await _sign_in(page, "li@example.org")
        listed = await page.inner_text("table.staff-list")
        assert "孙裁判" in listed and f"{EVENT_EN}: arbiter" in listed and f"{EVENT_EN}: recorder" in listed
        assert code not in listed  # the event by its name, never its code
        assert "arbitration committee member" in listed and "organisation administrator, organiser" in listed
        assert "Organisation: " in await page.inner_text("h1")
        await _fits(page, "the organisation page")
        await _shot(page, "organisation-390-en")
        # the role editor ticks the roles held and the event they hold in, by name
        row = page.locator("tr", has_text="孙裁判")
        await row.locator("details summary").click()
        assert await row.locator("input[name=role][value=arbiter]").is_checked()
        assert await row.locator(f"input[name=event][value={code}]").is_checked()
        assert EVENT_EN in await row.locator("[data-part=events]").inner_text()
        await _fits(page, "the organisation page's role editor")
        await _shot(page, "organisation-roles-390-en")
        row = page.locator("tr", has_text="赵记录")
        await row.locator("form[action$='/password-reset'] button").click()
        link = page.locator("[data-part=one-time-link] input")
        await link.wait_for()
        assert re.search(r"/staff/invitations/[A-Za-z0-9_-]+$", await link.input_value())
        await _shot(page, "organisation-reset-link-390-en")
        await _sign_out(page)
        assert not problems, problems


async def _fee_clerk_records_a_payment_by_name(served: str, link: str, code: str) -> None:
    """Issue 29, the console in words: the fee clerk (390 px, Chinese) chooses who paid by name
    (the event's teams and players, never an id typed); the line says who paid by name, when in
    Beijing time in words, and who recorded it by their name (no account id)."""
    async with chromium_page() as (page, problems):
        await page.set_viewport_size({"width": 390, "height": 800})
        await _accept(page, link, "clerk-390-zh", says=f"职务（{EVENT_ZH}）")
        await _sign_in(page, "qian@example.org")
        await page.goto(f"{served}/staff/events/{code}/ledger")
        assert EVENT_ZH in await page.inner_text("p.crumbs")  # the event's name in Chinese
        picker = page.locator("select[data-part=payer]")
        options = picker.locator("optgroup option")
        assert await options.count() > 0
        chosen, value = await options.first.inner_text(), await options.first.get_attribute("value")
        assert chosen.strip() and value.split(":", 1)[1] not in chosen, chosen  # a name, not an id
        await picker.select_option(value)
        await page.fill("input[name=amount_yuan]", "380")
        await page.click("form[data-form=ledger] button[type=submit]")
        await page.wait_for_selector(".done, .refusal")
        assert await page.locator(".done").count() == 1, await page.inner_text("main")
        line = await page.locator("table tbody tr", has_text="钱收费").last.inner_text()
        assert chosen.strip() in line and "北京时间" in line and "钱收费" in line and "acct:" not in line, line
        await _fits(page, "the fees ledger")
        await _shot(page, "clerk-ledger-390-zh")
        await _sign_out(page)
        assert not problems, problems
