"""The fee ledger over HTTP (REG-14), refunds (REG-15) and appeal fees from the bus (AWD-10),
on SQLite and the in-memory bus."""

from __future__ import annotations

from datetime import datetime

import pytest
from registration_kit import ARB_B, CST, OP, P1, P2, harness, player

from gomoku_shared.contracts.events import AppealDecided, AppealLodged

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow


async def da_event(h, code: str = "da23") -> list[str]:
    """A DA event with three entries of unit hainan (partner 1) and one of hubei (partner 2)."""
    r = await h.client.post("/v1/events", headers=OP, json={"preset_id": "da-2023", "event_code": code})
    assert r.status_code == 201, r.text
    ids = []
    for n, (headers, unit) in enumerate([(P1, "hainan")] * 3 + [(P2, "hubei")], start=1):
        if n in (1, 4):
            body = {"id": unit, "name": unit.title(), "kind": "province"}
            assert (await h.client.post(f"/v1/events/{code}/units", headers=headers, json=body)).status_code == 201
        body = {
            "section_id": "open",
            "player": {**player(n), "unit": unit},
            "insurance": {"confirmed": True, "document_ref": f"INS-{n}"},
        }
        r = await h.client.post(f"/v1/events/{code}/entries", headers=headers, json=body)
        assert r.json()["status"] == "accepted", r.text
        ids.append(r.json()["entry_id"])
    return ids


def line(item: str, fen: int, **payer) -> dict:
    return {"item": item, "amount_fen": fen, "reference": "ICBC-2201023009200062541", **payer}


async def test_reg14_the_close_pairs_only_entries_whose_fees_arrived_in_time(tmp_path):
    """REG-14 (DA 十(一)3: 以收到参赛报名材料和食宿费为准 … 均视为无效，不予编排): the operator
    records what was received; the close refuses every entry whose fees did not arrive before
    08-11 24:00 and lists it with the reason; the field pairing gets leaves it out."""
    async with harness(tmp_path, start=datetime(2023, 8, 5, 10, 0, tzinfo=CST)) as h:
        first, second, third, hubei = await da_event(h)
        paid = [
            line("lodging-standard", 144_000, entry_id=first),  # 360 CNY x 4 days
            line("lodging-standard", 144_000, unit_id="hainan"),  # the unit pays for one more
        ]
        for n, body in enumerate(paid):
            r = await h.client.post("/v1/events/da23/ledger", headers={**OP, "Idempotency-Key": f"pay-{n}"}, json=body)
            assert r.status_code == 201, r.text
            assert r.json()["reference"] == "[protected]" and "2201023" not in r.text
        # partners and another organisation's arbiters do not record money (issue 29: an
        # arbiter's key holds the fee clerk's role in its own organisation's events only);
        # nonsense is refused with a clear 4xx
        assert (await h.client.post("/v1/events/da23/ledger", headers=P1, json=paid[0])).status_code == 403
        other = await h.client.post("/v1/events/da23/ledger", headers=ARB_B, json=paid[0])
        assert other.status_code == 403 and other.json()["error"]["code"] == "not_your_event"
        for bad, code in (
            (line("lodging-standard", -1, entry_id=first), "invalid_line"),
            (line("minibar", 100, entry_id=first), "invalid_line"),
            (line("lodging-standard", 100, entry_id=first, unit_id="hainan"), "payer_required"),
            (line("lodging-standard", 100, entry_id="da23:nope"), "unknown_entry"),
            (line("lodging-standard", 100, entry_id=first, received_at="2023-08-06T00:00:00+08:00"), "invalid_line"),
        ):
            r = await h.client.post("/v1/events/da23/ledger", headers=OP, json=bad)
            assert 400 <= r.status_code < 500 and r.json()["error"]["code"] == code, r.text

        # a partner sees the lines and fees of its own entries and units only
        # money received on 08-11 at 23:59 and recorded the next morning is in time
        h.clock.set(datetime(2023, 8, 12, 9, 0, tzinfo=CST))
        on_time = line("lodging-standard", 144_000, entry_id=hubei, received_at="2023-08-11T23:59:00+08:00")
        assert (await h.client.post("/v1/events/da23/ledger", headers=OP, json=on_time)).status_code == 201
        mine = (await h.client.get("/v1/events/da23/ledger", headers=P1)).json()["lines"]
        assert [x["entry_id"] or x["unit_id"] for x in mine] == [first, "hainan"]
        theirs = (await h.client.get("/v1/events/da23/ledger", headers=P2)).json()["lines"]
        assert [x["entry_id"] for x in theirs] == [hubei]
        report = (await h.client.get("/v1/events/da23/fees", headers=P1)).json()
        assert [(e["entry_id"], e["complete_by_deadline"]) for e in report["entries"]] == [
            (first, True),
            (second, True),
            (third, False),
        ]
        assert report["entries"][2]["due_fen"] == 144_000 and report["due_by"] == "2023-08-12T00:00:00+08:00"

        # a payment received at the deadline is money in the ledger, not a valid entry
        late = line("lodging-standard", 144_000, entry_id=third, received_at="2023-08-12T00:00:00+08:00")
        assert (await h.client.post("/v1/events/da23/ledger", headers=OP, json=late)).status_code == 201
        h.clock.set(datetime(2023, 8, 18, 10, 0, tzinfo=CST))
        r = await h.client.post(
            "/v1/events/da23/stages/main/close",
            headers=OP,
            json={"format_choices": {"open": {"kind": "round_robin"}}, "not_checked_in": "present"},
        )
        assert r.status_code == 200, r.text
        not_paired = r.json()["not_paired"]
        assert [(x["entry_id"], x["rule"]) for x in not_paired] == [(third, "REG-14")]
        assert "fees not received before 2023-08-12T00:00:00+08:00" in not_paired[0]["reason"]
        await h.settle()
        field = next(p for p in h.payloads("section.closed") if p.section_id == "open")
        assert sorted(e.entrant_id for e in field.entrants) == sorted([first, second, hubei])
        refused = [p for p in h.payloads("entry.refused") if p.application_id.endswith(third.split(":")[-1])]
        assert refused and refused[-1].clause == "fees/validity"
        got = (await h.client.get(f"/v1/events/da23/entries/{third}", headers=P1)).json()
        assert got["status"] == "refused" and got["clause"] == "fees/validity"


