"""Issue 32: eligibility from the federation's record (domain, pure) — REG-16 (NY 七(三)) claims
checked against the previous edition's recorded places, REG-6 (SZ 六(4), 八(四)) wildcards
proven by a recorded title or place, table-driven."""

from __future__ import annotations

from datetime import date

import pytest
from registration_kit import evidence, person

from registration.domain import EvidenceKind as K
from registration.domain import EvidenceStatus as S
from registration.domain import ListedPlayer, PreviousTop, Verdict, check_clause
from registration.domain.delegations import judge_claim
from registration.domain.record import RecordedPlace, exemption_lines, record_evidence, with_record

A, R, P = Verdict.ADMITTED, Verdict.REFUSED, Verdict.PENDING


def place(n: int, *, event="ny-2022", section="youth-male", level="national", title=None, on=date(2022, 8, 14)):
    return RecordedPlace(event, on, section, section.replace("-", " ").title(), n, level, title)


@pytest.mark.parametrize(
    "places,sections,expected",
    [
        ({"rp1": [place(8)]}, [], [("rp1", 8)]),  # the 8th is within the top 8
        ({"rp1": [place(9)]}, [], []),  # the 9th is not
        ({"rp1": [place(1, event="da-2023")]}, [], []),  # another event's place
        ({"rp1": [place(2, section="junior-male")]}, ["youth-male"], []),  # a section that does not count
        ({"rp1": [place(2, section="junior-male")]}, ["junior-male"], [("rp1", 2)]),
        (
            {"rp2": [place(3)], "rp1": [place(1), place(5, section="junior-male")]},
            [],
            [("rp1", 1), ("rp1", 5), ("rp2", 3)],
        ),
    ],
)
def test_reg16_ny_7_3_the_previous_editions_recorded_top_places(places, sections, expected):
    """REG-16 (NY 七(三)): the recorded places of the named edition within the top N, in the
    sections that count (none named: every one), each line the registry person placed."""
    lines = exemption_lines(places, "ny-2022", sections, 8)
    assert [(x.registry_id, x.place) for x in lines] == expected
    assert all(x.edition == "2022" for x in lines)


@pytest.mark.parametrize(
    "registry_id,loaded,expected_clause,said",
    [
        ("rp1", None, "units/quota_exempt", "place 3 in 2022's Youth Male (top 8)"),
        ("rp9", None, "units/quota_exempt_unlisted", "not on the list of 2022's top 8"),
        (None, None, "units/quota_exempt_unlisted", "not on the list"),
        # the loaded list stays the fallback: the player is on it by their ID number's key
        ("rp9", ListedPlayer("youth-male", 5, "x", id_key="key-1"), "units/quota_exempt", "place 5 in 2021's"),
    ],
)
def test_reg16_ny_7_3_a_claim_judged_on_the_record_then_the_loaded_list(registry_id, loaded, expected_clause, said):
    """REG-16 (NY 七(三)): a recorded line is the registry person it names, and no one else (a
    name or an ID number proves nothing about it); the organiser's loaded list is still read."""
    lines = exemption_lines({"rp1": [place(3)]}, "ny-2022", [], 8)
    previous = with_record(PreviousTop("2021", (loaded,)) if loaded else None, "2022", lines)
    decision = judge_claim(8, previous, person(), "key-1", registry_id)
    assert decision.clause == expected_clause and said in decision.reason


@pytest.mark.parametrize(
    "loaded,edition,expected",
    [
        (None, None, None),  # nothing recorded, nothing loaded: no list
        (PreviousTop("2021", ()), None, "2021"),  # nothing recorded: the loaded list alone
        (None, "2022", "2022"),  # the record, even with nobody of it within the top N
        (PreviousTop("2021", ()), "2022", "2021"),  # both: one list, the loaded one's name
    ],
)
def test_reg16_which_list_a_claim_is_checked_against(loaded, edition, expected):
    """REG-16: the record is a list once anything of the edition is recorded."""
    previous = with_record(loaded, edition, ())
    assert (previous.edition if previous else None) == expected


