"""Issue 34: a provincial leader enters an NY delegation on the roster page (NY 七(一): 可组队参赛，
每队限报20人; 七(三): 2021年各组前8名的棋手报名不受名额限制) at 390 px in Chinese and at 1366 px
in English: 20 players counted and one claiming a place on the 2021 top-8 list the organiser
loaded (REG-16), checked without submitting, then submitted; the delegation's page shows each
entry accepted, the quota 20 / 20, the exemption checked against the list and why, and no full
ID or phone number; the leader's lodging is listed with its rate to be announced (NY 十二(三))."""

from __future__ import annotations

from typing import Any

from browser_kit import OUT, chromium_page, settle

from gomoku_sim.bots import BotPolicy
from gomoku_sim.client import Platform
from gomoku_sim.driver import EventDriver, RunSpec, SimClock

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
SHOTS = OUT / "delegation-roster"


def id_number(n: int) -> str:
    return f"33010{n % 10}20050303{n:04d}"[-18:]


async def _ny_event(base: str) -> tuple[str, Platform]:
    """NY 2022 on the served platform, its clock a week before the close of registration."""
    platform = Platform.distributed({s: f"{base}/{s}" for s in ("registration", "pairing", "gameplay", "awards")})
    spec = RunSpec(preset_id="ny-2022", seed=11, sizes={}, policy=BotPolicy(), progress=False)
    driver = EventDriver(platform, SimClock(platform, ("registration", "gameplay")), settle, spec)
    await driver.create_event()
    return driver.code, platform


async def _fits(page: Any, width: int, what: str) -> None:
    scroll = await page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"{what}: the page is {scroll} px wide in a {width} px window"


async def _press(page: Any, step: str) -> None:
    """One of the roster's buttons, and the page it posts to."""
    button = page.locator(f"button[value={step}]")
    await button.scroll_into_view_if_needed()
    async with page.expect_navigation():
        await button.click()


async def _fill_roster(page: Any, base: int, zh: bool) -> None:
    """Leader, coach and 21 players (the last claims 2021 place 3), rows added as the form asks."""
    while await page.locator("fieldset.person").count() < 23:
        await _press(page, "more")
    await page.fill("input[name=p0_name]", "王领队" if zh else "Wang Lingdui")
    await page.fill("input[name=p1_name]", "李教练" if zh else "Li Jiaolian")
    await page.select_option("select[name=p0_room]", "standard")  # NY 十二(三): 食宿费, the rate announced later
    await page.fill("input[name=p0_nights]", "5")
    for i in range(21):
        n, row = base + i, i + 2
        await page.select_option(f"select[name=p{row}_role]", "player")
        await page.fill(f"input[name=p{row}_name]", f"选手{n}")
        await page.check(f"input[name=p{row}_gender][value=male]")
        await page.fill(f"input[name=p{row}_birth_date]", "2005-03-03")
        await page.fill(f"input[name=p{row}_id_number]", id_number(n))
        await page.select_option(f"select[name=p{row}_section]", "youth-male")
    await page.fill("input[name=p22_exempt]", "2021 青年男子组 第3名")


async def _delegation(page: Any, served: str, code: str, lang: str, base: int, width: int) -> None:
    zh = lang == "zh"
    shots = f"{width}-{lang}"
    await page.goto(f"{served}/events/{code}?lang={lang}")
    await page.click("a.roster-link")
    await page.fill("input[name=unit_name]", "浙江省代表队" if zh else "Zhejiang")
    await page.fill("input[name=leader_name]", "王领队" if zh else "Wang Lingdui")
    await page.fill("input[name=leader_phone]", "13900001234")
    await _fits(page, width, "start")
    await page.screenshot(path=str(SHOTS / f"{shots}-1-start.png"), full_page=True)
    await page.click("button.primary")
    await page.wait_for_url("**/roster?**")
    main = await page.inner_text("main")
    assert ("请收藏本页" if zh else "Bookmark this page") in main, main
    await _fill_roster(page, base, zh)
    counter = await page.inner_text("#quota")
    assert "20 / 20" in counter, counter  # the script counts 20: the 21st claims an exemption
    await _fits(page, width, "roster")
    # the roster is 20 000 px long: the shots are of the window (the counter and the last person)
    await page.screenshot(path=str(SHOTS / f"{shots}-2-filled.png"))
    await _press(page, "check")
    status = await page.inner_text("main")
    assert ("检查通过" if zh else "every row would be accepted") in status, status
    assert ("经核对在上届前列名单上" if zh else "outside the quota") in status
    await page.locator("p.verdict").last.scroll_into_view_if_needed()
    await page.screenshot(path=str(SHOTS / f"{shots}-3-checked.png"))
    await _press(page, "submit")
    assert "sent=1" in page.url
    main = await page.inner_text("main")
    assert ("名单已提交" if zh else "The roster is in") in main, main
    assert main.count("已接受" if zh else "accepted") >= 21
    assert ("计入名额的运动员：20 / 20" if zh else "Players counted in the quota: 20 / 20") in main, main
    assert f"选手{base + 20}" in main and ("不占名额" if zh else "outside the quota") in main
    assert (
        "王领队：食宿费 × 5 = 标准另行通知" if zh else "Wang Lingdui: Board and lodging × 5 = rate announced later"
    ) in main
    assert "139****1234" in main and "13900001234" not in main
    assert id_number(base) not in main and "youth-male" not in main and "units/" not in main
    await _fits(page, width, "delegation page")
    await page.screenshot(path=str(SHOTS / f"{shots}-4-delegation.png"), full_page=True)


async def test_ny_7_a_provincial_leader_enters_a_delegation_of_21_with_one_exemption(served):
    code, platform = await _ny_event(served)
    SHOTS.mkdir(parents=True, exist_ok=True)
    listed = [
        {"section": "youth-male", "place": 3, "name": f"选手{base + 20}", "id_number": id_number(base + 20)}
        for base in (100, 200)
    ]
    body = {"edition": "2021", "source": "2021 final standings", "players": listed}
    await platform.post("registration", f"/v1/events/{code}/quota-exemptions", body)
    async with chromium_page() as (page, problems):
        for base, (viewport, lang) in ((100, (PHONE, "zh")), (200, (DESKTOP, "en"))):
            await page.set_viewport_size(viewport)
            await _delegation(page, served, code, lang, base, viewport["width"])
        assert problems == []
