"""REG-12 closing (merge / cancel / final field) and EVT-6 / REG-7 next stage."""

from __future__ import annotations

from datetime import date

import pytest
from registration_kit import application, cst, evidence, person

from gomoku_shared.contracts.events import SectionClosed
from registration import presets
from registration.domain import (
    EntryStatus,
    EventRegistration,
    FormatChoice,
    QualifierList,
    RegistrationError,
    SeededList,
    build_next_stage,
    choose_format,
    close_stage,
    mark_no_show,
    section_closed_payload,
)
from registration.domain import (
    EvidenceKind as K,
)
from registration.domain import (
    EvidenceStatus as S,
)

JUNIOR = date(2011, 6, 1)


def _fill(sz, counts: dict[str, int]):
    """Register counts[section] players in each SZ online section; return (reg, people)."""
    reg = EventRegistration(sz)
    people = {}
    t = cst(2022, 10, 27)
    for sid, n in counts.items():
        sec = sz.section(sid)
        for _ in range(n):
            p = person(sec.gender, JUNIOR if sec.birth.born_from else date(1990, 1, 1))
            people[p.id] = p
            res = reg.submit(application(sid, p, at=t), {p.id: p}, evidence=[evidence(p, K.HOUSEHOLD)], now=t)
            assert res.accepted, res.reasons
    return reg, people


def _by_id(closed):
    return {c.section_id: c for c in closed}


def test_reg12_merge_7_entry_free_and_5_entry_pro_sections(sz):
    """REG-12: free < 8 and professional < 6 merge with the same-age section of the same track;
    genders are ranked separately."""
    reg, _ = _fill(
        sz,
        {
            "men-free": 20,
            "women-free": 7,
            "men-pro": 5,
            "women-pro": 9,
            "junior-boys-free": 8,
            "junior-girls-free": 8,
            "junior-boys-pro": 6,
            "junior-girls-pro": 6,
        },
    )
    c = _by_id(close_stage(sz, "online", list(reg.entries.values())))
    assert c["men-free"].status == "ready" and c["men-free"].merged_from == ("men-free", "women-free")
    assert c["men-free"].size == 27 and c["men-free"].rank_genders_separately
    assert c["women-free"].status == "merged" and c["women-free"].merged_into == "men-free"
    assert "women" in c["men-free"].reason.lower() and "7 (< 8)" in c["men-free"].reason
    assert c["men-pro"].merged_from == ("men-pro", "women-pro") and c["men-pro"].size == 14
    assert "5 (< 6)" in c["men-pro"].reason
    # exactly at the thresholds: no merge
    for sid in ("junior-boys-free", "junior-girls-free", "junior-boys-pro", "junior-girls-pro"):
        assert c[sid].status == "ready" and c[sid].merged_from == ()


@pytest.mark.parametrize(
    "counts,cancelled,ready",
    [
        ({"men-free": 4}, {"men-free", "women-free"}, set()),  # 4 + 0: no partner, cancelled
        ({"men-free": 3, "women-free": 1}, {"men-free", "women-free"}, set()),  # merged 4: cancelled
        ({"men-free": 3, "women-free": 2}, set(), {"men-free"}),  # merged 5 runs
        ({"men-pro": 4, "women-pro": 40}, set(), {"men-pro"}),  # merged into a big field
        ({"men-pro": 5}, {"women-pro"}, {"men-pro"}),  # 5 alone runs; empty partner cancelled
    ],
)
def test_reg12_cancel_sections_of_at_most_4(sz, counts, cancelled, ready):
    """REG-12: a section of <= 4 entries that cannot be merged (into a bigger field) is cancelled."""
    reg, _ = _fill(sz, counts)
    c = _by_id(close_stage(sz, "online", list(reg.entries.values())))
    for sid in cancelled:
        assert c[sid].status == "cancelled", c[sid]
    for sid in ready:
        assert c[sid].status == "ready", c[sid]


