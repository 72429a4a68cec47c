"""Issue 32 over real sockets: registration and awards served as their own processes (the
docker-compose.yml commands) on PostgreSQL and RabbitMQ. Three players of the organisation are
entered in registration (registry people); a rated DA-like section of theirs completes (sent as
pairing would, naming their registry ids); awards publishes the organisation's latest rating
list (``ratings.published``), registration keeps it, and an entry in the organisation's next
event carries the player's published rating (the TRF rating column that seeds Swiss pairings).
Then the organiser merges two of them in registration: ``people.merged`` reaches awards, whose
list no longer names the merged person."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any

import httpx

from gomoku_shared.contracts import decode, encode, envelope_for
from gomoku_shared.contracts.access_events import EventAccessChanged
from gomoku_shared.contracts.common import ClockSpec, Entrant, Ruleset, SectionRules
from gomoku_shared.contracts.events import EventConfigured, GameResult, SectionCompleted, StandingRow
from gomoku_shared.messaging.bus import Message
from gomoku_shared.messaging.rabbit import RabbitEventBus

from .compose_commands import LocalCompose

KEYS = "op-key=operator,p1-key=partner:partner-1"
OP, P1 = {"x-api-key": "op-key"}, {"x-api-key": "p1-key"}
#: SZ 2022: registration open (十三(二): 10-25 to 10-31)
SZ_OPEN = "2022-10-26T10:00:00+08:00"
ORG = "org-a"
DA = "da-rated"
NAMES = ("李明", "王芳", "张伟")


def entry(n: int) -> dict:
    player = {"name": NAMES[n], "gender": "male", "birth_date": "1990-05-05", "id_number": f"44030419900505{n:03d}1"}
    return {
        "stage": "online",
        "section_id": "men-free",
        "player": player,
        "evidence": [{"kind": "household_registration", "document_ref": f"HK-{n}", "region": "Shenzhen"}],
        "insurance": {"confirmed": True, "document_ref": f"POL-{n}"},
    }


def rated_section(registry: dict[str, str]) -> list[Any]:
    """The DA-like event's owner, configuration and completed junior section: the first player
    beat the second and the third, the second beat the third."""
    from registration import presets

    config = presets.load("da-2023", {"id": DA, "ratings": {"rated": True}})
    configured = EventConfigured(
        event_code=DA, name=config.name, preset_id="da-2023", config=config.model_dump(mode="json")
    )
    ids = [f"e{i}" for i in range(3)]
    entrants = [Entrant(entrant_id=e, name=NAMES[i], registry_id=registry[NAMES[i]]) for i, e in enumerate(ids)]
    standings = [StandingRow(place=i + 1, entrant_id=e, name=NAMES[i], points=4 - 2 * i) for i, e in enumerate(ids)]
    games = [
        GameResult(round=1, pairing_id="r1.b1", first="e0", second="e1", outcome="first_wins"),
        GameResult(round=2, pairing_id="r2.b1", first="e2", second="e0", outcome="second_wins"),
        GameResult(round=3, pairing_id="r3.b1", first="e1", second="e2", outcome="first_wins"),
    ]
    rules = SectionRules(
        rounds=3,
        ruleset=Ruleset(track="professional"),
        clock=ClockSpec(kind="fischer", base_s=3600, increment_s=30),
        tiebreaks=["points", "buchholz"],
    )
    completed = SectionCompleted(
        event_code=DA,
        stage="main",
        section_id="junior",
        name="少年组",
        rules=rules,
        standings=standings,
        entrants=entrants,
        rounds_played=3,
        games=games,
    )
    access = EventAccessChanged(event_code=DA, organisation=ORG, changed_at=datetime.fromisoformat(SZ_OPEN))
    return [access, configured, completed]


async def until(predicate, what: str, timeout: float = 60.0) -> Any:
    async with asyncio.timeout(timeout):
        while not (value := await predicate()):
            await asyncio.sleep(0.2)
        return value


async def test_issue32_published_ratings_seed_entries_and_merges_reach_awards_served(
    fresh_database, amqp_url, bus_namespace, tmp_path
):
    stack = LocalCompose(
        database_urls={"registration": await fresh_database(), "awards": await fresh_database()},
        amqp_url=amqp_url,
        namespace=bus_namespace,
        log_dir=tmp_path,
        extra_env={"API_KEYS": KEYS, "CLOCK": "fake", "CLOCK_START": SZ_OPEN, "RELAY_POLL_S": "0.2"},
    )
    seen: list[Any] = []
    observer = RabbitEventBus(amqp_url, namespace=bus_namespace)

    async def observe(message: Message) -> None:
        seen.append(decode(message))

    try:
        await stack.serve_all("registration", "awards")
        await observer.start()
        await observer.subscribe_broadcast(["entry.accepted", "ratings.published"], observe)
        reg_url, awards_url = stack.procs["registration"].url, stack.procs["awards"].url
        async with (
            httpx.AsyncClient(base_url=reg_url, timeout=30) as reg,
            httpx.AsyncClient(base_url=awards_url, timeout=30) as awards,
        ):
            body = {"preset_id": "sz-2022", "event_code": "sz-first", "organisation": ORG}
            assert (await reg.post("/v1/events", headers=OP, json=body)).status_code == 201
            for n in range(3):
                made = await reg.post("/v1/events/sz-first/entries", headers=P1, json=entry(n))
                assert made.status_code == 201, made.text
            people = (await reg.get(f"/v1/organisations/{ORG}/people", headers=OP)).json()["people"]
            registry = {p["name"]: p["person_id"] for p in people}
            assert set(registry) == set(NAMES)

            for payload in rated_section(registry):
                await observer.publish([encode(envelope_for(payload, correlation_id=DA))])

            async def published() -> list[Any]:
                return [e.payload for e in seen if e.type == "ratings.published" and e.payload.people]

            (latest,) = await until(published, "ratings.published")
            assert latest.organisation == ORG and latest.period == "2023-08"
            rating = {p.registry_id: p.rating for p in latest.people}
            best = registry[NAMES[0]]
            assert rating[best] == max(rating.values()) and rating[best] > 1500

            # registration consumes the list asynchronously: each try is the player's entry in a
            # new event of the organisation, until its entry.accepted carries the published rating
            async def seeded_entry() -> int:
                code = f"sz-next{len(seen)}"
                body = {"preset_id": "sz-2022", "event_code": code, "organisation": ORG}
                assert (await reg.post("/v1/events", headers=OP, json=body)).status_code == 201
                made = await reg.post(f"/v1/events/{code}/entries", headers=P1, json=entry(0))
                assert made.status_code == 201, made.text
                entry_id = made.json()["entry_id"]
                async with asyncio.timeout(30):
                    while not (
                        found := [e for e in seen if e.type == "entry.accepted" and e.payload.entry_id == entry_id]
                    ):
                        await asyncio.sleep(0.1)
                return found[-1].payload.entrant.rating

            async def carried() -> bool:
                return await seeded_entry() == rating[best]

            await until(carried, "an entry carrying the published rating", timeout=30)

            # the organiser merges the third player into the second (one human): awards re-keys
            merge = {"person_id": registry[NAMES[2]], "reason": "同一人两个身份证号录入"}
            merged = await reg.post(
                f"/v1/organisations/{ORG}/people/{registry[NAMES[1]]}/merge", headers=OP, json=merge
            )
            assert merged.status_code == 200, merged.text

            async def listed_without_the_merged() -> bool:
                rows = (await awards.get(f"/v1/organisations/{ORG}/ratings/2023-08")).json()["rows"]
                return {r["person_id"] for r in rows} == {registry[NAMES[0]], registry[NAMES[1]]}

            await until(listed_without_the_merged, "awards' list after the merge")
    finally:
        await observer.close()
        stack.stop_all()
