"""REG-4..REG-8: the eligibility engine, driven by the presets."""

from __future__ import annotations

from datetime import date

import pytest
from registration_kit import cst, evidence, months, person

from registration.domain import (
    EvidenceKind as K,
)
from registration.domain import (
    EvidenceStatus as S,
)
from registration.domain import (
    Unit,
    Verdict,
    check_clause,
    evaluate_player,
    longest_consecutive_months,
)

A, R, P = Verdict.ADMITTED, Verdict.REFUSED, Verdict.PENDING


# --------------------------------------------------------------------------- REG-4 ages


@pytest.mark.parametrize(
    "preset,section,born,expected",
    [
        ("sz", "junior-boys-free", date(2010, 1, 1), A),  # first day of the window
        ("sz", "junior-boys-free", date(2009, 12, 31), R),  # one day too old
        ("sz", "men-pro", date(1950, 1, 1), A),  # no age limit
        ("ny", "youth-male", date(2002, 1, 1), A),
        ("ny", "youth-male", date(2001, 12, 31), R),
        ("ny", "youth-male", date(2010, 12, 31), A),
        ("ny", "youth-male", date(2011, 1, 1), R),
        ("ny", "junior-male", date(2011, 1, 1), A),
        ("ny", "junior-male", date(2013, 12, 31), A),
        ("ny", "junior-male", date(2014, 1, 1), R),
        ("ny", "children-male", date(2014, 1, 1), A),
        ("ny", "children-male", date(2013, 12, 31), R),
        ("da", "junior", date(2011, 1, 1), A),
        ("da", "junior", date(2010, 12, 31), R),
        ("da", "open", date(1940, 1, 1), A),
        ("nt", "junior-boys-team", date(2010, 1, 1), A),
        ("nt", "junior-boys-team", date(2009, 12, 31), R),
    ],
)
def test_reg4_birth_windows_inclusive(request, preset, section, born, expected):
    """REG-4: birth-date windows are inclusive at both edges; outside -> refused with the reason
    (the birth year and the window; never the full birth date, REG-11)."""
    ev = request.getfixturevalue(preset)
    d = evaluate_player(ev, section, person("male", born), [], unit=Unit("u", "U", region="X"))
    age = next(x for x in d.decisions if x.rule == "REG-4")
    assert age.outcome is expected
    if expected is R:
        assert f"born in {born.year}" in age.reason and "outside" in age.reason


@pytest.mark.parametrize(
    "preset,section,gender,expected",
    [
        ("sz", "men-free", "female", R),
        ("sz", "men-free", "male", A),
        ("sz", "women-pro", "male", R),
        ("sz", "women-pro", "female", A),
        ("ny", "children-female", "male", R),
        ("da", "open", "female", A),
        ("da", "public", "male", A),
    ],
)
def test_reg5_gender(request, preset, section, gender, expected):
    """REG-5: male/female sections admit only that gender; mixed admit both."""
    ev = request.getfixturevalue(preset)
    d = evaluate_player(ev, section, person(gender, date(2012, 1, 1)), [], unit=Unit("u", "U"))
    assert next(x for x in d.decisions if x.rule == "REG-5").outcome is expected


# --------------------------------------------------------------------------- REG-6 residency


def _res(sz, p, evs, *, intends=False, clause="sz-residency", as_of=date(2022, 11, 5)):
    return check_clause(sz.clause(clause), p, evs, intends_to_represent=intends, as_of=as_of)


@pytest.mark.parametrize(
    "kinds,expected,clause_opt",
    [
        ([K.HOUSEHOLD], A, "household"),
        ([K.STUDENT_STATUS], A, "student_status"),
        ([], R, None),
        ([K.RESIDENCE_PERMIT], R, None),  # permit alone is not enough
        ([K.SOCIAL_INSURANCE], R, None),  # insurance alone is not enough
    ],
)
def test_reg6_each_residency_clause_alone_and_missing(sz, kinds, expected, clause_opt):
    """REG-6 (1)(3): household or student status alone admit; nothing / a half clause refuses."""
    p = person()
    evs = [evidence(p, k, months_paid=months("2021-01", 12) if k is K.SOCIAL_INSURANCE else ()) for k in kinds]
    d = _res(sz, p, evs)
    assert d.outcome is expected and d.rule == "REG-6"
    if clause_opt:
        assert d.clause == f"sz-residency/{clause_opt}"
    else:
        assert "meets no clause" in d.reason and "(4)" in d.reason


