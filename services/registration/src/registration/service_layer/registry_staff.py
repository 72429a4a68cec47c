"""Issue 32: the staff actions on the registry of people — merge two registry people that are one
human, undo a merge, split an event person out of a registry person, correct a person's details,
export a person's data — each in one transaction, audited (who, when, why, what moved).

``merged_into`` always names a person that is not merged itself: a merge moves the people merged
into the other one along with it (the audit keeps which), and undoing it moves them back.
"""

from __future__ import annotations

from typing import Any

from gomoku_shared.auth import Principal
from gomoku_shared.contracts.season_events import EventPerson, PeopleMerged, PeopleSplit

from ..adapters.registry_repository import registry_id_for
from ..domain.people_registry import RegistryPerson, check_acts_on, check_merge, check_split, check_unmerge
from . import forms as s
from . import registry_reads as reads
from .actors import actor_ref
from .unit_of_work import RegistrationUnitOfWork


def _person(row: Any) -> RegistryPerson:
    return RegistryPerson(row.id, row.organisation, row.merged_into)


async def _locked(uow: RegistrationUnitOfWork, org: str, *ids: str) -> dict[str, Any]:
    """The people, locked in the order of their ids (two actions on the same two people never
    wait for each other crosswise)."""
    return {pid: await reads.person_row(uow, org, pid, lock=True) for pid in sorted(set(ids))}


async def _audit(
    uow: RegistrationUnitOfWork,
    principal: Principal,
    org: str,
    action: str,
    person_id: str,
    other_id: str | None,
    details: dict[str, Any],
    reason: str,
) -> None:
    await uow.registry.add_audit(
        organisation=org,
        action=action,
        person_id=person_id,
        other_id=other_id,
        details=details,
        reason=reason,
        at=uow.clock.now(),
        by=actor_ref(principal),
    )


async def merge(
    uow: RegistrationUnitOfWork, principal: Principal, org: str, person_id: str, body: s.MergeIn
) -> dict[str, Any]:
    """``body.person_id`` merged into ``person_id`` (kept), with whoever was merged into it."""
    reads.check_manages_people(principal, org)
    rows = await _locked(uow, org, person_id, body.person_id)
    kept, other = rows[person_id], rows[body.person_id]
    check_merge(_person(kept), _person(other))
    moved = [row.id for row in await uow.registry.merged_into([other.id])]
    await uow.registry.set_merged([other.id, *moved], kept.id)
    await _audit(uow, principal, org, "merge", kept.id, other.id, {"moved": moved}, body.reason)
    # issue 32: awards re-keys the merged people's grants and games (ADR 0012)
    merged = PeopleMerged(organisation=org, person_id=kept.id, merged_ids=[other.id, *moved], at=uow.clock.now())
    uow.emit(merged, correlation_id=f"registry:{org}")
    return await reads.person_view(uow, uow.protector, org, kept.id)


async def split(
    uow: RegistrationUnitOfWork, principal: Principal, org: str, person_id: str, body: s.SplitIn
) -> dict[str, Any]:
    """Undo the merge of ``body.person_id`` into ``person_id``, or split the event person
    (``body.event_code``, ``body.player_id``) out of it into a new registry person."""
    reads.check_manages_people(principal, org)
    if body.person_id is not None:
        other = await _unmerge(uow, principal, org, person_id, body.person_id, body.reason)
    else:
        assert body.event_code is not None and body.player_id is not None  # SplitIn checks it
        other = await _split_out(uow, principal, org, person_id, (body.event_code, body.player_id), body.reason)
    return {
        "person": await reads.person_view(uow, uow.protector, org, person_id),
        "split_off": await reads.person_view(uow, uow.protector, org, other),
    }


async def _unmerge(
    uow: RegistrationUnitOfWork, principal: Principal, org: str, root_id: str, merged_id: str, reason: str
) -> str:
    rows = await _locked(uow, org, root_id, merged_id)
    root, merged = rows[root_id], rows[merged_id]
    check_unmerge(_person(root), _person(merged))
    last = await uow.registry.last_merge(merged.id)
    moved_then = set(last.details.get("moved", [])) if last is not None else set()
    back = [row.id for row in await uow.registry.merged_into([root.id]) if row.id in moved_then]
    await uow.registry.set_merged([merged.id], None)
    await uow.registry.set_merged(back, merged.id)
    await _audit(uow, principal, org, "unmerge", root.id, merged.id, {"moved": back}, reason)
    # issue 32: the event people linked to the people moved back are theirs again in awards
    players = [(link.event_code, link.person_id) for link in await uow.registry.links_of([merged.id, *back])]
    _emit_split(uow, org, root.id, merged.id, players)
    return merged.id


async def _split_out(
    uow: RegistrationUnitOfWork, principal: Principal, org: str, root_id: str, key: tuple[str, str], reason: str
) -> str:
    root = (await _locked(uow, org, root_id))[root_id]
    group = [root.id, *(row.id for row in await uow.registry.merged_into([root.id]))]
    links = {(link.event_code, link.person_id): link.registry_id for link in await uow.registry.links_of(group)}
    check_split(_person(root), list(links), key)
    (row,) = await uow.registry.event_people([key])
    # the ID number stays with the registry person that holds it (it is unique in the registry):
    # the new person keeps it only when nobody does
    held = row.id_number_index is not None and await uow.registry.by_index(org, [row.id_number_index]) is not None
    new_id = registry_id_for(org, key[0], key[1], links[key])
    made = await uow.registry.create_from(org, new_id, row, uow.clock.now(), with_id_number=not held)
    if made is None:
        raise RuntimeError("the split person's ID number was taken meanwhile")
    await uow.registry.relink(key[0], key[1], new_id)
    details = {"event_code": key[0], "player_id": key[1], "linked_to": links[key]}
    await _audit(uow, principal, org, "split", root.id, new_id, details, reason)
    _emit_split(uow, org, root.id, new_id, [key])
    return new_id


def _emit_split(
    uow: RegistrationUnitOfWork, org: str, person_id: str, split_off: str, players: list[tuple[str, str]]
) -> None:
    """people.split: awards moves these event people's grants and games to ``split_off``."""
    payload = PeopleSplit(
        organisation=org,
        person_id=person_id,
        split_off=split_off,
        players=[EventPerson(event_code=e, player_id=p) for e, p in sorted(players)],
        at=uow.clock.now(),
    )
    uow.emit(payload, correlation_id=f"registry:{org}")


async def correct(
    uow: RegistrationUnitOfWork, principal: Principal, org: str, person_id: str, body: s.CorrectionIn
) -> dict[str, Any]:
    """The person's name, gender or birth date corrected in the registry (the audit names the
    fields, not their values)."""
    reads.check_manages_people(principal, org)
    row = (await _locked(uow, org, person_id))[person_id]
    check_acts_on(_person(row))
    values = {name: value for name in ("name", "gender", "birth_date") if (value := getattr(body, name)) is not None}
    await uow.registry.update(row.id, **values)
    await _audit(uow, principal, org, "correct", row.id, None, {"fields": sorted(values)}, body.reason)
    return await reads.person_view(uow, uow.protector, org, row.id)


async def export(
    uow: RegistrationUnitOfWork, principal: Principal, org: str, person_id: str, body: s.ExportIn
) -> dict[str, Any]:
    """A subject access request: the person's data in full (the export itself is audited)."""
    reads.check_manages_people(principal, org)
    row = await reads.person_row(uow, org, person_id)
    await _audit(uow, principal, org, "export", row.id, None, {}, body.reason)
    return await reads.export_document(uow, uow.protector, org, row, uow.clock.now())
