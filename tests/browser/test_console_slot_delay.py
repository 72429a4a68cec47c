"""EVT-7: an arbiter delays a whole time slot from the staff console, in a real Chromium, against
the embedded runner served over a socket. A DA 2023 field with two sections (open and junior,
both scheduled at 09:00 and 14:30 on the first day) starts round 1 at 09:00. Delaying round 1's
slot is refused in words (the round has started), in Chinese and in English, and nothing moves;
delaying round 2's slot by 30 minutes moves both sections together: the console says the new
start of each, pairing's round times and the public schedule on the event page show 15:00 for
every section of the slot. A form posted without its CSRF token changes nothing. Screenshots go
to test-output/browser/."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from browser_kit import OUT, browser_or_fail, chromium_page, console_signed_in, registered_da_event, until

from gomoku_sim.client import ApiError, Platform
from gomoku_sim.driver import EventDriver

CST = timezone(timedelta(hours=8))
ROUND_2 = datetime(2023, 8, 19, 14, 30, tzinfo=CST)
DELAYED = ROUND_2 + timedelta(minutes=30)
SLOT = ("open", "junior")


async def _two_sections_started(base: str) -> tuple[Platform, EventDriver]:
    """Open and junior (6 each) checked in and closed: round 1 of both published at 09:00."""
    platform, driver = await registered_da_event(base, seed=11, sizes={"open": 6, "junior": 6, "public": 0})
    await driver.check_in_and_close(driver.config.stages[0].id)

    async def round_one_everywhere() -> bool:
        for sid in SLOT:
            try:
                section = await platform.get("pairing", f"/v1/events/{driver.code}/sections/{sid}")
            except ApiError as exc:  # the stage's closing has not reached pairing yet
                if exc.status != 404:
                    raise
                return False
            if section["current_round"] < 1:
                return False
        return True

    await until("round 1 of open and junior", round_one_everywhere, 180)
    return platform, driver


async def _starts(platform: Platform, code: str, rnd: int) -> dict[str, datetime]:
    """Pairing's start of round ``rnd`` in each section of the slot."""
    starts = {}
    for sid in SLOT:
        times = await platform.get("pairing", f"/v1/events/{code}/sections/{sid}/round-times")
        starts[sid] = datetime.fromisoformat(times["rounds"][rnd - 1]["starts_at"])
    return starts


async def _published(platform: Platform, code: str) -> dict[tuple[int, str], datetime]:
    """Registration's public schedule: (round, section) -> start."""
    schedule = await platform.get("registration", f"/v1/events/{code}/schedule")
    return {
        (session["round"], sid): datetime.fromisoformat(session["starts_at"])
        for stage in schedule["stages"]
        for session in stage["sessions"]
        for sid in session["sections"]
    }


async def _delay(page, rnd: int, minutes: str, reason: str) -> None:
    form = page.locator("form.slot-form")
    await form.locator("select[name=round]").select_option(str(rnd))
    await form.locator("input[name=minutes]").fill(minutes)
    await form.locator("input[name=reason]").fill(reason)
    await form.locator("button[type=submit]").click()


async def test_evt7_an_arbiter_delays_a_whole_time_slot_in_chromium(served):
    browser_or_fail()  # before the event is set up: a missing browser fails at once
    platform, driver = await _two_sections_started(served)
    code = driver.code
    round_one = await _starts(platform, code, 1)
    assert await _starts(platform, code, 2) == {sid: ROUND_2 for sid in SLOT}
    try:
        async with chromium_page(height=1000) as (page, problems):
            await console_signed_in(page, served, f"/staff/events/{code}/sections/open")
            assert "2023-08-19 14:30" in await page.inner_text('#times tr[data-round="2"]')

            # round 1 has started (09:00): the slot delay is refused in words, nothing moves
            await _delay(page, 1, "30", "场馆推迟开放")
            await page.wait_for_selector("#times .refusal")
            said = await page.inner_text("#times .refusal")
            assert "已经开始" in said and "整个时段都未推迟" in said and "{" not in said, said
            assert "公开组" in said or "少年组" in said, said
            await page.screenshot(path=str(OUT / "staff-slot-delay-refused.png"), full_page=True)
            assert await _starts(platform, code, 1) == round_one

            # the same in English; and minutes that are no whole number are refused before any call
            await page.goto(f"{served}/staff/events/{code}/sections/open?lang=en")
            await _delay(page, 1, "30", "the hall opens late")
            await page.wait_for_selector("#times .refusal")
            said = await page.inner_text("#times .refusal")
            assert "has started" in said and "Nothing in the slot was delayed" in said and "{" not in said, said
            await _delay(page, 2, "half an hour", "the hall opens late")
            await page.wait_for_selector("#times .refusal")
            assert "whole number" in await page.inner_text("#times .refusal")
            assert await _starts(platform, code, 2) == {sid: ROUND_2 for sid in SLOT}

            # round 2's slot, 30 minutes later: both sections move together, the console says so
            await page.goto(f"{served}/staff/events/{code}/sections/open?lang=zh")
            await _delay(page, 2, "30", "午休延长")
            await page.wait_for_selector("#times .done")
            done = await page.inner_text("#times .done")
            assert "2023-08-19 15:00" in done and "公开组" in done and "少年组" in done, done
            assert "2023-08-19 15:00" in await page.inner_text('#times tr[data-round="2"]')
            await page.screenshot(path=str(OUT / "staff-slot-delayed.png"), full_page=True)
            assert await _starts(platform, code, 2) == {sid: DELAYED for sid in SLOT}
            assert await _starts(platform, code, 1) == round_one

            # the public schedule (registration, told by round.rescheduled) follows for every section
            async def schedule_moved() -> bool:
                published = await _published(platform, code)
                return all(published.get((2, sid)) == DELAYED for sid in SLOT)

            await until("the public schedule to show the delay", schedule_moved, 180)
            await page.goto(f"{served}/events/{code}?lang=zh")
            rows = page.locator(".schedule-table tbody tr", has_text="第 2 轮")
            texts = [await rows.nth(i).inner_text() for i in range(await rows.count())]
            # the public section (no entrants, not played) keeps its 14:30; the slot's two sections moved
            [moved] = [row for row in texts if "15:00" in row]
            assert "2023-08-19 15:00" in moved and "公开组" in moved and "少年组" in moved, texts
            assert "原定 2023-08-19 14:30" in moved and "午休延长" in moved, texts
            assert all("公开组" not in row and "少年组" not in row for row in texts if row != moved), texts
            await page.screenshot(path=str(OUT / "public-schedule-slot-delayed.png"), full_page=True)

            # a form posted without its CSRF token changes nothing
            refused = await page.request.post(
                f"{served}/staff/events/{code}/sections/open/delay-slot",
                form={"round": "2", "minutes": "30", "reason": "no token"},
            )
            assert refused.status == 403
            assert await _starts(platform, code, 2) == {sid: DELAYED for sid in SLOT}
    finally:
        await platform.aclose()
    assert problems == [], problems
