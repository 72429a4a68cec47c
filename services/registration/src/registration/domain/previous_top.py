"""REG-16 (NY 七(三): 2021 年各组前8名的棋手报名不受名额限制): the list a quota exemption refers to —
the previous edition's final places by section, as the organiser loaded them — and whether a
player is on it. A claim only exempts a player the list names, placed within the event's top N
(`units.quota_exempt_previous_top`); any other claim counts in the quota."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from gomoku_shared.event_config import place_key

from .model import Person


@dataclass(frozen=True)
class ListedPlayer:
    """One line of the previous edition's final standings."""

    #: the previous edition's section, as its results name it (e.g. junior-male)
    section: str
    place: int
    name: str
    birth_date: date | None = None
    #: the keyed index of its ID number (the service's blind index: equal numbers, equal keys)
    id_key: str | None = None
    #: a line of the federation's record (issue 32): the registry person placed, matched by it alone
    registry_id: str | None = None
    #: the edition of a recorded line (a year), where it differs from the list's
    edition: str | None = None

    def names(self, person: Person, id_key: str | None, registry_id: str | None = None) -> bool:
        """Whether this line is `person` (whose ID number's keyed index is `id_key`): a recorded
        line by the registry person; else by the ID number where both have one (the strongest
        identifier: an equal name proves nothing, a different one is a typing difference at
        most), else by the name as written and the birth date together."""
        if self.registry_id is not None:
            return self.registry_id == registry_id
        if self.id_key is not None and id_key is not None:
            return self.id_key == id_key
        return (
            self.birth_date is not None
            and self.birth_date == person.birth_date
            and place_key(self.name) == place_key(person.name)
        )


@dataclass(frozen=True)
class PreviousTop:
    """The loaded list: which edition it is (e.g. "2021") and its lines."""

    edition: str
    players: tuple[ListedPlayer, ...]

    def place_of(
        self, person: Person, top: int, id_key: str | None = None, registry_id: str | None = None
    ) -> ListedPlayer | None:
        """The player's best line within the top `top`, or None."""
        found = [p for p in self.players if p.place <= top and p.names(person, id_key, registry_id)]
        return min(found, key=lambda p: (p.place, p.section), default=None)
