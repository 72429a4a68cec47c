"""Fees announced later over a real socket (REG-14; NY 十二(三): the seed gives no board-and-lodging
amount; NT 十一: 食宿标准另行通知): registration served as its own process (the docker-compose.yml
command) on PostgreSQL + RabbitMQ. Before an amount is announced a 1-fen payment does not make an
entry valid and the fee clerk's "paid in full" does; the organiser announces the amount (audited),
after which a partial payment is not valid and a full one is; a change of the amount with its
applies-from date is audited and decides the close."""

from __future__ import annotations

import httpx

from .compose_commands import LocalCompose

KEYS = "op-key=operator,p1-key=partner:partner-1"
OP, P1 = ({"x-api-key": k} for k in ("op-key", "p1-key"))
#: NY 2022: registration open (closes 08-05 24:00), competition 08-10..14 (5 days charged)
NY_OPEN = "2022-08-01T10:00:00+08:00"
CODE = "ny-fee"


def _entry(n: int) -> dict:
    player = {
        "name": f"Fees {n}",
        "gender": "male",
        "birth_date": "2005-05-05",
        "id_number": f"44010020050505{n:04d}",
        "unit": "guangdong",
    }
    return {"section_id": "youth-male", "player": player, "insurance": {"confirmed": True, "document_ref": f"I-{n}"}}


async def _fees(http: httpx.AsyncClient) -> dict:
    r = await http.get(f"/v1/events/{CODE}/fees", headers=OP)
    assert r.status_code == 200, r.text
    return r.json()


async def _valid(http: httpx.AsyncClient) -> dict[str, bool]:
    return {e["entry_id"]: e["complete_by_deadline"] for e in (await _fees(http))["entries"]}


async def _pay(http: httpx.AsyncClient, entry_id: str, fen: int) -> None:
    body = {"item": "lodging", "amount_fen": fen, "entry_id": entry_id, "reference": "BANK-1"}
    r = await http.post(f"/v1/events/{CODE}/ledger", headers=OP, json=body)
    assert r.status_code == 201, r.text


