"""Issue 28 (the people's door), the staff console in people's words, in a real Chromium against
the embedded runner: the demo's staff accounts (one per role, ``gomoku_sim.demo_staff``) sign in
with their passwords and

- file an appeal (AWD-10) by choosing the unit, the section and the board from lists by name
  ("第 2 轮 第 1 台 甲 对 乙"), the fee typed in yuan; a fee that is not an amount, and one the
  regulation does not set, are refused in words (never the service's English message);
- change a result: the form starts at the board's current result, and a confirmation naming the
  board, the players and the change ("把 先列胜 改为 和棋？") comes before it is saved;
- decide a refund request (REG-15) with the amount typed in yuan, sent in fen;
- see only the buttons of their roles: the recorder no result form, the arbiter no correction of
  a standing result (results.correct is the chief arbiter's), the fee clerk no appeal form;
- on the NT 2023 team championship (NT 六(二)), the round, slip and appeal pages name each
  board's players and their teams, and the confirmation names them too.

At 1366 and 390 pixels, in Chinese and in English. Screenshots go to test-output/browser/."""

from __future__ import annotations

from typing import Any

from browser_kit import (
    IDS,
    OUT,
    account_sign_in,
    account_sign_out,
    browser_or_fail,
    chromium_page,
    console_signed_in,
    demo_accounts,
    platform_at,
    registered_da_event,
    save_result,
)


async def _phone(page: Any) -> None:
    await page.set_viewport_size({"width": 390, "height": 844})


async def _fits(page: Any, what: str) -> None:
    """Nothing of the page but its scrolling tables is off a 390-pixel screen."""
    width = await page.evaluate("document.documentElement.scrollWidth")
    viewport = await page.evaluate("window.innerWidth")
    assert width <= viewport, f"{what} is wider than the screen: {width}px > {viewport}px"


async def _no_ids(page: Any, what: str) -> None:
    text = await page.inner_text("main")
    assert not IDS.search(text), f"{what} shows an id: {IDS.search(text)}"


async def _stored(platform: Any, base: str, n: int, pairing_id: str) -> dict[str, Any]:
    pairings = (await platform.get("pairing", f"{base}/rounds/{n}"))["pairings"]
    return next(p for p in pairings if p["pairing_id"] == pairing_id)


async def _lodge(page: Any, board_prefix: str, unit: str, fee: str) -> str:
    """The appeal form filled by choosing from its lists; the outcome's words."""
    form = page.locator("#lodge-appeal")
    assert await form.locator("input[name=unit_id], input[name=pairing_id], input[name=round]").count() == 0
    boards = await form.locator("select[name=board] option").all_inner_texts()
    board = next(b for b in boards if b.startswith(board_prefix))
    await form.locator("select[name=board]").select_option(label=board)
    await form.locator("select[name=unit_id]").select_option(label=unit)
    await form.locator("select[name=signatory_role]").select_option(index=0)
    await form.locator("input[name=signatory_name]").fill("王领队")
    await form.locator("textarea[name=grounds]").fill("对方在第 40 手后超时仍继续落子")
    await form.locator("input[name=fee_yuan]").fill(fee)
    await form.locator("button[type=submit]").click()
    said = page.locator(".done, .refusal").first
    await said.wait_for()
    return await said.inner_text()


