"""Issue 32 over real sockets: eligibility from the federation's record. Registration and awards
are served as their own processes (the docker-compose.yml commands) on PostgreSQL and RabbitMQ.
A previous NY edition is held in registration (awards learns it from event.configured); its
youth section completes (sent as pairing would) and awards publishes the final places for real
(``awards.published``); registration records them, and in the next edition, which names the
previous one, a claim NY 七(三) outside the delegation quota is proven by the record (REG-16)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from gomoku_shared.contracts import encode, envelope_for
from gomoku_shared.contracts.common import ClockSpec, Entrant, Ruleset, SectionRules
from gomoku_shared.contracts.events import SectionCompleted, StandingRow
from gomoku_shared.messaging.rabbit import RabbitEventBus

from .compose_commands import LocalCompose

KEYS = "op-key=operator,p1-key=partner:partner-1"
OP, P1 = {"x-api-key": "op-key"}, {"x-api-key": "p1-key"}
#: NY 2022: registration open (closes 08-05 24:00)
NY_OPEN = "2022-07-20T10:00:00+08:00"
ORG = "org-a"
NAMES = ("李明", "王芳", "张伟")


def entry(n: int, claim: str | None = None) -> dict:
    player = {
        "name": NAMES[n],
        "gender": "male",
        "birth_date": "2005-03-03",
        "id_number": f"33010020050303{n + 100:04d}",
        "unit": "zj",
    }
    return {"section_id": "youth-male", "player": player, "facts": {"quota_exempt_ref": claim} if claim else {}}


def completed(entrants: list[str]) -> SectionCompleted:
    """The previous edition's youth section, finished in the order entered."""
    rules = SectionRules(
        rounds=3,
        ruleset=Ruleset(track="professional"),
        clock=ClockSpec(kind="fischer", base_s=3600, increment_s=30),
        tiebreaks=["points", "buchholz"],
    )
    return SectionCompleted(
        event_code="ny-prev",
        stage="main",
        section_id="youth-male",
        name="Youth Male",
        rules=rules,
        standings=[StandingRow(place=i + 1, entrant_id=e, name=NAMES[i], points=3 - i) for i, e in enumerate(entrants)],
        entrants=[Entrant(entrant_id=e, name=NAMES[i]) for i, e in enumerate(entrants)],
        rounds_played=3,
    )


async def recorded(url: str) -> int:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            query = "SELECT count(*) FROM record_places WHERE event_code = 'ny-prev'"
            return (await conn.execute(sa.text(query))).scalar_one()
    finally:
        await engine.dispose()


async def record_rows(url: str) -> list[tuple]:
    """Registration's copy of the previous edition's places: (section, place, title)."""
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            query = "SELECT section_id, place, title FROM record_places WHERE event_code = 'ny-prev' ORDER BY place"
            return [tuple(row) for row in (await conn.execute(sa.text(query))).all()]
    finally:
        await engine.dispose()


async def until(predicate, what: str, timeout: float = 60.0) -> Any:
    async with asyncio.timeout(timeout):
        while not (value := await predicate()):
            await asyncio.sleep(0.2)
        return value


async def test_reg16_ny_7_3_claim_proven_by_the_record_awards_published_served(
    fresh_database, amqp_url, bus_namespace, tmp_path
):
    """REG-16 (NY 七(三): 前8名的棋手报名不受名额限制): awards publishes the previous edition's
    places; the next edition's claim by its 2nd place is outside the full quota, the organiser
    reads where it comes from (edition, place, section); a player not placed is counted."""
    registration_db = await fresh_database()
    stack = LocalCompose(
        database_urls={"registration": registration_db, "awards": await fresh_database()},
        amqp_url=amqp_url,
        namespace=bus_namespace,
        log_dir=tmp_path,
        extra_env={"API_KEYS": KEYS, "CLOCK": "fake", "CLOCK_START": NY_OPEN, "RELAY_POLL_S": "0.2"},
    )
    bus = RabbitEventBus(amqp_url, namespace=bus_namespace)
    try:
        await stack.serve_all("registration", "awards")
        await bus.start()
        async with httpx.AsyncClient(base_url=stack.procs["registration"].url, timeout=30) as reg:
            body = {"preset_id": "ny-2022", "event_code": "ny-prev", "organisation": ORG}
            assert (await reg.post("/v1/events", headers=OP, json=body)).status_code == 201
            assert (
                await reg.post("/v1/events/ny-prev/units", headers=P1, json={"id": "zj", "name": "Zhejiang"})
            ).status_code == 201
            entrants = []
            for n in range(2):
                made = await reg.post("/v1/events/ny-prev/entries", headers=P1, json=entry(n))
                assert made.status_code == 201 and made.json()["status"] == "accepted", made.text
                entrants.append(made.json()["entry_id"])

            # awards knows the event from registration's event.configured (a completion arriving
            # first waits for it); it publishes the places, registration records them
            await bus.publish([encode(envelope_for(completed(entrants), correlation_id="ny-prev"))])

            async def both_recorded() -> bool:
                return await recorded(registration_db) == 2

            await until(both_recorded, "registration's record of awards.published")
            # one fact, two services: registration's record is the places (and titles) awards published
            async with httpx.AsyncClient(base_url=stack.procs["awards"].url, timeout=30) as awd:
                published = (await awd.get("/v1/events/ny-prev/sections/youth-male/awards")).json()
            titles = {t["entrant_id"]: t["title"] for t in published["titles"]}
            assert await record_rows(registration_db) == sorted(
                ("youth-male", p["place"], titles.get(p["entrant_id"])) for p in published["places"]
            )

            overrides = {"units": {"delegation_max_players": 1, "quota_exempt_previous_event": "ny-prev"}}
            body = {"preset_id": "ny-2022", "event_code": "ny-next", "organisation": ORG, "overrides": overrides}
            assert (await reg.post("/v1/events", headers=OP, json=body)).status_code == 201, body
            assert (
                await reg.post("/v1/events/ny-next/units", headers=P1, json={"id": "zj", "name": "Zhejiang"})
            ).status_code == 201
            made = await reg.post("/v1/events/ny-next/entries", headers=P1, json=entry(2))
            assert made.json()["status"] == "accepted", made.text  # the quota of one is full
            claim = await reg.post("/v1/events/ny-next/entries", headers=P1, json=entry(1, "2022 youth male 2nd"))
            assert claim.status_code == 201 and claim.json()["status"] == "accepted", claim.text
            seen = (await reg.get(f"/v1/events/ny-next/entries/{claim.json()['entry_id']}", headers=OP)).json()
            (exempt,) = [d for d in seen["decisions"] if d["clause"].startswith("units/quota_exempt")]
            assert exempt["clause"] == "units/quota_exempt"
            assert exempt["params"] == {"edition": "2022", "place": 2, "section": "Youth Male", "top": 8}
    finally:
        await bus.close()
        stack.stop_all()
