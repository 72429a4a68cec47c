"""REG-10 changes and withdrawals, REG-11 check-in / no-shows / personal data."""

from __future__ import annotations

from datetime import date

import pytest
from registration_kit import application, cst, evidence, person

from registration.domain import (
    ChangeKind,
    ChangeState,
    EntryStatus,
    EventRegistration,
    IdNumber,
    RegistrationError,
    Unit,
    Verdict,
    check_in,
    decide_change,
    freeze_starts_at,
    judge_change,
    mark_no_show,
    mask_id_number,
    pairable,
    request_change,
    withdraw,
)
from registration.domain import (
    EvidenceKind as K,
)

A, R, P = Verdict.ADMITTED, Verdict.REFUSED, Verdict.PENDING


def _sz_entry(sz, section="men-free"):
    reg = EventRegistration(sz)
    p = person()
    t = cst(2022, 10, 26)
    return reg, reg.submit(application(section, p, at=t), {p.id: p}, evidence=[evidence(p, K.HOUSEHOLD)], now=t).entry


def _nt_entry(nt):
    reg = EventRegistration(nt)
    unit = Unit("hb", "Hubei", "province", region="Hubei")
    team = [person("male"), person("male"), person("female")]
    t = cst(2023, 6, 10)
    res = reg.submit(
        application("mixed-team", *team, at=t, unit=unit, items={i: t for i in nt.registration.required_items}),
        {p.id: p for p in team},
        evidence=[evidence(p, K.HOUSEHOLD, region="Hubei") for p in team],
        unit=unit,
        now=t,
    )
    assert res.accepted, res.reasons
    return reg, res.entry


# --------------------------------------------------------------------------- REG-10


@pytest.mark.parametrize(
    "now,expected,fragment",
    [
        (cst(2022, 10, 28), A, "registration open"),  # SZ: free change before the close
        (cst(2022, 11, 1, 9), P, "after the close"),  # after the close: arbiter approval
        (cst(2022, 11, 2, 23, 59), P, "after the close"),  # last minute before the freeze
        (cst(2022, 11, 3, 0, 0), R, "no changes within 2 days"),  # men start 11-05: frozen from 11-03
        (cst(2022, 11, 5, 10), R, "no changes within 2 days"),
    ],
)
def test_reg10_sz_change_window_and_freeze(sz, now, expected, fragment):
    """REG-10: after the close changes need approval; none at all within 2 days of the start."""
    _, entry = _sz_entry(sz)
    d = judge_change(sz, entry, ChangeKind.DETAILS, now)
    assert d.outcome is expected and fragment in d.reason


def test_reg10_freeze_follows_the_section_start(sz):
    """REG-10: SZ juniors start a day later (11-06), so their freeze starts on 11-04."""
    assert freeze_starts_at(sz, "men-free") == cst(2022, 11, 3)
    assert freeze_starts_at(sz, "junior-boys-free") == cst(2022, 11, 4)


def test_reg10_ny_da_nt_changes_need_approval_from_submission(nt):
    """REG-10 (NY/DA/NT seeds): any change after submission needs approval; board order never changes."""
    _, entry = _nt_entry(nt)
    d = judge_change(nt, entry, ChangeKind.SUBSTITUTE_PLAYER, cst(2023, 6, 11))  # before the close
    assert d.outcome is P and "after submission" in d.reason
    assert judge_change(nt, entry, ChangeKind.SUBSTITUTE_PLAYER, cst(2023, 6, 20)).outcome is R  # start 06-22
    board = judge_change(nt, entry, ChangeKind.BOARD_ORDER, cst(2023, 6, 11))
    assert board.outcome is R and board.rule == "REG-9" and "never changed" in board.reason


def test_reg10_arbiter_decides_and_the_freeze_still_applies(sz):
    """REG-10: the arbiter approves a pending change; approval inside the freeze is refused."""
    _, entry = _sz_entry(sz)
    req = request_change(sz, entry, "c1", ChangeKind.DETAILS, "spelling of name", cst(2022, 11, 1, 12))
    assert req.state is ChangeState.AWAITING_ARBITER
    ok = decide_change(sz, entry, req, approve=True, arbiter="arb", note="fine", now=cst(2022, 11, 2))
    assert ok.state is ChangeState.APPROVED and ok.decided_by == "arb"
    late = decide_change(sz, entry, req, approve=True, arbiter="arb", note="fine", now=cst(2022, 11, 4))
    assert late.state is ChangeState.REFUSED and "no changes within" in late.decision.reason
    with pytest.raises(RegistrationError):
        decide_change(sz, entry, ok, approve=False, arbiter="arb", note="x", now=cst(2022, 11, 2))
    frozen = request_change(sz, entry, "c2", ChangeKind.DETAILS, "x", cst(2022, 11, 4))
    assert frozen.state is ChangeState.REFUSED


