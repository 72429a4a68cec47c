"""AWD-8 / PAIR-7: the CSV forms of the standings and the cross table (?format=csv), written from
their JSON answers by pairing.entrypoints.csv_answers (the only CSV writer of the service)."""

import csv
import io

from pairing.entrypoints.csv_answers import crosstable_csv, number, standings_csv


def _row(place, entrant_id, points, buchholz, **extra):
    row = {
        "place": place,
        "shared": False,
        "entrant_id": entrant_id,
        "name": entrant_id.upper(),
        "gender": None,
        "gender_place": None,
        "unit": None,
        "points": points,
        "tiebreaks": {"buchholz": buchholz},
        "wins": 1,
        "games_played": 2,
        "decided_by": None,
    }
    return {**row, **extra}


def test_pair7_standings_csv_has_every_configured_criterion_by_name():
    answer = {
        "order": ["points", "buchholz"],
        "standings": [_row(1, "a", 3.0, 2.5, shared=True, decided_by="shared"), _row(1, "b", 3.0, 2.5, shared=True)],
    }
    rows = list(csv.reader(io.StringIO(standings_csv(answer))))
    assert rows[0] == [
        "place",
        "shared",
        "entrant_id",
        "name",
        "gender",
        "gender_place",
        "unit",
        "points",
        "buchholz",
        "wins",
        "games_played",
        "decided_by",
    ]
    assert rows[1] == ["1", "1", "a", "A", "", "", "", "3", "2.5", "1", "2", "shared"]
    assert len(rows) == 3


def test_crosstable_csv_cells_name_opponent_colour_and_result():
    answer = {
        "rounds": 2,
        "players": [
            {
                "place": 1,
                "start_no": 1,
                "entrant_id": "a",
                "name": "A",
                "points": 3,
                "rounds": [
                    {"round": 1, "opponent": "b", "colour": "first", "result": "1", "points": 2},
                    {"round": 2, "opponent": None, "colour": None, "result": " ", "points": 0},
                ],
            }
        ],
    }
    lines = crosstable_csv(answer).splitlines()
    assert lines == ["place,start_no,entrant_id,name,points,R1,R2", "1,1,a,A,3,bf1,."]


def test_numbers_print_without_a_needless_decimal_point():
    assert (number(3.0), number(2.5), number(7), number("")) == ("3", "2.5", "7", "")
