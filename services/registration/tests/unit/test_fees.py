"""REG-14 fees and validity, REG-15 refunds: the domain rules of registration.domain.fees,
table-driven, each case naming its seed clause."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import pytest
from registration_kit import cst

from gomoku_shared.event_config import EventConfig
from registration import presets
from registration.domain import Entry, EntryStatus, RegistrationError, Withdrawal
from registration.domain.fees import (
    NO_NOTICES,
    Announcement,
    Confirmation,
    FeeNotices,
    LedgerLine,
    check_line,
    decide_refund,
    fee_deadline,
    fee_statuses,
    invalid_for_fees,
    judge_refund_request,
)

_seq = iter(range(1, 10_000))


def entry(event: EventConfig, section: str, *, people: int = 1, unit: str | None = "u1", **kw) -> Entry:
    n = next(_seq)
    return Entry(
        id=f"{event.id}:e{n}",
        event_id=event.id,
        section_id=section,
        person_ids=tuple(f"p{n}-{i}" for i in range(people)),
        unit_id=unit,
        status=kw.pop("status", EntryStatus.ACCEPTED),
        received_at=None,
        **kw,
    )


def pay(
    item: str, fen: int, at: datetime, *, entry_id: str | None = None, unit_id: str | None = None, **kw
) -> LedgerLine:
    return LedgerLine(f"l{next(_seq)}", kw.pop("kind", "payment"), item, fen, at, entry_id, unit_id, **kw)


# --------------------------------------------------------------------------- the deadline minute

#: (preset, section, item, last valid minute, first invalid minute, seed clause)
DEADLINES = [
    # DA 十(一)1,3: 于8月11日24:00前 … 以收到参赛报名材料和食宿费为准
    ("da-2023", "open", "lodging-standard", cst(2023, 8, 11, 23, 59), cst(2023, 8, 12, 0, 0), "DA 十(一)3"),
    # NT 十(一)1,3: 于6月13日17:00前 … 以收到参赛报名材料和食宿费为准
    ("nt-2023", "mixed-team", "lodging", cst(2023, 6, 13, 16, 59), cst(2023, 6, 13, 17, 0), "NT 十(一)3"),
    # NY 十二(三): 报名截止日期2022年8月5日，以收到报名材料和食宿费为准
    ("ny-2022", "youth-male", "lodging", cst(2022, 8, 5, 23, 59), cst(2022, 8, 6, 0, 0), "NY 十二(三)"),
]


@pytest.mark.parametrize(("preset", "section", "item", "last_ok", "first_late", "clause"), DEADLINES)
def test_reg14_fees_received_by_the_deadline_minute(preset, section, item, last_ok, first_late, clause):
    """REG-14: an entry counts only when its fees arrived before the deadline: the last minute
    before it is valid, the deadline itself is not (均视为无效，不予编排)."""
    event = presets.load(preset)
    people = 3 if section == "mixed-team" else 1
    # NY, NT 十一 (另行通知): the amount is announced before the deadline
    rate = event.fees.item(item).amount_fen
    notices = NO_NOTICES if rate is not None else FeeNotices((Announcement(item, 30_000, cst(2022, 1, 1), 1),))
    due = (rate or 30_000) * people * (event.fees.days or 1)
    assert fee_deadline(event) == first_late, clause
    on_time, late = entry(event, section, people=people), entry(event, section, people=people)
    lines = [pay(item, due, last_ok, entry_id=on_time.id), pay(item, due, first_late, entry_id=late.id)]
    refused = invalid_for_fees(event, [on_time, late], lines, notices)
    assert [(e.id, d.rule, d.outcome.value) for e, d in refused] == [(late.id, "REG-14", "refused")], clause
    assert "not paired" in refused[0][1].reason


# --------------------------------------------------------------------------- DA amounts by room


@pytest.fixture(scope="module")
def da() -> EventConfig:
    return presets.load("da-2023")


#: (lines as (item, fen), complete, due, clause): DA 十一(一) 标准间360元/人/天, 单间520元/人/天, 4 days
DA_ROOMS = [
    ([("lodging-standard", 144_000)], True, 144_000, "DA 十一(一): 360 CNY x 4 days, standard"),
    ([("lodging-standard", 143_999)], False, 144_000, "DA 十一(一): one fen short"),
    ([("lodging-single", 208_000)], True, 208_000, "DA 十一(一): 520 CNY x 4 days, single"),
    ([("lodging-single", 144_000)], False, 208_000, "DA 十一(一): a single room paid at the standard rate"),
    ([("lodging-standard", 100_000), ("lodging-standard", 44_000)], True, 144_000, "two instalments"),
    ([], False, 144_000, "DA 十(一)3: nothing received"),
]


@pytest.mark.parametrize(("paid", "complete", "due", "clause"), DA_ROOMS)
def test_reg14_da_board_and_lodging_per_person_per_day_by_room(da, paid, complete, due, clause):
    """REG-14, DA 十一(一): the fee due is the room's rate per person per day, in fen."""
    one = entry(da, "open")
    lines = [pay(item, fen, cst(2023, 8, 5), entry_id=one.id) for item, fen in paid]
    status = fee_statuses(da, [one], lines, by=fee_deadline(da))[one.id]
    assert (status.complete, status.due_fen) == (complete, due), clause


