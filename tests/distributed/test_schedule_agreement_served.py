"""EVT-7: the services agree on the schedule — one seeded event (SZ 2022's online qualifier,
seed 五: 11-5 for the men's and women's sections), the four competition services as processes on PostgreSQL +
RabbitMQ (the docker-compose.yml commands) on one fake clock, entered and closed through
registration as an organiser does it.

Every round's start as registration publishes it (``/schedule`` JSON, ``schedule.ics`` and a
player's own schedule), as pairing holds it (``/round-times``: the schedule, the delays and the
start ``round.paired`` carried) and as gameplay's games use it (each game's ``starts_at``; its
no-show limit counted from it, PAIR-6 / PLAY-7) is the same instant — before and after an arbiter
delays one section's round 1 (``POST …/rounds/1/delay``, announced as ``round.rescheduled``).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from gomoku_sim.client import all_games

from .schedule_kit import (
    CODE,
    CST,
    PLAYED,
    ROUND_1,
    assert_agreement,
    gameplay_starts,
    instant,
    registration_starts,
    round_one_served,
    until,
)

DELAYED = ROUND_1 + timedelta(minutes=30)
REASON = "the platform is being restarted"


async def test_evt7_round_starts_agree_in_registration_pairing_and_gameplay_before_and_after_a_delay(
    tmp_path, fresh_database, amqp_url, bus_namespace
):
    async with round_one_served(tmp_path / "logs", fresh_database, amqp_url, bus_namespace) as served:
        platform, driver, stack, held = served.platform, served.driver, served.stack, served.held
        played = PLAYED

        # a player's own schedule lists the rounds of their section, at the same times
        entry = next(e for e in await driver.entries("online") if e["section_id"] == "men-pro")
        player_id = entry["players"][0]["player_id"]
        own = await platform.get("registration", f"/v1/events/{CODE}/players/{player_id}/schedule")
        sessions = [s for stage in own["stages"] for s in stage["sessions"]]
        assert {(s["round"], instant(s["starts_at"])) for s in sessions} == {
            (rnd, start) for (section, rnd), start in held.items() if section == "men-pro"
        }

        # EVT-7: the arbiter delays men-pro's round 1 by 30 minutes, before it starts
        await platform.post(
            "pairing",
            f"/v1/events/{CODE}/sections/men-pro/rounds/1/delay",
            {"starts_at": DELAYED.isoformat(), "reason": REASON},
            role="arbiter",
        )

        async def delay_everywhere() -> bool:
            published = await registration_starts(platform, played)
            used = await gameplay_starts(platform)
            return published[("men-pro", 1)] == DELAYED and used.get(("men-pro", 1)) == {DELAYED}

        await until("registration and gameplay follow the delay", delay_everywhere)
        held, _ = await assert_agreement(platform, played)
        assert held[("men-pro", 1)] == DELAYED
        assert {held[(section, 1)] for section in played if section != "men-pro"} == {ROUND_1}
        times = await platform.get("pairing", f"/v1/events/{CODE}/sections/men-pro/round-times")
        assert (instant(times["rounds"][0]["scheduled_at"]), instant(times["rounds"][0]["delayed_to"])) == (
            ROUND_1,
            DELAYED,
        )
        schedule = await platform.get("registration", f"/v1/events/{CODE}/schedule")
        moved = [s for stage in schedule["stages"] for s in stage["sessions"] if s["sections"] == ["men-pro"]]
        assert [(s["round"], s["delayed"], s["delay_reason"]) for s in moved] == [(1, True, REASON)]

        # PAIR-6 / PLAY-7: the no-show limit (15 minutes) runs from each game's start. Nobody
        # joined: at 09:16 the 09:00 games are forfeited, men-pro's (delayed to 09:30) still wait
        await stack.clock.set(ROUND_1 + timedelta(minutes=16))
        await platform.post("gameplay", "/v1/ops/sweep")

        async def forfeits() -> dict | None:
            games = await all_games(platform, {"event_code": CODE, "round": 1})
            by_section: dict[str, set] = {}
            for game in games:
                by_section.setdefault(game["section_id"], set()).add(game["status"])
            done = all(by_section[s] == {"finished"} for s in played if s != "men-pro")
            return by_section if done else None

        by_section = await until("the 09:00 games forfeited", forfeits)
        assert by_section["men-pro"] == {"waiting"}, by_section

        # the forfeited sections' round 2 is paired at its scheduled time, agreed everywhere again
        async def round_two_in_gameplay() -> bool:
            used = await gameplay_starts(platform)
            return all((section, 2) in used for section in played if section != "men-pro")

        await until("round 2 of the 09:00 sections in gameplay", round_two_in_gameplay)
        held, _ = await assert_agreement(platform, played)
        assert held[("men-free", 2)] == datetime(2022, 11, 5, 10, 30, tzinfo=CST)