IN_TIME = date(2022, 8, 14)  # before SZ's wildcard deadline (2022-11-01)


@pytest.mark.parametrize(
    "recorded,expected,said",
    [
        ([place(9, level="city", title="3k")], A, "grade 3k"),  # 三级: a grade certificate on the record
        ([place(1, level=None, title="1d")], A, "grade 1d"),
        ([place(30, level=None, title="4k")], R, "not proven by the record"),  # 四级 is below 三级
        ([place(3, level="city")], A, "city result place 3 at ny-2022 (top 3)"),
        ([place(4, level="city")], R, "not proven by the record"),
        ([place(8, level="provincial")], A, "provincial result place 8"),
        ([place(9, level="provincial")], R, "not proven"),
        ([place(25, level="national")], A, "national result place 25"),
        ([place(26, level="national")], R, "not proven"),
        ([place(1, level=None)], R, "not proven"),  # an event whose level is not said proves no place
        ([], R, "city top 3, provincial top 8, national top 25"),
        ([place(1, level="national", on=date(2022, 11, 5))], R, "after the deadline"),
    ],
)
def test_reg6_sz_6_4_wildcard_proven_by_the_record(sz, recorded, expected, said):
    """REG-6 (SZ 六(4), 八(四)): 三级及以上 or 市级前3 / 省级前8 / 全国前25 on the record admits
    without a document or an arbiter; a claim neither the record nor a document proves is
    refused with the reason (a certificate sent later goes to the arbiter, SZ 十三(二)); a place
    won after the wildcard deadline does not count."""
    p = person()
    d = check_clause(
        sz.clause("sz-residency"),
        p,
        record_evidence(p.id, recorded),
        intends_to_represent=True,
        as_of=date(2022, 11, 5),
    )
    assert d.outcome is expected and said in d.reason, d.reason
    if expected is A:
        assert d.clause == "sz-residency/wildcard" and d.reason.endswith("on the record")


def test_reg6_sz_6_4_the_record_admits_only_a_citizen_who_intends_to_represent(sz):
    """REG-6 (SZ 六(4)): the record proves the title, not the other conditions."""
    p = person(citizenship="HK")
    clause = sz.clause("sz-residency")
    facts = record_evidence(p.id, [place(1, level="national")])
    assert check_clause(clause, p, facts, intends_to_represent=True, as_of=IN_TIME).outcome is R
    q = person()
    facts = record_evidence(q.id, [place(1, level="national")])
    assert check_clause(clause, q, facts, intends_to_represent=False, as_of=IN_TIME).outcome is R


@pytest.mark.parametrize(
    "document,expected,said",
    [
        # a document the record does not back: judged as before (an arbiter approves it)
        ({"kind": K.GRADE_CERTIFICATE, "grade": "2k"}, P, "awaiting the arbiter's approval"),
        # a document that does not qualify, with nothing on the record: refused, both said
        ({"kind": K.GRADE_CERTIFICATE, "grade": "5k"}, R, "not proven by the record nor by a document"),
    ],
)
def test_reg6_sz_6_4_documents_still_count_beside_the_record(sz, document, expected, said):
    """REG-6 (SZ 六(4)): the 中国棋院 certificate a player holds from outside the platform is still
    judged as a document; the record only adds what it proves."""
    p = person()
    kind = document.pop("kind")
    docs = [evidence(p, kind, region=None, **document)]
    d = check_clause(sz.clause("sz-residency"), p, docs, intends_to_represent=True, as_of=IN_TIME)
    assert d.outcome is expected and said in d.reason, d.reason


def test_issue32_record_evidence_is_approved_by_the_record_and_dated_by_the_day_won():
    (title, result) = record_evidence("p1", [place(2, level="city", title="2k")])
    assert (title.kind, title.grade, result.kind, result.result_place) == (K.GRADE_CERTIFICATE, "2k", K.PAST_RESULT, 2)
    assert {title.status, result.status} == {S.APPROVED} and title.reviewed_by == "record"
    assert result.submitted_at is not None and result.submitted_at.date() == date(2022, 8, 14)
