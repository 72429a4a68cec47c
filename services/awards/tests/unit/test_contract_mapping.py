"""Contract StandingRow / BoardStat / Entrant → awards domain inputs (section.completed)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from awards_kit import completed, row

from awards.adapters.contract_mapping import board_records, exact, qualified_players, standings_from_contract
from awards.domain import Gender, Qualifier
from gomoku_shared.contracts.common import Entrant
from gomoku_shared.contracts.events import BoardStat


@pytest.mark.parametrize("wire, value", [(12.0, 12), (7.5, Decimal("7.5")), (3, 3), (0.1, Decimal("0.1")), (-2.0, -2)])
def test_wire_floats_become_exact_numbers(wire, value):
    got = exact(wire)
    assert got == value and not isinstance(got, float)


def test_standings_keep_order_tiebreaks_and_fill_from_entrants():
    """Tiebreaks in the section's order, gender / unit / birth date from the entrants, places
    as competition ranking whatever numbering the producer used for a shared place."""
    payload = completed(
        "e",
        "s",
        [
            row(1, "a", points=12, tiebreaks={"wins": 6, "buchholz": 40.5}),
            row(2, "b", points=10, tiebreaks={"buchholz": 38, "wins": 5}),
            row(2, "c", points=10, tiebreaks={"buchholz": 38, "wins": 5}, decided_by="shared"),
            row(3, "d", points=8.5, tiebreaks={"buchholz": 30, "wins": 4}, decided_by="playoff"),
        ],
        entrants=[
            Entrant(entrant_id="a", name="A", gender="female", unit="Haikou", birth_date=date(2012, 3, 4)),
            Entrant(entrant_id="d", name="D", attributes={"withdrawn": True}),
        ],
        tiebreaks=["points", "buchholz", "wins"],
    )
    standings = standings_from_contract(payload, section_gender="male")
    assert [r.place for r in standings.rows] == [1, 2, 2, 4]
    a, b, _, d = standings.rows
    assert a.tiebreaks == (("buchholz", Decimal("40.5")), ("wins", 6))
    assert a.gender is Gender.FEMALE and a.unit_id == a.unit_name == "Haikou" and a.birth_year == 2012
    # issue 27 finding 1: a full date from an older publisher is kept as its year only
    assert payload.entrants[0].birth_date is None
    assert b.gender is Gender.MALE  # from the section's gender rule
    assert d.points == Decimal("8.5") and d.decided_by_playoff and not d.completed


def test_mixed_or_merged_section_without_genders_stays_unknown():
    standings = standings_from_contract(completed("e", "s", [row(1, "a")]), section_gender="mixed")
    assert standings.rows[0].gender is None
    merged = standings_from_contract(
        completed("e", "men-free", [row(1, "a")], rank_by_gender=True), section_gender="male"
    )
    assert merged.rows[0].gender is None and merged.rank_by_gender


def test_board_stats_become_board_records_with_team_names():
    """AWD-7 input: BoardStat → BoardRecord, the team's name from the standings."""
    payload = completed(
        "e",
        "t",
        [row(1, "team-1", name="Beijing"), row(2, "team-2", name="Shanghai")],
        kind="team",
        board_stats=[
            BoardStat(
                entrant_id="team-2",
                player_id="p2",
                name="P2",
                board=1,
                games_played=7,
                board_games=7,
                points=9.0,
                wins=4,
            ),
            BoardStat(
                entrant_id="team-1",
                player_id="p1",
                name="P1",
                board=1,
                games_played=5,
                board_games=7,
                points=10,
                wins=5,
            ),
        ],
    )
    records = board_records(payload)
    assert [(r.player_id, r.team_name, r.points) for r in records] == [("p1", "Beijing", 10), ("p2", "Shanghai", 9)]


def test_qualified_players_carry_entrant_attributes_unit_and_rank():
    """AWD-QUAL: facts other stages need travel with the qualifier."""
    people = qualified_players(
        [Qualifier("a", "A", Gender.FEMALE, 3, 2, 2011, "Futian")],
        [Entrant(entrant_id="a", name="A", attributes={"clause": "sz-residency"})],
    )
    assert people[0].gender == "female" and people[0].place == 3 and people[0].birth_year == 2011
    assert people[0].birth_date is None  # issue 27 finding 1: full dates stay in registration
    assert people[0].attributes == {"clause": "sz-residency", "unit": "Futian", "cohort_rank": 2}