def test_reg10_withdrawal_after_confirmation_needs_written_reason(sz, nt):
    """REG-10: withdrawal after confirmation needs a reason (NT also a proof); refund is recorded."""
    _, entry = _sz_entry(sz)
    with pytest.raises(RegistrationError, match="written reason"):
        withdraw(sz, entry, reason="  ", now=cst(2022, 11, 1))
    w = withdraw(sz, entry, reason="exam on that day", now=cst(2022, 11, 1))
    assert w.status is EntryStatus.WITHDRAWN and w.withdrawal.refund_requested
    assert w.withdrawal.reason == "exam on that day"
    with pytest.raises(RegistrationError):
        withdraw(sz, w, reason="again", now=cst(2022, 11, 1))
    _, team = _nt_entry(nt)
    with pytest.raises(RegistrationError, match="supporting document"):
        withdraw(nt, team, reason="illness", now=cst(2023, 6, 15))
    assert withdraw(nt, team, reason="illness", proof_ref="doctor-note-7", now=cst(2023, 6, 15)).withdrawal.proof_ref


# --------------------------------------------------------------------------- REG-11


def test_reg11_check_in_and_no_shows_are_not_paired(da):
    """REG-11: accepted entries check in before the deadline with their documents; no-shows are not paired."""
    reg = EventRegistration(da)
    unit = Unit("club", "Club", "club")
    t = cst(2023, 8, 1)
    entries = []
    for _ in range(3):
        p = person()
        entries.append(
            reg.submit(
                application("open", p, at=t, unit=unit, items={i: t for i in da.registration.required_items}),
                {p.id: p},
                unit=unit,
                now=t,
            ).entry
        )
    docs = da.check_in.documents
    e0, d0 = check_in(da, entries[0], now=cst(2023, 8, 18, 18, 59), documents_shown=docs)
    assert d0.outcome is A and e0.checked_in_at is not None
    e1, d1 = check_in(da, entries[1], now=cst(2023, 8, 18, 19, 0), documents_shown=docs)
    assert d1.outcome is R and "check-in closed" in d1.reason and e1.checked_in_at is None
    e1, d1 = check_in(da, entries[1], now=cst(2023, 8, 18, 19, 5), documents_shown=docs, arbiter_override="chief")
    assert d1.outcome is A and "arbiter chief" in d1.reason
    _, d2 = check_in(da, entries[2], now=cst(2023, 8, 18, 10), documents_shown=["id_card"])
    assert d2.outcome is R and "insurance_policy" in d2.reason
    absent = mark_no_show(e1, arbiter="chief")
    assert [e.id for e in pairable([e0, absent, entries[2]])] == [e0.id]
    with pytest.raises(RegistrationError):
        check_in(da, absent, now=cst(2023, 8, 18, 10), documents_shown=docs)


def test_reg11_aggregate_check_in_and_no_show(sz):
    """REG-11: through the aggregate: check in, then an absent player is not pairable."""
    reg, entry = _sz_entry(sz)
    assert reg.check_in(entry.id, now=cst(2022, 11, 5, 8), documents_shown=["id_card"]).outcome is A
    assert [e.id for e in pairable(reg.entries.values())] == [entry.id]
    reg.mark_no_show(entry.id, arbiter="chief")
    assert pairable(reg.entries.values()) == []


def test_reg11_reg13_nt_insurance_verified_at_check_in(nt):
    """REG-13 (NT): the policy is verified at check-in and recorded on the entry."""
    _, entry = _nt_entry(nt)
    _, d = check_in(nt, entry, now=cst(2023, 6, 21, 12), documents_shown=["insurance_policy"])
    assert d.outcome is R and "insurance policy not shown" in d.reason
    e, d = check_in(nt, entry, now=cst(2023, 6, 21, 12), documents_shown=["insurance_policy"], insurance_ref="PICC-123")
    assert d.outcome is A and e.insurance.confirmed and e.insurance.document_ref == "PICC-123"


