"""REG-1, REG-2, REG-3, REG-9, REG-13: submitting applications to an event."""

from __future__ import annotations

from datetime import date

import pytest
from registration_kit import application, cst, evidence, person

from registration import presets
from registration.domain import (
    EntryStatus,
    EventRegistration,
    ListedPlayer,
    PreviousTop,
    RegistrationError,
    Unit,
    Verdict,
)
from registration.domain import (
    EvidenceKind as K,
)
from registration.domain import (
    EvidenceStatus as S,
)

A, R, P = Verdict.ADMITTED, Verdict.REFUSED, Verdict.PENDING


def _sz_player(gender="male", born=date(1990, 5, 5)):
    p = person(gender, born)
    return p, [evidence(p, K.HOUSEHOLD)]


def _submit_sz(reg, section, at, gender="male", born=date(1990, 5, 5), **kw):
    p, evs = _sz_player(gender, born)
    return reg.submit(application(section, p, at=at, **kw), {p.id: p}, evidence=evs, now=at)


# --------------------------------------------------------------------------- REG-1


@pytest.mark.parametrize(
    "at,expected",
    [
        (cst(2022, 10, 24, 23, 59), R),  # before opening
        (cst(2022, 10, 25, 0, 0), A),
        (cst(2022, 10, 31, 23, 59), A),  # the deadline minute: last minute of 10-31
        (cst(2022, 11, 1, 0, 0), R),  # 24:00 = closed
    ],
)
def test_reg1_sz_window_judged_by_complete_application(sz, at, expected):
    """REG-1: accepted only in [2022-10-25, 2022-10-31 24:00) Asia/Shanghai."""
    res = _submit_sz(EventRegistration(sz), "men-free", at)
    window = next(d for d in res.entry.decisions if d.rule == "REG-1")
    assert window.outcome is expected
    assert res.entry.status is (EntryStatus.ACCEPTED if expected is A else EntryStatus.REFUSED)


@pytest.mark.parametrize(
    "preset,last_ok,first_late",
    [
        ("ny-2022", cst(2022, 8, 5, 23, 59), cst(2022, 8, 6, 0, 0)),
        ("da-2023", cst(2023, 8, 11, 23, 59), cst(2023, 8, 12, 0, 0)),
        ("nt-2023", cst(2023, 6, 13, 16, 59), cst(2023, 6, 13, 17, 0)),
    ],
)
def test_reg1_deadline_minute_per_seed(preset, last_ok, first_late):
    """REG-1: NY by 08-05, DA by 08-11 24:00, NT by 06-13 17:00 (closes_at exclusive)."""
    from registration.domain import check_window

    ev = presets.load(preset)
    items = lambda t: {i: t for i in ev.registration.required_items}  # noqa: E731
    p = person()
    ok, _ = check_window(ev, application("x", p, at=last_ok, items=items(last_ok)))
    late, _ = check_window(ev, application("x", p, at=first_late, items=items(first_late)))
    assert ok.outcome is A and late.outcome is R and "after registration closed" in late.reason


def test_reg1_incomplete_application_is_invalid_and_judged_by_last_item(da):
    """REG-1: incomplete -> invalid; complete time = arrival of the last required item (the
    fees are the ledger's, REG-14: test_fees.py)."""
    from registration.domain import check_window

    p = person()
    items = {i: cst(2023, 8, 1) for i in da.registration.required_items if i != "accommodation_info"}
    d, done = check_window(da, application("open", p, at=cst(2023, 8, 1), items=items))
    assert d.outcome is R and "accommodation_info" in d.reason and done is None
    items["accommodation_info"] = cst(2023, 8, 12, 0, 30)  # the last material after the deadline
    d, done = check_window(da, application("open", p, at=cst(2023, 8, 1), items=items))
    assert d.outcome is R and done == cst(2023, 8, 12, 0, 30)


# --------------------------------------------------------------------------- REG-2


def test_reg2_the_129th_entry_is_refused(sz):
    """REG-2: SZ cap 128: the 129th gets a clear refusal."""
    reg = EventRegistration(sz)
    for _ in range(128):
        assert _submit_sz(reg, "men-pro", cst(2022, 10, 26)).accepted
    res = _submit_sz(reg, "men-pro", cst(2022, 10, 26))
    assert res.entry.status is EntryStatus.REFUSED
    assert res.reasons == ["Men, professional rules is full: cap of 128 entries reached"]
    assert len(reg.holding_places("men-pro")) == 128