def test_reg14_a_unit_pays_for_its_entries_in_submission_order(da):
    """REG-14, DA 十(一)1 (各单位统一报名): a unit's money covers its entries one after the other,
    each in full; the one it does not reach is not paired."""
    first, second, third = (entry(da, "open", unit="hainan") for _ in range(3))
    other = entry(da, "open", unit="hubei")
    lines = [pay("lodging-standard", 2 * 144_000 + 1_000, cst(2023, 8, 10), unit_id="hainan")]
    status = fee_statuses(da, [first, second, third, other], lines, by=fee_deadline(da))
    assert [status[e.id].complete for e in (first, second, third, other)] == [True, True, False, False]
    assert status[third.id].paid_fen == 1_000


def test_reg14_a_correction_counts_at_the_time_of_the_line_it_corrects(da):
    """REG-14: the ledger is append-only; a wrong line is corrected by a new line, which counts
    when the corrected money arrived (it is the same money, not new money)."""
    one = entry(da, "open")
    wrong = pay("lodging-standard", 14_400, cst(2023, 8, 1), entry_id=one.id)  # 144 CNY typed for 1440
    fix = pay("lodging-standard", 129_600, cst(2023, 8, 20), entry_id=one.id, kind="correction", corrects=wrong.id)
    status = fee_statuses(da, [one], [wrong, fix], by=fee_deadline(da))[one.id]
    assert status.complete and status.paid_fen == 144_000
    cancel = pay("lodging-standard", -144_000, cst(2023, 8, 20), entry_id=one.id, kind="correction", corrects=wrong.id)
    assert not fee_statuses(da, [one], [wrong, fix, cancel], by=fee_deadline(da))[one.id].complete


# --------------------------------------------------------------------------- amounts announced later

ANNOUNCED_ON = cst(2022, 7, 1)
RAISED_ON = cst(2022, 7, 20)


def announced(*amounts: tuple[int, datetime]) -> tuple[Announcement, ...]:
    return tuple(Announcement("lodging", fen, at, seq) for seq, (fen, at) in enumerate(amounts, start=1))


def confirmed(entry_id: str, *states: tuple[bool, datetime]) -> tuple[Confirmation, ...]:
    return tuple(Confirmation(entry_id, "lodging", ok, at, seq) for seq, (ok, at) in enumerate(states, start=1))


