"""Issue 32 (ADR 0012): the federation's record of results in registration, and the eligibility
that reads it.

Awards owns places and titles; when it publishes a section's final places (``awards.published``)
registration keeps a read copy per event person (`adapters.record_repository`): event, section,
place, the day it was won, the event's `level` and the title the place granted. The highest
revision of a section wins (a correction supersedes); a cancelled section records no places; the
same message twice changes nothing.

Two rules read it: REG-16 (NY 七(三)) checks a quota-exemption claim against the places of the
edition the configuration names (`units.quota_exempt_previous_event`) before the organiser's
loaded list, and REG-6 (SZ 六(4)) takes the record's titles and places as approved evidence of a
wildcard (an option with `from_record`)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Protocol

from gomoku_shared.contracts.events import AwardsPublished
from gomoku_shared.errors import NotFound
from gomoku_shared.event_config import EventConfig

from ..domain import Evidence, PreviousTop
from ..domain.record import exemption_lines, record_evidence, with_record
from .state import RegistrationState
from .unit_of_work import RegistrationUnitOfWork


class OnEvent(Protocol):
    """What the record's reads need of the command they serve (``command.EventCommand``, which
    calls in here): its event, its configuration, its unit of work and its organisation."""

    @property
    def code(self) -> str: ...
    @property
    def config(self) -> EventConfig: ...
    @property
    def uow(self) -> RegistrationUnitOfWork: ...

    async def organisation(self) -> str: ...


async def on_awards_published(
    uow: RegistrationUnitOfWork, state: RegistrationState, payload: AwardsPublished, now: datetime
) -> bool:
    """Record a section's final places unless a revision as high is recorded; whether recorded.
    Team sections place teams, not players: not recorded."""
    if payload.kind == "team":
        return False
    try:
        config = await state.config(uow, payload.event_code)
    except NotFound:
        return False  # an event this registration never held
    recorded = await uow.record.revision(payload.event_code, payload.section_id)
    if recorded is not None and recorded >= payload.revision:
        return False
    try:
        section = config.section(payload.section_id)
        won_on = config.stage_of(payload.section_id).ends_on
    except KeyError:
        return False
    if section.kind == "team":
        return False
    places = [] if payload.cancelled else payload.places
    people = await uow.record.entry_people(payload.event_code, [str(p.get("entrant_id")) for p in places])
    lines = [
        {
            "person_id": people[str(p["entrant_id"])][0],
            "section_name": payload.name or section.name,
            "place": int(p["place"]),
            "level": config.level,
            "edition_on": won_on,
            "title": p.get("title") or None,
        }
        for p in places
        if len(people.get(str(p.get("entrant_id")), ())) == 1 and isinstance(p.get("place"), int)
    ]
    organisation = (await uow.access.get(payload.event_code)).organisation
    await uow.record.replace(
        organisation,
        payload.event_code,
        payload.section_id,
        revision=payload.revision,
        cancelled=payload.cancelled,
        lines=lines,
        now=now,
    )
    return True


def _wildcards_from_record(cmd: OnEvent) -> bool:
    return any(o.kind == "wildcard" and o.from_record for c in cmd.config.eligibility for o in c.options)


async def evidence_on_record(cmd: OnEvent, person_ids: Iterable[str]) -> list[Evidence]:
    """REG-6 (SZ 六(4)): the record's titles and places of these people as approved evidence,
    where the event's wildcard reads the record (else none)."""
    ids = sorted(set(person_ids))
    if not ids or not _wildcards_from_record(cmd):
        return []
    registry = await cmd.uow.registry.registry_ids(cmd.code, ids)
    places = await cmd.uow.record.places_of(await cmd.organisation(), registry.values())
    return [e for pid in ids if pid in registry for e in record_evidence(pid, places.get(registry[pid], ()))]


async def previous_top(cmd: OnEvent, loaded: PreviousTop | None) -> PreviousTop | None:
    """REG-16 (NY 七(三)): the list a claim is checked against — the recorded places of the
    previous edition the configuration names, then the organiser's loaded list."""
    units = cmd.config.units
    previous, top = units.quota_exempt_previous_event, units.quota_exempt_previous_top
    if not previous or not top:
        return loaded
    organisation = await cmd.organisation()
    won_on = await cmd.uow.record.edition_of(organisation, previous)
    places = await cmd.uow.record.places_of(organisation, event_code=previous)
    lines = exemption_lines(places, previous, units.quota_exempt_previous_sections, top)
    return with_record(loaded, str(won_on.year) if won_on else None, lines)
