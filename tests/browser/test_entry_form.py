"""Issue 34: a parent enters a child in an SZ junior section on the public form (SZ 十三(一) 网上报名)
at 390 px in Chinese and at 1366 px in English: a wrong birth year is refused in words (REG-4, the
section's age window), the corrected form lands on the registrant's page (REG-18: accepted pending
evidence, with its deadline), which never shows the full ID number; once the stage has closed
(REG-12) the registrant's page leads to the player's own page of pairings and results."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import httpx
from browser_kit import OUT, chromium_page, settle, until

from gomoku_sim.bots import BotPolicy
from gomoku_sim.client import Keys, Platform
from gomoku_sim.driver import EventDriver, RunSpec, SimClock

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
SHOTS = OUT / "entry-form"


async def _sz_event(base: str) -> tuple[str, SimClock]:
    """The SZ 2022 event created on the served platform, its clock inside the registration window."""
    platform = Platform.distributed({s: f"{base}/{s}" for s in ("registration", "pairing", "gameplay", "awards")})
    spec = RunSpec(preset_id="sz-2022", seed=7, sizes={}, policy=BotPolicy(), progress=False)
    clock = SimClock(platform, ("registration", "gameplay"))
    driver = EventDriver(platform, clock, settle, spec)
    await driver.create_event()
    return driver.code, clock


async def _fits(page: Any, width: int, what: str) -> None:
    scroll = await page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"{what}: the page is {scroll} px wide in a {width} px window"


async def _enter(page: Any, served: str, code: str, lang: str, n: int, width: int) -> str:
    zh = lang == "zh"
    await page.goto(f"{served}/events/{code}?lang={lang}")
    await page.screenshot(path=str(SHOTS / f"{width}-{lang}-0-event.png"))
    await page.click("a.enter-link")
    assert "第一步" in await page.inner_text("main") if zh else "Step 1" in await page.inner_text("main")
    await _fits(page, width, "step 1")
    await page.screenshot(path=str(SHOTS / f"{width}-{lang}-1-sections.png"), full_page=True)
    await page.click(
        "a.choice:has-text('男子少年组（大众规则组）')" if zh else "a.choice:has-text('Junior boys, free')"
    )
    main = await page.inner_text("main")
    assert ("2010年1月1日及以后出生" if zh else "born on or after 1 Jan 2010") in main, main
    await page.fill("input[name=name]", "王小明" if zh else "Wang Xiaoming")
    await page.fill("input[name=birth_date]", "2008-03-04")  # two years too old for the junior section
    await page.fill("input[name=id_number]", f"44030520120304{n:04d}")
    await page.fill("input[name=guardian_phone]", "13912345678")
    await page.check("input[name=residency][value=household_registration]")
    await page.fill("input[name=region]", "南山区" if zh else "Nanshan")
    await page.fill("input[name=insurance_policy]", f"PICC-{n:06d}")
    await page.click("button[type=submit]")
    refusal = await page.inner_text("p.refusal")
    assert ("年龄要求" if zh else "does not fit this section") in refusal, refusal
    assert "REG-4" not in refusal and "junior-boys-free" not in refusal
    assert await page.input_value("input[name=name]") == ("王小明" if zh else "Wang Xiaoming")  # what was typed stays
    await _fits(page, width, "refused form")
    await page.screenshot(path=str(SHOTS / f"{width}-{lang}-2-refused.png"), full_page=True)
    await page.fill("input[name=birth_date]", "2012-03-04")
    await page.click("button[type=submit]")
    await page.wait_for_url("**/entry/**")
    return page.url


async def test_sz_13_1_a_parent_enters_a_child_on_a_phone_and_a_desktop(served):
    code, _clock = await _sz_event(served)
    SHOTS.mkdir(parents=True, exist_ok=True)
    async with chromium_page() as (page, problems):
        for n, (viewport, lang) in enumerate(((PHONE, "zh"), (DESKTOP, "en")), start=1):
            width = viewport["width"]
            await page.set_viewport_size(viewport)
            url = await _enter(page, served, code, lang, n, width)
            main = await page.inner_text("main")
            zh = lang == "zh"
            assert ("请收藏本页" if zh else "Bookmark this page") in main
            assert ("已接受（待审材料）" if zh else "accepted, evidence pending") in main, main
            assert ("2022年11月12日（含当日）" if zh else "12 November 2022 (the whole day included)") in main, main
            assert f"44030520120304{n:04d}" not in main and f"{n:04d}" in main  # the ID number masked
            assert "139****5678" in main and "13912345678" not in main
            assert ("户籍证明" if zh else "household registration") in main
            await _fits(page, width, "registrant's page")
            await page.screenshot(path=str(SHOTS / f"{width}-{lang}-3-registrant.png"), full_page=True)
            # the link works again later; a made-up one does not
            await page.goto(url.split("?")[0] + f"?lang={lang}")
            assert ("请收藏本页" if zh else "Bookmark this page") not in await page.inner_text("main")
            missing = await page.request.get(f"{served}/entry/{'x' * 43}?lang={lang}")
            assert missing.status == 404
        assert problems == []


def _boy(n: int) -> dict:
    return {
        "section_id": "junior-boys-free",
        "name": f"张小军{n}",
        "gender": "male",
        "birth_date": "2011-02-03",
        "id_number": f"44030720110203{n:04d}",
        "guardian_phone": "13511112222",
        "residency": {"kind": "household_registration", "region": "宝安区"},
        "insurance_policy": f"PICC-B{n:04d}",
    }


async def test_reg12_once_the_stage_closed_the_registrants_page_leads_to_the_players_games(served):
    """REG-12 (SZ 十三(四): eight in a section, no merge): eight boys entered on the form; after the
    close the registrant's page links to the player's page in the section, by the player's name."""
    code, clock = await _sz_event(served)
    base = f"{served}/registration/v1/events/{code}"
    async with httpx.AsyncClient(timeout=30) as http:
        tokens = []
        for n in range(1, 9):
            made = await http.post(f"{base}/public-entries", json=_boy(n))
            assert made.status_code == 201, made.text
            tokens.append(made.json()["token"])
        await clock.set(datetime.fromisoformat("2022-11-04T10:00:00+08:00"))  # the window closed
        close = await http.post(
            f"{base}/stages/online/close",
            headers={"x-api-key": Keys().operator},
            json={"format_choices": {"junior-boys-free": {"kind": "round_robin"}}},
        )
        assert close.status_code == 200, close.text

        async def paired() -> bool:
            r = await http.get(
                f"{served}/pairing/v1/events/{code}/sections/junior-boys-free", headers={"x-api-key": Keys().operator}
            )
            return r.status_code == 200

        await until("pairing to know the section", paired, timeout_s=30)
    async with chromium_page() as (page, problems):
        await page.set_viewport_size(PHONE)
        await page.goto(f"{served}/entry/{tokens[2]}?lang=zh")
        await page.click("a.games-link")
        await page.wait_for_url("**/sections/junior-boys-free/players/**")
        assert "张小军3" in await page.inner_text("main")
        await _fits(page, 390, "the player's page")
        await page.screenshot(path=str(SHOTS / "390-zh-4-players-page.png"), full_page=True)
        assert problems == []