#: (preset, section, people, paid (fen, when), announcements, confirmations (paid in full?, when),
#:  complete at the deadline, due at the deadline, clause)
ANNOUNCED_LATER = [
    (
        "ny-2022",
        "youth-male",
        1,
        [(1, cst(2022, 8, 1))],
        (),
        (),
        False,
        None,
        "NY 十二(三): the seed gives no amount; 1 fen is not the whole fee",
    ),
    (
        "ny-2022",
        "youth-male",
        1,
        [(500_000, cst(2022, 8, 1))],
        (),
        (),
        False,
        None,
        "NY 十二(三): no amount announced: even a large payment proves nothing alone",
    ),
    (
        "ny-2022",
        "youth-male",
        1,
        [(1, cst(2022, 8, 1))],
        (),
        ((True, cst(2022, 8, 2)),),
        True,
        None,
        "NY 十二(三): the fee clerk's explicit 'paid in full' makes it valid",
    ),
    (
        "ny-2022",
        "youth-male",
        1,
        [],
        (),
        ((True, cst(2022, 8, 2)),),
        False,
        None,
        "NY 十二(三): a confirmation without money recorded is not a payment",
    ),
    (
        "ny-2022",
        "youth-male",
        1,
        [(1, cst(2022, 8, 1))],
        (),
        ((True, cst(2022, 8, 6)),),
        False,
        None,
        "NY 十二(三): confirmed paid in full only as of after the deadline",
    ),
    (
        "ny-2022",
        "youth-male",
        1,
        [(1, cst(2022, 8, 1))],
        (),
        ((True, cst(2022, 8, 2)), (False, cst(2022, 8, 3))),
        False,
        None,
        "NY 十二(三): a confirmation withdrawn no longer counts",
    ),
    (
        "nt-2023",
        "mixed-team",
        3,
        [(3 * 3 * 30_000 - 1, cst(2023, 6, 1))],
        ((30_000, cst(2023, 5, 1)),),
        (),
        False,
        270_000,
        "NT 十一: announced 300 CNY/person/day x 3 people x 3 days: one fen short",
    ),
    (
        "nt-2023",
        "mixed-team",
        3,
        [(270_000, cst(2023, 6, 1))],
        ((30_000, cst(2023, 5, 1)),),
        (),
        True,
        270_000,
        "NT 十一: announced, then paid in full",
    ),
    (
        "nt-2023",
        "mixed-team",
        3,
        [(1, cst(2023, 6, 1))],
        ((30_000, cst(2023, 5, 1)),),
        ((True, cst(2023, 6, 2)),),
        False,
        270_000,
        "NT 十一: once an amount is announced the money decides, a confirmation does not",
    ),
    (
        "nt-2023",
        "mixed-team",
        3,
        [(270_000, cst(2023, 6, 1))],
        ((30_000, cst(2023, 6, 20)),),
        (),
        False,
        None,
        "NT 十一: an amount applying only after the deadline: validity still needs the confirmation",
    ),
]


@pytest.mark.parametrize(
    ("preset", "section", "people", "paid", "announcements", "confirmations", "complete", "due", "clause"),
    ANNOUNCED_LATER,
)
def test_reg14_fees_announced_later_need_the_amount_or_a_confirmation(
    preset, section, people, paid, announcements, confirmations, complete, due, clause
):
    """REG-14, NY 十二(三) (no amount in the seed), NT 十一 (食宿标准另行通知): before an amount
    is announced only the fee clerk's explicit confirmation completes the item (a partial
    payment never counts as full); once it is announced, received >= due."""
    event = presets.load(preset)
    one = entry(event, section, people=people)
    lines = [pay("lodging", fen, at, entry_id=one.id) for fen, at in paid]
    notices = FeeNotices(
        announced(*announcements) if announcements else (), confirmed(one.id, *confirmations) if confirmations else ()
    )
    status = fee_statuses(event, [one], lines, by=fee_deadline(event), notices=notices)[one.id]
    assert (status.complete, status.due_fen) == (complete, due), clause
    refused = invalid_for_fees(event, [one], lines, notices)
    assert [e.id for e, _ in refused] == ([] if complete else [one.id]), clause


#: (judged at, amount in effect, clause): announced 200 CNY from 07-01, raised to 260 from 07-20
AMOUNT_CHANGES = [
    (cst(2022, 6, 30), None, "NY: before the first announcement applies, no amount"),
    (cst(2022, 7, 10), 20_000, "NY: the announced amount, from the instant it applies"),
    (cst(2022, 7, 20), 20_000, "NY: the change applies from 07-20 on, not at the instant itself (exclusive)"),
    (cst(2022, 8, 6), 26_000, "NY: the changed amount after its applies-from date"),
]


