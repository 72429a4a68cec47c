"""Issue 32: what the registry of people answers its organisation's staff — the people found by
name, one person with their event records and entries and the audit of what was done to them
(ID numbers masked, birth years only), and a person's data in full for a subject access request.

Who may read it is checked here: the platform operator's keys, and the staff holding
``people.manage`` in the organisation itself (not in one of its events: the registry spans them).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from gomoku_shared.auth import Principal
from gomoku_shared.event_access import EventAccess, held_roles, refusal
from gomoku_shared.staff_roles import ACTIONS, may, role_words

from ..adapters.protection import DataProtector
from ..adapters.registry_repository import EventPerson
from ..adapters.repositories import Repositories
from ..domain.people_registry import unknown_person
from .state import RegistrationState

ACTION = "people.manage"


def check_manages_people(principal: Principal, organisation: str) -> None:
    """The operator's keys, or a credential holding ``people.manage`` in the organisation (an
    arbiter's API key: in its own organisation); 403 ``people_not_yours`` with words otherwise."""
    if principal.role == "operator" and principal.person is None:
        return
    # no event code: only the roles held in the organisation itself count
    held = held_roles(principal, EventAccess("", organisation))
    if may(held, ACTION):
        return
    needed = ACTIONS[ACTION][0]
    raise refusal(
        "people_not_yours",
        f"这个组织的人员名册只有它的{role_words(needed, 'zh')}可以查看和管理。",
        f"Only the organisation's {role_words(needed, 'en')} may read and manage its registry of people.",
        action=ACTION,
        organisation=organisation,
        needs=sorted(needed),
    )


def _birth(protector: DataProtector, token: str | None) -> date | None:
    return date.fromisoformat(str(protector.decrypt(token))) if token else None


def summary(protector: DataProtector, row: Any) -> dict[str, Any]:
    """A registry person as staff lists show it: masked ID number, birth year."""
    born = _birth(protector, row.birth_date_enc)
    return {
        "person_id": row.id,
        "name": row.name,
        "gender": row.gender,
        "birth_year": born.year if born else None,
        "id_number": row.id_number_masked,
        "merged_into": row.merged_into,
    }


async def person_row(repos: Repositories, organisation: str, person_id: str, *, lock: bool = False) -> Any:
    row = await repos.registry.get(organisation, person_id, lock=lock)
    if row is None:
        raise unknown_person(person_id)
    return row


async def search(
    repos: Repositories, state: RegistrationState, principal: Principal, org: str, q: str | None = None
) -> dict[str, Any]:
    """The organisation's people (not merged into another) whose name contains ``q``."""
    check_manages_people(principal, org)
    rows = await repos.registry.search(org, q)
    merged = await repos.registry.merged_into([row.id for row in rows])
    root_of = {row.id: row.id for row in rows} | {row.id: row.merged_into for row in merged}
    counts: dict[str, int] = {}
    for link in await repos.registry.links_of(list(root_of)):
        counts[root_of[link.registry_id]] = counts.get(root_of[link.registry_id], 0) + 1
    people = [{**summary(state.protector, row), "records": counts.get(row.id, 0)} for row in rows]
    return {"organisation": org, "people": people}


async def _records(repos: Repositories, protector: DataProtector, group: Sequence[str], *, full: bool) -> list[Any]:
    """The event records of a registry person and of those merged into them, with their entries."""
    links = await repos.registry.links_of(list(group))
    linked_to = {(link.event_code, link.person_id): link.registry_id for link in links}
    keys: list[EventPerson] = list(linked_to)
    entries = await repos.registry.entries_of(keys)
    out = []
    for row in await repos.registry.event_people(keys):
        key = (row.event_code, row.id)
        held = [entry for entry in entries if entry.event_code == row.event_code and row.id in entry.person_ids]
        born = _birth(protector, row.birth_date_enc) or row.birth_date
        record = {
            "event_code": row.event_code,
            "event_name": row.event_name,
            "player_id": row.id,
            "linked_to": linked_to[key],
            "name": row.name,
            "gender": row.gender,
            "registered_by": row.partner_id,
            "entries": [_entry(entry, full=full) for entry in held],
        }
        if full:
            record |= {
                "birth_date": born.isoformat() if born else None,
                "id_number": protector.decrypt(row.id_number_enc),
                "citizenship": row.citizenship,
                "registered_unit_id": row.registered_unit_id,
                "evidence": [_evidence(ev) for ev in await repos.evidence.rows(row.event_code, [row.id])],
            }
        else:
            record |= {"birth_year": born.year if born else None, "id_number": row.id_number_masked}
        out.append(record)
    return out


def _entry(entry: Any, *, full: bool) -> dict[str, Any]:
    shown = {"entry_id": entry.id, "stage": entry.stage, "section_id": entry.section_id, "status": entry.status}
    if not full:
        return shown
    return shown | {
        "team_name": entry.team_name,
        "received_at": _time(entry.received_at),
        "checked_in_at": _time(entry.checked_in_at),
        "no_show": entry.no_show,
        "decisions": [{k: d.get(k) for k in ("rule", "clause", "outcome", "reason")} for d in entry.decisions],
    }


def _evidence(row: Any) -> dict[str, Any]:
    """An evidence record as its subject reads it (the document reference stays sealed)."""
    return {
        "evidence_id": row.id,
        "kind": row.kind,
        "status": row.status,
        "submitted_at": _time(row.submitted_at),
        "reviewed_at": _time(row.reviewed_at),
        "details": row.details,
    }


def _time(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def history(rows: Sequence[Any]) -> list[dict[str, Any]]:
    return [
        {
            "action": row.action,
            "person_id": row.person_id,
            "other_id": row.other_id,
            "details": row.details,
            "reason": row.reason,
            "at": _time(row.at),
            "by": row.by,
        }
        for row in rows
    ]


async def person_view(repos: Repositories, protector: DataProtector, org: str, person_id: str) -> dict[str, Any]:
    row = await person_row(repos, org, person_id)
    merged = await repos.registry.merged_into([row.id])
    group = [row.id, *(m.id for m in merged)]
    return {
        **summary(protector, row),
        "organisation": org,
        "merged": [summary(protector, m) for m in merged],
        "records": await _records(repos, protector, group, full=False),
        "history": history(await repos.registry.audit_of(group)),
    }


async def read_person(
    repos: Repositories, state: RegistrationState, principal: Principal, org: str, person_id: str
) -> dict[str, Any]:
    check_manages_people(principal, org)
    return await person_view(repos, state.protector, org, person_id)


async def export_document(repos: Repositories, protector: DataProtector, org: str, row: Any, at: datetime) -> dict:
    """Everything the registry and the organisation's events hold about the person, in full."""
    merged = await repos.registry.merged_into([row.id])
    group = [row.id, *(m.id for m in merged)]

    def full(person: Any) -> dict[str, Any]:
        born = _birth(protector, person.birth_date_enc)
        return {
            "person_id": person.id,
            "name": person.name,
            "gender": person.gender,
            "birth_date": born.isoformat() if born else None,
            "id_number": protector.decrypt(person.id_number_enc),
            "created_at": _time(person.created_at),
        }

    return {
        "exported_at": at.isoformat(),
        "organisation": org,
        "person": full(row),
        "merged": [full(m) for m in merged],
        "records": await _records(repos, protector, group, full=True),
        "history": history(await repos.registry.audit_of(group)),
    }