async def test_issue28_console_in_words_appeal_from_lists_result_confirmed_refusals_and_roles(da_served):
    """AWD-10 and PAIR-11 in the console for people: lists, yuan, confirmation, words, roles."""
    browser_or_fail()  # before the event is set up: a missing browser fails at once
    served, code = da_served
    platform = platform_at(served)
    accounts = await demo_accounts(served)
    base = f"/v1/events/{code}/sections/open"
    section = await platform.get("pairing", base)
    names = {e["entrant_id"]: e for e in section["entrants"]}
    two = (await platform.get("pairing", f"{base}/rounds/2"))["pairings"][0]
    first, second = names[two["first"]], names[two["second"]]

    async with chromium_page() as (page, problems):
        # the arbiter, 1366 px, Chinese: the appeal by choosing from lists, the fee in yuan
        await page.set_viewport_size({"width": 1366, "height": 900})
        await account_sign_in(page, served, accounts["arbiter"], "zh")
        await page.goto(f"{served}/staff/events/{code}/appeals")
        prefix = f"第 2 轮 第 {two['board']} 台 {first['name']} 对 {second['name']}"
        # a fee that is not an amount in yuan: refused in words before any call
        said = await _lodge(page, prefix, first["unit"], "五百")
        assert "仲裁费请以元填写" in said, said
        # a fee the regulation does not set (DA: none): pairing's wrong_fee, in words only
        said = await _lodge(page, prefix, first["unit"], "1.00")
        assert "仲裁费金额与规程不符" in said and "本赛事的仲裁费为 0.00 元" in said, said
        assert "fen" not in said and "wrong_fee" not in said, said  # never the service's message
        await page.screenshot(path=str(OUT / "console-words-refusal-zh.png"), full_page=True)
        said = await _lodge(page, prefix, first["unit"], "0")
        assert "申诉已登记" in said, said
        appeal = (await platform.get("pairing", f"/v1/events/{code}/appeals", role="arbiter"))["appeals"][0]
        assert (appeal["round"], appeal["pairing_id"], appeal["fee_fen"]) == (2, two["pairing_id"], 0)
        card = await page.locator(".appeal").first.inner_text()
        assert prefix in card and "公开组" in card, card  # the board and section in words
        await _no_ids(page, "the appeals page")
        await page.screenshot(path=str(OUT / "console-words-appeal-zh.png"), full_page=True)

        # the arbiter may enter a result, not correct one that stands (the chief arbiter's)
        await page.goto(f"{served}/staff/events/{code}/sections/open/rounds/3")
        assert await page.locator("form[action$='/results'] select[name=result]").count() == 0
        assert "由裁判长更正" in await page.inner_text("table.pairings")
        await account_sign_out(page)

        # the chief arbiter, 390 px, English: the current result preselected, the change named
        await _phone(page)
        await account_sign_in(page, served, accounts["chief_arbiter"], "en")
        three = (await platform.get("pairing", f"{base}/rounds/3"))["pairings"][1]
        await page.goto(f"{served}/staff/events/{code}/sections/open/rounds/3")
        row = page.locator(f'tr[data-pairing="{three["pairing_id"]}"]')
        assert await row.locator("select[name=result]").input_value() == three["result"]
        other = "draw" if three["result"] != "draw" else "first_wins"
        await row.locator("select[name=result]").select_option(other)
        await row.locator("button[type=submit]").click()
        confirm = page.locator(".confirm")
        await confirm.wait_for()
        question = await confirm.locator("b").first.inner_text()
        assert (await _stored(platform, base, 3, three["pairing_id"]))["result"] == three["result"]  # not yet
        a, b = names[three["first"]]["name"], names[three["second"]]["name"]
        assert question.startswith(f"Round 3, board {three['board']}, {a} v {b}: change "), question
        assert question.endswith(" to draw?" if other == "draw" else " to first-listed wins?"), question
        await _fits(page, "the confirmation")
        await page.screenshot(path=str(OUT / "console-words-confirm-en-390.png"), full_page=True)
        await confirm.locator("button[name=confirm]").click()
        await page.locator(f'tr[data-pairing="{three["pairing_id"]}"] .done').wait_for()
        stored = await _stored(platform, base, 3, three["pairing_id"])
        assert stored["result"] == other and stored["result_source"] == "arbiter"
        # and the form now starts at the result just saved
        assert await row.locator("select[name=result]").input_value() == other
        await account_sign_out(page)

        # the recorder: the round without result forms; the event page without the fee clerk's
        # ledger, the appeals or the evidence (390 px, Chinese)
        await account_sign_in(page, served, accounts["recorder"], "zh")
        await page.goto(f"{served}/staff/events/{code}/sections/open/rounds/3")
        assert await page.locator("form[action$='/results']").count() == 0
        await page.goto(f"{served}/staff/events/{code}")
        for path in ("/ledger", "/appeals", "/evidence", "/entries"):
            assert await page.locator(f"a[href='/staff/events/{code}{path}']").count() == 0, path
        await page.screenshot(path=str(OUT / "console-words-recorder-zh-390.png"), full_page=True)
        await account_sign_out(page)

        # the fee clerk (1366 px, English): the ledger, and no appeal form or result form
        await page.set_viewport_size({"width": 1366, "height": 900})
        await account_sign_in(page, served, accounts["fee_clerk"], "en")
        await page.goto(f"{served}/staff/events/{code}")
        assert await page.locator(f"a[href='/staff/events/{code}/ledger']").count() == 1
        assert await page.locator(f"a[href='/staff/events/{code}/appeals']").count() == 0
        seen = len(problems)
        refused = await page.goto(f"{served}/staff/events/{code}/appeals")
        assert refused is not None and refused.status == 403  # said in words, without the form
        assert await page.locator("#lodge-appeal").count() == 0
        assert "appeal" in (await page.inner_text("main")).lower()
        del problems[seen:]  # the browser's note of that 403 answer, expected here
        await account_sign_out(page)
        assert not problems, problems


