"""Appeals over the pairing API (AWD-10, NY 十(四)): recorded by staff with the configured fee,
decided once by the committee, audited and published; an upheld appeal that changes a result
goes through the arbiter's path and republishes the section with revision + 1 (AWD-8)."""

from __future__ import annotations

import pytest
from pairing_kit import ARB, EV, PA, Harness, closed, players, rules, sqlite_settings

from gomoku_shared.contracts.common import AppealTerms

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow

BASE = f"/v1/events/{EV}/sections/a"
NY = AppealTerms(fee_fen=50_000)  # NY 十(四): 仲裁费500元，胜诉后退回


@pytest.fixture
async def svc(tmp_path):
    h = Harness(sqlite_settings(tmp_path))
    await h.start()
    yield h
    await h.stop()


async def _played(svc, terms: AppealTerms | None = NY) -> None:
    await svc.send(closed("a", players(6), rules(rounds=3)).model_copy(update={"appeals": terms}))
    await svc.settle()
    await svc.play_section("a", 3)


def _appeal(pairing_id: str | None = "r1.b1", fee: int = 50_000, **extra) -> dict:
    body = {
        "unit_id": "U1",
        "signatory_role": "leader",
        "signatory_name": "张三丰",
        "grounds": "the opponent's device was in use during the game",
        "round": 1 if pairing_id else None,
        "pairing_id": pairing_id,
        "fee_fen": fee,
        "payment_reference": "receipt 0042",
    }
    return {**body, **extra}


async def test_awd10_ny_fee_must_be_500_cny_and_staff_record_the_appeal(svc):
    """NY 十(四): the fee is 500 CNY (50 000 fen) exactly; only staff record an appeal."""
    await _played(svc)
    url = f"{BASE}/appeals"
    assert (await svc.client.post(url, json=_appeal())).status_code == 401
    assert (await svc.client.post(url, json=_appeal(), headers=PA)).status_code == 403
    for fee in (0, 49_900, 50_001):
        refused = await svc.client.post(url, json=_appeal(fee=fee), headers=ARB)
        assert refused.status_code == 422 and refused.json()["error"]["code"] == "wrong_fee", refused.text
    unknown = await svc.client.post(url, json=_appeal(unit_id="nowhere"), headers=ARB)
    assert unknown.status_code == 422 and unknown.json()["error"]["code"] == "unknown_unit"
    missing = await svc.client.post(url, json=_appeal(pairing_id="r1.b9"), headers=ARB)
    assert missing.status_code == 404
    lodged = await svc.client.post(url, json=_appeal(), headers=ARB)
    assert lodged.status_code == 200, lodged.text
    body = lodged.json()
    assert (body["appeal_id"], body["status"], body["fee_fen"], body["signatory"]) == ("a-1", "lodged", 50_000, "张**")
    await svc.settle()
    [event] = svc.payloads("appeal.lodged", "a")
    assert (event.appeal_id, event.fee_fen, event.unit_id, event.payment_reference) == (
        "a-1",
        50_000,
        "U1",
        "receipt 0042",
    )
    listed = (await svc.client.get(f"/v1/events/{EV}/appeals", headers=ARB)).json()["appeals"]
    assert [a["appeal_id"] for a in listed] == ["a-1"] and "张三丰" not in str(listed)
    assert (await svc.client.get(f"/v1/events/{EV}/appeals")).status_code == 401
    audit = (await svc.client.get(f"{BASE}/audit", headers=ARB)).json()["audit"]
    assert audit[-1]["action"] == "appeal_lodged"


async def test_awd10_rejected_keeps_the_result_and_refunds_nothing(svc):
    """NY 十(四): a rejected appeal keeps its fee and the result; no second decision."""
    await _played(svc)
    before = (await svc.client.get(f"{BASE}/rounds/1")).json()["pairings"][0]["result"]
    await svc.client.post(f"{BASE}/appeals", json=_appeal(), headers=ARB)
    url = f"{BASE}/appeals/a-1/decision"
    with_result = await svc.client.post(url, json={"upheld": False, "reasons": "x", "result": "draw"}, headers=ARB)
    assert with_result.status_code == 422 and with_result.json()["error"]["code"] == "result_needs_upheld"
    decided = await svc.client.post(url, json={"upheld": False, "reasons": "no breach was seen"}, headers=ARB)
    assert decided.status_code == 200, decided.text
    assert (decided.json()["status"], decided.json()["refund_fen"], decided.json()["result_changed"]) == (
        "rejected",
        0,
        False,
    )
    await svc.settle()
    [event] = svc.payloads("appeal.decided", "a")
    assert (event.upheld, event.refund_fen, event.result_changed) == (False, 0, False)
    assert svc.payloads("result.decided", "a") == []
    assert [d.revision for d in svc.payloads("section.completed", "a")] == [1]
    assert (await svc.client.get(f"{BASE}/rounds/1")).json()["pairings"][0]["result"] == before
    again = await svc.client.post(url, json={"upheld": True, "reasons": "second thoughts"}, headers=ARB)
    assert again.status_code == 409 and again.json()["error"]["code"] == "appeal_decided"


