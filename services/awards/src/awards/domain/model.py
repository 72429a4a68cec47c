"""Input value types: final standings of a section, as the pairing service reports them.

Everything here is plain data. Numbers that can be fractional (points, tiebreak values)
are ``Decimal`` (``int`` is accepted); floats are refused so that money and ranking
arithmetic stays exact.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from typing import Literal

Number = Decimal | int


class Gender(StrEnum):
    """Same spelling as the shared contracts (``"male"`` / ``"female"``)."""

    MALE = "male"
    FEMALE = "female"


class StandingsError(ValueError):
    """The standings handed to the awards domain are not internally consistent."""


def _exact(value: object, what: str) -> None:
    if isinstance(value, float):
        raise TypeError(f"{what} must be Decimal or int, not float ({value!r})")


@dataclass(frozen=True)
class StandingRow:
    """One entrant's final line in a section (an individual player or a team).

    ``place`` uses competition ranking: tied entrants share the same place and the next
    place number(s) are skipped (1, 2, 2, 4). A shared place means the tie was left
    standing (no playoff); ``decided_by_playoff`` marks a place that *was* separated by a
    playoff (PAIR-8) — informational, the places are then distinct.
    """

    entrant_id: str
    name: str
    place: int
    points: Number = 0
    #: tiebreak values in the section's order, as (name, value) pairs
    tiebreaks: tuple[tuple[str, Number], ...] = ()
    wins: int = 0
    games_played: int = 0
    gender: Gender | None = None
    #: the unit (club, province, school …) the entrant represents; None = individual entry
    unit_id: str | None = None
    unit_name: str | None = None
    #: year of birth (full birth dates stay in registration)
    birth_year: int | None = None
    decided_by_playoff: bool = False
    #: False for an entrant who withdrew before the end (no finisher's items)
    completed: bool = True
    #: issue 32: the published rating registration carried at section close (None: unrated)
    rating: int | None = None

    def __post_init__(self) -> None:
        if self.place < 1:
            raise StandingsError(f"{self.entrant_id}: place must be >= 1, got {self.place}")
        _exact(self.points, f"{self.entrant_id}: points")
        for name, value in self.tiebreaks:
            _exact(value, f"{self.entrant_id}: tiebreak {name}")


@dataclass(frozen=True)
class SectionStandings:
    """Final standings of one section (``section.completed``)."""

    section_id: str
    name: str
    rows: tuple[StandingRow, ...]
    kind: Literal["individual", "team"] = "individual"
    #: REG-12: sections folded into this one (informational)
    merged_from: tuple[str, ...] = ()
    #: REG-12: a merged section ranks each gender separately for qualification
    rank_by_gender: bool = False

    def __post_init__(self) -> None:
        validate_places(self.rows)

    @property
    def field_size(self) -> int:
        return len(self.rows)


@dataclass(frozen=True)
class TieGroup:
    """Entrants sharing one place; they *occupy* places ``place .. place + size - 1``."""

    place: int
    rows: tuple[StandingRow, ...] = field(default=())

    @property
    def size(self) -> int:
        return len(self.rows)

    @property
    def last_place(self) -> int:
        return self.place + self.size - 1

    @property
    def shared(self) -> bool:
        return self.size > 1


def validate_places(rows: tuple[StandingRow, ...]) -> None:
    """Rows must be in place order, ids unique, and places in competition ranking."""
    seen: set[str] = set()
    for index, row in enumerate(rows):
        if row.entrant_id in seen:
            raise StandingsError(f"duplicate entrant {row.entrant_id}")
        seen.add(row.entrant_id)
        if index and row.place < rows[index - 1].place:
            raise StandingsError("rows must be sorted by place")
        expected = 1 + sum(1 for other in rows[:index] if other.place < row.place)
        if row.place != expected:
            raise StandingsError(
                f"{row.entrant_id}: place {row.place} should be {expected} "
                "(shared places skip the following numbers: 1, 2, 2, 4)"
            )


def tie_groups(rows: tuple[StandingRow, ...] | list[StandingRow]) -> tuple[TieGroup, ...]:
    """Group rows (already in place order) by equal place."""
    groups: list[TieGroup] = []
    for row in rows:
        if groups and groups[-1].place == row.place:
            groups[-1] = TieGroup(row.place, groups[-1].rows + (row,))
        else:
            groups.append(TieGroup(row.place, (row,)))
    return tuple(groups)


def rank_within(rows: tuple[StandingRow, ...] | list[StandingRow]) -> tuple[TieGroup, ...]:
    """Re-rank a subset (e.g. the women of a mixed section) by their section places.

    The returned groups carry the *rank inside the subset* as ``place`` (competition
    ranking again), while each row keeps its section place.
    """
    groups: list[TieGroup] = []
    count = 0
    for row in rows:
        if groups and groups[-1].rows[-1].place == row.place:
            groups[-1] = TieGroup(groups[-1].place, groups[-1].rows + (row,))
        else:
            groups.append(TieGroup(count + 1, (row,)))
        count += 1
    return tuple(groups)