def test_reg2_waiting_list_when_enabled_and_promotion():
    """REG-2 Decision: with a waiting list the 129th is waitlisted and promoted when a place frees."""
    ev = presets.load(
        "sz-2022", overrides={"waiting_list": True, "stages": {"online": {"sections": {"men-pro": {"cap": 2}}}}}
    )
    reg = EventRegistration(ev)
    first = _submit_sz(reg, "men-pro", cst(2022, 10, 26)).entry
    second = _submit_sz(reg, "men-pro", cst(2022, 10, 26)).entry
    w1 = _submit_sz(reg, "men-pro", cst(2022, 10, 27)).entry
    w2 = _submit_sz(reg, "men-pro", cst(2022, 10, 27)).entry
    assert (w1.status, w1.waitlist_position, w2.waitlist_position) == (EntryStatus.WAITLISTED, 1, 2)
    assert "waiting-list place 1" in w1.decisions[-1].reason
    gone, promoted = reg.withdraw(first.id, reason="ill", now=cst(2022, 10, 28))
    assert gone.status is EntryStatus.WITHDRAWN
    assert promoted.id == w1.id and promoted.status is EntryStatus.ACCEPTED
    assert reg.entry(w2.id).waitlist_position == 1
    assert reg.promote_from_waiting_list("men-pro") is None  # full again
    assert [e.id for e in reg.holding_places("men-pro")] == [second.id, w1.id]


# --------------------------------------------------------------------------- REG-3


def test_reg3_individual_entries_only_where_allowed(sz, ny):
    """REG-3: SZ accepts individuals; NY entries come through a unit (delegation)."""
    assert _submit_sz(EventRegistration(sz), "men-free", cst(2022, 10, 26)).accepted
    p = person("male", date(2012, 3, 3))
    res = EventRegistration(ny).submit(
        application("junior-male", p, at=cst(2022, 8, 1), items=_ny_items(cst(2022, 8, 1))),
        {p.id: p},
        now=cst(2022, 8, 1),
    )
    assert res.entry.status is EntryStatus.REFUSED and "through units only" in res.reasons[0]


def _ny_items(t):
    return {i: t for i in presets.load("ny-2022").registration.required_items}


def _ny_submit(reg, unit, p, exempt=None, listed=None):
    t = cst(2022, 8, 1)
    section = {"male": "junior-male", "female": "junior-female"}[p.gender]
    app = application(section, p, at=t, items=_ny_items(t), unit=unit, quota_exempt=exempt)
    return reg.submit(app, {p.id: p}, unit=unit, now=t, previous_top=listed)


def test_reg3_ny_delegation_max_20_with_top8_outside_quota(ny):
    """REG-3: NY delegation <= 20 players; previous year's top-8 finishers are outside the quota."""
    reg = EventRegistration(ny)
    prov = Unit("gd", "Guangdong", "province")
    for _ in range(20):
        assert _ny_submit(reg, prov, person("male", date(2012, 1, 1))).accepted
    res = _ny_submit(reg, prov, person("female", date(2012, 1, 1)))
    assert res.entry.status is EntryStatus.REFUSED and "21 players" in res.reasons[0] and "max 20" in res.reasons[0]
    star = person("female", date(2012, 1, 1))
    # NY 七(三): a claim is checked against the list; none loaded, it counts in the quota
    res = _ny_submit(reg, prov, star, exempt={star.id: "2021 junior girls place 3"})
    assert res.entry.status is EntryStatus.REFUSED and "no list of the previous top 8" in str(res.entry.decisions)
    listed = PreviousTop("2021", (ListedPlayer("junior-female", 3, star.name, star.birth_date),))
    res = _ny_submit(reg, prov, star, exempt={star.id: "2021 junior girls place 3"}, listed=listed)
    assert res.accepted and len(reg.delegation("gd")) == 21 and len(reg.quota_players("gd")) == 20


