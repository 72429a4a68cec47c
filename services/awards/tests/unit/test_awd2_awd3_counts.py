"""AWD-2 (cancelled sections; SZ team awards, teams − 1) and AWD-3 (NT bands)."""

from __future__ import annotations

import pytest

from awards.domain import (
    AwardBand,
    AwardCountRule,
    ConfigError,
    award_count,
    compute_section_awards,
    is_cancelled,
)


@pytest.mark.parametrize("entries, cancelled", [(0, True), (1, True), (4, True), (5, False), (128, False)])
def test_awd2_cancel_at_four_or_fewer(entries, cancelled):
    """AWD-2: a section with ≤ 4 players (configurable) is cancelled."""
    assert is_cancelled(entries, 4) is cancelled
    assert is_cancelled(entries, None) is False


def test_awd2_cancelled_section_awards_nothing(seed, section, ranked_rows):
    """AWD-2: cancelled → no awards at all, not even finisher items."""
    awards = compute_section_awards(section(ranked_rows(4), "women"), seed.SZ_FINAL.section("women"))
    assert awards.cancelled and awards.entrants == () and awards.awarded_places == 0
    running = compute_section_awards(section(ranked_rows(5), "women"), seed.SZ_FINAL.section("women"))
    assert not running.cancelled and running.entrant("p1").items


@pytest.mark.parametrize("teams, places", [(1, 0), (2, 1), (3, 2), (4, 4), (5, 4), (12, 4)])
def test_awd2_sz_team_awards_top4_or_teams_minus_one(seed, teams, places):
    """AWD-2: SZ team awards top 4; with fewer than 4 teams, (teams − 1) places."""
    assert award_count(teams, seed.SZ_TEAM_ITEMS.award_count) == places


def test_awd2_sz_team_section_with_three_teams(seed, section, ranked_rows):
    """AWD-2: three teams → 1st trophy+certificate, 2nd certificate, 3rd nothing."""
    standings = section(ranked_rows(3, "t"), "mixed-team", kind="team")
    awards = compute_section_awards(standings, seed.SZ_FINAL.section("mixed-team"))
    assert [e.items for e in awards.entrants] == [("trophy", "certificate"), ("certificate",), ()]


@pytest.mark.parametrize(
    "teams, places",
    [
        (2, 2),
        (3, 3),
        (6, 3),
        (7, 6),
        (10, 6),
        (11, 8),
        (40, 8),
    ],
)
def test_awd3_nt_award_count_by_field(seed, teams, places):
    """AWD-3: ≥ 11 teams → 8; 7–10 → 6; < 7 → 3 (never more than the field)."""
    assert award_count(teams, seed.NT_COUNT) == places


@pytest.mark.parametrize("teams, last_awarded", [(6, 3), (7, 6), (10, 6), (11, 8)])
def test_awd3_nt_section_awards_follow_band(seed, section, ranked_rows, teams, last_awarded):
    """AWD-3: the band limits which places receive items in the team section."""
    awards = compute_section_awards(
        section(ranked_rows(teams, "t"), "nt-mixed", kind="team"), seed.NT.section("nt-mixed")
    )
    awarded = [e.place for e in awards.entrants if e.items]
    assert awarded == list(range(1, last_awarded + 1))


def test_awd3_band_gaps_and_overlaps_are_config_errors():
    """AWD-3: a field size outside every band, or overlapping bands, is refused."""
    rule = AwardCountRule((AwardBand(7, None, places=6),))
    with pytest.raises(ConfigError):
        award_count(3, rule)
    with pytest.raises(ConfigError):
        AwardCountRule((AwardBand(0, 7, places=3), AwardBand(7, None, places=6)))
    with pytest.raises(ConfigError):
        AwardBand(0, 3)
