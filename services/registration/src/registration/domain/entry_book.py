"""The entries of one event by id, with the indexes the cap and quota checks read (REG-2, REG-3).

`EntryBook` is a dict (id -> Entry, in submission order) that keeps, on every write, the
entries of each section, how many of them hold a place or wait for one, which players of a
section hold or wait for a place, and the players each unit has in the event. Every write of
an entry goes through `__setitem__` / `__delitem__` (the other mutators are routed there), so
the counts cannot drift from the entries, and a check costs the same with 100 entries or 10,000.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from .model import Entry, EntryStatus


def _holds_or_waits(entry: Entry) -> bool:
    return entry.status.holds_place or entry.status is EntryStatus.WAITLISTED


class EntryBook(dict[str, Entry]):
    """id -> Entry in submission order, indexed by section, (section, player) and unit."""

    def __init__(self, entries: Mapping[str, Entry] | Iterable[tuple[str, Entry]] = ()) -> None:
        super().__init__()
        self._clear_indexes()
        self.update(entries)

    def _clear_indexes(self) -> None:
        self._sections: dict[str, dict[str, Entry]] = {}
        self._held: Counter[str] = Counter()  # section -> entries holding a place
        self._waiting: Counter[str] = Counter()  # section -> waitlisted entries
        self._seats: dict[tuple[str, str], set[str]] = {}  # (section, player) -> Entry.id holding or waiting
        self._unit_players: dict[str, Counter[str]] = {}  # unit -> players of its held places
        self._unit_exempt: dict[str, Counter[str]] = {}  # unit -> quota-exempt players of them

    # ---- the index, kept by every write

    def _note(self, entry: Entry, sign: int) -> None:
        """Count an entry in (sign 1) or out (sign -1) of every index but the section's list."""
        if entry.status.holds_place:
            self._held[entry.section_id] += sign
            if entry.unit_id is not None:
                _count(self._unit_players.setdefault(entry.unit_id, Counter()), entry.person_ids, sign)
                _count(self._unit_exempt.setdefault(entry.unit_id, Counter()), entry.quota_exempt, sign)
        elif entry.status is EntryStatus.WAITLISTED:
            self._waiting[entry.section_id] += sign
        if _holds_or_waits(entry):
            for person_id in entry.person_ids:
                seats = self._seats.setdefault((entry.section_id, person_id), set())
                if sign > 0:
                    seats.add(entry.id)
                else:
                    seats.discard(entry.id)

    def __setitem__(self, entry_id: str, entry: Entry) -> None:
        old = self.get(entry_id)
        if old is not None:
            self._note(old, -1)
        super().__setitem__(entry_id, entry)
        self._note(entry, 1)
        if old is not None and old.section_id != entry.section_id:
            self._sections[old.section_id].pop(entry_id)
            self._resection(entry.section_id)  # keep submission order, as the dict does
        else:
            self._sections.setdefault(entry.section_id, {})[entry_id] = entry

    def __delitem__(self, entry_id: str) -> None:
        old = self[entry_id]
        self._note(old, -1)
        super().__delitem__(entry_id)
        del self._sections[old.section_id][entry_id]

    def _resection(self, section_id: str) -> None:
        self._sections[section_id] = {k: e for k, e in self.items() if e.section_id == section_id}

    # ---- the other mutators of a dict, through the two above

    def update(self, *args: Any, **kwargs: Entry) -> None:
        for entry_id, entry in dict(*args, **kwargs).items():
            self[entry_id] = entry

    def __ior__(self, other: Any) -> EntryBook:  # type: ignore[override,misc]
        self.update(other)
        return self

    def setdefault(self, entry_id: str, default: Entry) -> Entry:
        if entry_id not in self:
            self[entry_id] = default
        return self[entry_id]

    def pop(self, entry_id: str, *default: Any) -> Any:
        if entry_id not in self:
            return dict.pop(self, entry_id, *default)
        entry = self[entry_id]
        del self[entry_id]
        return entry

    def popitem(self) -> tuple[str, Entry]:
        entry_id = next(reversed(self))
        return entry_id, self.pop(entry_id)

    def clear(self) -> None:
        super().clear()
        self._clear_indexes()

    def copy(self) -> EntryBook:
        return EntryBook(self)

    def __reduce__(self) -> tuple[Any, ...]:  # copy / deepcopy / pickle rebuild the index
        return (EntryBook, (dict(self),))

    # ---- queries

    def of_section(self, section_id: str) -> Iterator[Entry]:
        """The section's entries in submission order."""
        return iter(list(self._sections.get(section_id, {}).values()))

    def held(self, section_id: str) -> int:
        return self._held[section_id]

    def waiting(self, section_id: str) -> int:
        return self._waiting[section_id]

    def seats(self, section_id: str, person_id: str) -> set[str]:
        """Ids of the player's entries in the section that hold a place or wait for one."""
        return set(self._seats.get((section_id, person_id), ()))

    def unit_players(self, unit_id: str) -> set[str]:
        return set(self._unit_players.get(unit_id, {}))

    def unit_exempt(self, unit_id: str) -> set[str]:
        return set(self._unit_exempt.get(unit_id, {}))


def _count(counter: Counter[str], person_ids: Iterable[str], sign: int) -> None:
    for person_id in person_ids:
        counter[person_id] += sign
        if counter[person_id] <= 0:
            del counter[person_id]
