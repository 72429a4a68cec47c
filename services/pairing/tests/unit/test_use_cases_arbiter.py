"""The arbiter's and the committee's use cases on the in-memory repositories and the fake unit
of work (the fast lane, issue 31): byes, withdrawals and late entries (PAIR-11), delays (EVT-7),
tie decisions (PAIR-8) and appeals (AWD-10, NY 十(四)) — what each command changes and what it
publishes. The same behaviour through the HTTP API on SQLite is in the slow ``test_service_*``
modules."""

from __future__ import annotations

from datetime import timedelta

import pytest
from pairing_fakes import ARBITER, FakeUnitOfWork, games_won_by_first
from pairing_kit import EV, START, closed, players, rules

from gomoku_shared.contracts.common import AppealTerms, Entrant
from gomoku_shared.errors import Conflict, Unprocessable
from pairing.service_layer.appeals import AppealForm, Decision
from pairing.service_layer.commands import (
    AddBye,
    DecideAppeal,
    DecideTie,
    DelayRound,
    LateEntry,
    LodgeAppeal,
    OpenSection,
    RecordGame,
    Withdraw,
)

NY = AppealTerms(fee_fen=50_000)  # NY 十(四): 仲裁费500元，胜诉后退回
SLOTS = [START + timedelta(minutes=m) for m in (60, 150, 240)]  # 10:00, 11:30, 13:00


async def _play(uow: FakeUnitOfWork, rnd: int, sid: str = "a", draws: bool = False) -> None:
    [paired] = [p for p in uow.payloads("round.paired", sid) if p.round == rnd]
    for game in games_won_by_first(paired, draws):
        await uow.handle(RecordGame(game))


async def _opened(
    n: int = 8, rounds: int = 3, *, uow: FakeUnitOfWork | None = None, sid: str = "a", starts=(), appeals=None, **kw
) -> FakeUnitOfWork:
    """A fake unit of work (``uow`` or a new one) where section ``sid`` has opened."""
    uow = uow or FakeUnitOfWork()
    section_rules = rules(rounds=rounds, **kw).model_copy(update={"round_starts": list(starts)})
    await uow.handle(OpenSection(closed(sid, players(n), section_rules).model_copy(update={"appeals": appeals})))
    return uow


def _in_round(uow: FakeUnitOfWork, rnd: int, entrant_id: str) -> bool:
    [paired] = [p for p in uow.payloads("round.paired", "a") if p.round == rnd]
    return any(entrant_id in (spec.first, spec.second) for spec in paired.pairings)


async def test_pair11_forced_bye_and_withdrawal_apply_to_the_next_round_only():
    """PAIR-11: a forced bye (full point) and a withdrawal take effect in the next round; the
    published round is never re-paired (409)."""
    uow = await _opened(n=8)
    r1 = uow.payloads("round.paired", "a")[0]
    bye_for, leaver = r1.pairings[0].first, r1.pairings[1].first
    with pytest.raises(Conflict):
        await uow.handle(AddBye(EV, "a", bye_for, "forced", 1, ARBITER))
    assert await uow.handle(AddBye(EV, "a", bye_for, "forced", None, ARBITER)) == {
        "entrant_id": bye_for,
        "round": 2,
        "kind": "forced",
    }
    assert await uow.handle(Withdraw(EV, "a", leaver, None, "ill", ARBITER)) == {"entrant_id": leaver, "after_round": 1}
    await _play(uow, 1)
    r2 = uow.payloads("round.paired", "a")[1]
    assert [(bye.entrant_id, bye.kind) for bye in r2.byes if bye.entrant_id == bye_for] == [(bye_for, "forced")]
    assert not _in_round(uow, 2, bye_for) and not _in_round(uow, 2, leaver)
    stored = uow.store.sections[(EV, "a")]
    assert [row["entrant_id"] for row in stored.entrants.values() if row["withdrawn_after"] == 1] == [leaver]
    assert [row["action"] for row in await uow.audit.of_section(EV, "a")] == ["bye", "withdrawal"]


