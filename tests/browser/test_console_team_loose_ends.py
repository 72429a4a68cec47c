"""Issue 28's last loose ends of the staff console, on the NT 2023 team championship (NT 六(二):
teams of three boards) in a real Chromium against the embedded runner, signed in with the demo's
staff accounts (``gomoku_sim.demo_staff``):

- the recorder (who may not read registration's entries) sees every board's players by name on
  the round's slips and the round (PAIR-9: pairing's public ``members``, ``names.by_id``);
- the stage and the section by their Chinese names on Chinese console pages (the presets'
  ``name_zh``), by their English ones on English pages;
- check-in offers only the documents the event's check-in asks (REG-11, NT 十(二): the
  insurance policy), not every kind the console knows;
- an upheld appeal that changes a result (AWD-10) is named and confirmed first, as a result's
  change is: the board, its players, the result now and the new one; nothing changes until the
  confirmation is accepted.

Screenshots go to test-output/browser/."""

from __future__ import annotations

import re
from typing import Any

from browser_kit import (
    IDS,
    OUT,
    account_sign_in,
    account_sign_out,
    browser_or_fail,
    chromium_page,
    demo_accounts,
    platform_at,
)

SECTION = "mixed-team"


async def _fits(page: Any, what: str) -> None:
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"{what} is wider than the phone: {width}px"


async def test_issue28_pair9_nt_recorder_sees_team_players_names_stages_in_chinese_reg11_documents(nt_served):
    """PAIR-9 / REG-11 / NT 十(二): the recorder's slips and round name each board's players and
    teams; the event's stage and section say their Chinese names; check-in ticks only 保险单; the
    ledger's payers and the byes' list count the team field in teams."""
    browser_or_fail()
    served, code = nt_served
    platform = platform_at(served)
    accounts = await demo_accounts(served)
    event = await platform.get("registration", f"/v1/events/{code}")
    assert event["check_in"]["documents"] == ["insurance_policy"]  # NT 十(二), the preset's
    stage = event["stages"][0]
    section = await platform.get("pairing", f"/v1/events/{code}/sections/{SECTION}")
    players = {m["player_id"]: (m["name"], team["name"]) for team in section["entrants"] for m in team["members"]}
    boards = (await platform.get("pairing", f"/v1/events/{code}/sections/{SECTION}/rounds/2"))["pairings"]
    assert boards and all(b["first"] in players and b["second"] in players for b in boards)

    async with chromium_page() as (page, problems):
        # the recorder, 390 px, Chinese: the slips and the round name every board's players
        await page.set_viewport_size({"width": 390, "height": 844})
        await account_sign_in(page, served, accounts["recorder"], "zh")
        await page.goto(f"{served}/staff/events/{code}/sections/{SECTION}/rounds/2/slips")
        slips = await page.inner_text("main")
        assert "混合团体" in await page.inner_text("h1"), "the section's Chinese name"
        for b in boards:
            for pid in (b["first"], b["second"]):
                name, team = players[pid]
                assert name in slips and team in slips, (name, team)
        assert not re.search(r"(?:黑方|白方) —(?=\s*(?:—|·|$))", slips, re.M), "a dash for a player's name"
        assert not IDS.search(slips), IDS.search(slips)
        await _fits(page, "the recorder's slips")
        await page.screenshot(path=str(OUT / "console-team-recorder-slips-zh-390.png"), full_page=True)
        await page.goto(f"{served}/staff/events/{code}/sections/{SECTION}/rounds/2")
        for b in boards:
            cells = await page.locator(f'tr[data-pairing="{b["pairing_id"]}"] td').all_inner_texts()
            assert players[b["first"]][0] in cells[1] and players[b["second"]][0] in cells[2], cells
        await page.screenshot(path=str(OUT / "console-team-recorder-round-zh-390.png"), full_page=True)
        await account_sign_out(page)

        # the chief arbiter, 1366 px: the stage in Chinese, then in English; check-in's documents
        await page.set_viewport_size({"width": 1366, "height": 900})
        await account_sign_in(page, served, accounts["chief_arbiter"], "zh")
        await page.goto(f"{served}/staff/events/{code}")
        heads = await page.locator("section.stage h2").all_inner_texts()
        assert any(stage["name_zh"] in h for h in heads) and not any(stage["name"] in h for h in heads), heads
        await page.goto(f"{served}/staff/events/{code}/entries")
        documents = await page.locator("fieldset.documents label").all_inner_texts()
        assert [d.strip() for d in documents] == ["保险单"], documents
        chosen = await page.locator("select[name=stage] option[selected]").inner_text()
        assert chosen.strip() == stage["name_zh"], chosen
        await page.screenshot(path=str(OUT / "console-team-entries-zh.png"), full_page=True)
        await page.goto(f"{served}/staff/events/{code}?lang=en")
        heads = await page.locator("section.stage h2").all_inner_texts()
        assert any(stage["name"] in h for h in heads), heads
        await account_sign_out(page)

        # a team field counted in teams: the fee clerk's payers are teams' entries, the pairing
        # officer's byes and withdrawals choose a team (zh)
        await account_sign_in(page, served, accounts["fee_clerk"], "zh")
        await page.goto(f"{served}/staff/events/{code}/ledger")
        groups = await page.locator("select[name=payer] optgroup").evaluate_all("gs => gs.map(g => g.label)")
        assert "报名（队伍）" in groups and "报名（选手）" not in groups, groups
        await account_sign_out(page)
        await account_sign_in(page, served, accounts["pairing_officer"], "zh")
        await page.goto(f"{served}/staff/events/{code}/sections/{SECTION}")
        label = await page.locator("form.bye-form select[name=entrant_id]").get_attribute("aria-label")
        assert label == "队伍", label
        assert not problems, problems


