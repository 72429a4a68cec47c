"""AWD-QUAL: qualification to the next stage, seeded qualifiers, training squad."""

from __future__ import annotations

import pytest

from awards.domain import (
    ConfigError,
    Gender,
    QualificationRule,
    SeededList,
    SeededPlayer,
    SquadRule,
    select_qualifiers,
    select_squad,
    stage_qualification,
)

M, F = Gender.MALE, Gender.FEMALE
RULE = QualificationRule("online-pro-men", {None: "men"})


def ids(players) -> list[str]:
    return [p.entrant_id for p in players]


def test_awd_qual_top4_and_ordered_substitutes(section, ranked_rows):
    """AWD-QUAL: top 4 qualify; places 5–8 are substitutes in order; 9+ nothing."""
    (sel,) = select_qualifiers(section(ranked_rows(12), "online-pro-men"), RULE)
    assert ids(sel.qualifiers) == ["p1", "p2", "p3", "p4"]
    assert ids(sel.substitutes) == ["p5", "p6", "p7", "p8"]
    assert sel.target_section_id == "men" and sel.complete


def test_awd_qual_merged_section_ranks_each_gender(seed, section):
    """AWD-QUAL + REG-12: in a merged section men and women are ranked separately; each
    gender's top 4 go to its own final section, 5–8 of each gender are substitutes."""
    genders = [M, F, M, M, F, F, M, M, M, F, F, M, F, M, F, F]
    spec = [(f"{g.value[0]}{i}", i, g) for i, g in enumerate(genders, start=1)]
    merged = section(spec, "online-pro-adults", rank_by_gender=True)
    rule = next(r for r in seed.SZ_ONLINE.qualification if r.source_section_id == "online-pro-adults")
    men, women = select_qualifiers(merged, rule, seed.SZ_ONLINE.seeded)
    assert (men.gender, men.target_section_id, women.gender, women.target_section_id) == (M, "men", F, "women")
    assert ids(men.qualifiers) == ["m1", "m3", "m4", "m7"]
    assert ids(men.substitutes) == ["m8", "m9", "m12", "m14"]
    assert ids(women.qualifiers) == ["f2", "f5", "f6", "f10"]
    assert ids(women.substitutes) == ["f11", "f13", "f15", "f16"]
    assert [q.rank for q in women.qualifiers] == [1, 2, 3, 4]
    assert [q.place for q in women.qualifiers] == [2, 5, 6, 10]
    # seeded 2022 Shenzhen Cup top 4 of the target section, and its 5–8 as substitutes
    assert ids(men.seeded) == [f"cup-men-{i}" for i in range(1, 5)]
    assert ids(women.seeded_substitutes) == [f"cup-women-{i}" for i in range(5, 9)]


def test_awd_qual_merged_section_needs_targets_per_gender(section):
    """AWD-QUAL: a merged section with no target for one gender is a configuration error."""
    merged = section([("m1", 1, M), ("f1", 2, F)], rank_by_gender=True)
    with pytest.raises(ConfigError):
        select_qualifiers(merged, QualificationRule("s", {M: "men"}))


def test_awd_qual_ineligible_and_seeded_players_pass_the_place_on(section, ranked_rows):
    """AWD-QUAL + REG-7: a qualifier meeting no eligibility clause loses the place and a
    player already seeded is not counted twice — the next players move up."""
    seeded = (SeededList("men", "2022 Shenzhen Cup", (SeededPlayer("p3", "P3"),)),)
    (sel,) = select_qualifiers(
        section(ranked_rows(10), "online-pro-men"), RULE, seeded, ineligible={"p2": "no REG-6 clause met"}
    )
    assert ids(sel.qualifiers) == ["p1", "p4", "p5", "p6"]
    assert ids(sel.substitutes) == ["p7", "p8", "p9", "p10"]
    assert dict(sel.skipped) == {"p2": "no REG-6 clause met", "p3": "seeded directly into men"}
    assert ids(sel.seeded) == ["p3"]


def test_awd_qual_tie_at_cut_is_flagged_not_decided(section):
    """AWD-QUAL + PAIR-8 (SZ online, no playoffs): a tie at the qualification cut is
    flagged for the arbiter with the open slots; no substitutes until it is settled."""
    spec = [("a", 1), ("b", 2), ("c", 3), ("d", 4), ("e", 4), ("f", 6)]
    (sel,) = select_qualifiers(section(spec), RULE)
    assert ids(sel.qualifiers) == ["a", "b", "c"]
    assert sel.substitutes == ()
    (flag,) = sel.flags
    assert (flag.kind, flag.place, flag.entrant_ids, flag.open_slots) == ("qualification_cut", 4, ("d", "e"), 1)
    assert not sel.complete


def test_awd_qual_tie_inside_the_top4_is_fine(section):
    """AWD-QUAL: players tied at 2nd both qualify (the tie does not touch the cut)."""
    spec = [("a", 1), ("b", 2), ("c", 2), ("d", 4), ("e", 5)]
    (sel,) = select_qualifiers(section(spec), RULE)
    assert ids(sel.qualifiers) == ["a", "b", "c", "d"] and sel.complete


@pytest.mark.parametrize(
    "spec, subs, kinds",
    [
        # tie inside the substitutes: listed, order flagged
        (
            [(f"p{i}", i) for i in range(1, 6)] + [("x", 6), ("y", 6), ("p8", 8), ("p9", 9)],
            ["p5", "x", "y", "p8"],
            ["substitute_order"],
        ),
        # tie straddling the last substitute slot: left out and flagged
        ([(f"p{i}", i) for i in range(1, 8)] + [("x", 8), ("y", 8)], ["p5", "p6", "p7"], ["substitute_cut"]),
    ],
)
def test_awd_qual_ties_among_substitutes(section, spec, subs, kinds):
    """AWD-QUAL: substitutes are *ordered*, so ties among them need a decision."""
    (sel,) = select_qualifiers(section(spec), RULE)
    assert ids(sel.substitutes) == subs and [f.kind for f in sel.flags] == kinds


def test_awd_qual_stage_total_respects_48(seed, section, ranked_rows):
    """AWD-QUAL (SZ): 8 online sections × 4 + 4 × 4 seeded = 48 finalists, not over."""
    sections = {
        f"online-{t}-{s}": section(ranked_rows(10, f"{t}{s}-"), f"online-{t}-{s}")
        for t in ("free", "pro")
        for s in ("men", "women", "boys", "girls")
    }
    stage = stage_qualification(sections, seed.SZ_ONLINE.qualification, seed.SZ_ONLINE.seeded, max_entrants=48)
    assert stage.total_entrants == 48 and not stage.over_capacity and stage.complete
    assert len(stage.selections) == 8
    smaller = stage_qualification(sections, seed.SZ_ONLINE.qualification, seed.SZ_ONLINE.seeded, max_entrants=40)
    assert smaller.over_capacity


def test_awd_qual_training_squad_from_final(seed, section, ranked_rows):
    """AWD-QUAL (SZ final): the champion joins the city squad; 2–4 are squad substitutes."""
    squad = select_squad(section(ranked_rows(8), "men"), seed.SZ_FINAL.squads[0])
    assert ids(squad.members) == ["p1"] and ids(squad.substitutes) == ["p2", "p3", "p4"]


def test_awd_qual_squad_places_are_configuration(section, ranked_rows):
    """AWD-QUAL: squad place ranges come from configuration."""
    squad = select_squad(section(ranked_rows(8)), SquadRule("s", (1, 2), (3, 6)))
    assert ids(squad.members) == ["p1", "p2"] and len(squad.substitutes) == 4
