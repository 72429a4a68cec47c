"""Issue 32 over real sockets: a served awards process on PostgreSQL and RabbitMQ (the
docker-compose.yml command) receives a DA-like junior section whose entrants carry registry ids
and answers the two title reads the pages use: the current titles of the people a page names in
one lookup (DA 九(三), AWD-5: 第1名 二段, 第2-3名 一段, 第4-6名 1级), titles only, and the event's
title certificates, one per grant, named as the event's published titles name the holder."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import httpx

from gomoku_shared.contracts.access_events import EventAccessChanged
from gomoku_shared.contracts.common import ClockSpec, Entrant, Ruleset, SectionRules
from gomoku_shared.contracts.events import EventConfigured, SectionCompleted, StandingRow

from .awards_served import awards_alone

EV = "da-titles"
ORG = "hainan-fed"
START = datetime(2026, 8, 20, 9, 0, tzinfo=UTC)
NAMES = {"e1": "张三", "e2": "李四", "e3": "王五", "e4": "赵六"}


def _configured() -> EventConfigured:
    from registration import presets

    config = presets.load("da-2023", {"id": EV})
    return EventConfigured(event_code=EV, name=config.name, preset_id="da-2023", config=config.model_dump(mode="json"))


def _completed() -> SectionCompleted:
    rules = SectionRules(
        rounds=2,
        ruleset=Ruleset(track="professional"),
        clock=ClockSpec(kind="fischer", base_s=3600, increment_s=30),
        tiebreaks=["points", "buchholz"],
    )
    # e4 entered before the registry: no registry id, no record
    entrants = [
        Entrant(entrant_id=e, name=n, gender="male", registry_id=None if e == "e4" else f"P-{e}")
        for e, n in NAMES.items()
    ]
    standings = [
        StandingRow(place=i, entrant_id=e, name=n, gender="male", points=5 - i)
        for i, (e, n) in enumerate(NAMES.items(), 1)
    ]
    return SectionCompleted(
        event_code=EV,
        stage="main",
        section_id="junior",
        name="少年组",
        rules=rules,
        standings=standings,
        entrants=entrants,
        rounds_played=2,
    )


async def _certificates(client: httpx.AsyncClient) -> dict:
    async with asyncio.timeout(60):
        while True:
            answer = await client.get(f"/v1/events/{EV}/title-certificates")
            if answer.status_code == 200 and answer.json()["certificates"]:
                return answer.json()
            await asyncio.sleep(0.2)


async def test_issue32_title_lookup_and_certificates_served(tmp_path, fresh_database, amqp_url, bus_namespace):
    published = (EventAccessChanged(event_code=EV, organisation=ORG, changed_at=START), _configured(), _completed())
    async with awards_alone(fresh_database, amqp_url, bus_namespace, tmp_path, START, published) as client:
        made = await _certificates(client)
        assert made["organisation"] == ORG
        assert [(c["name"], c["title"], c["place"], c["granted_on"]) for c in made["certificates"]] == [
            ("张三", "2d", 1, "2023-08-22"),
            ("李四", "1d", 2, "2023-08-22"),
            ("王五", "1d", 3, "2023-08-22"),
        ]
        looked = await client.get(f"/v1/organisations/{ORG}/titles", params={"people": "P-e3,P-e1,P-e9"})
        assert looked.status_code == 200
        assert looked.json()["people"] == [
            {"person_id": "P-e1", "title": "2d", "since": "2023-08-22"},
            {"person_id": "P-e3", "title": "1d", "since": "2023-08-22"},
        ]
        assert not any(n in looked.text for n in NAMES.values())  # a lookup names no one
        too_many = ",".join(f"P{i}" for i in range(101))
        refused = await client.get(f"/v1/organisations/{ORG}/titles", params={"people": too_many})
        assert refused.status_code == 422 and "error" in refused.json()
