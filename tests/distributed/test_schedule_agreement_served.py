"""EVT-7: the services agree on the schedule — one seeded event (SZ 2022's online qualifier,
seed 五: 11-5 for the men's and women's sections), the four services as processes on PostgreSQL +
RabbitMQ (the docker-compose.yml commands) on one fake clock, entered and closed through
registration as an organiser does it.

Every round's start as registration publishes it (``/schedule`` JSON, ``schedule.ics`` and a
player's own schedule), as pairing holds it (``/round-times``: the schedule, the delays and the
start ``round.paired`` carried) and as gameplay's games use it (each game's ``starts_at``; its
no-show limit counted from it, PAIR-6 / PLAY-7) is the same instant — before and after an arbiter
delays one section's round 1 (``POST …/rounds/1/delay``, announced as ``round.rescheduled``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta, timezone
from typing import Any

from icalendar import Calendar

from gomoku_sim.client import SERVICES, all_games
from gomoku_sim.driver import EventDriver, RunSpec
from gomoku_sim.stack import distributed_stack

CST = timezone(timedelta(hours=8))
CODE = "sz22sched"
#: a small field: the women's free section (4) merges into the men's (REG-12), junior sections empty
SIZES = {
    "men-free": 6,
    "women-free": 4,
    "junior-boys-free": 0,
    "junior-girls-free": 0,
    "men-pro": 6,
    "women-pro": 6,
    "junior-boys-pro": 0,
    "junior-girls-pro": 0,
}
#: the preset's round 1 on 11-5 (SZ 五 gives the day; the time is the organiser's choice)
ROUND_1 = datetime(2022, 11, 5, 9, 0, tzinfo=CST)
DELAYED = ROUND_1 + timedelta(minutes=30)
REASON = "the platform is being restarted"

Starts = dict[tuple[str, int], datetime]


async def _until(what: str, probe: Callable[[], Awaitable[Any]], timeout: float = 180.0) -> Any:
    async with asyncio.timeout(timeout):
        while not (value := await probe()):
            await asyncio.sleep(0.25)
    assert value, what
    return value


def _at(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


async def registration_starts(platform, sections: list[str]) -> Starts:
    """Registration's published schedule (JSON): (section, round) -> start."""
    schedule = await platform.get("registration", f"/v1/events/{CODE}/schedule")
    [online] = [stage for stage in schedule["stages"] if stage["stage"] == "online"]
    starts: Starts = {}
    for session in online["sessions"]:
        for section in session["sections"]:
            if section in sections:
                assert (section, session["round"]) not in starts, session
                starts[(section, session["round"])] = _at(session["starts_at"])
    return starts


async def calendar_starts(platform) -> set[datetime]:
    """The start of every session of registration's iCalendar."""
    body = await platform.get("registration", f"/v1/events/{CODE}/schedule.ics", raw=True)
    return {event.decoded("dtstart") for event in Calendar.from_ical(body.encode()).walk("VEVENT")}


async def pairing_starts(platform, sections: list[str]) -> Starts:
    """Pairing's round times: (section, round) -> the start as it stands (a published round:
    the start its round.paired carried)."""
    starts: Starts = {}
    for section in sections:
        times = await platform.get("pairing", f"/v1/events/{CODE}/sections/{section}/round-times")
        for rnd in times["rounds"]:
            starts[(section, rnd["round"])] = _at(rnd["starts_at"])
    return starts


async def gameplay_starts(platform) -> dict[tuple[str, int], set[datetime]]:
    """The starts gameplay's games use: (section, round) -> the distinct starts of its games."""
    starts: dict[tuple[str, int], set[datetime]] = {}
    for game in await all_games(platform, {"event_code": CODE}):
        starts.setdefault((game["section_id"], game["round"]), set()).add(_at(game["starts_at"]))
    return starts


async def assert_agreement(platform, sections: list[str]) -> tuple[Starts, dict]:
    """Registration, pairing and gameplay give every round the same start."""
    published = await registration_starts(platform, sections)
    held = await pairing_starts(platform, sections)
    assert published == held, {key: (published.get(key), held.get(key)) for key in set(published) | set(held)}
    assert await calendar_starts(platform) >= set(published.values())
    used = await gameplay_starts(platform)
    assert used, "no games"
    for key, starts in used.items():
        assert starts == {held[key]}, (key, starts, held[key])
    return held, used