async def test_pair11_late_entry_is_paired_from_the_next_round():
    """PAIR-11: a late entrant gets the next start number and plays from the next round; the
    same entrant twice is refused."""
    uow = await _opened(n=5)
    late = Entrant(entrant_id="late1", name="Late Comer", rating=1500, partner_id="pa")
    answer = await uow.handle(LateEntry(EV, "a", late, ARBITER))
    assert answer == {"entrant_id": "late1", "start_no": 6, "entry_round": 2}
    with pytest.raises(Conflict) as twice:
        await uow.handle(LateEntry(EV, "a", late, ARBITER))
    assert twice.value.code == "already_entered"
    assert not _in_round(uow, 1, "late1")
    await _play(uow, 1)
    assert _in_round(uow, 2, "late1")


async def test_evt7_a_delayed_round_is_announced_audited_and_paired_for_its_new_time():
    """EVT-7: the arbiter delays round 2 (not paired yet) from 11:30 to 12:00: round.rescheduled
    goes out, the audit keeps the reason, and round 2 is paired for 12:00; no reason: 422."""
    uow = await _opened(n=6, starts=SLOTS)
    later = SLOTS[1] + timedelta(minutes=30)
    with pytest.raises(Unprocessable):
        await uow.handle(DelayRound(EV, "a", 2, later, "", ARBITER))
    answer = await uow.handle(DelayRound(EV, "a", 2, later, "the hall is cold", ARBITER))
    assert answer["previous_starts_at"] == SLOTS[1].isoformat()
    [moved] = uow.payloads("round.rescheduled", "a")
    assert (moved.round, moved.starts_at, moved.previous_starts_at) == (2, later, SLOTS[1])
    [audited] = await uow.audit.of_section(EV, "a")
    assert (audited["action"], audited["details"]["reason"]) == ("delay", "the hall is cold")
    await _play(uow, 1)
    assert uow.payloads("round.paired", "a")[1].starts_at == later


async def test_evt7_a_time_slot_is_delayed_in_every_section_scheduled_in_it():
    """EVT-7: delaying the slot of one section's round delays every section of the stage that
    starts that round at the same time, each announced."""
    uow = await _opened(n=4, starts=SLOTS)
    await _opened(n=4, uow=uow, sid="b", starts=SLOTS)
    later = SLOTS[1] + timedelta(minutes=15)
    answer = await uow.handle(DelayRound(EV, "a", 2, later, "power cut", ARBITER, slot=True))
    assert [s["section_id"] for s in answer["sections"]] == ["a", "b"]
    assert [(e.section_id, e.starts_at) for e in uow.payloads("round.rescheduled")] == [("a", later), ("b", later)]


async def test_pair8_the_arbiter_decides_a_tie_once_and_the_section_completes():
    """PAIR-8: with playoffs forbidden a tie on a place that matters waits for the arbiter's
    order; the order must list the tied entrants; decided once, the section completes."""
    uow = await _opened(n=4, rounds=1, tie_policy="arbiter", places=1)
    await _play(uow, 1, draws=True)
    assert uow.payloads("section.completed") == []
    [tie] = uow.store.sections[(EV, "a")].ties.values()
    assert (tie["tie_id"], tie["status"], sorted(tie["entrant_ids"])) == (
        "t1-4",
        "open",
        [p.entrant_id for p in players(4)],
    )
    with pytest.raises(Unprocessable):
        await uow.handle(DecideTie(EV, "a", "t1-4", ["p001"], ARBITER))
    order = ["p003", "p001", ["p002", "p004"]]
    assert (await uow.handle(DecideTie(EV, "a", "t1-4", order, ARBITER)))["status"] == "decided"
    [done] = uow.payloads("section.completed", "a")
    assert done.standings[0].entrant_id == "p003"
    with pytest.raises(Conflict):
        await uow.handle(DecideTie(EV, "a", "t1-4", order, ARBITER))


def _appeal(fee: int = 50_000) -> AppealForm:
    return AppealForm(
        unit_id="U1",
        signatory_role="leader",
        signatory_name="张三丰",
        grounds="the opponent's device was in use during the game",
        fee_fen=fee,
        currency="CNY",
        payment_reference="receipt 0042",
        round=1,
        pairing_id="r1.b1",
    )


