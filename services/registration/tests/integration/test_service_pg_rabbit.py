"""The registration service against the real PostgreSQL and RabbitMQ (REG-1, REG-2, REG-11, REG-12,
REG-18): a full SZ section registered over HTTP ends in one section.closed with the right field; an
Idempotency-Key makes duplicates one entry (also when they race); a partner cannot read another
partner's players, nor learn that an ID number is registered; a refused wildcard is judged again
when its certificate arrives; no response or log line holds a full ID number."""

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
    return {
        "stage": "online",
        "section_id": "men-free",
        "player": {"name": f"Player {n:04d}", "gender": "male", "birth_date": "1990-05-05", "id_number": id_number(n)},
        "evidence": [{"kind": "household_registration", "document_ref": f"HK-{n:06d}", "region": "Shenzhen"}],
        "insurance": {"confirmed": True, "document_ref": f"POL-{n:06d}"},
    }


@contextlib.asynccontextmanager
async def running_service(amqp_url: str, bus_namespace: str, db_url: str):
    settings = ServiceSettings(
        DATABASE_URL=db_url,
        AMQP_URL=amqp_url,
        BUS_NAMESPACE=bus_namespace,
        API_KEYS=KEYS,
        DATA_KEY="integration-data-key",
        RELAY_POLL_S=0.05,
    )
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
            batch = await asyncio.gather(
                *[client.post("/v1/events/sz22/entries", headers=P1, json=entry(n)) for n in range(start, start + 16)]
            )
            responses.extend(batch)
        assert [x.status_code for x in responses] == [201] * 128
        # REG-18: admitted on declared residency evidence that no arbiter has approved yet
        assert {x.json()["status"] for x in responses} == {"accepted_pending_evidence"}
        assert len({x.json()["entry_id"] for x in responses}) == 128
        last = await client.post("/v1/events/sz22/entries", headers=P1, json=entry(129))
        responses.append(last)
        assert last.json()["status"] == "refused" and last.json()["clause"] == "men-free/cap"
        assert "cap of 128" in last.json()["reason"]

        clock.set(datetime(2022, 11, 4, 12, 0, tzinfo=CST))
        r = await client.post(
            "/v1/events/sz22/stages/online/close", headers=OP, json={"format_choices": {"men-free": {"kind": "swiss"}}}
        )
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
        assert all(
            e.payload.status == "cancelled" and not e.payload.entrants
            for e in closed()
            if e not in ready and e.payload.section_id != "men-free"
        )
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
        racing = await asyncio.gather(
            *[client.post("/v1/events/sz22/entries", headers=headers, json=entry(1)) for _ in range(4)]
        )
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


def wildcard(n: int) -> dict:
    """SZ 六(4): an applicant from outside Shenzhen asking for a wildcard, without materials yet."""
    return {
        "stage": "online",
        "section_id": "men-pro",
        "player": {
            "name": f"Player {n:04d}",
            "gender": "male",
            "birth_date": "1990-05-05",
            "id_number": id_number(n),
            "citizenship": "CN",
        },
        "facts": {"intends_to_represent": True},
        "evidence": [],
        "insurance": {"confirmed": True, "document_ref": f"POL-{n:06d}"},
    }


@pytest.mark.timeout(120)
async def test_reg18_rejudging_and_partner_isolation_on_postgres(amqp_url, bus_namespace, fresh_database):
    """REG-18 / SZ 十三(二), 八(四): a wildcard refused for missing materials is accepted once its
    certificate arrives in time and is approved (entry.refused, then entry.accepted on the broker);
    a declared household is visibly pending until approved. Partner isolation: partner 2 sending
    partner 1's ID number is answered like an unknown number and cannot attach evidence to
    partner 1's entry or player (404 like a missing one)."""
    arb = {"x-api-key": "arb-key"}
    async with running_service(amqp_url, bus_namespace, await fresh_database()) as (client, clock, seen):
        await client.post("/v1/events", headers=OP, json={"preset_id": "sz-2022", "event_code": "sz22"})
        refused = (await client.post("/v1/events/sz22/entries", headers=P1, json=wildcard(1))).json()
        assert (refused["status"], refused["clause"]) == ("refused", "sz-residency")
        declared = (await client.post("/v1/events/sz22/entries", headers=P1, json=entry(2))).json()
        assert declared["status"] == "accepted_pending_evidence"
        assert declared["pending_evidence"]["approve_by"] == "2022-11-13T00:00:00+08:00"

        # partner 2 probes partner 1's ID numbers: the same answers as for unknown ones
        probe = entry(2)
        probe["player"] = {**probe["player"], "name": "Someone Else"}
        unknown = entry(3)
        unknown["player"] = {**unknown["player"], "name": "Someone Else"}
        known_r = await client.post("/v1/events/sz22/entries", headers=P2, json=probe)
        unknown_r = await client.post("/v1/events/sz22/entries", headers=P2, json=unknown)
        assert known_r.status_code == unknown_r.status_code == 201
        assert known_r.json()["status"] == unknown_r.json()["status"] == "accepted_pending_evidence"
        assert known_r.json()["player_id"] != declared["player_id"]
        certificate = {"kind": "grade_certificate", "document_ref": "CQY-1", "grade": "2k"}
        for field, value, ghost in (
            ("entry_id", refused["entry_id"], "sz22.online.men-pro.0099"),
            ("player_id", refused["player_id"], "sz22.p00099"),
        ):
            theirs = await client.post("/v1/events/sz22/evidence", headers=P2, json={**certificate, field: value})
            nobody = await client.post("/v1/events/sz22/evidence", headers=P2, json={**certificate, field: ghost})
            assert theirs.status_code == nobody.status_code == 404
            assert theirs.json()["error"]["code"] == nobody.json()["error"]["code"]

        clock.set(datetime(2022, 10, 30, 12, 0, tzinfo=CST))
        r = await client.post(
            "/v1/events/sz22/evidence", headers=P1, json={**certificate, "entry_id": refused["entry_id"]}
        )
        assert r.status_code == 201 and r.json()["entries"][0]["status"] == "pending_review", r.text
        clock.set(datetime(2022, 11, 2, 9, 0, tzinfo=CST))
        decided = await client.post(
            f"/v1/evidence/{r.json()['evidence_id']}/decision",
            headers=arb,
            json={"decision": "approve", "note": "certificate checked"},
        )
        assert decided.status_code == 200, decided.text
        assert [(e["entry_id"], e["status"]) for e in decided.json()["entries"]] == [(refused["entry_id"], "accepted")]
        view = (await client.get(f"/v1/events/sz22/entries/{refused['entry_id']}", headers=P1)).json()
        assert (view["status"], view["clause"]) == ("accepted", "sz-residency/wildcard")

        def about(entry_id):
            return [
                e.type
                for e in seen
                if e.type.startswith("entry.")
                and entry_id in (getattr(e.payload, "entry_id", None), getattr(e.payload, "application_id", None))
            ]

        await eventually(
            lambda: about(refused["entry_id"]) == ["entry.refused", "entry.accepted"],
            "entry.refused then entry.accepted for the re-judged wildcard",
        )
        pending = [e.payload for e in seen if e.type == "entry.accepted" and e.payload.entry_id == declared["entry_id"]]
        assert pending and pending[0].evidence_pending is True
