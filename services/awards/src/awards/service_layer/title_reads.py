"""Issue 32: the current titles of many people at once and an event's title certificates, each
read on a session of its own (public reads: the grants were published with the event's awards)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gomoku_shared.runtime import ServiceRuntime

from ..adapters.repositories import Repositories
from ..domain.title_holders import TitleCertificate, certificate_order, held_titles
from ..domain.title_record import CurrentTitle, TitleGrant
from .season import ladder_of

#: the most people one lookup names (a page asks in slices of this many)
MAX_PEOPLE = 100


def _grant(r: Any) -> TitleGrant:
    return TitleGrant(r.person_id, r.title, r.event_code, r.section_id, r.place, r.granted_on)


async def current_titles(
    runtime: ServiceRuntime, organisation: str, person_ids: Sequence[str]
) -> dict[str, CurrentTitle]:
    """The current title of each person asked who holds one (one query for them all)."""
    async with runtime.sessionmaker() as session:
        repositories = Repositories(session)
        ladder = await ladder_of(repositories.season, organisation)
        rows = await repositories.title_reads.grants_of(organisation, sorted(set(person_ids)))
    return held_titles((_grant(r) for r in rows), ladder)


@dataclass(frozen=True)
class EventTitleCertificates:
    event_code: str
    #: the organisation the event's grants are filed under (its ladder, its people)
    organisation: str
    certificates: list[TitleCertificate]


async def event_title_certificates(runtime: ServiceRuntime, event_code: str) -> EventTitleCertificates:
    """One certificate for every title grant the event made, in printing order."""
    async with runtime.sessionmaker() as session:
        repositories = Repositories(session)
        organisation = await repositories.season.organisation(event_code)
        rows = await repositories.title_reads.event_grants(event_code)
    certificates = [TitleCertificate(r.person_id, r.name, r.title, r.section_id, r.place, r.granted_on) for r in rows]
    return EventTitleCertificates(event_code, organisation, certificate_order(certificates))
