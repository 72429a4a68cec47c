"""AWD-4: prize money — DA tables, combinable women's prizes, shared places."""

from __future__ import annotations

import pytest

from awards.domain import (
    Gender,
    PrizeConfig,
    PrizeTable,
    compute_section_awards,
    format_fen,
    section_prizes,
    split_fen,
    total_by_entrant,
    yuan,
)

M, F = Gender.MALE, Gender.FEMALE

DA_TABLES = {
    "Open": [10000, 6000, 5000, 4000, 4000, 4000, 4000, 3000],
    "Junior": [7000, 5000, 4000, 3000, 3000, 3000, 3000, 2000],
    "Public": [5000, 4000, 3000, 2000, 2000, 2000, 2000, 2000],
}


@pytest.mark.parametrize("cfg_name, table", [("DA_OPEN", "Open"), ("DA_JUNIOR", "Junior"), ("DA_PUBLIC", "Public")])
def test_awd4_da_tables_by_place(seed, section, ranked_rows, cfg_name, table):
    """AWD-4: DA money by place 1..8 (all-male field, so no women's prizes)."""
    standings = section(ranked_rows(10, gender=M), getattr(seed, cfg_name).section_id)
    totals = total_by_entrant(section_prizes(standings, getattr(seed, cfg_name).prizes))
    assert [totals.get(f"p{i}", 0) for i in range(1, 11)] == [yuan(a) for a in DA_TABLES[table]] + [0, 0]


def test_awd4_woman_in_overall_top8_gets_both_prizes(seed, section):
    """AWD-4 兼得: a woman 2nd overall (1st among women) gets 6000 + 2000; the next women
    get the 2nd and 3rd women's prizes, one of them also inside the top 8."""
    spec = [
        ("m1", 1, M),
        ("w1", 2, F),
        ("m2", 3, M),
        ("m3", 4, M),
        ("m4", 5, M),
        ("m5", 6, M),
        ("w2", 7, F),
        ("m6", 8, M),
        ("m7", 9, M),
        ("w3", 10, F),
        ("w4", 11, F),
    ]
    awards = compute_section_awards(section(spec, "da-open"), seed.DA_OPEN)
    assert awards.entrant("w1").prize_total_fen == yuan(6000 + 2000)
    assert [(p.table, p.rank) for p in awards.entrant("w1").prizes] == [("Open", 2), ("Open women", 1)]
    assert awards.entrant("w2").prize_total_fen == yuan(4000 + 1000)
    assert awards.entrant("w3").prize_total_fen == yuan(1000)
    assert awards.entrant("w4").prize_total_fen == 0
    assert awards.entrant("m1").prize_total_fen == yuan(10000)


def test_awd4_not_combinable_passes_womens_prize_down(section):
    """AWD-4 (configurable): without 兼得, overall winners are skipped in the women's table."""
    cfg = PrizeConfig(
        (PrizeTable.from_yuan("Open", [100, 50]), PrizeTable.from_yuan("Women", [20, 10], gender=F, combinable=False))
    )
    spec = [("w1", 1, F), ("m1", 2, M), ("w2", 3, F), ("w3", 4, F)]
    totals = total_by_entrant(section_prizes(section(spec), cfg))
    assert totals == {"w1": yuan(100), "m1": yuan(50), "w2": yuan(20), "w3": yuan(10)}


def test_awd4_junior_girls_table(seed, section):
    """AWD-4: DA junior girls 1500, 1000, 500, 500, 500 by rank among girls."""
    spec = [(f"g{i}", i, F) for i in range(1, 7)]
    lines = [p for p in section_prizes(section(spec, "da-junior"), seed.DA_JUNIOR.prizes) if p.table == "Junior girls"]
    assert [(p.entrant_id, p.amount_fen) for p in lines] == [
        ("g1", yuan(1500)),
        ("g2", yuan(1000)),
        ("g3", yuan(500)),
        ("g4", yuan(500)),
        ("g5", yuan(500)),
    ]


def test_awd4_two_way_tie_on_prize_places(seed, section, ranked_rows):
    """AWD-4 Decision: two tied at 2nd share (6000 + 5000) ÷ 2 = 5500 each; 4th unchanged."""
    spec = [("p1", 1, M), ("a", 2, M), ("b", 2, M)] + [(f"p{i}", i, M) for i in range(4, 10)]
    awards = compute_section_awards(section(spec, "da-open"), seed.DA_OPEN)
    for who in ("a", "b"):
        line = awards.entrant(who).prizes[0]
        assert line.amount_fen == yuan(5500) and line.tied_ranks == (2, 3) and line.remainder_fen == 0
    assert awards.entrant("a").prizes[0].shared_with == ("b",)
    assert awards.entrant("p4").prize_total_fen == yuan(4000)