@pytest.mark.parametrize("n_months,expected", [(11, R), (12, A), (24, A)])
def test_reg6_residence_permit_needs_12_consecutive_months(sz, n_months, expected):
    """REG-6 (2): residence permit AND >= 12 consecutive months of Shenzhen social insurance."""
    p = person()
    evs = [evidence(p, K.RESIDENCE_PERMIT), evidence(p, K.SOCIAL_INSURANCE, months_paid=months("2021-06", n_months))]
    d = _res(sz, p, evs)
    assert d.outcome is expected
    if expected is A:
        assert d.clause == "sz-residency/residence_permit"
    else:
        assert "only 11 consecutive months" in d.reason and "needs 12" in d.reason


def test_reg6_insurance_months_must_be_consecutive(sz):
    """REG-6 (2): 14 months with a gap (6 + 8) is not 12 consecutive ones."""
    p = person()
    paid = months("2020-01", 6) + months("2020-08", 8)
    assert longest_consecutive_months(paid) == 8
    evs = [evidence(p, K.RESIDENCE_PERMIT), evidence(p, K.SOCIAL_INSURANCE, months_paid=paid)]
    assert _res(sz, p, evs).outcome is R
    # insurance elsewhere does not count
    evs2 = [
        evidence(p, K.RESIDENCE_PERMIT),
        evidence(p, K.SOCIAL_INSURANCE, months_paid=months("2020-01", 24), region="Guangzhou"),
    ]
    assert _res(sz, p, evs2).outcome is R


def test_reg6_household_elsewhere_or_rejected_does_not_count(sz):
    """REG-6: evidence of another region, or rejected by the arbiter, never admits."""
    p = person()
    assert _res(sz, p, [evidence(p, K.HOUSEHOLD, region="Beijing")]).outcome is R
    assert _res(sz, p, [evidence(p, K.HOUSEHOLD, status=S.REJECTED)]).outcome is R


@pytest.mark.parametrize(
    "ev_kw,expected",
    [
        ({"kind": K.GRADE_CERTIFICATE, "grade": "3k"}, A),
        ({"kind": K.GRADE_CERTIFICATE, "grade": "1d"}, A),
        ({"kind": K.GRADE_CERTIFICATE, "grade": "4k"}, R),
        ({"kind": K.PAST_RESULT, "result_level": "city", "result_place": 3}, A),
        ({"kind": K.PAST_RESULT, "result_level": "city", "result_place": 4}, R),
        ({"kind": K.PAST_RESULT, "result_level": "provincial", "result_place": 8}, A),
        ({"kind": K.PAST_RESULT, "result_level": "provincial", "result_place": 9}, R),
        ({"kind": K.PAST_RESULT, "result_level": "national", "result_place": 25}, A),
        ({"kind": K.PAST_RESULT, "result_level": "national", "result_place": 26}, R),
        ({"kind": K.PAST_RESULT, "result_level": "national", "result_place": 1, "officially_recognised": False}, R),
    ],
)
def test_reg6_wildcard_by_grade_and_each_result_kind(sz, ev_kw, expected):
    """REG-6 (4): grade >= 3rd kyu, OR city top 3 / provincial top 8 / national top 25 (official)."""
    p = person()
    kind = ev_kw.pop("kind")
    e = evidence(p, kind, region=None, status=S.APPROVED, **ev_kw)
    d = _res(sz, p, [e], intends=True)
    assert d.outcome is expected
    if expected is A:
        assert d.clause == "sz-residency/wildcard"


def test_reg6_wildcard_needs_citizen_intent_deadline_and_approval(sz):
    """REG-6 (4): PRC citizen AND intent AND evidence before the deadline AND arbiter approval."""
    p = person()
    grade = evidence(p, K.GRADE_CERTIFICATE, region=None, grade="2k")
    d = _res(sz, p, [grade], intends=True)
    assert d.outcome is P and "awaiting the arbiter" in d.reason
    assert _res(sz, p, [grade.approve("arb1")], intends=True).outcome is A
    rejected = grade.reject("arb1", "certificate unreadable")
    assert _res(sz, p, [rejected], intends=True).outcome is R
    assert "intent" in _res(sz, p, [grade.approve("arb1")], intends=False).reason
    foreign = person(citizenship="SG")
    g2 = evidence(foreign, K.GRADE_CERTIFICATE, region=None, grade="1d", status=S.APPROVED)
    assert "citizenship" in _res(sz, foreign, [g2], intends=True).reason
    # deadline: "2022年10月31日前" -> must arrive before 2022-11-01 00:00 CST
    on_time = evidence(
        p, K.GRADE_CERTIFICATE, region=None, grade="3k", status=S.APPROVED, submitted_at=cst(2022, 10, 31, 23, 59)
    )
    late = evidence(
        p, K.GRADE_CERTIFICATE, region=None, grade="3k", status=S.APPROVED, submitted_at=cst(2022, 11, 1, 0, 0)
    )
    assert _res(sz, p, [on_time], intends=True).outcome is A
    d = _res(sz, p, [late], intends=True)
    assert d.outcome is R and "after the deadline" in d.reason