async def test_reg14_fees_announced_later_served_on_postgres_and_rabbitmq(
    fresh_database, amqp_url, bus_namespace, tmp_path
):
    """REG-14, NY 十二(三) / NT 十一 (另行通知): 1 fen before the announcement is not valid; the
    confirmation is; after the announcement partial is not, full is; the change of the amount
    with its applies-from date is audited and judged at the close."""
    stack = LocalCompose(
        database_urls={"registration": await fresh_database()},
        amqp_url=amqp_url,
        namespace=bus_namespace,
        log_dir=tmp_path,
        extra_env={"API_KEYS": KEYS, "CLOCK": "fake", "CLOCK_START": NY_OPEN},
    )
    try:
        proc = await stack.serve("registration")
        async with httpx.AsyncClient(base_url=proc.url, timeout=30) as http:
            r = await http.post("/v1/events", headers=OP, json={"preset_id": "ny-2022", "event_code": CODE})
            assert r.status_code == 201, r.text
            body = {"id": "guangdong", "name": "Guangdong", "kind": "province"}
            assert (await http.post(f"/v1/events/{CODE}/units", headers=P1, json=body)).status_code == 201
            ids = []
            for n in range(1, 5):
                r = await http.post(f"/v1/events/{CODE}/entries", headers=P1, json=_entry(n))
                assert r.status_code == 201 and r.json()["status"] == "accepted", r.text
                ids.append(r.json()["entry_id"])
            first, second, third, fourth = ids
            lodging = next(i for i in (await _fees(http))["items"] if i["id"] == "lodging")
            assert (lodging["amount_fen"], lodging["announced_later"]) == (None, True)

            # before any announcement: 1 fen is not the whole fee; the clerk's "paid in full" is
            await _pay(http, first, 1)
            await _pay(http, fourth, 1)
            assert (await _valid(http))[first] is False
            confirm = f"/v1/events/{CODE}/entries/{first}/fees/confirmation"
            r = await http.post(confirm, headers=P1, json={"item": "lodging"})
            assert r.status_code == 403, r.text  # a partner cannot confirm its own payment
            r = await http.post(confirm, headers=OP, json={"item": "lodging", "note": "receipt 77 checked"})
            assert r.status_code == 201, r.text
            assert (r.json()["paid_in_full"], r.json()["recorded_by"].startswith("operator:")) == (True, True)
            r = await http.post(
                f"/v1/events/{CODE}/entries/{fourth}/fees/confirmation", headers=OP, json={"item": "lodging"}
            )
            assert r.status_code == 201, r.text
            r = await http.post(
                f"/v1/events/{CODE}/entries/{second}/fees/confirmation", headers=OP, json={"item": "lodging"}
            )
            assert (r.status_code, r.json()["error"]["code"]) == (409, "no_payment")
            valid = await _valid(http)
            assert (valid[first], valid[second], valid[fourth]) == (True, False, True)

            # the organiser announces 200 CNY per person per day (x 5 days), from 08-01
            announce = f"/v1/events/{CODE}/fees/announcements"
            body = {"item": "lodging", "amount_fen": 20_000, "applies_from": "2022-08-01T00:00:00+08:00"}
            assert (await http.post(announce, headers=P1, json=body)).status_code == 403
            r = await http.post(announce, headers={**OP, "Idempotency-Key": "a1"}, json=body)
            assert r.status_code == 201, r.text
            again = await http.post(announce, headers={**OP, "Idempotency-Key": "a1"}, json=body)
            assert again.json() == r.json()  # a retry is the same announcement, not a second one
            r = await http.post(announce, headers=OP, json={**body, "item": "minibar"})
            assert (r.status_code, r.json()["error"]["code"]) == (404, "unknown_fee_item")
            r = await http.post(announce, headers=OP, json={**body, "item": "arbitration"})
            assert (r.status_code, r.json()["error"]["code"]) == (409, "appeal_fee_fixed")

            # once announced, money decides: the confirmed 1 fen is short, and no confirmation helps
            valid = await _valid(http)
            assert (valid[first], valid[fourth]) == (False, False)
            r = await http.post(confirm, headers=OP, json={"item": "lodging"})
            assert (r.status_code, r.json()["error"]["code"]) == (409, "fee_announced")
            assert r.json()["error"]["details"]["amount_fen"] == 20_000
            await _pay(http, second, 50_000)
            assert (await _valid(http))[second] is False  # partial
            await _pay(http, second, 50_000)
            await _pay(http, first, 99_999)
            valid = await _valid(http)
            assert (valid[first], valid[second]) == (True, True)  # 100_000 = 20_000 x 5 days

            # a change to 260 CNY from 08-03: audited with its date, and the close judges it
            change = {"item": "lodging", "amount_fen": 26_000, "applies_from": "2022-08-03T00:00:00+08:00"}
            r = await http.post(announce, headers=OP, json={**change, "note": "hotel rate raised"})
            assert r.status_code == 201, r.text
            await _pay(http, first, 30_000)
            await _pay(http, third, 130_000)
            report = await _fees(http)
            assert [
                (a["amount_fen"], a["applies_from"][:10], a["announced_by"][:9]) for a in report["announcements"]
            ] == [
                (20_000, "2022-07-31", "operator:"),
                (26_000, "2022-08-02", "operator:"),
            ]
            assert all(a["announced_at"] for a in report["announcements"])
            assert next(i for i in report["items"] if i["id"] == "lodging")["amount_fen"] == 26_000
            dues = {e["entry_id"]: (e["due_fen"], e["complete_by_deadline"]) for e in report["entries"]}
            assert dues == {
                first: (130_000, True),
                second: (130_000, False),
                third: (130_000, True),
                fourth: (130_000, False),
            }
            assert [(c["entry_id"], c["paid_in_full"]) for c in report["confirmations"]] == [
                (first, True),
                (fourth, True),
            ]

            r = await http.post(
                f"/v1/events/{CODE}/stages/main/close",
                headers=OP,
                json={"format_choices": {"youth-male": {"kind": "round_robin"}}, "not_checked_in": "present"},
            )
            assert r.status_code == 200, r.text
            assert sorted(x["entry_id"] for x in r.json()["not_paired"]) == sorted([second, fourth])
    finally:
        stack.stop_all()
