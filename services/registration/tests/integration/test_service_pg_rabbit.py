"""The registration service against the real PostgreSQL and RabbitMQ (REG-1, REG-2, REG-11, REG-12):
a full SZ section registered over HTTP ends in one section.closed with the right field; an
Idempotency-Key makes duplicates one entry (also when they race); a partner cannot read another
partner's players; no response or log line holds a full ID number."""
from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime, timedelta, timezone

import httpx
import pytest

from gomoku_shared.clock import FakeClock
from gomoku_shared.contracts import decode
from gomoku_shared.messaging.rabbit import RabbitEventBus
from gomoku_shared.migrate import upgrade_async
from gomoku_shared.settings import ServiceSettings
from gomoku_shared.testing.bus import eventually
from registration.bootstrap import build

CST = timezone(timedelta(hours=8))
KEYS = "op-key=operator,arb-key=arbiter,p1-key=partner:partner-1,p2-key=partner:partner-2"
OP, P1, P2 = {"x-api-key": "op-key"}, {"x-api-key": "p1-key"}, {"x-api-key": "p2-key"}


def id_number(n: int) -> str:
    return f"44030119900505{n:04d}"


def entry(n: int) -> dict:
    return {"stage": "online", "section_id": "men-free",
            "player": {"name": f"Player {n:04d}", "gender": "male", "birth_date": "1990-05-05",
                       "id_number": id_number(n)},
            "evidence": [{"kind": "household_registration", "document_ref": f"HK-{n:06d}", "region": "Shenzhen"}],
            "insurance": {"confirmed": True, "document_ref": f"POL-{n:06d}"}}


@contextlib.asynccontextmanager
async def running_service(amqp_url: str, bus_namespace: str, db_url: str):
    settings = ServiceSettings(DATABASE_URL=db_url, AMQP_URL=amqp_url, BUS_NAMESPACE=bus_namespace, API_KEYS=KEYS,
                               DATA_KEY="integration-data-key", RELAY_POLL_S=0.05)
    await upgrade_async("registration", settings.database_url)
    clock = FakeClock(datetime(2022, 10, 26, 9, 0, tzinfo=CST))
    service = build(settings, clock=clock)
    observer = RabbitEventBus(amqp_url, namespace=bus_namespace)
    seen: list = []

    async def observe(message) -> None:
        seen.append(decode(message))

    await observer.start()
    await observer.subscribe("observer", ["#"], observe)
    try:
        async with service.running():
            transport = httpx.ASGITransport(app=service.app, raise_app_exceptions=False)
            async with httpx.AsyncClient(transport=transport, base_url="http://reg") as client:
                yield client, clock, seen
            await service.runtime.bus.delete_declared()
    finally:
        await observer.delete_declared()
        await observer.close()


@pytest.mark.timeout(300)
async def test_full_sz_section_over_http_ends_in_one_section_closed(amqp_url, bus_namespace, fresh_database, caplog):
    """REG-2: 128 entries (sent 16 at a time, so the cap is judged under concurrency) fill the
    section, the 129th is refused; REG-12: closing publishes men-free ready with exactly that field."""
    caplog.set_level(logging.DEBUG)
    responses: list[httpx.Response] = []
    async with running_service(amqp_url, bus_namespace, await fresh_database()) as (client, clock, seen):
        r = await client.post("/v1/events", headers=OP, json={"preset_id": "sz-2022", "event_code": "sz22"})
        assert r.status_code == 201, r.text
        for start in range(1, 129, 16):
            batch = await asyncio.gather(*[client.post("/v1/events/sz22/entries", headers=P1, json=entry(n))
                                           for n in range(start, start + 16)])
            responses.extend(batch)
        assert [x.status_code for x in responses] == [201] * 128
        assert {x.json()["status"] for x in responses} == {"accepted"}
        assert len({x.json()["entry_id"] for x in responses}) == 128
        last = await client.post("/v1/events/sz22/entries", headers=P1, json=entry(129))
        responses.append(last)
        assert last.json()["status"] == "refused" and last.json()["clause"] == "men-free/cap"
        assert "cap of 128" in last.json()["reason"]

        clock.set(datetime(2022, 11, 4, 12, 0, tzinfo=CST))
        r = await client.post("/v1/events/sz22/stages/online/close", headers=OP,
                              json={"format_choices": {"men-free": {"kind": "swiss"}}})
        responses.append(r)
        assert r.status_code == 200, r.text
        men = next(s for s in r.json()["sections"] if s["section_id"] == "men-free")
        assert (men["status"], men["entrants"], men["rounds"]) == ("ready", 128, 7)
        responses.append(await client.get("/v1/events/sz22/entries", headers=OP))

        def closed():
            return [e for e in seen if e.type == "section.closed"]
        await eventually(lambda: len(closed()) == 8, "eight section.closed events")
        ready = [e.payload for e in closed() if e.payload.status == "ready"]
        assert [p.section_id for p in ready] == ["men-free"]
        field = ready[0].entrants
        expected = {x.json()["entry_id"] for x in responses[:128]}
        assert {e.entrant_id for e in field} == expected
        assert all(e.partner_id == "partner-1" and e.gender == "male" for e in field)
        assert ready[0].rules.two_game_rounds and not ready[0].rules.rank_by_gender
        assert all(e.payload.status == "cancelled" and not e.payload.entrants for e in closed() if e not in ready
                   and e.payload.section_id != "men-free")
        await eventually(lambda: len([e for e in seen if e.type == "entry.accepted"]) == 128, "128 entry.accepted")
        assert len([e for e in seen if e.type == "entry.refused"]) == 1

    secrets = [id_number(n) for n in range(1, 130)]
    for resp in responses:
        for s in secrets:
            assert s not in resp.text
    for record in caplog.records:
        line = record.getMessage() + str(record.exc_text or "")
        assert not any(s in line for s in secrets)


@pytest.mark.timeout(120)
async def test_idempotency_and_partner_isolation_on_postgres(amqp_url, bus_namespace, fresh_database, caplog):
    caplog.set_level(logging.DEBUG)
    async with running_service(amqp_url, bus_namespace, await fresh_database()) as (client, clock, seen):
        await client.post("/v1/events", headers=OP, json={"preset_id": "sz-2022", "event_code": "sz22"})
        headers = {**P1, "Idempotency-Key": "dup-1"}
        racing = await asyncio.gather(*[client.post("/v1/events/sz22/entries", headers=headers, json=entry(1))
                                        for _ in range(4)])
        assert [r.status_code for r in racing] == [201] * 4
        assert len({r.text for r in racing}) == 1
        again = await client.post("/v1/events/sz22/entries", headers=headers, json=entry(1))
        assert again.json() == racing[0].json()
        theirs = await client.post("/v1/events/sz22/entries", headers=P2, json=entry(2))
        mine = (await client.get("/v1/events/sz22/entries", headers=P1)).json()["entries"]
        assert [e["entry_id"] for e in mine] == [racing[0].json()["entry_id"]]
        assert (await client.get(f"/v1/events/sz22/entries/{theirs.json()['entry_id']}", headers=P1)).status_code == 404
        everything = (await client.get("/v1/events/sz22/entries", headers=OP)).json()["entries"]
        assert len(everything) == 2
        await eventually(lambda: len([e for e in seen if e.type == "entry.accepted"]) == 2, "two entry.accepted")
        for r in [*racing, again, theirs]:
            assert id_number(1) not in r.text and id_number(2) not in r.text
    assert not any(id_number(1) in rec.getMessage() for rec in caplog.records)
