"""EventConfig of each shipped preset → the awards domain configuration (AWD-1..7, AWD-QUAL).

The presets are loaded through the registration package's loader, as `event.configured`
carries them; the expected numbers are those of the seed regulations (docs/seed-clauses.md).
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from awards.adapters.config_mapping import (
    DEFAULT_PLACE_ITEMS,
    UnsupportedConfig,
    awards_plan,
)
from awards.domain import (
    BoardCriterion,
    Gender,
    TeamScoreMeasure,
    TeamTieKind,
    award_count,
    awarded_places,
    compute_event_awards,
    compute_section_awards,
    is_cancelled,
    yuan,
)
from gomoku_shared.event_config import EventConfig
from registration import presets

M, F = Gender.MALE, Gender.FEMALE


@pytest.fixture(scope="module")
def plans():
    return {p: awards_plan(presets.load(p)) for p in ("da-2023", "nt-2023", "ny-2022", "sz-2022")}


def test_every_preset_maps_and_survives_the_event_configured_round_trip(plans):
    """The `config` dict of event.configured (JSON) validates back to the same plan."""
    for preset_id, plan in plans.items():
        config = presets.load(preset_id)
        again = awards_plan(EventConfig.model_validate(config.model_dump(mode="json")))
        assert again == plan, preset_id


# ------------------------------------------------------------------ DA 2023


def test_awd1_da_place_items_top8_and_finisher_items(plans):
    """AWD-1 DA: 1–3 certificate + medal, 4–8 certificate, every finisher a finisher's medal and
    certificate; the `prize_money` label is left to the prize tables."""
    for section_id in ("open", "junior", "public"):
        places = plans["da-2023"].sections[section_id].awards.places
        assert places.items_for(1) == places.items_for(3) == ("certificate", "medal")
        assert places.items_for(4) == places.items_for(8) == ("certificate",)
        assert places.items_for(9) == ()
        assert places.finisher_items == ("finisher_medal", "commemorative_certificate")
        assert awarded_places(30, places) == 8 and awarded_places(5, places) == 5


@pytest.mark.parametrize(
    "section_id, overall, women",
    [
        ("open", [10000, 6000, 5000, 4000, 4000, 4000, 4000, 3000], [2000, 1000, 1000]),
        ("junior", [7000, 5000, 4000, 3000, 3000, 3000, 3000, 2000], [1500, 1000, 500, 500, 500]),
        ("public", [5000, 4000, 3000, 2000, 2000, 2000, 2000, 2000], None),
    ],
)
def test_awd4_da_prize_tables_in_fen(plans, section_id, overall, women):
    """AWD-4: the DA prize tables by place, women's tables ranked among women, combinable (兼得)."""
    prizes = plans["da-2023"].sections[section_id].awards.prizes
    assert prizes is not None and prizes.currency == "CNY" and prizes.before_tax
    assert prizes.tables[0].gender is None and prizes.tables[0].amounts == tuple(yuan(a) for a in overall)
    if women is None:
        assert len(prizes.tables) == 1
    else:
        table = prizes.tables[1]
        assert table.gender is F and table.combinable and table.amounts == tuple(yuan(a) for a in women)


def test_awd5_da_junior_titles_places_1_to_26_and_none_beyond(plans):
    """AWD-5: 1st 2-dan; 2–3 1-dan; 4–6 1-kyu; 7–10 2-kyu; … 23–26 6-kyu; not carried down."""
    table = plans["da-2023"].sections["junior"].awards.titles
    assert table is not None
    expected = {
        1: "2d",
        2: "1d",
        3: "1d",
        4: "1k",
        6: "1k",
        7: "2k",
        10: "2k",
        11: "3k",
        14: "3k",
        15: "4k",
        18: "4k",
        19: "5k",
        22: "5k",
        23: "6k",
        26: "6k",
        27: None,
        40: None,
    }
    assert {p: table.title_for(p) for p in expected} == expected
    assert plans["da-2023"].sections["open"].awards.titles is None


def test_awd5_titles_carry_down_is_refused_not_ignored():
    config = presets.load(
        "da-2023", overrides={"stages": {"main": {"sections": {"junior": {"awards": {"titles_carry_down": True}}}}}}
    )
    with pytest.raises(UnsupportedConfig):
        awards_plan(config)