def test_reg6_records_the_admitting_clause(sz):
    """REG-6 Decision: every decision names the clause that admitted or refused the player."""
    p = person()
    rep = evaluate_player(sz, "men-free", p, [evidence(p, K.STUDENT_STATUS)])
    assert rep.outcome is A and rep.admitted_by == "sz-residency/student_status"
    # the evidence is declared, not yet approved: REG-18 says so (and until when)
    assert [d.rule for d in rep.decisions] == ["REG-4", "REG-5", "REG-6", "REG-18"]


def test_reg7_final_needs_verified_evidence(sz):
    """REG-7: for the final, declared (pending) evidence is not enough; approved evidence is."""
    p = person()
    hh = evidence(p, K.HOUSEHOLD)
    assert _res(sz, p, [hh]).outcome is A  # online: declared
    assert _res(sz, p, [hh], clause="sz-final-residency").outcome is R  # final: needs approval
    d = _res(sz, p, [hh.approve("arb")], clause="sz-final-residency")
    assert d.outcome is A and d.rule == "REG-7"


# --------------------------------------------------------------------------- REG-8 representation

HUBEI = Unit("hubei", "Hubei Sports Bureau", "province", region="Hubei")
RAIL = Unit("rail", "Railway Sports Association", "industry_association", annual_registration=False)
RAIL_REG = Unit("rail2", "Post Sports Association", "industry_association", region=None, annual_registration=True)


def _rep(nt, p, evs, unit):
    return check_clause(nt.clause("nt-representation"), p, evs, unit=unit, as_of=date(2023, 6, 22))


def test_reg8_registered_athlete_represents_registering_unit(nt):
    """REG-8: a registered athlete represents the unit of registration only."""
    p = person(registered_unit="hubei")
    d = _rep(nt, p, [], HUBEI)
    assert d.outcome is A and d.clause == "nt-representation/registered_athlete"
    other = person(registered_unit="hunan")
    d2 = _rep(nt, other, [evidence(other, K.HOUSEHOLD, region="Hubei")], HUBEI)
    assert d2.outcome is R and "hunan" in d2.reason


@pytest.mark.parametrize(
    "kind,kw,expected",
    [
        (K.HOUSEHOLD, {}, A),
        (K.STUDENT_STATUS, {}, A),
        (K.RESIDENCE_PERMIT, {"issued_on": date(2022, 5, 31)}, A),
        (K.RESIDENCE_PERMIT, {"issued_on": date(2022, 6, 1)}, R),  # must be dated *before* 06-01
        (K.RESIDENCE_PERMIT, {}, R),  # undated permit
    ],
)
def test_reg8_unregistered_household_residence_school(nt, kind, kw, expected):
    """REG-8: unregistered players represent household, residence (permit before 2022-06-01) or school."""
    p = person()
    d = _rep(nt, p, [evidence(p, kind, region="Hubei", **kw)], HUBEI)
    assert d.outcome is expected and d.rule == "REG-8"
    # the same document for another region does not count
    assert _rep(nt, p, [evidence(p, kind, region="Hunan", **kw)], HUBEI).outcome is R


@pytest.mark.parametrize("since,expected", [(date(2022, 6, 22), A), (date(2022, 6, 23), R)])
def test_reg8_industry_association_employees_of_one_year(nt, since, expected):
    """REG-8: an industry association without annual registration sends employees of >= 1 year only."""
    p = person()
    job = evidence(p, K.EMPLOYMENT, region=None, employer_unit_id="rail", employed_since=since)
    d = _rep(nt, p, [job, evidence(p, K.HOUSEHOLD, region="Hubei")], RAIL)
    assert d.outcome is expected
    if expected is R:
        assert "11 months" in d.reason and "needs 12" in d.reason
    # household does not help an industry association without annual registration
    assert _rep(nt, p, [evidence(p, K.HOUSEHOLD, region=None)], RAIL).outcome is R