async def test_reg15_refund_request_decided_by_the_organiser_into_the_ledger(tmp_path):
    """REG-15 (DA 十三(三): 书面申请及不得不弃赛的证明办理退费手续): a confirmed participant who
    withdraws files the request with reason and proof; the operator grants an amount, which
    becomes a refund line; a second decision is refused; the partner sees its own request."""
    async with harness(tmp_path, start=datetime(2023, 8, 5, 10, 0, tzinfo=CST)) as h:
        first, *_ = await da_event(h)
        assert (
            await h.client.post(
                "/v1/events/da23/ledger", headers=OP, json=line("lodging-single", 208_000, entry_id=first)
            )
        ).status_code == 201
        early = {"reason": "illness", "proof_ref": "MED-2023-77"}
        r = await h.client.post(f"/v1/events/da23/entries/{first}/refund-request", headers=P1, json=early)
        assert r.status_code == 422 and r.json()["error"]["code"] == "refund_refused"  # still taking part
        w = {"reason": "illness", "proof_ref": "MED-2023-77"}
        assert (await h.client.post(f"/v1/events/da23/entries/{first}/withdraw", headers=P1, json=w)).status_code == 200
        r = await h.client.post(f"/v1/events/da23/entries/{first}/refund-request", headers=P2, json=early)
        assert r.status_code == 404  # another partner's entry
        r = await h.client.post(
            f"/v1/events/da23/entries/{first}/refund-request", headers=P1, json={"reason": "illness"}
        )
        assert r.status_code == 422 and "proof" in r.json()["error"]["message"]
        r = await h.client.post(f"/v1/events/da23/entries/{first}/refund-request", headers=P1, json=early)
        assert r.status_code == 201 and r.json()["state"] == "requested" and r.json()["proof_ref"] == "[protected]"
        refund_id = r.json()["refund_id"]
        decision = {"decision": "grant", "amount_fen": 300_000}
        r = await h.client.post(f"/v1/refunds/{refund_id}/decision", headers=OP, json=decision)
        assert r.status_code == 422 and "between 1 and 208000" in r.json()["error"]["message"]
        assert (await h.client.post(f"/v1/refunds/{refund_id}/decision", headers=P1, json=decision)).status_code == 403
        decision["amount_fen"] = 150_000
        r = await h.client.post(f"/v1/refunds/{refund_id}/decision", headers=OP, json=decision)
        assert r.status_code == 200 and (r.json()["state"], r.json()["granted_fen"]) == ("granted", 150_000)
        assert (await h.client.post(f"/v1/refunds/{refund_id}/decision", headers=OP, json=decision)).status_code == 409
        lines = (await h.client.get("/v1/events/da23/ledger", headers=P1)).json()["lines"]
        assert [(x["kind"], x["amount_fen"]) for x in lines] == [("payment", 208_000), ("refund", -150_000)]
        assert lines[1]["line_id"] == r.json()["ledger_line_id"]
        mine = (await h.client.get("/v1/events/da23/refunds", headers=P1)).json()["refunds"]
        assert [x["refund_id"] for x in mine] == [refund_id]
        assert (await h.client.get("/v1/events/da23/refunds", headers=P2)).json()["refunds"] == []