def test_da_plan_runs_through_the_domain(plans, section):
    """The mapped configuration drives compute_event_awards (AWD-4 woman in the top 8 gets both)."""
    open_ = section(
        [
            ("w1", 1, F),
            ("m2", 2, M),
            ("m3", 3, M),
            ("w4", 4, F),
            ("m5", 5, M),
            ("m6", 6, M),
            ("m7", 7, M),
            ("m8", 8, M),
            ("w9", 9, F),
        ],
        "open",
    )
    result = compute_event_awards({"open": open_}, plans["da-2023"].event_awards_config())
    awards = result.sections[0]
    assert awards.entrant("w1").prize_total_fen == yuan(10000) + yuan(2000)
    assert awards.entrant("w4").prize_total_fen == yuan(4000) + yuan(1000)
    assert awards.entrant("w9").prize_total_fen == yuan(1000)


# ------------------------------------------------------------------ SZ 2022


def test_awd1_awd2_sz_final_top4_items_and_cancel_at_4(plans):
    """AWD-1 SZ final: 1st trophy + medal + certificate, 2–4 medal + certificate; AWD-2 a
    section with ≤ 4 players is cancelled."""
    for section_id in ("final-men", "final-women", "final-junior-boys", "final-junior-girls"):
        cfg = plans["sz-2022"].sections[section_id].awards
        assert cfg.places.items_for(1) == ("trophy", "medal", "certificate")
        assert cfg.places.items_for(4) == ("medal", "certificate") and cfg.places.items_for(5) == ()
        assert cfg.cancel_if_entries_at_most == 4
        assert is_cancelled(4, cfg.cancel_if_entries_at_most) and not is_cancelled(5, cfg.cancel_if_entries_at_most)


@pytest.mark.parametrize("teams, places", [(8, 4), (4, 4), (3, 2), (2, 1), (1, 0)])
def test_awd2_sz_team_awards_top4_or_teams_minus_1(plans, teams, places):
    """AWD-2: team awards top 4; with fewer than 4 teams, (teams − 1) places."""
    cfg = plans["sz-2022"].teams["mixed-team"].awards.places
    assert awarded_places(teams, cfg) == places
    assert cfg.items_for(1) == ("trophy", "certificate") and cfg.items_for(2) == ("certificate",)


def test_awd6_sz_team_score_rule(plans):
    """AWD-6 SZ: best 2 men + 1 woman by place, place sum (lower better), tie → best single place."""
    for team_id, men, women in (
        ("mixed-team", "final-men", "final-women"),
        ("junior-mixed-team", "final-junior-boys", "final-junior-girls"),
    ):
        team = plans["sz-2022"].teams[team_id]
        rule = team.rule
        assert [(c.section_id, c.count, c.gender) for c in rule.components] == [(men, 2, M), (women, 1, F)]
        assert rule.measure is TeamScoreMeasure.PLACE_SUM
        assert [t.kind for t in rule.tiebreaks] == [TeamTieKind.BEST_SINGLE_PLACE]
        assert team.stage_id == "final" and team.sources == tuple(sorted((men, women)))
    assert [t.section_id for t in plans["sz-2022"].teams_fed_by("final-women")] == ["mixed-team"]


def test_awd_qual_sz_online_rules_targets_squad_and_cap(plans):
    """AWD-QUAL SZ: top 4 per online section + substitutes 5–8, each gender to its final section
    (a merged section's genders separately), champion → squad, 2–4 squad substitutes; final ≤ 48."""
    plan = plans["sz-2022"]
    men = plan.sections["men-free"].qualification
    assert men is not None and men.qualifiers == 4 and men.substitutes == 4 and not men.by_gender
    assert men.targets[None] == "final-men" and men.targets[F] == "final-women" and men.targets[M] == "final-men"
    girls = plan.sections["junior-girls-pro"].qualification
    assert girls is not None and girls.targets[None] == "final-junior-girls"
    assert plan.sections["men-free"].to_stage == "final"
    assert plan.sections["final-men"].qualification is None
    squad = plan.sections["final-women"].squad
    assert squad is not None and squad.member_places == (1, 1) and squad.substitute_places == (2, 4)
    assert plan.stage_caps == {"final": 48}
    assert plan.event_awards_config("online").max_next_stage_entrants == 48
    online_sections = {s.section_id for s in plan.event_awards_config("online").sections}
    assert "final-men" not in online_sections and "men-free" in online_sections