async def test_issue28_team_event_console_names_boards_players_and_teams(nt_served):
    """NT 2023 (NT 六(二)): the arbiter's round, slip and appeal pages name each board's players
    and teams; a result changed there is confirmed by the players' names (zh 1366, en 390)."""
    browser_or_fail()
    served, code = nt_served
    platform = platform_at(served)
    accounts = await demo_accounts(served)
    base = f"/v1/events/{code}/sections/mixed-team"
    entries = (await platform.get("registration", f"/v1/events/{code}/entries", role="arbiter"))["entries"]
    players = {p["player_id"]: (p["name"], e["team_name"]) for e in entries for p in e["players"]}
    board = (await platform.get("pairing", f"{base}/rounds/2"))["pairings"][0]
    first, second = players[board["first"]], players[board["second"]]

    async with chromium_page() as (page, problems):
        await page.set_viewport_size({"width": 1366, "height": 900})
        await account_sign_in(page, served, accounts["chief_arbiter"], "zh")
        await page.goto(f"{served}/staff/events/{code}/sections/mixed-team/rounds/2")
        assert "混合团体" in await page.inner_text("h1")  # the section's Chinese name
        row = page.locator(f'tr[data-pairing="{board["pairing_id"]}"]')
        cells = await row.locator("td").all_inner_texts()
        assert first[0] in cells[1] and first[1] in cells[1], cells  # the player and the team
        assert second[0] in cells[2] and second[1] in cells[2], cells
        matches = await page.locator("tr.match").all_inner_texts()
        assert len(matches) == 2 and all(" 对 " in m for m in matches), matches
        assert f"{first[1]} 对 {second[1]}" in matches[0] or f"{second[1]} 对 {first[1]}" in matches[0], matches
        await _no_ids(page, "the team round")
        await page.screenshot(path=str(OUT / "console-words-team-round-zh.png"), full_page=True)
        other = "draw" if board["result"] != "draw" else "second_wins"
        question = await save_result(page, board["pairing_id"], other)
        assert question.startswith(f"第 2 轮 第 1 场 第 {board['board']} 台 {first[0]} 对 {second[0]}：把 "), question
        assert question.endswith("改为 和棋？" if other == "draw" else "改为 后列胜？"), question
        assert await row.locator(".done").count() == 1
        assert (await _stored(platform, base, 2, board["pairing_id"]))["result"] == other

        # the slips of the round name each table by round, match and board, its players by name
        await page.goto(f"{served}/staff/events/{code}/sections/mixed-team/rounds/2/slips")
        slips = await page.inner_text("main")
        assert "第 2 轮 第 1 场 第 1 台" in slips and first[0] in slips and second[0] in slips, slips[:500]
        await _no_ids(page, "the team slips")
        await page.screenshot(path=str(OUT / "console-words-team-slips-zh.png"), full_page=True)
        await account_sign_out(page)

        # the arbiter, 390 px, English: an appeal about a team board, chosen by the players' names
        await _phone(page)
        await account_sign_in(page, served, accounts["arbiter"], "en")
        await page.goto(f"{served}/staff/events/{code}/appeals")
        prefix = f"Round 2, match 1, board {board['board']} {first[0]} v {second[0]}"
        said = await _lodge(page, prefix, first[1], "0.00")
        assert "The appeal is recorded" in said, said
        appeal = (await platform.get("pairing", f"/v1/events/{code}/appeals", role="arbiter"))["appeals"][0]
        assert (appeal["round"], appeal["pairing_id"]) == (2, board["pairing_id"])
        assert prefix in await page.locator(".appeal").first.inner_text()
        await _fits(page, "the appeals page")
        await _no_ids(page, "the appeals page")
        await page.screenshot(path=str(OUT / "console-words-team-appeal-en-390.png"), full_page=True)
        await account_sign_out(page)
        assert not problems, problems


