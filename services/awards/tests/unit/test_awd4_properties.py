"""AWD-4 invariants on random tie structures (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from awards.domain import (
    Gender,
    PrizeConfig,
    PrizeTable,
    SectionStandings,
    StandingRow,
    section_prizes,
    tie_groups,
)


@st.composite
def standings(draw):
    sizes = draw(st.lists(st.integers(1, 4), min_size=1, max_size=12))
    rows, place = [], 1
    for g, size in enumerate(sizes):
        for k in range(size):
            gender = draw(st.sampled_from([Gender.MALE, Gender.FEMALE]))
            rows.append(StandingRow(f"p{g}-{k}", "x", place, gender=gender))
        place += size
    return SectionStandings("s", "S", tuple(rows))


AMOUNTS = st.lists(st.integers(0, 10**6), min_size=1, max_size=10)


@settings(max_examples=150, deadline=None)
@given(standings(), AMOUNTS)
def test_awd4_split_conserves_money(section, amounts):
    """AWD-4: paid shares + reported remainders = the table's money for the ranks the
    field occupies; every tied player gets the same share; remainder < number tied."""
    table = PrizeTable("Open", tuple(amounts))
    lines = section_prizes(section, PrizeConfig((table,)))
    occupied = min(len(amounts), section.field_size)
    paid = sum(p.amount_fen for p in lines)
    remainders = {(p.rank, p.remainder_fen) for p in lines}
    assert paid + sum(r for _, r in remainders) == sum(amounts[:occupied])
    for group in tie_groups(section.rows):
        shares = {p.amount_fen for p in lines if p.rank == group.place}
        assert len(shares) <= 1
        assert all(r < group.size for rank, r in remainders if rank == group.place)


@settings(max_examples=100, deadline=None)
@given(standings(), AMOUNTS, AMOUNTS)
def test_awd4_combinable_womens_table_only_pays_women(section, overall, women):
    """AWD-4: the women's table pays women only, and combinability never changes the
    overall table's lines."""
    cfg = PrizeConfig((PrizeTable("Open", tuple(overall)), PrizeTable("Women", tuple(women), gender=Gender.FEMALE)))
    genders = {r.entrant_id: r.gender for r in section.rows}
    lines = section_prizes(section, cfg)
    assert all(genders[p.entrant_id] is Gender.FEMALE for p in lines if p.table == "Women")
    alone = section_prizes(section, PrizeConfig((PrizeTable("Open", tuple(overall)),)))
    assert [p for p in lines if p.table == "Open"] == list(alone)