def test_reg3_ny_host_may_exceed_quota_with_approval(ny):
    """REG-3 (NY seed): the host delegation may add players with the organiser's approval."""
    reg = EventRegistration(ny)
    host = Unit("hn", "Hainan", "province", is_host=True)
    for _ in range(20):
        _ny_submit(reg, host, person("male", date(2012, 1, 1)))
    res = _ny_submit(reg, host, person("male", date(2012, 1, 1)))
    assert res.entry.status is EntryStatus.PENDING_REVIEW and res.outcome is P
    ok = reg.review(res.entry.id, approve=True, arbiter="organiser", note="host addition")
    assert ok.status is EntryStatus.ACCEPTED


def test_reg3_leader_and_coaches_nt_extra_coach(nt):
    """REG-3: 1 leader + 1 coach; NT +1 coach for a unit entering every team section."""
    reg = EventRegistration(nt)
    unit = Unit("hb", "Hubei", "province", region="Hubei")
    assert reg.add_official(unit, "leader", "L1").admitted
    assert reg.add_official(unit, "leader", "L2").refused
    assert reg.add_official(unit, "coach", "C1").admitted
    assert reg.add_official(unit, "coach", "C2").refused  # not yet in every section
    for sid, genders in [("mixed-team", "mmf"), ("junior-boys-team", "mmm"), ("junior-girls-team", "fff")]:
        res = _nt_team(reg, unit, sid, genders, born=date(2011, 1, 1))
        assert res.accepted, res.reasons
    assert reg.add_official(unit, "coach", "C2").admitted
    assert reg.add_official(unit, "coach", "C3").refused


def test_reg3_nt_player_as_acting_leader(nt):
    """REG-3 (NT seed 十(一)4): a team without a leader names one of its players acting leader."""
    reg = EventRegistration(nt)
    unit = Unit("hb", "Hubei", "province", region="Hubei")
    res = _nt_team(reg, unit, "mixed-team", "mmf")
    assert reg.add_official(unit, "acting_leader", "X", person_id="nobody").refused
    assert reg.add_official(unit, "acting_leader", "P1", person_id=res.entry.person_ids[0]).admitted


# --------------------------------------------------------------------------- REG-9 teams


def _nt_team(reg, unit, section, genders, born=date(1995, 1, 1), borns=None, at=None):
    at = at or cst(2023, 6, 10)
    g = {"m": "male", "f": "female"}
    team = [person(g[c], (borns[i] if borns else born)) for i, c in enumerate(genders)]
    evs = [evidence(p, K.HOUSEHOLD, region=unit.region) for p in team]
    items = {i: at for i in reg.config.registration.required_items}
    return reg.submit(
        application(section, *team, at=at, items=items, unit=unit),
        {p.id: p for p in team},
        evidence=evs,
        unit=unit,
        now=at,
    )


@pytest.mark.parametrize(
    "section,genders,borns,fragment",
    [
        ("mixed-team", "mmf", None, None),
        ("mixed-team", "mfm", None, "board 3 must be a female player"),
        ("mixed-team", "mmm", None, "0 female players"),
        ("mixed-team", "mff", None, "2 female players, at most 1"),
        ("mixed-team", "mm", None, "team of 2 players"),
        ("mixed-team", "mmff", None, "team of 4 players"),
        ("junior-boys-team", "mmm", [date(2010, 1, 1)] * 3, None),
        ("junior-boys-team", "mmm", [date(2010, 1, 1), date(2010, 1, 1), date(2009, 12, 31)], "outside"),
        ("junior-boys-team", "mmf", [date(2011, 1, 1)] * 3, "cannot enter"),
        ("junior-girls-team", "fff", [date(2012, 1, 1)] * 3, None),
    ],
)
def test_reg9_nt_team_composition(nt, section, genders, borns, fragment):
    """REG-9: NT exactly 3 players; mixed = 2 men + 1 woman on board 3; juniors born >= 2010-01-01."""
    reg = EventRegistration(nt)
    res = _nt_team(reg, Unit("hb", "Hubei", "province", region="Hubei"), section, genders, borns=borns)
    if fragment is None:
        assert res.accepted, res.reasons
        assert res.entry.boards[3] == res.entry.person_ids[2]
    else:
        assert res.entry.status is EntryStatus.REFUSED
        assert any(fragment in r for r in res.reasons), res.reasons


