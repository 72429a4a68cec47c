"""Honours and appeals (AWD-9, NY 十一(三); AWD-10, NY 十(四)) in a real Chromium against the served
embedded runner: after the event the organiser's honours recorded by staff appear on the awards
page (translated; a coach's name masked) and in the honours' certificate PDF; in the staff console
the register and the certificates the organiser prints name the coach in full, and the unit honour's
unit is chosen from the registered units (NY 十一(三), issue 30); an arbiter records a
unit's appeal with the 500 CNY fee in the staff console and the committee's rejection. The event
is DA 2023's small field with NY's honours and appeal terms as its configuration. Screenshots go
to test-output/browser/."""

from __future__ import annotations

import io

import httpx
from browser_kit import CHROMIUM, OUT, browser_or_fail, key_sign_in, settle, until
from pypdf import PdfReader

from gomoku_sim.bots import BotPolicy
from gomoku_sim.client import Keys, Platform
from gomoku_sim.driver import EventDriver, RunSpec, SimClock


def _ny_terms() -> dict:
    from registration import presets

    ny, da = presets.load("ny-2022"), presets.load("da-2023")
    arbitration = ny.fees.appeal_item
    assert arbitration is not None
    items = [item.model_dump(mode="json") for item in (*da.fees.items, arbitration)]
    return {
        "honours": [h.model_dump(mode="json") for h in ny.honours],
        "appeals": ny.appeals.model_dump(mode="json"),
        "fees": {"items": items},
    }


async def _played_with_honours(base: str) -> tuple[str, dict]:
    platform = Platform.distributed({s: f"{base}/{s}" for s in ("registration", "pairing", "gameplay", "awards")})
    spec = RunSpec(
        preset_id="da-2023",
        seed=7,
        sizes={"open": 6, "junior": 0, "public": 0},
        rounds=3,
        overrides=_ny_terms(),
        policy=BotPolicy(no_show_rate=0, timeout_rate=0),
        progress=False,
    )
    driver = EventDriver(platform, SimClock(platform, ("gameplay",)), settle, spec)
    try:
        await driver.run()
        code = driver.code
        rows = (await platform.get("awards", f"/v1/events/{code}/sections/open/standings"))["rows"]
        player = rows[1]
        url = f"/v1/events/{code}/honours"
        await platform.post(
            "awards", url, {"kind": "sportsmanship", "entrant_id": player["entrant_id"], "citation": "公平竞赛"}
        )
        await platform.post("awards", url, {"kind": "coach", "coach_name": "李明华", "coach_unit": "海南省"})
        return code, player
    finally:
        await platform.aclose()


def _ledger(served: str, code: str) -> list[dict]:
    answer = httpx.get(
        f"{served}/registration/v1/events/{code}/ledger", headers={"x-api-key": Keys().operator}, timeout=60
    )
    assert answer.status_code == 200, answer.text
    return [line for line in answer.json()["lines"] if (line.get("source") or "").startswith("appeal.")]


async def _ledger_follows_the_appeals(served: str, code: str, player: dict) -> None:
    """AWD-10, NY 十(四) across services: registration's ledger records the fee of the appeal the
    console recorded as a payment of the unit, and no refund for its rejection; an upheld appeal's
    fee comes back as a refund line."""
    payment = await until("the appeal fee in the ledger", lambda: _lines(served, code, 1))
    assert (payment[0]["kind"], payment[0]["amount_fen"]) == ("payment", 50_000)
    arbiter = {"x-api-key": Keys().arbiter}
    base = f"{served}/pairing/v1/events/{code}/sections/open/appeals"
    body = {
        "unit_id": player["unit"],
        "signatory_role": "leader",
        "signatory_name": "王领队",
        "grounds": "计时器故障",
        "fee_fen": 50_000,
        "payment_reference": "收据 0043",
    }
    lodged = httpx.post(base, json=body, headers=arbiter, timeout=60)
    assert lodged.status_code == 200, lodged.text
    decided = httpx.post(
        f"{base}/{lodged.json()['appeal_id']}/decision",
        json={"upheld": True, "reasons": "计时器确有故障"},
        headers=arbiter,
        timeout=60,
    )
    assert decided.status_code == 200 and decided.json()["refund_fen"] == 50_000, decided.text
    lines = await until("the refund in the ledger", lambda: _lines(served, code, 3))
    assert sorted((line["kind"], line["amount_fen"]) for line in lines) == [
        ("payment", 50_000),
        ("payment", 50_000),
        ("refund", -50_000),
    ]
    assert len({line["unit_id"] for line in lines}) == 1  # all the unit's


async def _lines(served: str, code: str, count: int) -> list[dict] | None:
    lines = _ledger(served, code)
    return lines if len(lines) >= count else None