def lodged(appeal: str, fee: int = 50_000) -> AppealLodged:
    return AppealLodged(
        event_code="ny22",
        stage="main",
        section_id="youth-male",
        appeal_id=appeal,
        round=3,
        unit_id="Hubei",
        lodged_by="Leader of Hubei",
        fee_fen=fee,
        payment_reference="CASH-0001",
        lodged_at=datetime(2022, 8, 12, 15, 0, tzinfo=CST),
    )


async def test_awd10_appeal_fees_and_upheld_refunds_are_ledger_lines_once(tmp_path):
    """AWD-10 (NY 十(四): 交纳仲裁费500元，胜诉后退回): appeal.lodged with a fee is a payment of
    the unit (named by id or name), appeal.decided upheld a refund line; a fee-less or
    dismissed appeal adds nothing; an event delivered twice (or republished under another id)
    adds nothing more."""
    async with harness(tmp_path, start=datetime(2022, 8, 1, 10, 0, tzinfo=CST)) as h:
        r = await h.client.post("/v1/events", headers=OP, json={"preset_id": "ny-2022", "event_code": "ny22"})
        assert r.status_code == 201
        body = {"id": "hubei", "name": "Hubei", "kind": "province"}
        assert (await h.client.post("/v1/events/ny22/units", headers=P1, json=body)).status_code == 201
        h.clock.set(datetime(2022, 8, 13, 9, 0, tzinfo=CST))
        await h.publish(lodged("ap1"))
        await h.publish(lodged("ap1"))  # the same appeal again (a replay under a new event id)
        await h.publish(lodged("ap2", fee=0))
        decided = dict(event_code="ny22", stage="main", section_id="youth-male", unit_id="hubei", reasons="r")
        at = datetime(2022, 8, 12, 18, 0, tzinfo=CST)
        await h.publish(AppealDecided(**decided, appeal_id="ap1", upheld=True, refund_fen=50_000, decided_at=at))
        await h.publish(AppealDecided(**decided, appeal_id="ap3", upheld=False, refund_fen=0, decided_at=at))
        await h.publish(AppealLodged.model_validate({**lodged("ap9").model_dump(), "event_code": "nobody"}))
        lines = (await h.client.get("/v1/events/ny22/ledger", headers=OP)).json()["lines"]
        assert [(x["kind"], x["item"], x["amount_fen"], x["unit_id"], x["source"]) for x in lines] == [
            ("payment", "arbitration", 50_000, "hubei", "appeal.lodged:ap1"),
            ("refund", "arbitration", -50_000, "hubei", "appeal.decided:ap1"),
        ]
        assert lines[0]["reference"] == "[protected]" and "Leader" not in str(lines)
        assert [x["line_id"] for x in (await h.client.get("/v1/events/ny22/ledger", headers=P1)).json()["lines"]] == [
            x["line_id"] for x in lines
        ]
        assert (await h.client.get("/v1/events/ny22/ledger", headers=P2)).json()["lines"] == []