def test_awd4_three_way_tie_uneven_split_rounds_down_to_the_fen(section):
    """AWD-4: 10000 + 6000 + 5000 = 21000 ÷ 3 = 7000 exactly; 10000 ÷ 3 → 3333.33 each,
    0.01 left undistributed and reported."""
    spec = [("a", 1), ("b", 1), ("c", 1), ("d", 4)]
    even = PrizeConfig((PrizeTable.from_yuan("Open", [10000, 6000, 5000, 4000]),))
    assert total_by_entrant(section_prizes(section(spec), even)) == {
        "a": yuan(7000),
        "b": yuan(7000),
        "c": yuan(7000),
        "d": yuan(4000),
    }
    uneven = PrizeConfig((PrizeTable.from_yuan("Open", [10000]),))
    lines = section_prizes(section(spec), uneven)
    assert [format_fen(p.amount_fen) for p in lines] == ["3333.33"] * 3
    assert {p.remainder_fen for p in lines} == {1}
    assert sum(p.amount_fen for p in lines) + lines[0].remainder_fen == yuan(10000)


def test_awd4_tie_straddling_last_prize_place(seed, section):
    """AWD-4: two tied at 8th (occupying 8–9) share 3000 + 0 → 1500 each."""
    spec = [(f"p{i}", i, M) for i in range(1, 8)] + [("a", 8, M), ("b", 8, M), ("z", 10, M)]
    awards = compute_section_awards(section(spec, "da-open"), seed.DA_OPEN)
    assert awards.entrant("a").prize_total_fen == awards.entrant("b").prize_total_fen == yuan(1500)
    assert awards.entrant("z").prize_total_fen == 0


def test_awd4_tie_among_women_splits_womens_prize(seed, section):
    """AWD-4: two women tied for 2nd among women share (1000 + 1000) ÷ 2; a woman tied
    for 3rd among women beyond the 3-prize table gets nothing."""
    spec = (
        [("w1", 1, F), ("m1", 2, M)]
        + [(f"m{i}", i, M) for i in range(3, 10)]
        + [("w2", 10, F), ("w3", 10, F), ("w4", 12, F)]
    )
    lines = [p for p in section_prizes(section(spec, "da-open"), seed.DA_OPEN.prizes) if p.table == "Open women"]
    assert [(p.entrant_id, p.rank, p.amount_fen) for p in lines] == [
        ("w1", 1, yuan(2000)),
        ("w2", 2, yuan(1000)),
        ("w3", 2, yuan(1000)),
    ]


def test_awd4_playoff_decided_places_are_paid_by_rank(section):
    """AWD-4: a tie separated by a playoff arrives as distinct places — no sharing."""
    from awards.domain import SectionStandings, StandingRow

    rows = (StandingRow("a", "A", 1, points=10), StandingRow("b", "B", 2, points=10, decided_by_playoff=True))
    cfg = PrizeConfig((PrizeTable.from_yuan("Open", [10000, 6000]),))
    assert total_by_entrant(section_prizes(SectionStandings("s", "S", rows), cfg)) == {
        "a": yuan(10000),
        "b": yuan(6000),
    }


@pytest.mark.parametrize("amount, fen", [(10000, 1000000), ("0.01", 1), ("1500.5", 150050)])
def test_awd4_money_is_exact_fen(amount, fen):
    """AWD-4: yuan → integer fen; floats and sub-fen amounts are refused."""
    assert yuan(amount) == fen
    with pytest.raises(TypeError):
        yuan(1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        yuan("0.001")
    assert split_fen(100, 3) == (33, 1)


def test_awd4_pair8_unresolved_ties_on_playoff_places(section):
    """AWD-4 + PAIR-8: a shared place touching places the event settles by playoff is
    reported so that awards wait for the playoff; ties below it are not."""
    from awards.domain import unresolved_ties

    standings = section([("a", 1), ("b", 2), ("c", 2), ("d", 4), ("e", 5), ("f", 5)])
    assert [g.place for g in unresolved_ties(standings, 3)] == [2]
    assert [g.place for g in unresolved_ties(standings, 8)] == [2, 5]
    assert unresolved_ties(standings, 1) == ()