async def close_online_stage(driver: EventDriver) -> list[str]:
    """Register the field, check everyone in and close the online stage the day before it
    (the driver's own close would move the clock to the first round); the played sections."""
    await driver.create_event()
    await driver.create_units()
    await driver.register()
    await driver.verify_evidence()
    await driver.clock.set(datetime(2022, 11, 4, 10, 0, tzinfo=CST))
    entries = await driver.entries("online")
    ids = sorted(e["entry_id"] for e in entries if e.get("status") in ("accepted", "accepted_pending_evidence"))
    body = {
        "entry_ids": ids,
        "no_show": [],
        "documents_shown": list(driver.config.check_in.documents),
        "insurance_refs": {i: f"policy-{i}" for i in ids},
    }
    await driver.p.post("registration", f"/v1/events/{CODE}/stages/online/check-in", body, role="arbiter")
    counts = {sid: sum(1 for e in entries if e["section_id"] == sid and e["entry_id"] in ids) for sid in SIZES}
    closed = await driver.p.post(
        "registration",
        f"/v1/events/{CODE}/stages/online/close",
        {"format_choices": driver.format_choices("online", counts)},
    )
    return sorted(s["section_id"] for s in closed["sections"] if s["status"] == "ready")


async def test_evt7_round_starts_agree_in_registration_pairing_and_gameplay_before_and_after_a_delay(
    tmp_path, fresh_database, amqp_url, bus_namespace
):
    databases = {service: await fresh_database() for service in SERVICES}
    # the preset's rounds (7 free, 5 professional: SZ 九(一)), every one of them scheduled
    run = RunSpec(preset_id="sz-2022", seed=3, event_code=CODE, sizes=SIZES, rounds=None, progress=False)
    async with distributed_stack(
        amqp_url=amqp_url, database_urls=databases, log_dir=tmp_path / "logs", namespace=bus_namespace
    ) as stack:
        platform = stack.platform
        driver = EventDriver(platform, stack.clock, stack.quiet, run)
        played = await close_online_stage(driver)
        assert played == ["men-free", "men-pro", "women-pro"], played

        async def round_one_in_gameplay() -> dict | None:
            used = await gameplay_starts(platform)
            return used if {section for section, _ in used} == set(played) else None

        await _until("round 1 of every played section in gameplay", round_one_in_gameplay)
        held, _ = await assert_agreement(platform, played)
        # the sections of the 09:00 slot start round 1 together, at the preset's time
        assert {held[(section, 1)] for section in played} == {ROUND_1}

        # a player's own schedule lists the rounds of their section, at the same times
        entry = next(e for e in await driver.entries("online") if e["section_id"] == "men-pro")
        player_id = entry["players"][0]["player_id"]
        own = await platform.get("registration", f"/v1/events/{CODE}/players/{player_id}/schedule")
        sessions = [s for stage in own["stages"] for s in stage["sessions"]]
        assert {(s["round"], _at(s["starts_at"])) for s in sessions} == {
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

        await _until("registration and gameplay follow the delay", delay_everywhere)
        held, _ = await assert_agreement(platform, played)
        assert held[("men-pro", 1)] == DELAYED
        assert {held[(section, 1)] for section in played if section != "men-pro"} == {ROUND_1}
        times = await platform.get("pairing", f"/v1/events/{CODE}/sections/men-pro/round-times")
        assert (_at(times["rounds"][0]["scheduled_at"]), _at(times["rounds"][0]["delayed_to"])) == (ROUND_1, DELAYED)
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

        by_section = await _until("the 09:00 games forfeited", forfeits)
        assert by_section["men-pro"] == {"waiting"}, by_section

        # the forfeited sections' round 2 is paired at its scheduled time, agreed everywhere again
        async def round_two_in_gameplay() -> bool:
            used = await gameplay_starts(platform)
            return all((section, 2) in used for section in played if section != "men-pro")

        await _until("round 2 of the 09:00 sections in gameplay", round_two_in_gameplay)
        held, _ = await assert_agreement(platform, played)
        assert held[("men-free", 2)] == datetime(2022, 11, 5, 10, 30, tzinfo=CST)