# ------------------------------------------------------------------ NY 2022


def test_awd1_ny_top8_items(plans):
    """AWD-1 NY: 1–3 medal + certificate, 4–8 certificate; teams 1–3 certificate + trophy."""
    cfg = plans["ny-2022"].sections["youth-male"].awards.places
    assert cfg.items_for(2) == ("certificate", "medal") and cfg.items_for(8) == ("certificate",)
    assert awarded_places(20, cfg) == 8
    team = plans["ny-2022"].teams["youth-team"].awards.places
    assert team.items_for(3) == ("certificate", "trophy")


def test_awd6_ny_team_score_rule(plans):
    """AWD-6 NY: per age band the best male + best female, points sum (higher better); tie →
    lower place sum → the unit whose male placed higher."""
    for band in ("youth", "junior", "children"):
        rule = plans["ny-2022"].teams[f"{band}-team"].rule
        assert [(c.section_id, c.count, c.gender) for c in rule.components] == [
            (f"{band}-male", 1, M),
            (f"{band}-female", 1, F),
        ]
        assert rule.measure is TeamScoreMeasure.POINTS_SUM
        assert [(t.kind, t.component) for t in rule.tiebreaks] == [
            (TeamTieKind.PLACE_SUM, 0),
            (TeamTieKind.COMPONENT_PLACE, 0),
        ]


# ------------------------------------------------------------------ NT 2023


@pytest.mark.parametrize("teams, places", [(6, 3), (7, 6), (10, 6), (11, 8), (16, 8), (3, 3)])
def test_awd3_nt_award_count_by_field(plans, teams, places):
    """AWD-3: ≥ 11 teams → top 8; 7–10 → top 6; < 7 → top 3."""
    for section_id in ("mixed-team", "junior-boys-team", "junior-girls-team"):
        cfg = plans["nt-2023"].sections[section_id].awards.places
        assert cfg.award_count is not None and award_count(teams, cfg.award_count) == places
        assert awarded_places(teams, cfg) == places
        # the preset names no items: each awarded place gets the documented default
        assert cfg.items_for(1) == DEFAULT_PLACE_ITEMS


def test_awd7_nt_best_board_config(plans):
    """AWD-7: one per board (3 boards), ≥ 70 % participation, order score, win rate, wins, team place."""
    bb = plans["nt-2023"].sections["mixed-team"].best_board
    assert bb is not None and bb.boards == 3 and bb.min_played_percent == Decimal(70)
    assert bb.order == (BoardCriterion.SCORE, BoardCriterion.WIN_RATE, BoardCriterion.WINS, BoardCriterion.TEAM_PLACE)
    assert plans["da-2023"].sections["open"].best_board is None


def test_nt_section_awards_with_the_mapped_config(plans, section):
    """A field of 7 teams awards 6 places (AWD-3) through compute_section_awards."""
    teams = section([(f"t{i}", i) for i in range(1, 8)], "mixed-team", kind="team")
    awards = compute_section_awards(teams, plans["nt-2023"].sections["mixed-team"].awards)
    assert awards.awarded_places == 6
    assert [bool(e.items) for e in awards.entrants] == [True] * 6 + [False]


def test_pair8_places_decided_by_playoff(plans):
    """PAIR-8: DA plays off every awarded place, NY only the medals, SZ online flags ties for the
    arbiter (no playoffs), SZ final plays off its 4 places."""
    assert plans["da-2023"].sections["open"].playoff_through == 8
    assert plans["ny-2022"].sections["youth-male"].playoff_through == 3
    assert plans["sz-2022"].sections["men-free"].playoff_through is None
    assert plans["sz-2022"].sections["final-men"].playoff_through == 4
    assert plans["nt-2023"].sections["mixed-team"].playoff_through == 8
