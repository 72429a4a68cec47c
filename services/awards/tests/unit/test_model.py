"""Input validation of standings and configuration (guards for every AWD rule)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from awards.domain import (
    ConfigError,
    PlaceAwardsConfig,
    PlaceItems,
    PrizeTable,
    SectionStandings,
    StandingRow,
    StandingsError,
    TitleBand,
    TitleTable,
    rank_within,
    tie_groups,
)


@pytest.mark.parametrize(
    "places, ok",
    [
        ([1, 2, 3], True),
        ([1, 1, 3], True),
        ([1, 1, 1, 4], True),
        ([1, 2, 2, 4], True),
        ([1, 1, 2], False),
        ([1, 3], False),
        ([2, 3], False),
        ([2, 1], False),
    ],
)
def test_standings_places_use_competition_ranking(places, ok):
    """AWD-4/5 precondition: shared places skip the following numbers (1, 2, 2, 4)."""
    rows = tuple(StandingRow(f"p{i}", f"P{i}", p) for i, p in enumerate(places))
    if ok:
        assert SectionStandings("s", "S", rows).field_size == len(places)
    else:
        with pytest.raises(StandingsError):
            SectionStandings("s", "S", rows)


def test_floats_refused_in_standings():
    """AWD-4: no floats in points or tiebreaks."""
    with pytest.raises(TypeError):
        StandingRow("a", "A", 1, points=1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        StandingRow("a", "A", 1, tiebreaks=(("buchholz", 3.0),))  # type: ignore[arg-type]
    StandingRow("a", "A", 1, points=Decimal("1.5"), tiebreaks=(("sb", Decimal("2.25")),))


def test_duplicate_entrants_refused():
    with pytest.raises(StandingsError):
        SectionStandings("s", "S", (StandingRow("a", "A", 1), StandingRow("a", "A", 2)))


def test_tie_groups_and_rank_within(section):
    """AWD-4: ranks among a subset follow the section places, ties kept together."""
    s = section([("a", 1), ("b", 2), ("c", 2), ("d", 4)])
    assert [(g.place, g.size, g.last_place) for g in tie_groups(s.rows)] == [(1, 1, 1), (2, 2, 3), (4, 1, 4)]
    subset = [s.rows[1], s.rows[2], s.rows[3]]
    assert [(g.place, g.size) for g in rank_within(subset)] == [(1, 2), (3, 1)]


@pytest.mark.parametrize(
    "build",
    [
        lambda: PlaceAwardsConfig((PlaceItems(1, 3, ("m",)), PlaceItems(3, 8, ("c",)))),
        lambda: PlaceItems(3, 2, ()),
        lambda: TitleTable((TitleBand(1, 2, "a"), TitleBand(2, 3, "b"))),
        lambda: PrizeTable("x", (-1,)),
        lambda: PrizeTable("x", (1.5,)),  # type: ignore[arg-type]
    ],
)
def test_bad_configuration_is_refused(build):
    """Configuration errors surface when the preset is mapped, not mid-award."""
    with pytest.raises(ConfigError):
        build()