async def test_issue28_reg15_refund_request_granted_in_yuan_by_the_fee_clerk(served):
    """REG-15 (DA 十三(三)): an entry withdrawn after confirmation asks for its refund; the fee
    clerk grants it on the ledger page with the amount typed in yuan (sent in fen); an amount
    that is not one is refused in words (390 px, Chinese)."""
    browser_or_fail()
    platform, driver = await registered_da_event(served, seed=5, sizes={"open": 6, "junior": 0, "public": 0})
    code = driver.code
    accounts = await demo_accounts(served)
    entry = (await platform.get("registration", f"/v1/events/{code}/entries", role="arbiter"))["entries"][0]
    paid = {"kind": "payment", "item": "lodging-standard", "amount_fen": 36000, "entry_id": entry["entry_id"]}
    await platform.post("registration", f"/v1/events/{code}/ledger", paid, role="arbiter")
    withdrawal = {"reason": "生病", "proof_ref": "MED-2023-77"}
    await platform.post(
        "registration", f"/v1/events/{code}/entries/{entry['entry_id']}/withdraw", withdrawal, role="arbiter"
    )
    request = {"reason": "生病不能参赛，申请退还食宿费", "proof_ref": "MED-2023-77"}
    path = f"/v1/events/{code}/entries/{entry['entry_id']}/refund-request"
    refund_id = (await platform.post("registration", path, request, role="arbiter"))["refund_id"]

    async with chromium_page() as (page, problems):
        await _phone(page)
        await account_sign_in(page, served, accounts["fee_clerk"], "zh")
        await page.goto(f"{served}/staff/events/{code}/ledger")
        card = page.locator(f'.refund[data-refund="{refund_id}"]')
        said = await card.inner_text()
        assert entry["players"][0]["name"] in said and "待处理" in said, said  # who asked, by name
        await card.locator("input[name=amount_yuan]").fill("一百元")
        await card.locator("button[value=grant]").click()
        await card.locator(".refusal").wait_for()
        assert "批准退费请填写金额（元）" in await card.locator(".refusal").inner_text()
        await card.locator("input[name=amount_yuan]").fill("100.50")
        await card.locator("button[value=grant]").click()
        await card.locator(".done").wait_for()
        said = await card.inner_text()
        assert "已退 100.50 元" in said and "已批准" in said, said
        assert "fen" not in said, said  # registration's own English reason is not shown
        refunds = (await platform.get("registration", f"/v1/events/{code}/refunds", role="arbiter"))["refunds"]
        granted = next(r for r in refunds if r["refund_id"] == refund_id)
        assert (granted["state"], granted["granted_fen"]) == ("granted", 10050)
        await _fits(page, "the ledger page")
        await _no_ids(page, "the ledger page")
        await page.screenshot(path=str(OUT / "console-words-refund-zh-390.png"), full_page=True)
        assert not problems, problems


async def test_issue28_reg6_evidence_clauses_in_words_on_the_sz_qualifier(sz_served):
    """REG-6 (SZ 六(1)-(4)): the evidence queue names each record's clause in words — the ground
    (residency in 深圳市) and the option met — never its id ("sz-residency/household")."""
    browser_or_fail()
    served, code = sz_served
    platform = platform_at(served)
    records = (await platform.get("registration", f"/v1/events/{code}/evidence", role="arbiter"))["evidence"]
    clauses = {r["clause"] for r in records if r.get("clause")}
    assert clauses, "the SZ qualifier's evidence names its clauses"
    async with chromium_page() as (page, problems):
        await console_signed_in(page, served, f"/staff/events/{code}/evidence")
        for lang, ground in (("zh", "居住资格（深圳市）："), ("en", "Residency (Shenzhen): ")):
            await page.goto(f"{served}/staff/events/{code}/evidence?status=all&lang={lang}")
            text = await page.inner_text("main")
            assert ground in text, text[:600]
            for clause in clauses:
                assert clause not in text and clause.split("/")[0] not in text, clause
            await page.screenshot(path=str(OUT / f"console-words-evidence-{lang}.png"), full_page=True)
        assert not problems, problems
