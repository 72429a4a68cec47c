"""Issue 32 rating band (ADR 0012): a section's band of published ratings judged at entry, as a
table of cases; the band's configuration checks; the decision standing among the entry's."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from pydantic import ValidationError
from registration_kit import person

from gomoku_shared.event_config import EventConfig, RatingBand
from registration import presets
from registration.adapters.stored_config import config_columns, stored_config
from registration.domain import Verdict
from registration.domain.rating_band import (
    RATING_BAND_RULE,
    check_rating_band,
    rating_band_decisions,
    reads_rating_bands,
)

A, R = Verdict.ADMITTED, Verdict.REFUSED


def with_band(event: EventConfig, section_id: str, band: dict | None) -> EventConfig:
    """The event with one section's ``rating_band`` set (validated like a preset)."""
    dump = event.model_dump(mode="json")
    for stage in dump["stages"]:
        for section in stage["sections"]:
            if section["id"] == section_id:
                section["rating_band"] = band
    return EventConfig.model_validate(dump)


@pytest.mark.parametrize(
    "band,rating,expected",
    [
        ({"under": 1600}, 1599, A),  # under is exclusive ...
        ({"under": 1600}, 1600, R),  # ... so 1600 is outside "under 1600"
        ({"at_least": 1600}, 1600, A),  # at_least is inclusive
        ({"at_least": 1600}, 1599, R),
        ({"at_least": 1400, "under": 1600}, 1400, A),
        ({"at_least": 1400, "under": 1600}, 1399, R),
        ({"at_least": 1400, "under": 1600}, 1600, R),
        ({"under": 1600}, None, R),  # unrated: outside unless the band says inside
        ({"under": 1600, "unrated": "inside"}, None, A),
        ({"at_least": 1800, "unrated": "inside"}, None, A),
        ({"under": 1600, "unrated": "inside"}, 1700, R),  # a rated player still needs the band
        ({"under": 1600}, 0, R),  # 0 on the wire is unrated
    ],
)
def test_issue32_rating_band_admits_by_published_rating(sz, band, rating, expected):
    """Issue 32 rating band: the published rating against the section's band (at_least
    inclusive, under exclusive, unrated outside unless ``unrated: inside``); the decision names
    the band's rule and clause, and a refusal says the rating and the band."""
    event = with_band(sz, "men-free", band)
    player = person("male", pid="p1")
    decision = check_rating_band(event.section("men-free"), player, rating)
    assert decision is not None
    assert (decision.rule, decision.clause, decision.outcome) == (RATING_BAND_RULE, "men-free/rating_band", expected)
    assert decision.person_id == "p1"
    if expected is R:
        assert ("no published rating" in decision.reason) if not rating else (str(rating) in decision.reason)
    assert dict(decision.params)["rating"] == (rating or 0)


def test_issue32_a_section_without_a_band_judges_no_rating(sz):
    """Issue 32 rating band: no band, no decision (the shipped presets have none)."""
    assert check_rating_band(sz.section("men-free"), person("male"), 1200) is None
    assert not reads_rating_bands(sz)


def test_issue32_rating_band_judges_every_player_of_the_application(sz):
    """Issue 32 rating band: each player by their own published rating (person id → rating)."""
    event = with_band(sz, "men-free", {"under": 1600})
    section = event.section("men-free")
    low, high, unrated = person("male", pid="a"), person("male", pid="b"), person("male", pid="c")
    decisions = rating_band_decisions(section, [low, high, unrated], {"a": 1500, "b": 1650})
    assert [(d.person_id, d.outcome) for d in decisions] == [("a", A), ("b", R), ("c", R)]
    assert reads_rating_bands(event)


@pytest.mark.parametrize(
    "band,words",
    [
        ({}, "at_least or under"),
        ({"at_least": 1600, "under": 1600}, "must be above"),
        ({"under": 0}, "greater than or equal to 1"),
        ({"under": 1600, "unrated": "allow"}, "unrated"),
    ],
)
def test_issue32_rating_band_configuration_is_checked(band, words):
    """Issue 32 rating band: a band needs a bound, ordered bounds and a known unrated choice."""
    with pytest.raises(ValidationError, match=words):
        RatingBand.model_validate(band)


def test_issue32_a_rating_band_needs_a_registration_section_of_players(sz, nt):
    """Issue 32 rating band: ratings are players' and judged at entry: no band on a team section
    or on a section filled from a qualifying stage."""
    with pytest.raises(ValidationError, match="a team section has no rating band"):
        with_band(nt, nt.stages[0].sections[0].id, {"under": 1600})
    final = next(s for st in sz.stages if st.entry == "qualification" for s in st.sections)
    with pytest.raises(ValidationError, match="only a section entered through registration"):
        with_band(sz, final.id, {"under": 1600})


def test_issue32_rating_bands_are_stored_apart_for_the_previous_release(sz):
    """Issue 32 rating band: the new keys (a section's band, a prize table's band) are stored
    apart from the configuration the previous release reads, and merge back whole."""
    overrides = {
        "stages": {
            "online": {
                "sections": {
                    "men-free": {
                        "rating_band": {"under": 1700},
                        "awards": {
                            "prizes": [{"id": "u16", "name": "U1600", "amounts": [100], "band": {"under": 1600}}]
                        },
                    }
                }
            }
        }
    }
    banded = presets.load("sz-2022", overrides=overrides)
    columns = config_columns(banded.model_dump(mode="json"))
    assert "rating_band" not in str(columns["config"]) and "'band'" not in str(columns["config"])
    assert EventConfig.model_validate(stored_config(SimpleNamespace(**columns))) == banded