def test_reg12_cancel_a_4_entry_section(sz):
    """REG-12: a 4-entry section (partner empty) is cancelled with the reason."""
    reg, _ = _fill(sz, {"junior-girls-pro": 4})
    c = _by_id(close_stage(sz, "online", list(reg.entries.values())))["junior-girls-pro"]
    assert c.status == "cancelled" and c.size == 4 and "at most 4" in c.reason
    assert c.decisions[0].rule == "REG-12"


def test_reg12_field_excludes_withdrawn_refused_and_absent(sz):
    """REG-12 / REG-11: only accepted, present entries make up the final field."""
    reg, _ = _fill(sz, {"men-pro": 8})
    es = list(reg.entries.values())
    es[0] = mark_no_show(es[0], arbiter="a")
    from dataclasses import replace

    es[1] = replace(es[1], status=EntryStatus.WITHDRAWN)
    c = _by_id(close_stage(sz, "online", es))["men-pro"]
    assert c.size == 6 and es[0].id not in {f.entry_id for f in c.entries}


def test_reg12_format_choice_and_section_closed_payload(sz):
    """REG-12 / PAIR-1: arbiter-chosen format; the payload validates against the section.closed contract."""
    # (a round robin of 6 plays 5 rounds: the 5 the professional schedule starts, EVT-7)
    reg, people = _fill(sz, {"men-free": 7, "women-free": 3, "men-pro": 6})
    closed = close_stage(
        sz,
        "online",
        list(reg.entries.values()),
        # PAIR-1: the arbiter's 5 rounds replace the preset's 7 (10 entrants could play up to 9)
        format_choices={"men-free": FormatChoice("swiss", 5), "men-pro": FormatChoice("round_robin")},
    )
    c = _by_id(closed)
    assert (c["men-free"].format, c["men-free"].rounds) == ("swiss", 5)
    assert (c["men-pro"].format, c["men-pro"].rounds) == ("round_robin", 5)
    payload = SectionClosed.model_validate(section_closed_payload(sz, c["men-free"], people))
    assert payload.rules.two_game_rounds and payload.rules.rank_by_gender and payload.rules.rounds == 5
    assert payload.rules.tiebreaks == ["points", "buchholz", "buchholz_of_buchholz"]
    assert payload.rules.tie_policy == "arbiter" and payload.merged_from == ["men-free", "women-free"]
    assert {e.gender for e in payload.entrants} == {"male", "female"} and len(payload.entrants) == 10
    assert payload.entrants[0].attributes["admitted_by"] == "sz-residency/household"
    pro = SectionClosed.model_validate(section_closed_payload(sz, c["men-pro"], people))
    assert (pro.rules.clock.base_s, pro.rules.clock.increment_s) == (1800, 15)
    assert pro.rules.tiebreaks == ["points", "buchholz", "buchholz_of_buchholz"]
    with pytest.raises(ValueError):
        section_closed_payload(sz, c["women-free"], people)  # merged: travels inside its host


def test_reg12_swiss_rounds_must_be_chosen_where_the_preset_leaves_them_open(ny):
    """PAIR-1 / REG-12: NY leaves format and rounds to the arbiter: no silent default."""
    from registration.domain import Unit

    reg = EventRegistration(ny)
    unit = Unit("gd", "Guangdong", "province")
    people = {}
    t = cst(2022, 8, 1)
    for _ in range(10):
        p = person("male", date(2012, 1, 1))
        people[p.id] = p
        assert reg.submit(
            application("junior-male", p, at=t, unit=unit, items={i: t for i in ny.registration.required_items}),
            people,
            unit=unit,
            now=t,
        ).accepted
    es = list(reg.entries.values())
    undecided = _by_id(close_stage(ny, "main", es))["junior-male"]
    assert undecided.status == "ready" and undecided.format is None
    with pytest.raises(ValueError, match="format and rounds"):
        section_closed_payload(ny, undecided, people)
    no_rounds = _by_id(close_stage(ny, "main", es, {"junior-male": FormatChoice("swiss")}))["junior-male"]
    with pytest.raises(ValueError, match="format and rounds"):
        section_closed_payload(ny, no_rounds, people)
    chosen = _by_id(close_stage(ny, "main", es, {"junior-male": FormatChoice("swiss", 5)}))["junior-male"]
    rules = SectionClosed.model_validate(section_closed_payload(ny, chosen, people)).rules
    assert (rules.format, rules.rounds, rules.places_that_matter) == ("swiss", 5, 3)
    assert rules.tiebreaks == ["points", "buchholz", "median_buchholz", "wins"]
    assert (rules.clock.kind, rules.clock.base_s, rules.ruleset.fixed_n) == ("sudden_death", 3600, 2)


