"""AWD-5: dan/kyu titles by place, not carried down (不顺延)."""

from __future__ import annotations

import pytest

from awards.domain import SharedPlacePolicy, TitleTable, compute_section_awards, section_titles

EXPECTED = {
    1: "2-dan",
    2: "1-dan",
    3: "1-dan",
    **{p: "1-kyu" for p in (4, 5, 6)},
    **{p: "2-kyu" for p in range(7, 11)},
    **{p: "3-kyu" for p in range(11, 15)},
    **{p: "4-kyu" for p in range(15, 19)},
    **{p: "5-kyu" for p in range(19, 23)},
    **{p: "6-kyu" for p in range(23, 27)},
}


@pytest.mark.parametrize("place", range(1, 31))
def test_awd5_da_junior_title_table(seed, place):
    """AWD-5 DA junior: 1st 2-dan; 2–3 1-dan; 4–6 1-kyu; 7–10 2-kyu; 11–14 3-kyu;
    15–18 4-kyu; 19–22 5-kyu; 23–26 6-kyu; none beyond 26."""
    assert seed.DA_JUNIOR_TITLES.title_for(place) == EXPECTED.get(place)


def test_awd5_full_section_places_1_to_26_and_none_beyond(seed, section, ranked_rows):
    """AWD-5: in a 30-player junior section exactly places 1–26 get a title."""
    awards = compute_section_awards(section(ranked_rows(30), "da-junior"), seed.DA_JUNIOR)
    got = {e.place: e.title for e in awards.entrants}
    assert got == {p: EXPECTED.get(p) for p in range(1, 31)}
    assert len(awards.titles) == 26


def test_awd5_not_carried_down_past_a_shared_place(seed, section):
    """AWD-5 不顺延: two tied at 2nd (3rd place empty) both get 1-dan; the next player is 4th
    and gets 1-kyu — the 3rd-place 1-dan is not passed down."""
    spec = [("a", 1), ("b", 2), ("c", 2), ("d", 4), ("e", 5)]
    got = {t.entrant_id: t.title for t in section_titles(section(spec), seed.DA_JUNIOR_TITLES)}
    assert got == {"a": "2-dan", "b": "1-dan", "c": "1-dan", "d": "1-kyu", "e": "1-kyu"}


def test_awd5_tie_across_band_boundary(seed, section):
    """AWD-5 Decision: a tie at 26th (occupying 26–27) → both 6-kyu by default; none under
    WORST_OCCUPIED. Nobody at 27+ gets a title either way."""
    spec = [(f"p{i}", i) for i in range(1, 26)] + [("a", 26), ("b", 26), ("z", 28)]
    default = {t.entrant_id: t.title for t in section_titles(section(spec), seed.DA_JUNIOR_TITLES)}
    assert default["a"] == default["b"] == "6-kyu" and "z" not in default
    strict = TitleTable(seed.DA_JUNIOR_TITLES.bands, SharedPlacePolicy.WORST_OCCUPIED)
    got = {t.entrant_id: t.title for t in section_titles(section(spec), strict)}
    assert "a" not in got and "b" not in got and got["p25"] == "6-kyu"


def test_awd5_small_field_leaves_lower_titles_unawarded(seed, section, ranked_rows):
    """AWD-5: with 5 juniors only places 1–5 earn titles; nothing is created for empty places."""
    titles = section_titles(section(ranked_rows(5)), seed.DA_JUNIOR_TITLES)
    assert [t.title for t in titles] == ["2-dan", "1-dan", "1-dan", "1-kyu", "1-kyu"]


def test_awd5_no_titles_outside_the_configured_section(seed, section, ranked_rows):
    """AWD-5: DA open has no title table → no titles."""
    awards = compute_section_awards(section(ranked_rows(10), "da-open"), seed.DA_OPEN)
    assert awards.titles == () and all(e.title is None for e in awards.entrants)