@pytest.mark.parametrize(("by", "amount", "clause"), AMOUNT_CHANGES)
def test_reg14_a_changed_amount_applies_from_its_date(by, amount, clause):
    """REG-14, NY 十二(三): an announcement applies from its date on; a change of it (recorded
    later) replaces it from its own date, earlier judgements keep the earlier amount. A
    backdated record of an earlier announcement does not override a later-applying one."""
    ny = presets.load("ny-2022")
    lodging = ny.fees.item("lodging")
    notices = FeeNotices(
        (
            Announcement("lodging", 26_000, RAISED_ON, 1),
            Announcement("lodging", 20_000, ANNOUNCED_ON, 2),  # recorded after, applying earlier
        )
    )
    assert notices.amount(lodging, by) == amount, clause


def test_reg14_a_unit_payment_with_the_amount_not_announced_needs_each_entrys_confirmation():
    """REG-14, NT 十(一)1 (各单位统一报名), NT 十一: a unit pays for its entries; while the amount is
    not announced each entry is valid only once confirmed paid in full."""
    nt = presets.load("nt-2023")
    first, second = (entry(nt, "mixed-team", unit="hubei", people=3) for _ in range(2))
    lines = [pay("lodging", 5, cst(2023, 6, 10), unit_id="hubei")]
    notices = FeeNotices((), confirmed(first.id, (True, cst(2023, 6, 11))))
    status = fee_statuses(nt, [first, second], lines, by=fee_deadline(nt), notices=notices)
    assert [(status[e.id].complete, status[e.id].items[0].confirmed) for e in (first, second)] == [
        (True, True),
        (False, False),
    ]
    assert "not confirmed paid in full" in status[second.id].missing()


def test_reg14_team_fee_and_entry_fee_are_due_as_configured(da):
    """REG-14 (issue 16: team fees): a fee per team entry and one per entry are owed besides
    board and lodging where the event charges them (an override; no seed names one)."""
    fees = da.fees.model_dump()
    fees["items"] += [
        {"id": "team-fee", "name": "Team fee", "basis": "per_team", "amount_fen": 20_000},
        {"id": "entry-fee", "name": "Entry fee", "basis": "per_entry", "amount_fen": 5_000},
    ]
    event = EventConfig.model_validate({**da.model_dump(), "fees": fees})
    one = entry(event, "open")
    paid = [pay("lodging-standard", 144_000, cst(2023, 8, 1), entry_id=one.id)]
    status = fee_statuses(event, [one], paid, by=fee_deadline(event))[one.id]
    assert not status.complete and [i.item for i in status.items] == ["lodging-standard", "entry-fee"]
    paid.append(pay("entry-fee", 5_000, cst(2023, 8, 1), entry_id=one.id))
    assert fee_statuses(event, [one], paid, by=fee_deadline(event))[one.id].complete


def test_reg14_sz_charges_no_fee_and_refuses_nobody(sz):
    """REG-14 applies where the seed says so (NY, DA, NT); SZ's online stage has no fee."""
    assert invalid_for_fees(sz, [entry(sz, "men-free")], []) == []


#: (kind, item, fen, received, message, clause)
BAD_LINES = [
    ("payment", "lodging-standard", 0, cst(2023, 8, 1), "positive", "REG-14: a payment is money received"),
    ("payment", "lodging-standard", -5, cst(2023, 8, 1), "positive", "REG-14"),
    ("payment", "bribe", 100, cst(2023, 8, 1), "no fee item", "REG-14: items are the event's"),
    ("payment", "lodging-standard", 100, cst(2023, 8, 3), "future", "REG-14: received by now"),
    ("correction", "lodging-standard", 100, cst(2023, 8, 1), "names the line", "REG-14: corrections name a line"),
]


