"""The CSV forms of the standings and the cross table (``?format=csv``), written from their JSON
answers (:mod:`pairing.service_layer.queries`): the one place these tables become text (through
the shared writer, which keeps a name from being read as a spreadsheet formula)."""

from __future__ import annotations

from typing import Any

from gomoku_shared.csv_text import csv_text


def number(value: Any) -> str:
    """A number as the tables print it: whole numbers without a decimal point."""
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else f"{value:g}"
    return str(value)


def standings_csv(answer: dict) -> str:
    names = list(answer["order"][1:])
    header = [
        "place",
        "shared",
        "entrant_id",
        "name",
        "gender",
        "gender_place",
        "unit",
        "points",
        *names,
        "wins",
        "games_played",
        "decided_by",
    ]
    rows = (
        [
            row["place"],
            int(row["shared"]),
            row["entrant_id"],
            row["name"],
            row["gender"] or "",
            row["gender_place"] or "",
            row["unit"] or "",
            number(row["points"]),
            *[number(row["tiebreaks"].get(name, "")) for name in names],
            row["wins"],
            row["games_played"],
            row["decided_by"] or "",
        ]
        for row in answer["standings"]
    )
    return csv_text(header, rows)


def crosstable_csv(answer: dict) -> str:
    """One line per player: place, start number, id, name, points, then ``<opponent><f|s><result>``
    per round (``f``: moved first)."""
    rounds = [f"R{rnd}" for rnd in range(1, answer["rounds"] + 1)]
    rows = []
    for player in answer["players"]:
        cells = []
        for cell in player["rounds"]:
            colour = {"first": "f", "second": "s", None: ""}[cell["colour"]]
            cells.append(f"{cell['opponent'] or ''}{colour}{cell['result'].strip() or '.'}")
        rows.append(
            [
                player["place"] or "",
                player["start_no"],
                player["entrant_id"],
                player["name"],
                number(float(player["points"])),
                *cells,
            ]
        )
    return csv_text(["place", "start_no", "entrant_id", "name", "points", *rounds], rows)
