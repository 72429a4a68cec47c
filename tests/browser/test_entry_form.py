"""Issue 34: a parent enters a child in an SZ junior section on the public form (SZ 十三(一) 网上报名)
at 390 px in Chinese and at 1366 px in English: a wrong birth year is refused in words (REG-4, the
section's age window), the corrected form lands on the registrant's page (REG-18: accepted pending
evidence, with its deadline), which never shows the full ID number."""

from __future__ import annotations

from typing import Any

from browser_kit import OUT, chromium_page, settle

from gomoku_sim.bots import BotPolicy
from gomoku_sim.client import Platform
from gomoku_sim.driver import EventDriver, RunSpec, SimClock

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
SHOTS = OUT / "entry-form"


async def _sz_event(base: str) -> str:
    """The SZ 2022 event created on the served platform, its clock inside the registration window."""
    platform = Platform.distributed({s: f"{base}/{s}" for s in ("registration", "pairing", "gameplay", "awards")})
    spec = RunSpec(preset_id="sz-2022", seed=7, sizes={}, policy=BotPolicy(), progress=False)
    driver = EventDriver(platform, SimClock(platform, ("registration", "gameplay")), settle, spec)
    await driver.create_event()
    return driver.code


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
    code = await _sz_event(served)
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