def test_reg9_ny_team_is_one_boy_and_one_girl_with_individual_entries(ny):
    """REG-9: NY team = 1 male + 1 female, scored from their individual entries."""
    reg = EventRegistration(ny)
    prov = Unit("gd", "Guangdong", "province")
    boy, girl, boy2 = (
        person("male", date(2012, 1, 1)),
        person("female", date(2012, 2, 2)),
        person("male", date(2012, 1, 1)),
    )
    for p in (boy, girl, boy2):
        assert _ny_submit(reg, prov, p).accepted
    t = cst(2022, 8, 2)
    ppl = {p.id: p for p in (boy, girl, boy2)}
    ok = reg.submit(application("junior-team", boy, girl, at=t, items=_ny_items(t), unit=prov), ppl, unit=prov, now=t)
    assert ok.accepted, ok.reasons
    bad = reg.submit(application("junior-team", boy, boy2, at=t, items=_ny_items(t), unit=prov), ppl, unit=prov, now=t)
    assert bad.entry.status is EntryStatus.REFUSED and any("0 female" in r for r in bad.reasons)
    stranger = person("female", date(2012, 2, 2))
    ppl[stranger.id] = stranger
    bad2 = reg.submit(
        application("junior-team", boy2, stranger, at=t, items=_ny_items(t), unit=prov), ppl, unit=prov, now=t
    )
    assert any("has no entry for this unit in" in r for r in bad2.reasons)
    other = Unit("zj", "Zhejiang", "province")
    bad3 = reg.submit(
        application("junior-team", boy, girl, at=t, items=_ny_items(t), unit=other), ppl, unit=other, now=t
    )
    assert bad3.entry.status is EntryStatus.REFUSED  # their individual entries are Guangdong's
    assert ok.entry.admitted_by == "junior-team/birth"
    assert bad3.entry.refused_by.rule == "REG-9"


def test_reg3_no_duplicate_entry_in_a_section(sz):
    """REG-3: a player holds one entry per section."""
    reg = EventRegistration(sz)
    p, evs = _sz_player()
    t = cst(2022, 10, 26)
    assert reg.submit(application("men-free", p, at=t), {p.id: p}, evidence=evs, now=t).accepted
    again = reg.submit(application("men-free", p, at=t), {p.id: p}, evidence=evs, now=t)
    assert any("already has an entry" in r for r in again.reasons)


# --------------------------------------------------------------------------- REG-13 / eligibility via submit


def test_reg13_insurance_flag_and_document(sz, ny):
    """REG-13: confirmation flag + document reference required; NY: organiser insures (ID needed)."""
    res = _submit_sz(EventRegistration(sz), "men-free", cst(2022, 10, 26), insured=False)
    assert res.entry.status is EntryStatus.REFUSED and "insurance not confirmed" in res.reasons[0]
    ok = _submit_sz(EventRegistration(sz), "men-free", cst(2022, 10, 26))
    assert ok.entry.insurance.document_ref == "policy-1"
    assert ok.entry.admitted_by == "sz-residency/household"
    reg = EventRegistration(ny)
    prov = Unit("gd", "Guangdong", "province")
    no_id = person("male", date(2012, 1, 1), id_number=None)
    res = _ny_submit(reg, prov, no_id)
    assert any("ID number needed" in r for r in res.reasons)


def test_reg6_submit_pending_wildcard_then_arbiter_review(sz):
    """REG-6: a wildcard entry waits for the arbiter; the decision is recorded on the entry."""
    reg = EventRegistration(sz)
    p = person()
    g = evidence(p, K.GRADE_CERTIFICATE, region=None, grade="1k")
    t = cst(2022, 10, 27)
    res = reg.submit(application("men-pro", p, at=t, intends=True), {p.id: p}, evidence=[g], now=t)
    assert res.entry.status is EntryStatus.PENDING_REVIEW
    assert any(d.clause == "sz-residency/wildcard" and d.outcome is P for d in res.entry.decisions)
    done = reg.review(res.entry.id, approve=True, arbiter="arb", note="certificate checked")
    assert done.status is EntryStatus.ACCEPTED and done.decisions[-2].rule == "REG-6"
    # REG-18: the certificate itself still awaits approval (the SZ final needs it approved)
    assert [d.clause for d in done.pending_evidence] == ["sz-residency/pending_evidence"]
    with pytest.raises(RegistrationError):
        reg.review(res.entry.id, approve=True, arbiter="arb", note="again")
    # with approved evidence the entry is accepted straight away
    res2 = reg.submit(
        application("women-pro", q := person("female"), at=t, intends=True),
        {q.id: q},
        evidence=[evidence(q, K.GRADE_CERTIFICATE, region=None, grade="1d", status=S.APPROVED)],
        now=t,
    )
    assert res2.accepted