@pytest.mark.parametrize(("kind", "item", "fen", "received", "message", "clause"), BAD_LINES)
def test_reg14_a_ledger_line_must_make_sense(da, kind, item, fen, received, message, clause):
    with pytest.raises(RegistrationError, match=message):
        check_line(da, kind=kind, item=item, amount_fen=fen, received_at=received, now=cst(2023, 8, 2))


# --------------------------------------------------------------------------- refunds (REG-15)


def withdrawn(event: EventConfig, confirmed: bool = True) -> Entry:
    w = Withdrawal(cst(2022, 8, 1), "illness", "[protected]", refund_requested=confirmed)
    return entry(event, "youth-male", status=EntryStatus.WITHDRAWN, withdrawal=w)


#: (which entry, reason, proof, force majeure, allowed, clause)
REFUND_REQUESTS = [
    ("withdrawn", "illness", "MED-1", False, True, "NY 十二(六): 书面申请及相关证明文件"),
    ("withdrawn", "illness", None, False, False, "NY 十二(六): the proof is required"),
    ("withdrawn", "  ", "MED-1", False, False, "NY 十二(六): a written reason"),
    ("withdrawn_before_confirmation", "illness", "MED-1", False, False, "NY 十二(六): 参赛名单确认后 only"),
    ("accepted", "illness", "MED-1", False, False, "REG-15: a participant who takes part gets no refund"),
    ("absent", "typhoon", "CMA-1", False, False, "NY 十二(六): an absence alone is no refund"),
    ("absent", "typhoon", "CMA-1", True, True, "NY 十二(六): 自然灾害或不可抗拒的原因 … 可酌情处理"),
]


@pytest.mark.parametrize(("which", "reason", "proof", "force", "allowed", "clause"), REFUND_REQUESTS)
def test_reg15_who_may_request_a_refund(ny, which, reason, proof, force, allowed, clause):
    subject = {
        "withdrawn": lambda: withdrawn(ny),
        "withdrawn_before_confirmation": lambda: withdrawn(ny, confirmed=False),
        "accepted": lambda: entry(ny, "youth-male"),
        "absent": lambda: entry(ny, "youth-male", no_show=True),
    }[which]()
    if allowed:
        decision = judge_refund_request(ny, subject, reason=reason, proof_ref=proof, force_majeure=force)
        assert (decision.rule, decision.outcome.value) == ("REG-15", "pending"), clause
    else:
        with pytest.raises(RegistrationError, match="REG-15"):
            judge_refund_request(ny, subject, reason=reason, proof_ref=proof, force_majeure=force)


def test_reg15_the_organiser_grants_at_most_what_was_paid(ny):
    """REG-15 (NY 十二(六), DA 十三(三), NT 十二(三)): the organiser decides the amount; never more
    than the entry (and its unit) paid, net of refunds already made; an absence only as force
    majeure."""
    gone = withdrawn(ny)
    lines = [pay("lodging", 100_000, cst(2022, 8, 1), entry_id=gone.id)]
    assert decide_refund(gone, lines, grant=True, amount_fen=100_000, force_majeure=False, claimed=False).admitted
    with pytest.raises(RegistrationError, match="between 1 and 100000"):
        decide_refund(gone, lines, grant=True, amount_fen=100_001, force_majeure=False, claimed=False)
    lines.append(pay("lodging", -60_000, cst(2022, 8, 2), entry_id=gone.id, kind="refund"))
    with pytest.raises(RegistrationError, match="between 1 and 40000"):
        decide_refund(gone, lines, grant=True, amount_fen=50_000, force_majeure=False, claimed=False)
    assert decide_refund(gone, lines, grant=False, amount_fen=0, force_majeure=False, claimed=False).refused
    absent = replace(entry(ny, "youth-male", no_show=True))
    paid = [pay("lodging", 100_000, cst(2022, 8, 1), entry_id=absent.id)]
    with pytest.raises(RegistrationError, match="force majeure"):
        decide_refund(absent, paid, grant=True, amount_fen=1, force_majeure=False, claimed=True)
    assert decide_refund(absent, paid, grant=True, amount_fen=50_000, force_majeure=True, claimed=True).admitted
