"""The fee ledger over a real socket (REG-14, REG-15, AWD-10): registration served as its own
process (the docker-compose.yml command) on PostgreSQL + RabbitMQ. The operator records a
DA entry's board and lodging and a unit's payment; a partner sees only its own lines, never
a reference; the close refuses the unpaid entry; an appeal fee published on RabbitMQ twice
(appeal.lodged) is one payment line, its upheld decision one refund line."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta, timezone

import httpx

from gomoku_shared.contracts import encode, envelope_for
from gomoku_shared.contracts.events import AppealDecided, AppealLodged
from gomoku_shared.messaging.rabbit import RabbitEventBus

from .compose_commands import LocalCompose

KEYS = "op-key=operator,p1-key=partner:partner-1,p2-key=partner:partner-2"
OP, P1, P2 = ({"x-api-key": k} for k in ("op-key", "p1-key", "p2-key"))
CST = timezone(timedelta(hours=8))
#: DA 2023: registration open (closes 08-11 24:00)
DA_OPEN = "2023-08-05T10:00:00+08:00"


def _entry(n: int, unit: str) -> dict:
    player = {
        "name": f"Ledger {n}",
        "gender": "male",
        "birth_date": "1990-05-05",
        "id_number": f"46010019900505{n:04d}",
    }
    return {
        "section_id": "open",
        "player": {**player, "unit": unit},
        "insurance": {"confirmed": True, "document_ref": f"INS-L-{n}"},
    }


async def _lines(http: httpx.AsyncClient, headers: dict, want: int) -> list[dict]:
    async with asyncio.timeout(30):
        while True:
            lines = (await http.get("/v1/events/da-led/ledger", headers=headers)).json()["lines"]
            if len(lines) >= want:
                return lines
            await asyncio.sleep(0.1)


async def test_ledger_served_on_postgres_and_rabbitmq(fresh_database, amqp_url, bus_namespace, tmp_path):
    stack = LocalCompose(
        database_urls={"registration": await fresh_database()},
        amqp_url=amqp_url,
        namespace=bus_namespace,
        log_dir=tmp_path,
        extra_env={"API_KEYS": KEYS, "CLOCK": "fake", "CLOCK_START": DA_OPEN},
    )
    publisher = RabbitEventBus(amqp_url, namespace=bus_namespace)
    try:
        proc = await stack.serve("registration")
        await publisher.start()
        async with httpx.AsyncClient(base_url=proc.url, timeout=30) as http:
            r = await http.post("/v1/events", headers=OP, json={"preset_id": "da-2023", "event_code": "da-led"})
            assert r.status_code == 201, r.text
            entries = []
            for n, (headers, unit) in enumerate(((P1, "hainan"), (P1, "hainan"), (P2, "hubei")), start=1):
                if n != 2:
                    body = {"id": unit, "name": unit.title(), "kind": "province"}
                    assert (await http.post("/v1/events/da-led/units", headers=headers, json=body)).status_code == 201
                r = await http.post("/v1/events/da-led/entries", headers=headers, json=_entry(n, unit))
                assert r.json()["status"] == "accepted", r.text
                entries.append(r.json()["entry_id"])
            paid, unpaid, hubei = entries
            for key, body in (
                ("l1", {"item": "lodging-single", "amount_fen": 208_000, "entry_id": paid, "reference": "ICBC-7781"}),
                ("l2", {"item": "lodging-standard", "amount_fen": 144_000, "unit_id": "hubei", "reference": "BOC-1"}),
            ):
                r = await http.post("/v1/events/da-led/ledger", headers={**OP, "Idempotency-Key": key}, json=body)
                assert r.status_code == 201, r.text
                again = await http.post("/v1/events/da-led/ledger", headers={**OP, "Idempotency-Key": key}, json=body)
                assert again.json() == r.json()  # a retried request is the same line, not a second one
            r = await http.post("/v1/events/da-led/ledger", headers=P1, json=body)
            assert r.status_code == 403 and r.json()["error"]["code"]
            mine = await _lines(http, P1, 1)
            assert [(x["entry_id"], x["amount_fen"], x["reference"]) for x in mine] == [(paid, 208_000, "[protected]")]
            assert "ICBC" not in (await http.get("/v1/events/da-led/ledger", headers=OP)).text

            # AWD-10: appeal fee and its refund from the bus, once each though sent twice
            lodged = AppealLodged(
                event_code="da-led",
                stage="main",
                section_id="open",
                appeal_id="ap-1",
                unit_id="Hubei",
                lodged_by="Hubei leader",
                fee_fen=50_000,
                lodged_at=datetime(2023, 8, 5, 9, 0, tzinfo=CST),
            )
            decided = AppealDecided(
                event_code="da-led",
                stage="main",
                section_id="open",
                appeal_id="ap-1",
                unit_id="hubei",
                upheld=True,
                reasons="the arbiter misread the clock",
                refund_fen=50_000,
                decided_at=datetime(2023, 8, 5, 9, 30, tzinfo=CST),
            )
            for payload in (lodged, lodged, decided):
                now = datetime.now(UTC)
                await publisher.publish([encode(envelope_for(payload, correlation_id="da-led", occurred_at=now))])
            lines = await _lines(http, P2, 3)
            await asyncio.sleep(1.0)  # a duplicate would land within this
            lines = (await http.get("/v1/events/da-led/ledger", headers=P2)).json()["lines"]
            assert [(x["kind"], x["amount_fen"], x["unit_id"], x["source"]) for x in lines] == [
                ("payment", 144_000, "hubei", None),
                ("payment", 50_000, "hubei", "appeal.lodged:ap-1"),
                ("refund", -50_000, "hubei", "appeal.decided:ap-1"),
            ]

            # REG-14: the close pairs the paid entries only
            r = await http.post(
                "/v1/events/da-led/stages/main/close",
                headers=OP,
                json={"format_choices": {"open": {"kind": "round_robin"}}, "not_checked_in": "present"},
            )
            assert r.status_code == 200, r.text
            assert [x["entry_id"] for x in r.json()["not_paired"]] == [unpaid]
            fees = (await http.get("/v1/events/da-led/fees", headers=P1)).json()["entries"]
            assert [(e["entry_id"], e["complete_by_deadline"], e["status"]) for e in fees] == [
                (paid, True, "accepted"),
                (unpaid, False, "refused"),
            ]
    finally:
        await publisher.close()
        stack.stop_all()