def test_reg7_stage2_cannot_be_entered_by_registration(sz):
    """EVT-6: the SZ final is entered by qualification, not registration."""
    res = _submit_sz(EventRegistration(sz), "final-men", cst(2022, 10, 26))
    assert res.entry.status is EntryStatus.REFUSED and "qualification only" in res.reasons[0]


def test_reg18_rejudge_refused_on_eligibility_admits_once_evidence_counts(sz):
    """REG-18 (SZ 十三(二)): refused for missing residency evidence; evidence that arrives after
    the close does not count, evidence that arrived in time does (pending: declared clause)."""
    reg = EventRegistration(sz)
    p = person()
    t = cst(2022, 10, 27)
    e = reg.submit(application("men-free", p, at=t), {p.id: p}, evidence=[], now=t).entry
    assert e.status is EntryStatus.REFUSED
    late = evidence(p, K.HOUSEHOLD, submitted_at=cst(2022, 11, 1))
    assert (
        reg.rejudge(e.id, {p.id: p}, evidence=[late], unit=None, intends_to_represent=False, cause="evidence arrived")
        is None
    )
    in_time = evidence(p, K.HOUSEHOLD, submitted_at=cst(2022, 10, 31, 23, 59))
    new = reg.rejudge(
        e.id, {p.id: p}, evidence=[late, in_time], unit=None, intends_to_represent=False, cause="evidence arrived"
    )
    assert new.status is EntryStatus.ACCEPTED and new.pending_evidence
    assert new.admitted_by == "sz-residency/household"
    assert new.decisions[-1].clause == "eligibility/rejudged" and "refused -> accepted" in new.decisions[-1].reason
    assert any(d.rule == "REG-2" and d.admitted for d in new.decisions)  # it took a place
    approved = reg.rejudge(
        e.id,
        {p.id: p},
        evidence=[in_time.approve("arb", at=cst(2022, 11, 2))],
        unit=None,
        intends_to_represent=False,
        cause="evidence approved",
    )
    assert approved.status is EntryStatus.ACCEPTED and not approved.pending_evidence


def test_reg18_rejudge_leaves_other_refusals_and_the_arbiter_alone(sz):
    """REG-18: a refusal for the window (REG-1) or by the arbiter is not judged again; nor is a
    refused entry re-admitted next to the player's other entry in the section (REG-3)."""
    reg = EventRegistration(sz)
    p, q, r = person(), person(), person()
    late_t = cst(2022, 11, 1)
    late = reg.submit(application("men-free", p, at=late_t), {p.id: p}, evidence=[], now=late_t).entry
    ok = [evidence(x, K.HOUSEHOLD) for x in (p, q, r)]
    assert reg.rejudge(late.id, {p.id: p}, evidence=ok[:1], unit=None, intends_to_represent=False, cause="x") is None
    t = cst(2022, 10, 27)
    pending = reg.submit(
        application("men-pro", q, at=t, intends=True),
        {q.id: q},
        evidence=[evidence(q, K.GRADE_CERTIFICATE, region=None, grade="1k")],
        now=t,
    ).entry
    reg.review(pending.id, approve=False, arbiter="arb", note="certificate forged")
    assert reg.rejudge(pending.id, {q.id: q}, evidence=ok[1:2], unit=None, intends_to_represent=True, cause="x") is None
    first = reg.submit(application("men-free", r, at=t), {r.id: r}, evidence=[], now=t).entry
    second = reg.submit(application("men-free", r, at=t), {r.id: r}, evidence=ok[2:], now=t).entry
    assert (first.status, second.status) == (EntryStatus.REFUSED, EntryStatus.ACCEPTED)
    again = reg.rejudge(first.id, {r.id: r}, evidence=ok[2:], unit=None, intends_to_represent=False, cause="x")
    assert again.status is EntryStatus.REFUSED and again.refused_by.clause == "men-free/duplicate"
