"""Issue 32: every event person is linked to a person of its organisation's registry.

Whoever stores a person for an event (a partner app, the public form, a bulk import, staff,
a change's substitute), the registry person is found by the ID number's keyed hash within the
event's organisation, or created: the same ID number entered through two partner apps is one
registry person, though each partner keeps its own event person and sees only that one (partner
isolation: nothing a partner reads names the registry person). A person without an ID number
gets a registry person of their own (staff merge them when they are one human).

People stored before the registry existed are linked when the service starts
(`link_stored_people`), like the birth dates sealed at start: the migrate step has no DATA_KEY.
"""

from __future__ import annotations

import logging
from datetime import date, datetime

from gomoku_shared.runtime import ServiceRuntime

from ..adapters import repository as repo
from ..adapters.protection import DataProtector
from ..adapters.registry_repository import RegistryRepository, registry_id_for
from .unit_of_work import RegistrationUnitOfWork

log = logging.getLogger("registration.registry")


async def find_or_create(
    registry: RegistryRepository,
    organisation: str,
    event_person: tuple[str, str],
    *,
    name: str,
    gender: str,
    birth_date: date | None,
    id_number: str | None,
    now: datetime,
) -> tuple[str, str]:
    """(the registry person of this ID number found, or created for ``event_person``; the one it
    stands as: itself or the one it was merged into)."""
    if id_number:
        found = await registry.by_id_number(organisation, id_number)
        if found is not None:
            return found.id, found.merged_into or found.id
    made = await registry.create(
        organisation,
        registry_id_for(organisation, *event_person),
        name=name,
        gender=gender,
        birth_date=birth_date,
        id_number=id_number,
        now=now,
    )
    if made is None and id_number:  # created by a concurrent command meanwhile
        found = await registry.by_id_number(organisation, id_number)
        if found is not None:
            return found.id, found.merged_into or found.id
    if made is None:
        raise RuntimeError("a registry person was neither created nor found")
    return made, made


async def link_person(
    registry: RegistryRepository,
    organisation: str,
    event_code: str,
    person_id: str,
    *,
    name: str,
    gender: str,
    birth_date: date | None,
    id_number: str | None,
    now: datetime,
) -> str:
    """Link a newly stored event person to its registry person; the registry person it stands as."""
    linked, stands_as = await find_or_create(
        registry,
        organisation,
        (event_code, person_id),
        name=name,
        gender=gender,
        birth_date=birth_date,
        id_number=id_number,
        now=now,
    )
    await registry.link(event_code, person_id, linked, now)
    return stands_as


async def link_stored_people(runtime: ServiceRuntime, protector: DataProtector, batch: int = 200) -> int:
    """Link every event person stored before the registry, ``batch`` per transaction (replicas
    starting together skip each other's locked rows); how many this call linked."""
    linked = 0
    while True:
        async with runtime.transaction() as uow:
            repos = RegistrationUnitOfWork(uow, protector)
            rows = await repos.registry.unlinked(batch)
            for row in rows:
                person = repo.person_from_row(row, protector, decrypt=True)
                await link_person(
                    repos.registry,
                    row.organisation,
                    row.event_code,
                    row.id,
                    name=person.name,
                    gender=person.gender,
                    birth_date=person.birth_date,
                    id_number=person.id_number.value if person.id_number else None,
                    now=uow.clock.now(),
                )
        linked += len(rows)
        if len(rows) < batch:
            break
    if linked:
        log.info("linked %d people stored before the registry to its people", linked)
    return linked