def test_pair1_format_by_entries_from_config():
    """PAIR-1: a preset may choose round robin up to N entries, Swiss above (fifth-event style)."""
    ev = presets.load(
        "da-2023",
        overrides={
            "stages": {
                "main": {
                    "sections": {
                        "open": {"format": {"choice": "by_entries", "round_robin_max_entries": 8, "rounds": 7}}
                    }
                }
            }
        },
    )
    sec = ev.section("open")
    assert choose_format(sec, 8) == ("round_robin", 7)
    assert choose_format(sec, 7) == ("round_robin", 7)
    assert choose_format(sec, 9) == ("swiss", 7)
    # an empty field (cancelled at closing) still gets valid rules, never a negative round count
    assert choose_format(sec, 0) == ("round_robin", 1)


def test_reg12_nt_team_payload_has_boards(nt):
    """REG-9 / REG-12: team entrants carry their fixed boards in section.closed."""
    from registration.domain import Unit

    reg = EventRegistration(nt)
    people = {}
    t = cst(2023, 6, 10)
    for i in range(4):
        unit = Unit(f"u{i}", f"Unit {i}", "province", region="Hubei")
        team = [person("male"), person("male"), person("female")]
        people.update({p.id: p for p in team})
        res = reg.submit(
            application("mixed-team", *team, at=t, unit=unit, items={k: t for k in nt.registration.required_items}),
            people,
            evidence=[evidence(p, K.HOUSEHOLD, region="Hubei") for p in team],
            unit=unit,
            now=t,
        )
        assert res.accepted
    c = _by_id(
        close_stage(nt, "main", list(reg.entries.values()), format_choices={"mixed-team": FormatChoice("round_robin")})
    )["mixed-team"]
    payload = SectionClosed.model_validate(section_closed_payload(nt, c, people))
    assert payload.rules.kind == "team" and payload.rules.boards == 3 and payload.rules.rounds == 3
    assert [m.board for m in payload.entrants[0].members] == [1, 2, 3]
    assert payload.entrants[0].members[2].gender == "female"


# --------------------------------------------------------------------------- next stage


def _final_people(n, gender, evidence_kind=K.HOUSEHOLD, status=S.APPROVED):
    ppl, evs = [], []
    for _ in range(n):
        p = person(gender)
        ppl.append(p)
        if evidence_kind:
            evs.append(evidence(p, evidence_kind, status=status))
    return ppl, evs


def test_evt6_qualifiers_become_final_entries(sz):
    """EVT-6 / AWD-QUAL: top 4 of each online section become entries of the gender's final section."""
    men, ev_m = _final_people(8, "male")
    women, ev_w = _final_people(8, "female")
    people = {p.id: p for p in men + women}
    cohorts = [
        QualifierList("men-free", tuple(p.id for p in men[:4]), tuple(p.id for p in men[4:])),
        QualifierList("men-free", tuple(p.id for p in women[:4]), tuple(p.id for p in women[4:]), gender="female"),
    ]  # merged section: women ranked separately
    res = build_next_stage(sz, "final", cohorts, people, evidence=ev_m + ev_w)
    assert [p.person_id for p in res.for_section("final-men")] == [p.id for p in men[:4]]
    assert [p.person_id for p in res.for_section("final-women")] == [p.id for p in women[:4]]
    assert all(p.via == "qualified" for p in res.places) and not res.unfilled
    entries = res.to_entries(sz.id)
    assert all(e.status is EntryStatus.ACCEPTED for e in entries) and len(entries) == 8
    closed = {c.section_id: c for c in close_stage(sz, "final", entries)}
    # REG-12 also for the final: a final section of <= 4 is cancelled
    assert closed["final-men"].status == "cancelled" and closed["final-women"].status == "cancelled"
    assert entries[0].admitted_by == "sz-final-residency/household"


