"""EVT-7 (issue 16): an arbiter delays a whole time slot through the served pairing process — the
four competition services as processes on PostgreSQL + RabbitMQ (the docker-compose.yml commands) on one fake
clock, SZ 2022's online qualifier (men-free, men-pro and women-pro all start round 1 at 09:00 on
11-5, round 2 at 10:30).

``POST …/sections/men-pro/rounds/1/delay-slot`` moves round 1 of every section of the 09:00 slot
together: registration's ``/schedule``, pairing's ``/round-times`` and every gameplay game's
``starts_at`` agree on the new start for each of them, and each section's delay is audited with
the slot's sections. A slot delay refused for one section (women-pro's round has started; the
other two, delayed further on their own, have not) is a 409 in the common error shape naming
that section, and nothing moves in any section: all or nothing. The slot delay of round 2 that
follows is seen by registration, so the refused one would have been seen before it.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from gomoku_sim.client import ApiError

from .schedule_kit import (
    CODE,
    PLAYED,
    ROUND_1,
    assert_agreement,
    gameplay_starts,
    instant,
    pairing_starts,
    registration_starts,
    round_one_served,
    until,
)

SLOT_DELAYED = ROUND_1 + timedelta(minutes=30)
ALONE_DELAYED = ROUND_1 + timedelta(minutes=45)
ROUND_2 = ROUND_1.replace(hour=10, minute=30)
REASON = "the venue's network is down"


async def _delay_slot(platform, section: str, rnd: int, starts_at, reason: str = REASON) -> dict:
    path = f"/v1/events/{CODE}/sections/{section}/rounds/{rnd}/delay-slot"
    return await platform.post("pairing", path, {"starts_at": starts_at.isoformat(), "reason": reason}, role="arbiter")


async def _delays(platform, sections: list[str]) -> dict[str, list[dict]]:
    """Each section's audited delays."""
    out = {}
    for section in sections:
        audit = await platform.get("pairing", f"/v1/events/{CODE}/sections/{section}/audit", role="arbiter")
        out[section] = [entry for entry in audit["audit"] if entry["action"] == "delay"]
    return out


async def _everywhere(platform, expected: dict[tuple[str, int], object]) -> bool:
    """Registration's schedule and gameplay's games (where there are games) show ``expected``."""
    sections = sorted({section for section, _ in expected})
    published = await registration_starts(platform, sections)
    used = await gameplay_starts(platform)
    OBSERVED[:] = [{key: (published.get(key), used.get(key)) for key in expected}]
    return all(published.get(key) == start and used.get(key, {start}) == {start} for key, start in expected.items())


#: what _everywhere saw last (said when a wait times out)
OBSERVED: list = []


async def test_evt7_a_slot_delay_moves_every_section_of_the_slot_everywhere_and_a_refusal_moves_none(
    tmp_path, fresh_database, amqp_url, bus_namespace
):
    async with round_one_served(tmp_path / "logs", fresh_database, amqp_url, bus_namespace) as served:
        platform, stack = served.platform, served.stack
        played = PLAYED

        # EVT-7: the 09:00 slot's round 1, delayed to 09:30 through men-pro: every section moves
        moved = await _delay_slot(platform, "men-pro", 1, SLOT_DELAYED)
        assert [s["section_id"] for s in moved["sections"]] == played, moved
        assert {instant(s["previous_starts_at"]) for s in moved["sections"]} == {ROUND_1}, moved
        slot = {(section, 1): SLOT_DELAYED for section in played}
        await until("registration and gameplay follow the slot delay", lambda: _everywhere(platform, slot))
        held, used = await assert_agreement(platform, played)
        assert {held[(section, 1)] for section in played} == {SLOT_DELAYED}
        assert {used[(section, 1)] == {SLOT_DELAYED} for section in played} == {True}
        schedule = await platform.get("registration", f"/v1/events/{CODE}/schedule")
        [session] = [
            s
            for stage in schedule["stages"]
            for s in stage["sessions"]
            if s["round"] == 1 and set(played) <= set(s["sections"])
        ]
        assert (instant(session["starts_at"]), session["delayed"], session["delay_reason"]) == (
            SLOT_DELAYED,
            True,
            REASON,
        ), session
        for section, delays in (await _delays(platform, played)).items():
            [delay] = delays
            assert delay["details"]["slot_sections"] == played, (section, delay)

        # men-free and men-pro are delayed further on their own (09:45), decided at the same instant
        # of the fake clock as the slot delay (registration keeps the later start); at 09:35
        # women-pro's round 1 (09:30) is under way: a slot delay to 10:00 is refused for it and moves none
        for section in ("men-free", "men-pro"):
            path = f"/v1/events/{CODE}/sections/{section}/rounds/1/delay"
            body = {"starts_at": ALONE_DELAYED.isoformat(), "reason": "their hall is not ready"}
            await platform.post("pairing", path, body, role="arbiter")
        alone = {("men-free", 1): ALONE_DELAYED, ("men-pro", 1): ALONE_DELAYED, ("women-pro", 1): SLOT_DELAYED}
        try:
            await until("registration and gameplay follow the single delays", lambda: _everywhere(platform, alone))
        except TimeoutError:
            raise AssertionError((OBSERVED, await pairing_starts(platform, played))) from None
        await stack.clock.set(ROUND_1 + timedelta(minutes=35))
        audited = await _delays(platform, played)
        with pytest.raises(ApiError) as refused:
            await _delay_slot(platform, "men-pro", 1, ROUND_1 + timedelta(hours=1), "a slot delay too late")
        assert refused.value.status == 409, refused.value.body
        error = refused.value.body["error"]
        assert error["code"] == "round_started" and error["message"], error
        assert error["details"] == {"section_id": "women-pro", "slot_sections": played}, error
        assert {key: start for key, start in (await pairing_starts(platform, played)).items() if key[1] == 1} == alone
        assert await _delays(platform, played) == audited

        # round 2's slot (10:30, not paired yet) delayed to 11:00: registration sees it, so it
        # would have seen the refused delay before it; round 1 is as it was, agreed everywhere
        later = ROUND_2 + timedelta(minutes=30)
        second = await _delay_slot(platform, "men-free", 2, later, "the morning runs late")
        assert [s["section_id"] for s in second["sections"]] == played, second
        round_two = {(section, 2): later for section in played}
        await until("registration follows round 2's slot delay", lambda: _everywhere(platform, round_two))
        held, used = await assert_agreement(platform, played)
        assert {key: start for key, start in held.items() if key[1] == 1} == alone
        assert {key: starts for key, starts in used.items() if key[1] == 1} == {
            key: {start} for key, start in alone.items()
        }
        assert {held[(section, 2)] for section in played} == {later}