async def test_awd10_ny_appeal_lodged_with_its_fee_then_upheld_changes_the_result():
    """AWD-10 / NY 十(四): the 500 CNY fee is checked, the appeal recorded and announced
    (appeal.lodged); upheld with a new result, the fee is refunded, the result is corrected
    through the arbiter's path (result.decided, section.completed revision 2) and announced
    (appeal.decided)."""
    uow = await _opened(n=4, rounds=1, appeals=NY)
    await _play(uow, 1)
    with pytest.raises(Unprocessable) as wrong:
        await uow.handle(LodgeAppeal(EV, "a", _appeal(fee=100), ARBITER))
    assert wrong.value.code == "wrong_fee"
    lodged = await uow.handle(LodgeAppeal(EV, "a", _appeal(), ARBITER))
    assert (lodged["appeal_id"], lodged["status"], lodged["signatory"]) == ("a-1", "lodged", "张**")
    assert (lodged["pairing_result"], lodged["pairing_revision"]) == ("first_wins", 1)
    [event] = uow.payloads("appeal.lodged", "a")
    assert (event.appeal_id, event.fee_fen, event.payment_reference) == ("a-1", 50_000, "receipt 0042")
    decision = Decision(upheld=True, reasons="the device was proven", result="second_wins", expected_revision=1)
    decided = await uow.handle(DecideAppeal(EV, "a", "a-1", decision, ARBITER))
    assert (decided["status"], decided["refund_fen"], decided["result_changed"]) == ("upheld", 50_000, True)
    assert (decided["pairing_result"], decided["pairing_revision"]) == ("second_wins", 2)
    [announced] = uow.payloads("appeal.decided", "a")
    assert (announced.upheld, announced.refund_fen, announced.result_changed) == (True, 50_000, True)
    [correction] = uow.payloads("result.decided", "a")
    assert correction.pairing_id == "r1.b1" and "appeal a-1" in correction.note
    assert [d.revision for d in uow.payloads("section.completed", "a")] == [1, 2]
    with pytest.raises(Conflict):
        await uow.handle(DecideAppeal(EV, "a", "a-1", Decision(upheld=False, reasons="again"), ARBITER))
    actions = [row["action"] for row in await uow.audit.of_section(EV, "a")]
    assert actions == ["appeal_lodged", "result", "appeal_decided"]


async def test_awd10_rejected_appeal_keeps_the_result_and_the_fee():
    """NY 十(四): rejected, the result stands and nothing is refunded."""
    uow = await _opened(n=4, rounds=1, appeals=NY)
    await _play(uow, 1)
    await uow.handle(LodgeAppeal(EV, "a", _appeal(), ARBITER))
    decided = await uow.handle(DecideAppeal(EV, "a", "a-1", Decision(upheld=False, reasons="no breach"), ARBITER))
    assert (decided["status"], decided["refund_fen"], decided["result_changed"]) == ("rejected", 0, False)
    assert uow.payloads("result.decided") == [] and len(uow.payloads("section.completed")) == 1


async def test_pair8_a_tie_is_settled_by_a_playoff_game_and_the_section_completes():
    """PAIR-8: a tie on a place that matters (policy playoff) goes out as playoff.required; the
    playoff's game.finished decides it and the section completes with the winner first."""
    uow = await _opened(n=2, rounds=1, tie_policy="playoff", places=1)
    await _play(uow, 1, draws=True)
    [playoff] = uow.payloads("playoff.required", "a")
    [spec] = playoff.pairings
    assert uow.payloads("section.completed") == []
    [decider] = games_won_by_first(playoff)
    await uow.handle(RecordGame(decider))
    [done] = uow.payloads("section.completed", "a")
    assert done.standings[0].entrant_id == spec.first
    [tie] = uow.store.sections[(EV, "a")].ties.values()
    assert (tie["status"], tie["decided_by"]) == ("decided", "playoff")
