"""EVT-7 over real sockets: registration, pairing and gameplay as in docker-compose.yml, on
PostgreSQL + RabbitMQ, each on its own fake clock at 08:00 of the SZ online day. A section
closed with its scheduled round times is paired: the game waits for 09:00 (a move is refused
with 409 not_started); the arbiter delays round 1 to 09:30 in pairing — gameplay moves the game's
start and registration's iCalendar shows the round at the new time, with the reason."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta, timezone

import httpx
from icalendar import Calendar

from gomoku_shared.contracts import encode, envelope_for
from gomoku_shared.contracts.common import ClockSpec, Entrant, Ruleset, SectionRules
from gomoku_shared.contracts.events import SectionClosed
from gomoku_shared.messaging.rabbit import RabbitEventBus

from .compose_commands import LocalCompose

CST = timezone(timedelta(hours=8))
OP, ARB = {"x-api-key": "op-key"}, {"x-api-key": "arb-key"}
SERVED = ("registration", "pairing", "gameplay")
#: SZ 五 online 11-5; the round times of the preset (the organiser's choice)
SLOTS = [datetime(2022, 11, 5, h, m, tzinfo=CST) for h, m in ((9, 0), (10, 30), (13, 30))]
GAME = "sz22.online.men-free.r1.r1.b1.g1"


def _closed() -> SectionClosed:
    rules = SectionRules(
        rounds=3,
        ruleset=Ruleset(track="free"),
        clock=ClockSpec(kind="sudden_death", base_s=900),
        round_starts=SLOTS,
    )
    entrants = [Entrant(entrant_id=f"e{n}", name=f"Player {n}", rating=2000 - n) for n in (1, 2)]
    return SectionClosed(
        event_code="sz22",
        stage="online",
        section_id="men-free",
        name="Men, free rules",
        status="ready",
        rules=rules,
        entrants=entrants,
    )


async def _until(what: str, probe, timeout: float = 30.0):
    async with asyncio.timeout(timeout):
        while not (value := await probe()):
            await asyncio.sleep(0.1)
    assert value, what
    return value


async def test_evt7_schedule_delay_and_calendar_over_sockets(fresh_database, amqp_url, bus_namespace, tmp_path):
    databases = {service: await fresh_database() for service in SERVED}
    stack = LocalCompose(
        database_urls=databases,
        amqp_url=amqp_url,
        namespace=bus_namespace,
        log_dir=tmp_path,
        extra_env={"CLOCK": "fake", "CLOCK_START": "2022-11-05T08:00:00+08:00"},
    )
    publisher = RabbitEventBus(amqp_url, namespace=bus_namespace)
    try:
        for service in SERVED:
            stack.migrate(service)
        procs = {service: stack.start(service) for service in SERVED}
        for service in SERVED:
            stack.wait_ready(service)
        registration, pairing, gameplay = (procs[s].url for s in SERVED)
        async with httpx.AsyncClient(timeout=30) as http:
            created = await http.post(
                f"{registration}/v1/events", headers=OP, json={"preset_id": "sz-2022", "event_code": "sz22"}
            )
            assert created.status_code == 201, created.text
            calendar = await http.get(f"{registration}/v1/events/sz22/schedule.ics", headers=OP)
            assert calendar.status_code == 200 and calendar.headers["content-type"].startswith("text/calendar")
            before = list(Calendar.from_ical(calendar.content).walk("VEVENT"))

            await publisher.start()
            await publisher.publish([encode(envelope_for(_closed(), correlation_id="sz22"))])

            async def game() -> dict | None:
                answer = await http.get(f"{gameplay}/v1/games/{GAME}", headers=OP)
                return answer.json() if answer.status_code == 200 else None

            view = await _until("the round's game", game)
            assert datetime.fromisoformat(view["starts_at"]) == SLOTS[0]
            for player in ("e1", "e2"):
                joined = await http.post(f"{gameplay}/v1/games/{GAME}/join", headers=OP, json={"player_id": player})
                assert joined.status_code == 200, joined.text
            early = await http.post(
                f"{gameplay}/v1/games/{GAME}/move", headers=OP, json={"player_id": "e1", "point": "h8"}
            )
            assert early.status_code == 409 and early.json()["error"]["code"] == "not_started", early.text

            later = SLOTS[0] + timedelta(minutes=30)
            delayed = await http.post(
                f"{pairing}/v1/events/sz22/sections/men-free/rounds/1/delay",
                headers=ARB,
                json={"starts_at": later.isoformat(), "reason": "the platform is being restarted"},
            )
            assert delayed.status_code == 200, delayed.text

            async def moved() -> bool:
                current = await game()
                return current is not None and datetime.fromisoformat(current["starts_at"]) == later

            await _until("gameplay follows the delay", moved)

            async def shown() -> list:
                answer = await http.get(f"{registration}/v1/events/sz22/schedule.ics", headers=OP)
                events = list(Calendar.from_ical(answer.content).walk("VEVENT"))
                return [e for e in events if e.decoded("dtstart") == later]

            [event] = await _until("the calendar shows the delay", shown)
            assert "the platform is being restarted" in str(event.get("description"))
            after = list(
                Calendar.from_ical(
                    (await http.get(f"{registration}/v1/events/sz22/schedule.ics", headers=OP)).content
                ).walk("VEVENT")
            )
            assert len(after) == len(before) + 1  # men-free round 1 left its shared 09:00 slot
    finally:
        await publisher.close()
        stack.stop_all()
