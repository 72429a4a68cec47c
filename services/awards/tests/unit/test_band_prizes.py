"""Issue 32 rating-band prizes (AWD-4 tables ranking only a band of published ratings), as a table
of cases: who is in the band, one prize per player (the better one) unless combinable, prizes
passing down, shared places; and the mapping from the event configuration."""

from __future__ import annotations

import pytest

from awards.adapters.config_mapping import prize_config
from awards.domain import (
    Gender,
    PrizeConfig,
    PrizeTable,
    SectionStandings,
    StandingRow,
    section_prizes,
    total_by_entrant,
)
from awards.domain.band_prizes import prizes_with_bands
from awards.domain.config import ConfigError
from awards.domain.rating_band import RatingBand
from gomoku_shared.event_config import AwardsConfig

M, F = Gender.MALE, Gender.FEMALE


def standings(spec: list[tuple]) -> SectionStandings:
    """(entrant, place, rating[, gender]) rows; a rating None is unrated."""
    rows = tuple(
        StandingRow(entrant_id=e, name=e.upper(), place=place, rating=rating, gender=rest[0] if rest else M)
        for e, place, rating, *rest in spec
    )
    return SectionStandings("s", "S", rows)


def table(name: str, amounts: list[int], **kw) -> PrizeTable:
    return PrizeTable(name, tuple(amounts), **kw)


OPEN = table("Open", [100, 50, 30])
U1600 = table("U1600", [40, 20], band=RatingBand(under=1600), combinable=False)
FIELD = [("p1", 1, 2000), ("p2", 2, 1500), ("p3", 3, 1550), ("p4", 4, 1400), ("p5", 5, None), ("p6", 6, 1450)]


@pytest.mark.parametrize(
    "tables,spec,expected",
    [
        # p2 keeps the better overall 2nd (50 > 40); the band's 1st passes to p3, who takes it
        # (40 > 30) and gives up the overall 3rd, which passes to p4 (30 > the band's 20); the
        # band's 2nd passes on to p6 (p5 is unrated: outside)
        ((OPEN, U1600), FIELD, {"p1": 100, "p2": 50, "p3": 40, "p4": 30, "p6": 20}),
        # combinable (兼得): paid in addition to the overall prizes
        (
            (OPEN, table("U1600", [40, 20], band=RatingBand(under=1600), combinable=True)),
            FIELD,
            {"p1": 100, "p2": 90, "p3": 50, "p4": 0},
        ),
        # unrated players inside the band: p5 is the band's next after p3 and p4 keep better ones
        (
            (OPEN, table("U1600", [40, 20], band=RatingBand(under=1600, include_unrated=True), combinable=False)),
            FIELD,
            {"p1": 100, "p2": 50, "p3": 40, "p4": 30, "p5": 20},
        ),
        # equal amounts: the table listed first (overall) is kept, the band prize passes on
        (
            (table("Open", [100, 40]), table("U1600", [40], band=RatingBand(under=1600), combinable=False)),
            [("p1", 1, 2000), ("p2", 2, 1500), ("p3", 3, 1550)],
            {"p1": 100, "p2": 40, "p3": 40},
        ),
        # two band tables: a 1300 player is in both and takes the better one
        (
            (
                table("U1600", [40], band=RatingBand(under=1600), combinable=False),
                table("U1400", [60], band=RatingBand(under=1400), combinable=False),
            ),
            [("p1", 1, 1300), ("p2", 2, 1500), ("p3", 3, 1350)],
            {"p1": 60, "p2": 40, "p3": 0},
        ),
        # a band from 1400 to under 1600: 1600 is outside, 1400 inside
        (
            (table("1400-1599", [40, 20], band=RatingBand(at_least=1400, under=1600), combinable=False),),
            [("p1", 1, 1600), ("p2", 2, 1399), ("p3", 3, 1400), ("p4", 4, 1599)],
            {"p3": 40, "p4": 20},
        ),
        # a shared place inside the band splits the band's amounts (AWD-4)
        (
            (table("U1600", [40, 20], band=RatingBand(under=1600), combinable=False),),
            [("p1", 1, 1700), ("p2", 2, 1500), ("p3", 2, 1550)],
            {"p2": 30, "p3": 30},
        ),
        # a band table of one gender ranks that gender's players in the band
        (
            (table("Women U1600", [40], band=RatingBand(under=1600), gender=F, combinable=False),),
            [("m1", 1, 1500, M), ("w1", 2, 1700, F), ("w2", 3, 1500, F)],
            {"w2": 40},
        ),
    ],
)
def test_issue32_band_prizes_rank_the_band_and_pay_one_prize_per_player(tables, spec, expected):
    """Issue 32 rating band, AWD-4: a band table ranks the players whose published rating lies
    in the band by their places; not combinable, a player takes the better prize and the one
    given up passes to the next player of that table."""
    totals = total_by_entrant(prizes_with_bands(standings(spec), PrizeConfig(tables)))
    assert {e: v for e, v in totals.items() if v} == {e: v for e, v in expected.items() if v}


def test_issue32_band_prize_lines_name_their_band_and_rank_within_it():
    """Issue 32 rating band: a band line says its band and its rank among the band's players."""
    lines = prizes_with_bands(standings(FIELD), PrizeConfig((OPEN, U1600)))
    band = [(p.entrant_id, p.rank, p.place, p.band) for p in lines if p.table == "U1600"]
    assert band == [("p3", 1, 3, RatingBand(under=1600)), ("p6", 2, 6, RatingBand(under=1600))]
    assert all(p.band is None for p in lines if p.table == "Open")


def test_issue32_without_band_tables_the_prizes_are_awd4s_exactly():
    """Issue 32 rating band: events without bands pay exactly what AWD-4 paid before."""
    spec = [("w1", 1, 1500, F), ("m1", 2, 1400, M), ("w2", 3, None, F), ("w3", 4, 1200, F)]
    config = PrizeConfig((table("Open", [100, 50]), table("Women", [20, 10], gender=F, combinable=False)))
    assert prizes_with_bands(standings(spec), config) == section_prizes(standings(spec), config)


@pytest.mark.parametrize("at_least,under", [(None, None), (1600, 1600), (1700, 1600)])
def test_issue32_a_band_needs_ordered_bounds(at_least, under):
    with pytest.raises(ConfigError):
        RatingBand(at_least, under)


def test_issue32_prize_bands_map_from_the_event_configuration():
    """Issue 32 rating band: the configuration's band (``unrated: inside``) reaches the domain
    table, band tables after the overall and gendered ones, each group in the schema's order."""
    awards = AwardsConfig.model_validate(
        {
            "prizes": [
                {
                    "id": "u16",
                    "name": "Best under 1600",
                    "name_zh": "1600分以下",
                    "amounts": [800],
                    "band": {"under": 1600},
                },
                {"id": "open", "name": "Open", "amounts": [1000, 500]},
                {"id": "w", "name": "Women", "amounts": [300], "gender": "female"},
                {"id": "u14", "name": "U1400", "amounts": [500], "band": {"under": 1400, "unrated": "inside"}},
            ]
        }
    )
    config = prize_config(awards)
    assert config is not None
    assert [(t.name, t.band, t.combinable) for t in config.tables] == [
        ("Open", None, False),
        ("Women", None, False),
        ("Best under 1600", RatingBand(under=1600), False),
        ("U1400", RatingBand(under=1400, include_unrated=True), False),
    ]
