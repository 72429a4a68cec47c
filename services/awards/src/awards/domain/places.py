"""AWD-1 (what each place receives), AWD-2 (cancelled sections, teams − 1) and AWD-3
(award count by field size)."""

from __future__ import annotations

from dataclasses import dataclass

from .config import AwardCountRule, ConfigError, PlaceAwardsConfig, SharedPlacePolicy
from .model import SectionStandings, StandingRow, TieGroup, tie_groups


def is_cancelled(field_size: int, cancel_if_entries_at_most: int | None) -> bool:
    """AWD-2: a section with ``field_size <= cancel_if_entries_at_most`` is cancelled."""
    return cancel_if_entries_at_most is not None and field_size <= cancel_if_entries_at_most


def award_count(field_size: int, rule: AwardCountRule) -> int:
    """AWD-2/AWD-3: number of places awarded for a field of ``field_size`` entrants.

    Never more than the field itself, never negative.
    """
    matches = [band for band in rule.bands if band.contains(field_size)]
    if not matches:
        raise ConfigError(f"no award band covers a field of {field_size}")
    band = matches[0]
    count = band.places if band.places is not None else field_size - (band.field_minus or 0)
    return max(0, min(count, field_size))


def awarded_places(field_size: int, config: PlaceAwardsConfig) -> int:
    """Places that receive place items: the band count if configured, else the table's
    highest place — capped by the table and the field."""
    limit = config.max_place
    if config.award_count is not None:
        limit = min(limit, award_count(field_size, config.award_count))
    return max(0, min(limit, field_size))


def unresolved_ties(standings: SectionStandings, through_place: int) -> tuple[TieGroup, ...]:
    """PAIR-8 guard: shared places that touch places 1..``through_place``.

    Where the event decides such ties by playoff (DA: every awarded place; NY: medal
    places), standings still holding one are not final — the caller should wait for the
    playoff (or an arbiter) instead of publishing awards. Where the event does not, the
    awards functions share (AWD-4 money split, SharedPlacePolicy for items and titles).
    """
    return tuple(g for g in tie_groups(standings.rows) if g.shared and g.place <= through_place)


def effective_place(group: TieGroup, policy: SharedPlacePolicy) -> int:
    """The place whose items/title a (possibly shared) place group receives."""
    return group.place if policy is SharedPlacePolicy.SHARED_PLACE else group.last_place


@dataclass(frozen=True)
class PlaceAward:
    """AWD-1 outcome for one entrant."""

    entrant_id: str
    name: str
    place: int
    shared_place: bool
    items: tuple[str, ...]
    finisher_items: tuple[str, ...]


def place_awards(standings: SectionStandings, config: PlaceAwardsConfig) -> tuple[PlaceAward, ...]:
    """AWD-1: items per entrant, for every entrant of the section (empty items allowed).

    Places beyond :func:`awarded_places` receive no place items; finishers' items go to
    every entrant with ``completed=True`` (or everyone, per configuration).
    """
    limit = awarded_places(standings.field_size, config)
    result: list[PlaceAward] = []
    for group in tie_groups(standings.rows):
        place = effective_place(group, config.shared_place_policy)
        items = config.items_for(place) if place <= limit else ()
        for row in group.rows:
            result.append(_award(row, group, items, config))
    return tuple(result)


def _award(row: StandingRow, group: TieGroup, items: tuple[str, ...], config: PlaceAwardsConfig) -> PlaceAward:
    return PlaceAward(
        entrant_id=row.entrant_id,
        name=row.name,
        place=row.place,
        shared_place=group.shared,
        items=items,
        finisher_items=config.finisher_items if row.completed or not config.finisher_items_require_completion else (),
    )
