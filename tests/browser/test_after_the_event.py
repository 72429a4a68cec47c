"""After the event, in a real Chromium against the served embedded runner: the awards page (AWD-1..5:
places, items, prize money; publication history), a player's page, a finished game's replay
(step and jump; the record to download, PLAY-8) and the printouts (PDF text holds the names
and the Chinese titles). English by the switch. Screenshots go to test-output/browser/."""

from __future__ import annotations

import io

import httpx
from browser_kit import CHROMIUM, OUT, browser_or_fail, platform_at
from pypdf import PdfReader

#: identifiers that must never reach a page (translated labels instead)
RAW = ("finisher_medal", "commemorative_certificate", "certificate", "prize_money", "resignation", "da23.main")


def _pdf_text(body: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages)


async def test_awards_player_replay_and_printouts_in_chromium(da_served):
    async_playwright = browser_or_fail()
    OUT.mkdir(parents=True, exist_ok=True)
    served, code = da_served
    platform = platform_at(served)
    try:
        awards = await platform.get("awards", f"/v1/events/{code}/sections/open/awards")
        winner = awards["places"][0]
        standings = await platform.get("pairing", f"/v1/events/{code}/sections/open/standings")
        games = await platform.get("gameplay", "/v1/games", params={"event_code": code, "status": "finished"})
        game = next(g for g in games["games"] if g["round"] == 1)
        view = await platform.get("gameplay", f"/v1/games/{game['game_id']}")
    finally:
        await platform.aclose()
    problems: list[str] = []
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = await browser.new_page(viewport={"width": 1200, "height": 900})
            page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
            page.on("pageerror", lambda e: problems.append(f"page error: {e}"))

            await page.goto(f"{served}/events/{code}")
            await page.click("a >> text=获奖名单")
            await page.wait_for_url("**/awards")
            body = await page.inner_text("main")
            assert winner["name"] in body and "获奖证书" in body and "奖金" in body and "公布记录" in body
            assert "第 1 版" in body and "完赛纪念奖牌" in body  # DA: every finisher's medal
            # AWD-4, DA 九(四): the prize table named in Chinese as the regulation names it
            prize_tables = await page.inner_text("#awards-open")
            assert "公开组（女子）" in prize_tables and "Open (women)" not in prize_tables
            assert not [w for w in RAW if w in body], body
            await page.screenshot(path=str(OUT / "awards.png"), full_page=True)
            await page.goto(f"{served}/events/{code}/awards?lang=en")
            assert "Prize money" in await page.inner_text("main")
            assert "Open (women)" in await page.inner_text("#awards-open")  # the table's English name
            await page.screenshot(path=str(OUT / "awards-en.png"), full_page=True)
            await page.goto(f"{served}/events/{code}?lang=zh")

            # a player's page: place, games, results by round
            top = standings["standings"][0]
            await page.goto(f"{served}/events/{code}/sections/open/standings")
            await page.click(f"table.standings a >> text={top['name']}")
            await page.wait_for_url(f"**/players/{top['entrant_id']}")
            assert (await page.inner_text(".player-place")).startswith(str(top["place"]))
            assert await page.locator("a >> text=复盘").count() == top["games_played"]
            await page.screenshot(path=str(OUT / "player.png"), full_page=True)

            # a finished game's replay: the last position first, then step back and jump
            await page.goto(f"{served}/games/{game['game_id']}/replay")
            total = len(view["moves"])
            assert await page.locator(".replay .stone:visible").count() == total
            await page.click("[data-step=prev]")
            assert await page.locator(".replay .stone:visible").count() == total - 1
            await page.fill("#ply", "3")
            await page.press("#ply", "Enter")
            assert await page.locator(".replay .stone:visible").count() == 3
            assert await page.locator(".replay .stone.last").get_attribute("data-ply") == "3"
            await page.screenshot(path=str(OUT / "replay.png"), full_page=True)
            psq = httpx.get(f"{served}/games/{game['game_id']}/record.psq", timeout=60)
            assert psq.status_code == 200 and "attachment" in psq.headers["content-disposition"]
            assert psq.text.startswith("Piskvorky") and len(psq.text.strip().splitlines()) >= total + 1

            phone = await browser.new_page(
                viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True
            )
            phone.on("console", lambda m: problems.append(f"phone {m.type}: {m.text}") if m.type == "error" else None)
            for name, path in (
                ("awards-phone", f"/events/{code}/awards"),
                ("replay-phone", f"/games/{game['game_id']}/replay"),
            ):
                await phone.goto(f"{served}{path}")
                width = await phone.evaluate("document.documentElement.scrollWidth")
                assert width <= 390, f"{path} is wider than a phone: {width}px"
                await phone.screenshot(path=str(OUT / f"{name}.png"), full_page=True)
        finally:
            await browser.close()
    assert problems == [], problems

    # the printouts over the socket: A4 PDFs with the names and the Chinese titles
    sheet = httpx.get(f"{served}/events/{code}/sections/open/rounds/1/pairings.pdf", timeout=60)
    assert sheet.headers["content-type"] == "application/pdf"
    text = _pdf_text(sheet.content)
    assert "第 1 轮对阵表" in text and all(p["name"] in text for p in standings["standings"])
    text = _pdf_text(httpx.get(f"{served}/events/{code}/sections/open/standings.pdf", timeout=60).content)
    assert "大分" in text and "对手分" in text and top["name"] in text
    text = _pdf_text(httpx.get(f"{served}/events/{code}/sections/open/certificates.pdf", timeout=60).content)
    assert "获奖证书" in text and "纪念证书" in text and winner["name"] in text and "第 1 名" in text
    assert "对局记录单" in _pdf_text(
        httpx.get(f"{served}/events/{code}/sections/open/rounds/3/slips.pdf", timeout=60).content
    )
    assert "对阵总表" in _pdf_text(
        httpx.get(f"{served}/events/{code}/sections/open/crosstable.pdf", timeout=60).content
    )
