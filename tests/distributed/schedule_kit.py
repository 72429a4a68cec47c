"""EVT-7: the schedule served tests' field and readers — one seeded event (SZ 2022's online
qualifier, seed 五: 11-5 for the men's and women's sections) entered and closed through
registration as an organiser does it, and every round's start as registration publishes it, as
pairing holds it and as gameplay's games use it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
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

Starts = dict[tuple[str, int], datetime]


async def until(what: str, probe: Callable[[], Awaitable[Any]], timeout: float = 180.0) -> Any:
    async with asyncio.timeout(timeout):
        while not (value := await probe()):
            await asyncio.sleep(0.25)
    assert value, what
    return value


def instant(text: str | None) -> datetime | None:
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
                starts[(section, session["round"])] = instant(session["starts_at"])
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
            starts[(section, rnd["round"])] = instant(rnd["starts_at"])
    return starts


async def gameplay_starts(platform) -> dict[tuple[str, int], set[datetime]]:
    """The starts gameplay's games use: (section, round) -> the distinct starts of its games."""
    starts: dict[tuple[str, int], set[datetime]] = {}
    for game in await all_games(platform, {"event_code": CODE}):
        starts.setdefault((game["section_id"], game["round"]), set()).add(instant(game["starts_at"]))
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


#: the sections played: the 09:00 slot of 11-5 (women-free merged into men-free)
PLAYED = ["men-free", "men-pro", "women-pro"]


@dataclass
class Served:
    stack: Any
    driver: EventDriver
    #: pairing's round starts once round 1 is in gameplay: the preset's, every section
    held: Starts

    @property
    def platform(self) -> Any:
        return self.stack.platform


@asynccontextmanager
async def round_one_served(
    log_dir: Path, fresh_database: Callable[[], Awaitable[str]], amqp_url: str, bus_namespace: str
) -> AsyncIterator[Served]:
    """The four competition services as processes on PostgreSQL + RabbitMQ (the docker-compose.yml commands)
    on one fake clock, the field entered and the online stage closed (``PLAYED``), round 1 of
    every played section in gameplay and its start the preset's in all three services."""
    databases = {service: await fresh_database() for service in SERVICES}
    # the preset's rounds (7 free, 5 professional: SZ 九(一)), every one of them scheduled
    run = RunSpec(preset_id="sz-2022", seed=3, event_code=CODE, sizes=SIZES, rounds=None, progress=False)
    async with distributed_stack(
        amqp_url=amqp_url, database_urls=databases, log_dir=log_dir, namespace=bus_namespace
    ) as stack:
        driver = EventDriver(stack.platform, stack.clock, stack.quiet, run)
        played = await close_online_stage(driver)
        assert played == PLAYED, played

        async def round_one_in_gameplay() -> bool:
            return {section for section, _ in await gameplay_starts(stack.platform)} == set(played)

        await until("round 1 of every played section in gameplay", round_one_in_gameplay)
        held, _ = await assert_agreement(stack.platform, played)
        # the sections of the 09:00 slot start round 1 together, at the preset's time
        assert {held[(section, 1)] for section in played} == {ROUND_1}
        yield Served(stack, driver, held)
