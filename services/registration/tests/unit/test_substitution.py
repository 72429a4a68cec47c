"""REG-10 changes applied: the freeze's first refused minute in NY, DA and NT, and an approved
substitution applied to the entry (domain.substitution), table-driven with the seed clauses."""

from __future__ import annotations

from datetime import date

import pytest
from registration_kit import cst, evidence, person

from registration import presets
from registration.domain import ChangeKind, Entry, EntryStatus, EvidenceKind, Unit, Verdict, judge_change
from registration.domain.substitution import apply_substitution

#: (preset, section, last minute a change is taken, first refused minute, seed clause)
FREEZES = [
    (
        "ny-2022",
        "youth-male",
        cst(2022, 8, 7, 23, 59),
        cst(2022, 8, 8, 0, 0),
        "NY 十二(五): 赛前两天不接受变更 (starts 08-10)",
    ),
    (
        "da-2023",
        "open",
        cst(2023, 8, 16, 23, 59),
        cst(2023, 8, 17, 0, 0),
        "DA 十三(二): 赛前两天不接受变更 (starts 08-19)",
    ),
    (
        "nt-2023",
        "mixed-team",
        cst(2023, 6, 19, 23, 59),
        cst(2023, 6, 20, 0, 0),
        "NT 十二(二): 赛前两天不接受变更 (starts 06-22)",
    ),
]


def entry_of(section: str, *people, unit: str | None = "u1") -> Entry:
    return Entry(
        id=f"e-{section}",
        event_id="x",
        section_id=section,
        person_ids=tuple(p.id for p in people),
        unit_id=unit,
        status=EntryStatus.ACCEPTED,
        received_at=None,
    )


@pytest.mark.parametrize(("preset", "section", "last_ok", "first_refused", "clause"), FREEZES)
def test_reg10_the_freeze_refuses_from_its_first_minute(preset, section, last_ok, first_refused, clause):
    """REG-10: a substitution is taken (for the organiser's approval) until the minute before
    00:00 of the day two days before the start, and refused from that minute on."""
    event = presets.load(preset)
    one = entry_of(section, person())
    taken = judge_change(event, one, ChangeKind.SUBSTITUTE_PLAYER, last_ok)
    refused = judge_change(event, one, ChangeKind.SUBSTITUTE_PLAYER, first_refused)
    assert (taken.outcome, refused.outcome) == (Verdict.PENDING, Verdict.REFUSED), clause
    assert refused.clause == "changes/freeze"


YOUTH = date(2005, 3, 3)  # NY 八: 青年组 2002-01-01..2010-12-31

#: (substitute's gender, birth date, outcome, fragment, clause)
NY_SUBSTITUTES = [
    ("male", YOUTH, "applied", "replaces", "NY 十二(五): approved change applied"),
    ("male", date(2001, 12, 31), "refused", "born", "NY 八: the substitute's age is judged again"),
    ("female", YOUTH, "refused", "male", "NY 九(二): 按照对应的年龄和性别报组参赛"),
]


@pytest.mark.parametrize(("gender", "born", "outcome", "fragment", "clause"), NY_SUBSTITUTES)
def test_reg10_ny_substitute_is_judged_again(ny, gender, born, outcome, fragment, clause):
    old = person(gender="male", born=YOUTH)
    new = person(gender=gender, born=born, id_number="110101200503031234")
    one = entry_of("youth-male", old)
    done, decisions = apply_substitution(
        ny, one, replaced=old.id, substitute=new, people={old.id: old}, evidence=[], others=[one], unit=None
    )
    if outcome == "applied":
        assert done is not None and done.person_ids == (new.id,), clause
        assert not any(d.person_id == old.id for d in done.decisions)
    else:
        assert done is None and decisions and all(d.refused for d in decisions), clause
    assert any(fragment in d.reason for d in decisions), (clause, decisions)


def test_reg10_a_player_with_a_place_already_cannot_come_in(ny):
    """REG-3/REG-10: one place per player and section: a substitute already entered is refused."""
    a, b = person(gender="male", born=YOUTH), person(gender="male", born=YOUTH)
    first, second = entry_of("youth-male", a), replace_id(entry_of("youth-male", b), "e2")
    done, decisions = apply_substitution(
        ny, first, replaced=a.id, substitute=b, people={a.id: a}, evidence=[], others=[first, second], unit=None
    )
    assert done is None and decisions[0].clause == "youth-male/duplicate"


def replace_id(entry: Entry, new_id: str) -> Entry:
    from dataclasses import replace

    return replace(entry, id=new_id)


#: (board replaced, substitute's gender, applied, clause)
NT_BOARDS = [
    (3, "female", True, "NT 六(五): 混合团体项目女棋手在第三台 — the board order is kept"),
    (3, "male", False, "NT 六(三)(五): 二男一女, the woman on board 3"),
    (1, "male", True, "NT 六(五): 分台定人制 — the substitute takes board 1"),
    (1, "female", False, "NT 六(三): a mixed team is two men and one woman"),
]


@pytest.mark.parametrize(("board", "gender", "applied", "clause"), NT_BOARDS)
def test_reg10_reg9_nt_substitute_keeps_the_board_and_the_team_is_checked_again(nt, board, gender, applied, clause):
    members = [person(gender="male"), person(gender="male"), person(gender="female")]
    team = entry_of("mixed-team", *members)
    new = person(gender=gender, id_number="420300199001011234")
    done, decisions = apply_substitution(
        nt,
        team,
        replaced=members[board - 1].id,
        substitute=new,
        people={m.id: m for m in members},
        evidence=[evidence(new, EvidenceKind.HOUSEHOLD, region="Hubei")],  # NT 六(二): 户籍所在地
        others=[team],
        unit=Unit("u1", "Hubei", "province", region="Hubei"),
    )
    if applied:
        assert done is not None and done.person_ids[board - 1] == new.id, clause
        assert f"on board {board}" in decisions[0].reason
    else:
        assert done is None and any(d.rule == "REG-9" for d in decisions), (clause, decisions)


def test_reg10_reg8_nt_substitute_without_a_tie_to_the_unit_is_refused(nt):
    """REG-8 (NT 六(二)): the substitute must represent the unit like any player."""
    members = [person(gender="male"), person(gender="male"), person(gender="female")]
    team = entry_of("mixed-team", *members)
    new = person(gender="male", id_number="420300199001011299")
    done, decisions = apply_substitution(
        nt,
        team,
        replaced=members[0].id,
        substitute=new,
        people={m.id: m for m in members},
        evidence=[evidence(new, EvidenceKind.HOUSEHOLD, region="Anhui")],
        unit=Unit("u1", "Hubei", "province", region="Hubei"),
        others=[team],
    )
    assert done is None and any(d.rule == "REG-8" for d in decisions), decisions