async def nt_event(h, code: str = "nt23") -> list[str]:
    """An NT event (食宿标准另行通知) with one team of unit hubei (partner 1) and one of anhui (partner 2)."""
    r = await h.client.post("/v1/events", headers=OP, json={"preset_id": "nt-2023", "event_code": code})
    assert r.status_code == 201, r.text
    ids = []
    for n, (headers, unit) in enumerate([(P1, "hubei"), (P2, "anhui")]):
        region = unit.title()
        body = {"id": unit, "name": region, "kind": "province", "region": region}
        assert (await h.client.post(f"/v1/events/{code}/units", headers=headers, json=body)).status_code == 201
        hh = [{"kind": "household_registration", "document_ref": f"H{n}", "region": region}]
        members = [
            {**player(10 * n + b, gender="female" if b == 3 else "male"), "board": b, "evidence": hh} for b in (1, 2, 3)
        ]
        team = {
            "section_id": "mixed-team",
            "unit": unit,
            "members": members,
            "insurance": {"confirmed": True, "document_ref": "P"},
        }
        r = await h.client.post(f"/v1/events/{code}/teams", headers=headers, json=team)
        assert r.status_code == 201 and r.json()["status"] == "accepted", r.text
        ids.append(r.json()["entry_id"])
    return ids


async def test_reg14_nt_confirmation_withdrawn_and_refusals_over_http(tmp_path):
    """REG-14, NT 十一 (食宿标准另行通知), on SQLite: the fee clerk's confirmation of a unit's
    payment makes the team valid, withdrawing it (paid_in_full false) undoes that; a confirmation
    dated in the future is refused; a partner sees only its own entries' confirmations."""
    async with harness(tmp_path, start=datetime(2023, 6, 1, 10, 0, tzinfo=CST)) as h:
        hubei, anhui = await nt_event(h)
        r = await h.client.post("/v1/events/nt23/ledger", headers=OP, json=line("lodging", 100, unit_id="hubei"))
        assert r.status_code == 201, r.text
        confirm = f"/v1/events/nt23/entries/{hubei}/fees/confirmation"

        async def valid() -> bool:
            entries = (await h.client.get("/v1/events/nt23/fees", headers=OP)).json()["entries"]
            return next(e for e in entries if e["entry_id"] == hubei)["complete_by_deadline"]

        assert not await valid()
        r = await h.client.post(confirm, headers=OP, json={"item": "lodging", "as_of": "2023-06-02T10:00:00+08:00"})
        assert (r.status_code, r.json()["error"]["code"]) == (422, "invalid_confirmation")
        r = await h.client.post(confirm, headers=OP, json={"item": "minibar"})
        assert (r.status_code, r.json()["error"]["code"]) == (404, "unknown_fee_item")
        assert (await h.client.post(confirm, headers=OP, json={"item": "lodging"})).status_code == 201
        assert await valid()
        h.clock.set(datetime(2023, 6, 1, 11, 0, tzinfo=CST))
        r = await h.client.post(confirm, headers=OP, json={"item": "lodging", "paid_in_full": False, "note": "bounced"})
        assert r.status_code == 201 and r.json()["paid_in_full"] is False
        assert not await valid()
        r = await h.client.post(
            f"/v1/events/nt23/entries/{anhui}/fees/confirmation", headers=OP, json={"item": "lodging"}
        )
        assert (r.status_code, r.json()["error"]["code"]) == (409, "no_payment")
        mine = (await h.client.get("/v1/events/nt23/fees", headers=P1)).json()
        assert [(c["entry_id"], c["paid_in_full"]) for c in mine["confirmations"]] == [(hubei, True), (hubei, False)]
        assert (await h.client.get("/v1/events/nt23/fees", headers=P2)).json()["confirmations"] == []