def test_reg7_non_eligible_qualifier_place_passes_to_next_eligible_substitute(sz):
    """REG-7: a qualifier meeting no REG-6 clause loses the place; the next *eligible* substitute takes it."""
    q, evs = _final_people(4, "male")
    subs, sev = _final_people(4, "male")
    # qualifier 2 only declared (pending) evidence; substitute 5 rejected; substitute 6 eligible
    evs[1] = evidence(q[1], K.HOUSEHOLD)
    sev[0] = evidence(subs[0], K.HOUSEHOLD, status=S.REJECTED)
    people = {p.id: p for p in q + subs}
    res = build_next_stage(
        sz,
        "final",
        [QualifierList("men-pro", tuple(p.id for p in q), tuple(p.id for p in subs))],
        people,
        evidence=evs + sev,
    )
    placed = [p.person_id for p in res.for_section("final-men")]
    assert placed == [q[0].id, q[2].id, q[3].id, subs[1].id]
    assert res.for_section("final-men")[3].via == "substitute" and res.for_section("final-men")[3].place == 6
    passed = {p.person_id: p for p in res.passed_over}
    assert set(passed) == {q[1].id, subs[0].id}
    assert "meets no clause" in passed[q[1].id].reason


def test_reg7_wildcards_only_through_professional_sections(sz):
    """REG-7: wildcard players keep a final place only via a professional-rules section."""
    wild = person("male")
    cert = evidence(wild, K.GRADE_CERTIFICATE, region=None, grade="1d", status=S.APPROVED)
    others, evs = _final_people(5, "male")
    people = {p.id: p for p in [wild] + others}
    free = QualifierList("men-free", (wild.id, *[p.id for p in others[:3]]), (others[3].id,))
    res = build_next_stage(sz, "final", [free], people, evidence=[cert] + evs, intents={wild.id})
    assert wild.id not in {p.person_id for p in res.places}
    assert "professional-rules section" in res.passed_over[0].reason
    pro = QualifierList("men-pro", (wild.id, *[p.id for p in others[:3]]), (others[3].id,))
    res = build_next_stage(sz, "final", [pro], people, evidence=[cert] + evs, intents={wild.id})
    assert wild.id in {p.person_id for p in res.places}
    assert any(d.clause == "sz-final-residency/wildcard" for d in res.places[0].decisions)


def test_evt6_seeded_players_duplicates_and_unfilled(sz):
    """EVT-6 / AWD-QUAL: SZ Cup seeds enter directly; a player qualified twice takes one place;
    places without an eligible substitute stay unfilled and are reported."""
    seeds, ev_s = _final_people(4, "female")
    qual, ev_q = _final_people(3, "female")
    people = {p.id: p for p in seeds + qual}
    seeded = [SeededList("2022 Shenzhen Cup", "final-women", tuple(p.id for p in seeds))]
    cohort = QualifierList("women-pro", (seeds[0].id, *[p.id for p in qual]), ())
    res = build_next_stage(sz, "final", [cohort], people, evidence=ev_s + ev_q, seeded=seeded)
    assert len(res.for_section("final-women")) == 7
    assert res.unfilled == {"women-pro/female->final-women": 1}
    assert any("already holds a place" in p.reason for p in res.passed_over)


def test_evt6_stage_cap_total_and_wrong_stage(sz):
    """EVT-6: the final takes at most 48 players; stage 1 cannot be filled by qualification."""
    small = presets.load("sz-2022", overrides={"stages": {"final": {"cap_total": 3}}})
    ppl, evs = _final_people(4, "male")
    people = {p.id: p for p in ppl}
    with pytest.raises(RegistrationError, match="cap 3"):
        build_next_stage(small, "final", [QualifierList("men-pro", tuple(p.id for p in ppl))], people, evidence=evs)
    with pytest.raises(RegistrationError):
        build_next_stage(sz, "online", [], people)