@pytest.mark.parametrize(
    "raw,masked",
    [
        ("440301199005051234", "**************1234"),
        ("44030119900505123X", "**************123X"),
        ("E12345678", "*" * 18),  # too short to show any of it
        ("12345678", "*" * 18),
        ("G1234567890123", "**************0123"),
        ("", ""),
    ],
)
def test_reg11_id_numbers_are_masked(raw, masked):
    """REG-11: ID numbers are personal data: masked form only, the tail alone (the head is the
    place of registration, the middle the birth date). Issue 27 finding 10: the mask has one
    width whatever the number's length (a passport's 9 characters are not told from an ID card's 18)."""
    assert mask_id_number(raw) == masked


def test_reg11_no_full_id_in_reprs():
    """REG-11: reprs of people, entries and decisions never include a full ID number."""
    p = person(id_number="440301199005051234")
    for text in (repr(p), str(p), repr(p.id_number), str(p.id_number), f"{p.id_number}"):
        assert "440301199005051234" not in text
    assert "**************1234" in repr(p)
    assert p.id_number.value == "440301199005051234"
    with pytest.raises(ValueError):
        IdNumber(" ")
    assert p.birth_date == date(1990, 5, 5)


#: (preset, the documents shown at check-in, seed clause): issue 16, Build 8 — per event
CHECK_IN_DOCUMENTS = [
    ("sz-2022", ["id_card"], "SZ 八(四): 中华人民共和国第二代身份证"),
    (
        "ny-2022",
        ["id_card", "nucleic_acid_test", "health_declaration"],
        "NY 十二(七)(2)(3): 核酸检测阴性报告, 行程信息健康表, 复核身份信息",
    ),
    (
        "da-2023",
        ["id_card", "insurance_policy", "safety_pledge", "integrity_pledge"],
        "DA 十(二)3 报到材料: 身份证原件、保险单据、赛事安全承诺书、诚信参赛承诺书",
    ),
    ("nt-2023", ["insurance_policy"], "NT 十二(一): 意外伤害保险 … 组委会将在报到时予以核验"),
]


@pytest.mark.parametrize(("preset", "documents", "clause"), CHECK_IN_DOCUMENTS)
def test_reg11_check_in_asks_for_the_events_own_documents_each_one_required(preset, documents, clause):
    """REG-11 (issue 16, Build 8): the documents a player shows at check-in are the event's
    configuration (a health certificate only where the event asks for one); a missing one is
    refused by name, all of them admit."""
    from datetime import timedelta

    from registration import presets
    from registration.domain import Entry

    config = presets.load(preset)
    assert list(config.check_in.documents) == documents, clause
    section = config.stages[0].sections[0].id
    entry = Entry("e-1", config.id, section, ("p",), None, EntryStatus.ACCEPTED, None)
    now = (config.check_in.deadline or cst(2022, 11, 4, 10)) - timedelta(hours=1)
    policy = {"insurance_ref": "PICC-1"}
    for missing in documents:
        shown = [d for d in documents if d != missing]
        _, refused = check_in(config, entry, now=now, documents_shown=shown, **policy)
        assert refused.outcome is R and missing in refused.reason, clause
    checked, admitted = check_in(config, entry, now=now, documents_shown=documents, **policy)
    assert admitted.outcome is A and checked.checked_in_at == now, clause


@pytest.mark.parametrize(("preset", "documents", "clause"), CHECK_IN_DOCUMENTS)
def test_reg11_the_events_answer_says_which_documents_check_in_asks(preset, documents, clause):
    """REG-11 (issue 28): registration's event answer carries the check-in's documents, so the
    staff console offers only those (NT: the insurance policy alone), through the view the API
    documents (``EventView``)."""
    from registration import presets
    from registration.entrypoints.views import EventView
    from registration.service_layer.rendering import event_view

    config = presets.load(preset)
    answer = event_view(config, preset, {st.id: "open" for st in config.stages}, "default")
    assert answer["check_in"] == {"documents": documents}, clause
    assert EventView.model_validate(answer).check_in.documents == documents
