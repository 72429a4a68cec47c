"""AWD-6: team scores from individual results (SZ 2 men + 1 woman by places; NY 1 male
+ 1 female by points)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from awards.domain import (
    Gender,
    TeamScoreComponent,
    TeamScoreMeasure,
    TeamScoreRule,
    compute_section_awards,
    team_ranking,
    team_ranking_standings,
)

M, F = Gender.MALE, Gender.FEMALE


def test_awd6_sz_best_two_men_one_woman_place_sum(seed, section):
    """AWD-6 SZ: per unit the best 2 men + best 1 woman by final place; sum, lower better."""
    men = section(
        [
            ("a1", 1, M, "A"),
            ("b1", 2, M, "B"),
            ("a2", 3, M, "A"),
            ("b2", 4, M, "B"),
            ("a3", 5, M, "A"),
            ("x1", 6, M, None),
        ],
        "men",
    )
    women = section([("bw", 1, F, "B"), ("aw", 2, F, "A"), ("cw", 3, F, "C")], "women")
    ranking = team_ranking(seed.SZ_MIXED_TEAM, {"men": men, "women": women})
    # A: 1 + 3 + 2 = 6; B: 2 + 4 + 1 = 7 → A first
    assert [(t.unit_id, t.place, t.score) for t in ranking.ranked] == [("A", 1, 6), ("B", 2, 7)]
    assert [m.entrant_id for m in ranking.ranked[0].members] == ["a1", "a2", "aw"]


def test_awd6_sz_unit_without_a_woman_gets_no_score(seed, section):
    """AWD-6 SZ: a unit without 2 men and 1 woman gets no team score."""
    men = section(
        [("a1", 1, M, "A"), ("a2", 2, M, "A"), ("c1", 3, M, "C"), ("b1", 4, M, "B"), ("b2", 5, M, "B")], "men"
    )
    women = section([("bw", 1, F, "B"), ("cw", 2, F, "C")], "women")
    ranking = team_ranking(seed.SZ_MIXED_TEAM, {"men": men, "women": women})
    assert [t.unit_id for t in ranking.ranked] == ["B"]
    reasons = {u.unit_id: u.reason for u in ranking.unscored}
    assert set(reasons) == {"A", "C"}
    assert "women: 0 of 1" in reasons["A"] and "men: 1 of 2" in reasons["C"]


def test_awd6_sz_tie_best_single_place(seed, section):
    """AWD-6 SZ tie → the unit with the best single individual place is ahead."""
    # A: 2 + 3 + 2 = 7, best 2; B: 1 + 5 + 1 = 7, best 1 → B first
    men = section([("b1", 1, M, "B"), ("a1", 2, M, "A"), ("a2", 3, M, "A"), ("x", 4, M), ("b2", 5, M, "B")], "men")
    women = section([("bw", 1, F, "B"), ("aw", 2, F, "A")], "women")
    ranking = team_ranking(seed.SZ_MIXED_TEAM, {"men": men, "women": women})
    assert [(t.unit_id, t.score, t.place) for t in ranking.ranked] == [("B", 7, 1), ("A", 7, 2)]
    assert ranking.ranked[0].tiebreaks == (("best_single_place", 1),)


def test_awd6_sz_tie_still_equal_shares_place(seed, section):
    """AWD-6: equal sum and equal best place → shared team place."""
    men = section([("a1", 1, M, "A"), ("b1", 1, M, "B"), ("a2", 3, M, "A"), ("b2", 3, M, "B")], "men")
    women = section([("aw", 1, F, "A"), ("bw", 1, F, "B")], "women")
    ranking = team_ranking(seed.SZ_MIXED_TEAM, {"men": men, "women": women})
    assert [(t.place, t.shared_place) for t in ranking.ranked] == [(1, True), (1, True)]


def test_awd6_sz_cancelled_component_section_scores_nobody(seed, section):
    """AWD-6 + AWD-2: without the women's section every unit lacks its woman."""
    men = section([("a1", 1, M, "A"), ("a2", 2, M, "A")], "men")
    ranking = team_ranking(seed.SZ_MIXED_TEAM, {"men": men})
    assert ranking.ranked == () and [u.unit_id for u in ranking.unscored] == ["A"]


