"""AWD-5: dan/kyu titles (段级位) by place, not carried down (不顺延).

A title belongs to a place, not to "the n-th player awarded": if nobody holds a place
(because a tie above took it), that place's title is simply not given and nobody below
moves up. Shared places follow the table's :class:`SharedPlacePolicy`.
"""

from __future__ import annotations

from dataclasses import dataclass

from .config import TitleTable
from .model import SectionStandings, tie_groups
from .places import effective_place


@dataclass(frozen=True)
class TitleAward:
    entrant_id: str
    name: str
    place: int
    title: str
    shared_place: bool = False


def section_titles(standings: SectionStandings, table: TitleTable) -> tuple[TitleAward, ...]:
    """Titles earned in the section, in place order; places without a title yield none."""
    awards: list[TitleAward] = []
    for group in tie_groups(standings.rows):
        title = table.title_for(effective_place(group, table.shared_place_policy))
        if title is None:
            continue
        for row in group.rows:
            awards.append(TitleAward(row.entrant_id, row.name, row.place, title, group.shared))
    return tuple(awards)