async def test_awd10_upheld_changes_the_result_through_the_arbiter_path(svc):
    """NY 十(四) / AWD-8: upheld → the fee refunded; the new result is the arbiter's correction:
    result.decided, section.completed revision 2, the standings changed."""
    await _played(svc)
    pairing = (await svc.client.get(f"{BASE}/rounds/1")).json()["pairings"][0]
    new = "second_wins" if pairing["result"] != "second_wins" else "first_wins"
    lodged = (await svc.client.post(f"{BASE}/appeals", json=_appeal(), headers=ARB)).json()
    assert (lodged["pairing_result"], lodged["pairing_revision"]) == (pairing["result"], pairing["revision"])
    decided = await svc.client.post(
        f"{BASE}/appeals/a-1/decision",
        json={
            "upheld": True,
            "reasons": "the device was proven",
            "result": new,
            "expected_revision": lodged["pairing_revision"],
        },
        headers=ARB,
    )
    assert decided.status_code == 200, decided.text
    assert (decided.json()["pairing_result"], decided.json()["pairing_revision"]) == (new, pairing["revision"] + 1)
    answer = decided.json()
    assert (answer["status"], answer["refund_fen"], answer["result_changed"]) == ("upheld", 50_000, True)
    assert (answer["result_before"], answer["result_after"]) == (pairing["result"], new)
    await svc.settle()
    [event] = svc.payloads("appeal.decided", "a")
    assert (event.upheld, event.refund_fen, event.result_changed) == (True, 50_000, True)
    [correction] = svc.payloads("result.decided", "a")
    assert correction.pairing_id == pairing["pairing_id"] and "appeal a-1" in correction.note
    done = svc.payloads("section.completed", "a")
    assert [d.revision for d in done] == [1, 2]
    assert (await svc.client.get(f"{BASE}/rounds/1")).json()["pairings"][0]["result"] == new
    shown = (await svc.client.get(f"{BASE}/appeals/a-1", headers=ARB)).json()
    assert shown["status"] == "upheld" and shown["reasons"] == "the device was proven"
    actions = [a["action"] for a in (await svc.client.get(f"{BASE}/audit", headers=ARB)).json()["audit"]]
    assert actions[-3:] == ["appeal_lodged", "result", "appeal_decided"]


async def test_awd10_da_no_fee_named_and_a_dispute_about_no_result(svc):
    """DA 八(二): a committee and no fee; an appeal not about one result changes none."""
    await _played(svc, AppealTerms(fee_fen=0))
    refused = await svc.client.post(f"{BASE}/appeals", json=_appeal(pairing_id=None), headers=ARB)
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "wrong_fee"
    lodged = await svc.client.post(f"{BASE}/appeals", json=_appeal(pairing_id=None, fee=0), headers=ARB)
    assert lodged.status_code == 200 and lodged.json()["round"] is None
    change = await svc.client.post(
        f"{BASE}/appeals/a-1/decision", json={"upheld": True, "reasons": "r", "result": "draw"}, headers=ARB
    )
    assert change.status_code == 422 and change.json()["error"]["code"] == "no_pairing_appealed"
    upheld = await svc.client.post(f"{BASE}/appeals/a-1/decision", json={"upheld": True, "reasons": "r"}, headers=ARB)
    assert upheld.json()["refund_fen"] == 0
    assert (await svc.client.get(f"{BASE}/appeals/a-9", headers=ARB)).status_code == 404


async def test_awd10_a_decision_on_a_result_corrected_meanwhile_is_refused_and_decides_nothing(svc):
    """Issue 27 finding 9: the committee decides on the result it saw (``expected_revision``); if
    an arbiter corrected the appealed result meanwhile, the decision is 409 ``stale_revision``
    with the current result, the appeal stays lodged and no fee is refunded."""
    await _played(svc)
    pairing = (await svc.client.get(f"{BASE}/rounds/1")).json()["pairings"][0]
    lodged = (await svc.client.post(f"{BASE}/appeals", json=_appeal(), headers=ARB)).json()
    corrected = "draw" if pairing["result"] != "draw" else "first_wins"
    body = {"pairing_id": pairing["pairing_id"], "result": corrected, "expected_revision": pairing["revision"]}
    assert (await svc.client.post(f"{BASE}/rounds/1/results", json=body, headers=ARB)).status_code == 200
    new = "second_wins" if corrected != "second_wins" else "first_wins"
    decision = {"upheld": True, "reasons": "r", "result": new, "expected_revision": lodged["pairing_revision"]}
    refused = await svc.client.post(f"{BASE}/appeals/a-1/decision", json=decision, headers=ARB)
    assert refused.status_code == 409, refused.text
    error = refused.json()["error"]
    assert error["code"] == "stale_revision"
    assert (error["details"]["current"]["result"], error["details"]["current"]["revision"]) == (
        corrected,
        pairing["revision"] + 1,
    )
    shown = (await svc.client.get(f"{BASE}/appeals/a-1", headers=ARB)).json()
    assert (shown["status"], shown["refund_fen"], shown["pairing_result"]) == ("lodged", None, corrected)