def test_awd6_sz_junior_team_uses_boys_and_girls(seed, section):
    """AWD-6 SZ junior: boys + girls sections."""
    boys = section([("a1", 1, M, "A"), ("a2", 2, M, "A")], "boys")
    girls = section([("xg", 1, F), ("yg", 2, F), ("ag", 3, F, "A")], "girls")
    ranking = team_ranking(seed.SZ_JUNIOR_TEAM, {"boys": boys, "girls": girls})
    assert ranking.ranked[0].score == 6


def test_awd6_sz_team_ranking_feeds_team_awards(seed, section):
    """AWD-6 → AWD-2: the team ranking is awarded like a section (3 teams → 2 places)."""
    men = section(
        [
            (f"{u}{i}", n, M, u)
            for n, (u, i) in enumerate([("a", 1), ("b", 1), ("c", 1), ("a", 2), ("b", 2), ("c", 2)], start=1)
        ],
        "men",
    )
    women = section([("aw", 1, F, "a"), ("bw", 2, F, "b"), ("cw", 3, F, "c")], "women")
    ranking = team_ranking(seed.SZ_MIXED_TEAM, {"men": men, "women": women})
    awards = compute_section_awards(team_ranking_standings(ranking), seed.SZ_FINAL.section("mixed-team"))
    assert [(e.entrant_id, e.items) for e in awards.entrants] == [
        ("a", ("trophy", "certificate")),
        ("b", ("certificate",)),
        ("c", ()),
    ]


def ny(seed, section, male, female):
    return team_ranking(
        seed.NY.team_scores[0],
        {"youth-male": section(male, "youth-male"), "youth-female": section(female, "youth-female")},
    )


def test_awd6_ny_points_sum_higher_better(seed, section):
    """AWD-6 NY: best 1 male + best 1 female, sum of points, higher is better."""
    male = [("am", 1, M, "A", 12), ("bm", 2, M, "B", 10), ("am2", 3, M, "A", 9)]
    female = [("bf", 1, F, "B", 11), ("af", 2, F, "A", 6)]
    ranking = ny(seed, section, male, female)
    assert [(t.unit_id, t.score) for t in ranking.ranked] == [("B", Decimal(21)), ("A", Decimal(18))]


def test_awd6_ny_tie_lower_place_sum(seed, section):
    """AWD-6 NY tie on points → lower sum of places ahead."""
    # A: 10 + 8 = 18, places 2 + 1 = 3 ; B: 12 + 6 = 18, places 1 + 3 = 4 → A first
    male = [("bm", 1, M, "B", 12), ("am", 2, M, "A", 10)]
    female = [("af", 1, F, "A", 8), ("xf", 2, F, None, 7), ("bf", 3, F, "B", 6)]
    ranking = ny(seed, section, male, female)
    assert [(t.unit_id, t.place) for t in ranking.ranked] == [("A", 1), ("B", 2)]
    assert ranking.ranked[0].tiebreaks == (("place_sum", 3), ("component_place:0", 2))


def test_awd6_ny_tie_male_placed_higher(seed, section):
    """AWD-6 NY: equal points and equal place sum → the unit whose male placed higher."""
    # A: 12 + 6 = 18, places 1 + 3 = 4 ; B: 10 + 8 = 18, places 3 + 1 = 4 → A (male 1st)
    male = [("am", 1, M, "A", 12), ("xm", 2, M, None, 11), ("bm", 3, M, "B", 10)]
    female = [("bf", 1, F, "B", 8), ("xf", 2, F, None, 7), ("af", 3, F, "A", 6)]
    ranking = ny(seed, section, male, female)
    assert [(t.unit_id, t.place, t.shared_place) for t in ranking.ranked] == [("A", 1, False), ("B", 2, False)]


def test_awd6_ny_unit_lacking_a_female(seed, section):
    """AWD-6 NY: a unit with no female player gets no team score."""
    male = [("am", 1, M, "A", 12), ("bm", 2, M, "B", 10)]
    female = [("bf", 1, F, "B", 8)]
    ranking = ny(seed, section, male, female)
    assert [t.unit_id for t in ranking.ranked] == ["B"]
    assert [u.unit_id for u in ranking.unscored] == ["A"]


