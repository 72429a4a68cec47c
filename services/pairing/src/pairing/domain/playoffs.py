"""Ties that matter (PAIR-8): which shared places need a playoff or an arbiter's decision."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from .ranking import StandingRow

PLAYOFF = "playoff"
ARBITER = "arbiter"


@dataclass(frozen=True)
class TieGroup:
    places: tuple[int, ...]  # the places the tied entries share, e.g. (4, 5)
    ids: tuple[int, ...]  # tied players (or teams), in listed order
    action: str  # PLAYOFF, or ARBITER where the section forbids playoffs


def ties_needing_decision(
    rows: Sequence[StandingRow], decisive_places: Iterable[int], playoffs_allowed: bool = True
) -> list[TieGroup]:
    """Tie groups touching a place that wins a medal, prize or qualification.

    Every other tie stays a shared place. Where playoffs are forbidden (SZ online) the group
    is flagged for the arbiter instead.
    """
    decisive = set(decisive_places)
    groups: dict[int, list[StandingRow]] = {}
    for row in rows:
        if row.shared:
            groups.setdefault(row.place, []).append(row)
    out = []
    for place, members in sorted(groups.items()):
        places = tuple(range(place, members[0].place_to + 1))
        if decisive.intersection(places):
            out.append(TieGroup(places, tuple(m.id for m in members), PLAYOFF if playoffs_allowed else ARBITER))
    return out


def apply_playoff(rows: Sequence[StandingRow], group: TieGroup, finishing_order: Sequence[int]) -> list[StandingRow]:
    """Fold a playoff (or arbiter decision) into the order: the group's places are given out
    in ``finishing_order``; a sub-list entry (tuple) keeps those ids sharing places."""
    flat: list[tuple[int, ...]] = [tuple(x) if isinstance(x, (tuple, list)) else (x,) for x in finishing_order]
    ids = [i for grp in flat for i in grp]
    if sorted(ids) != sorted(group.ids):
        raise ValueError(f"playoff order {ids} must list exactly the tied ids {sorted(group.ids)}")
    by_id = {r.id: r for r in rows}
    new_rows = {}
    place = group.places[0]
    for grp in flat:
        for pid in grp:
            new_rows[pid] = replace(by_id[pid], place=place, place_to=place + len(grp) - 1)
        place += len(grp)
    out = [new_rows.get(r.id, r) for r in rows]
    return sorted(out, key=lambda r: (r.place, ids.index(r.id) if r.id in new_rows else 0, r.id))
