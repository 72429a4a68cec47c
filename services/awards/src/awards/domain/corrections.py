"""AWD-8 corrections: what changed between two award results, so a republication can be
marked as superseding the previous one and only the affected people be told."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import TypeVar

from .section import EntrantAwards, SectionAwards

ItemT = TypeVar("ItemT")

_COMPARED = ("place", "shared_place", "items", "finisher_items", "prizes", "title")


@dataclass(frozen=True)
class EntrantChange:
    entrant_id: str
    name: str
    before: EntrantAwards | None
    after: EntrantAwards | None
    #: field names that differ ("added" / "removed" when one side is missing)
    fields: tuple[str, ...]


@dataclass(frozen=True)
class AwardsDiff:
    section_id: str
    cancelled_before: bool
    cancelled_after: bool
    entrants: tuple[EntrantChange, ...]

    @property
    def changed(self) -> bool:
        return bool(self.entrants) or self.cancelled_before != self.cancelled_after


def compare_section_awards(old: SectionAwards, new: SectionAwards) -> AwardsDiff:
    """Entrant-level differences between two results of the same section.

    Prize lines are compared as a whole (table, rank, amount, sharing), so a changed
    split shows up as ``prizes``.
    """
    if old.section_id != new.section_id:
        raise ValueError("comparing different sections")
    before = {e.entrant_id: e for e in old.entrants}
    after = {e.entrant_id: e for e in new.entrants}
    changes: list[EntrantChange] = []
    for entrant_id in list(before) + [i for i in after if i not in before]:
        earlier, later = before.get(entrant_id), after.get(entrant_id)
        if earlier is None and later is not None:
            changes.append(EntrantChange(entrant_id, later.name, None, later, ("added",)))
            continue
        if later is None and earlier is not None:
            changes.append(EntrantChange(entrant_id, earlier.name, earlier, None, ("removed",)))
            continue
        if earlier is None or later is None:  # listed by neither: cannot happen (ids come from both)
            continue
        diff = tuple(name for name in _COMPARED if getattr(earlier, name) != getattr(later, name))
        if diff:
            changes.append(EntrantChange(entrant_id, later.name, earlier, later, diff))
    return AwardsDiff(old.section_id, old.cancelled, new.cancelled, tuple(changes))


@dataclass(frozen=True)
class RowChange:
    key: Hashable
    before: object | None
    after: object | None


def compare_rows(old: Iterable[ItemT], new: Iterable[ItemT], key: Callable[[ItemT], Hashable]) -> tuple[RowChange, ...]:
    """Generic diff for published lists (team ranking, best boards, qualifiers …)."""
    before = {key(r): r for r in old}
    after = {key(r): r for r in new}
    keys = list(before) + [k for k in after if k not in before]
    return tuple(RowChange(k, before.get(k), after.get(k)) for k in keys if before.get(k) != after.get(k))