def test_awd6_component_gender_filter_in_merged_section(section):
    """AWD-6: a component may take one gender out of a merged section."""
    merged = section([("am", 1, M, "A"), ("af", 2, F, "A"), ("am2", 3, M, "A")], "adults")
    rule = TeamScoreRule(
        "t", "T", (TeamScoreComponent("adults", 2, M), TeamScoreComponent("adults", 1, F)), TeamScoreMeasure.PLACE_SUM
    )
    ranking = team_ranking(rule, {"adults": merged})
    assert ranking.ranked[0].score == 6


def test_awd6_component_place_tiebreak_index_is_checked():
    """AWD-6: a tiebreak naming a missing component is a configuration error."""
    from awards.domain import ConfigError, TeamTiebreak, TeamTieKind

    with pytest.raises(ConfigError):
        TeamScoreRule(
            "t",
            "T",
            (TeamScoreComponent("s", 1),),
            TeamScoreMeasure.POINTS_SUM,
            (TeamTiebreak(TeamTieKind.COMPONENT_PLACE, 3),),
        )


CANCELLED_SOURCE_CASES = [
    # (seed clause, rule, played sections, the cancelled section, unit rows, unscored reason)
    pytest.param(
        "SZ 十一(二) + 十二(一)",
        "sz-mixed",
        {"men": [("a1", 1, M, "A"), ("a2", 2, M, "A"), ("b1", 3, M, "B"), ("b2", 4, M, "B")]},
        "women",
        "women: 0 of 1 (section cancelled)",
        id="sz-women-cancelled",
    ),
    pytest.param(
        "SZ 十一(二) + 十二(一)",
        "sz-mixed",
        {"women": [("aw", 1, F, "A"), ("bw", 2, F, "B")]},
        "men",
        "men: 0 of 2 (section cancelled)",
        id="sz-men-cancelled",
    ),
    pytest.param(
        "NY 九(六)2",
        "ny-youth",
        {"youth-male": [("x1", 1, M, "X", 12), ("y1", 2, M, "Y", 10)]},
        "youth-female",
        "female: 0 of 1 (section cancelled)",
        id="ny-girls-cancelled",
    ),
]


@pytest.mark.parametrize("clause, rule_name, played, cancelled_id, reason", CANCELLED_SOURCE_CASES)
def test_awd6_cancelled_source_section_counts_as_absent_and_is_noted(
    seed, section, clause, rule_name, played, cancelled_id, reason
):
    """AWD-6 + REG-12 (issue 16, Build 8): a source section cancelled at closing counts as
    absent — the team score is computed from the sections played (per the seed, a unit short
    of a component gets no team score), and the ranking's note names the cancelled section."""
    from awards.domain import CancelledSource

    rule = seed.SZ_MIXED_TEAM if rule_name == "sz-mixed" else seed.NY.team_scores[0]  # youth-team
    sections = {sid: section(rows, sid) for sid, rows in played.items()}
    gone = CancelledSource(cancelled_id, f"{cancelled_id} section", "cancelled at closing: 3 entries (at most 4)")
    ranking = team_ranking(rule, sections, (gone,))
    assert ranking.ranked == (), clause
    assert {u.reason for u in ranking.unscored} == {f"not enough players — {reason}"}, clause
    assert ranking.cancelled_sources == (gone,)
    [note] = ranking.notes
    assert f"{cancelled_id} section (cancelled at closing: 3 entries (at most 4))" in note
    assert "computed from the sections that were played" in note
    awards = compute_section_awards(team_ranking_standings(ranking), seed.SZ_FINAL.section("mixed-team"))
    assert awards.awarded_places == 0 and awards.entrants == ()


def test_awd6_a_cancelled_section_of_another_rule_is_not_noted(seed, section):
    """AWD-6: only the rule's own source sections are named in its note."""
    from awards.domain import CancelledSource

    men = section([("a1", 1, M, "A"), ("a2", 2, M, "A")], "men")
    women = section([("aw", 1, F, "A")], "women")
    other = CancelledSource("girls", "Girls", "cancelled at closing: 2 entries")
    ranking = team_ranking(seed.SZ_MIXED_TEAM, {"men": men, "women": women}, (other,))
    assert [t.unit_id for t in ranking.ranked] == ["A"] and ranking.notes == ()
