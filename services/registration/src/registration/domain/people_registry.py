"""Issue 32: the registry of people of an organisation — the rules of its staff actions (pure).

A registry person stands for one human in the organisation's events, whichever partner app (or
the public form, or staff) registered them: event people with the same ID number are linked to
one registry person. Staff join two registry people that are one human (a merge: the other one
is then "merged into" the one kept, with whatever was merged into it), undo a merge, and split an
event person out of a registry person it was linked to by mistake (a new registry person). A
merge is undone by undoing it; a split by merging the new person back. Each of these actions
names a reason and is kept in the audit with who did it and when.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gomoku_shared.errors import Conflict, NotFound


@dataclass(frozen=True)
class RegistryPerson:
    """A registry person as the rules need it (personal data stays in the adapters)."""

    id: str
    organisation: str
    merged_into: str | None = None

    @property
    def is_merged(self) -> bool:
        return self.merged_into is not None


def unknown_person(person_id: str) -> NotFound:
    return NotFound("unknown_registry_person", f"no person {person_id!r} in this organisation's registry")


def check_acts_on(person: RegistryPerson) -> None:
    """Staff act on a person that is not merged into another (the one it was merged into stands
    for both): 409 ``registry_person_merged`` naming that one."""
    if person.merged_into is not None:
        raise Conflict(
            "registry_person_merged",
            f"{person.id} was merged into {person.merged_into}: act on that person",
            {"merged_into": person.merged_into},
        )


def check_merge(kept: RegistryPerson, other: RegistryPerson) -> None:
    """Two different people, neither merged into someone else (a merge never makes a chain)."""
    if kept.id == other.id:
        raise Conflict("merge_same_person", "a person cannot be merged with themselves")
    check_acts_on(kept)
    check_acts_on(other)


def check_unmerge(root: RegistryPerson, merged: RegistryPerson) -> None:
    """Undoing a merge: ``merged`` must be merged into ``root`` (directly, or along with a person
    that was)."""
    check_acts_on(root)
    if merged.merged_into != root.id:
        raise Conflict("not_merged_here", f"{merged.id} is not merged into {root.id}", {"person_id": merged.id})


def check_split(root: RegistryPerson, linked: Sequence[tuple[str, str]], event_person: tuple[str, str]) -> None:
    """Splitting one event person (event code, person id) out of ``root``: it must be one of the
    event people ``linked`` to it (404 ``unknown_player`` otherwise), and not the only one (the
    split would leave an empty person behind: 409 ``nothing_to_split``)."""
    check_acts_on(root)
    if event_person not in set(linked):
        raise NotFound("unknown_player", f"no player {event_person[1]!r} of {event_person[0]!r} in {root.id}")
    if len(set(linked)) == 1:
        raise Conflict("nothing_to_split", f"{event_person[1]} is the only event record of {root.id}")


def roots(links: dict[str, str], merged_into: dict[str, str | None]) -> dict[str, str]:
    """Each event person's registry person as it stands: the one it is linked to, or the one that
    was merged into (``merged_into`` always names a person not merged itself)."""
    return {key: merged_into.get(rid) or rid for key, rid in links.items()}