async def _console_honours(page, served: str, code: str, player: dict) -> None:
    """NY 十一(三), AWD-9 (issue 30) in the staff console: the register names the coach in full
    (masking is for public pages); the 优秀组织奖 form offers the registered units by name (no id
    to type) and the honour takes the unit as registered (its registration id, its registered
    name); the certificates PDF the organiser prints names the coach in full."""
    await page.goto(f"{served}/staff/events/{code}/honours")
    await key_sign_in(page)
    await page.fill("input[name=api_key]", Keys().arbiter)
    await page.click("form button[type=submit]")
    await page.wait_for_url("**/honours")
    register = page.locator("#honour-register")
    assert "李明华" in await register.inner_text()  # staff see the name in full
    form = page.locator("#honour-organisation")
    assert await form.locator("input[name=unit_id]").count() == 0  # no id to type
    choices = await form.locator("select[name=unit_id] option").all_inner_texts()
    assert player["unit"] in choices, choices
    await form.locator("select[name=unit_id]").select_option(label=player["unit"])
    await form.locator("textarea[name=citation]").fill("组织工作出色")
    await form.locator("button[type=submit]").click()
    await page.wait_for_selector(".done, .refusal")
    assert await page.locator(".refusal").count() == 0, await page.inner_text(".refusal")
    row = page.locator("#honour-register tr", has_text="优秀组织奖")
    assert player["unit"] in await row.inner_text() and "组织工作出色" in await row.inner_text()
    await page.screenshot(path=str(OUT / "staff-honours.png"), full_page=True)
    recorded = httpx.get(
        f"{served}/awards/v1/events/{code}/honours/register", headers={"x-api-key": Keys().arbiter}, timeout=60
    ).json()["honours"]
    unit_honour = next(h for h in recorded if h["kind"] == "organisation")
    units = httpx.get(
        f"{served}/awards/v1/events/{code}/honours/units", headers={"x-api-key": Keys().arbiter}, timeout=60
    ).json()["units"]
    registered = {u["name"]: u["unit_id"] for u in units}
    assert (unit_honour["recipient_id"], unit_honour["recipient_name"]) == (registered[player["unit"]], player["unit"])
    sheet = await page.request.get(f"{served}/staff/events/{code}/honours/certificates.pdf")
    assert sheet.status == 200 and sheet.headers["content-type"] == "application/pdf"
    text = _pdf_text(await sheet.body())
    assert "李明华" in text and "优秀组织奖" in text and player["unit"] in text


def _pdf_text(body: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages)


async def test_awd9_honours_on_the_awards_page_and_certificates_in_chromium(served):
    async_playwright = browser_or_fail()
    OUT.mkdir(parents=True, exist_ok=True)
    code, player = await _played_with_honours(served)
    problems: list[str] = []
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = await browser.new_page(viewport={"width": 1200, "height": 900})
            page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
            page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
            await page.goto(f"{served}/events/{code}/awards")
            honours = await page.inner_text("#honours")
            assert "荣誉奖项" in honours and "体育道德风尚奖" in honours and "优秀教练员奖" in honours, honours
            assert player["name"] in honours and "公平竞赛" in honours
            assert "李**" in honours and "李明华" not in honours  # a coach's name is personal data
            assert "sportsmanship" not in honours  # identifiers never reach a page
            await page.locator("#honours").screenshot(path=str(OUT / "honours.png"))
            await page.goto(f"{served}/events/{code}/awards?lang=en")
            english = await page.inner_text("#honours")
            assert "Honours" in english and "Sportsmanship Award" in english and "Outstanding Coach Award" in english
            await page.locator("#honours").screenshot(path=str(OUT / "honours-en.png"))
            await page.goto(f"{served}/events/{code}?lang=zh")

            # NY 十一(三): in the console the arbiter chooses the unit from the registered ones
            await _console_honours(page, served, code, player)

            # AWD-10, NY 十(四): the arbiter records an appeal with its fee and the committee's decision
            await page.goto(f"{served}/staff/events/{code}/appeals")
            form = page.locator("#lodge-appeal")
            # issue 28: the fee in yuan, the unit and the appealed board chosen from lists by name
            assert await form.locator("input[name=fee_yuan]").input_value() == "500.00"
            await form.locator("select[name=section_id]").select_option(label="公开组")
            await form.locator("select[name=unit_id]").select_option(label=player["unit"])
            await form.locator("select[name=signatory_role]").select_option(label="教练")
            await form.locator("input[name=signatory_name]").fill("李明华")
            await form.locator("textarea[name=grounds]").fill("对局中对方使用电子设备")
            boards = await form.locator("select[name=board] option").all_inner_texts()
            board = next(b for b in boards if b.startswith("第 1 轮 第 1 台 "))
            await form.locator("select[name=board]").select_option(label=board)
            await form.locator("input[name=payment_reference]").fill("收据 0042")
            await form.locator("button[type=submit]").click()
            await page.wait_for_selector(".done, .refusal")
            assert await page.locator(".refusal").count() == 0, await page.inner_text(".refusal")
            card = page.locator(".appeal").first
            assert "待仲裁" in await card.inner_text() and "500.00" in await card.inner_text()
            assert "李明华" not in await card.inner_text()
            await card.locator("input[name=reasons]").fill("经查无违规")
            await card.locator("button[value=no]").click()
            await page.wait_for_selector(".done, .refusal")
            assert await page.locator(".refusal").count() == 0, await page.inner_text(".refusal")
            assert "申诉驳回" in await page.locator(".appeal").first.inner_text()
            await page.screenshot(path=str(OUT / "staff-appeals.png"), full_page=True)
        finally:
            await browser.close()
    assert problems == [], problems
    await _ledger_follows_the_appeals(served, code, player)
    sheet = httpx.get(f"{served}/events/{code}/honours/certificates.pdf", timeout=60)
    assert sheet.status_code == 200 and sheet.headers["content-type"] == "application/pdf"
    text = _pdf_text(sheet.content)
    assert "体育道德风尚奖" in text and player["name"] in text and "公平竞赛" in text and "李**" in text