async def test_issue28_awd10_an_upheld_appeal_changing_a_team_boards_result_is_confirmed_first(nt_served):
    """AWD-10 on NT 2023: the committee member upholds an appeal with a new result; the page first
    asks "Round 2, match 1, board n, A v B: change X to Y?" (the players by name); the result
    stands until that is confirmed, then the appeal is upheld and the result changed."""
    browser_or_fail()
    served, code = nt_served
    platform = platform_at(served)
    accounts = await demo_accounts(served)
    base = f"/v1/events/{code}/sections/{SECTION}"
    section = await platform.get("pairing", base)
    players = {m["player_id"]: m["name"] for team in section["entrants"] for m in team["members"]}
    units = {team["entrant_id"]: team["unit"] for team in section["entrants"]}
    board = (await platform.get("pairing", f"{base}/rounds/2"))["pairings"][0]
    appeal = {
        "unit_id": units[board["second_team"]],
        "signatory_role": "leader",
        "signatory_name": "王领队",
        "grounds": "计时器故障",
        "round": 2,
        "pairing_id": board["pairing_id"],
        "fee_fen": 0,
    }
    lodged = await platform.post("pairing", f"{base}/appeals", appeal, role="arbiter")
    other = "draw" if board["result"] != "draw" else "second_wins"

    async with chromium_page() as (page, problems):
        await page.set_viewport_size({"width": 390, "height": 844})
        await account_sign_in(page, served, accounts["arbitration"], "en")
        await page.goto(f"{served}/staff/events/{code}/appeals")
        card = page.locator(f'.appeal[data-appeal="{lodged["appeal_id"]}"]')
        await card.locator("input[name=reasons]").fill("The clock failed")
        await card.locator("select[name=result]").select_option(other)
        await card.locator("button[value=yes]").click()
        confirm = page.locator(f'.confirm[data-appeal="{lodged["appeal_id"]}"]')
        await confirm.wait_for()
        question = await confirm.locator("b").first.inner_text()
        first, second = players[board["first"]], players[board["second"]]
        assert question.startswith(f"Round 2, match 1, board {board['board']}, {first} v {second}: change "), question
        assert question.endswith(" to draw?" if other == "draw" else " to second-listed wins?"), question
        assert "The clock failed" in await confirm.inner_text()
        still = await platform.get("pairing", f"{base}/appeals/{lodged['appeal_id']}", role="arbiter")
        assert (still["status"], still["pairing_result"]) == ("lodged", board["result"])  # nothing yet
        await _fits(page, "the appeal's confirmation")
        await page.screenshot(path=str(OUT / "console-team-appeal-confirm-en-390.png"), full_page=True)
        await confirm.locator("button[name=confirm]").click()
        await page.locator(".done").wait_for()
        decided = await platform.get("pairing", f"{base}/appeals/{lodged['appeal_id']}", role="arbiter")
        assert (decided["status"], decided["result_changed"], decided["result_after"]) == ("upheld", True, other)
        stored = next(
            p
            for p in (await platform.get("pairing", f"{base}/rounds/2"))["pairings"]
            if p["pairing_id"] == board["pairing_id"]
        )
        assert stored["result"] == other
        await page.screenshot(path=str(OUT / "console-team-appeal-upheld-en-390.png"), full_page=True)
        assert not problems, problems
