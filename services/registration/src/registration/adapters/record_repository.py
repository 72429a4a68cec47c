"""Issue 32 (ADR 0012): the federation's record of results — the final places awards published
(``awards.published``) of each individual section, per event person, read back per registry
person (the one each event person stands as now: a merge or split in the registry moves the
record with it, nothing is re-keyed). Each section keeps the revision it was recorded from:
a higher one (a correction, AWD-8) replaces its lines, an older or repeated one changes nothing."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncSession

from ..domain.record import RecordedPlace
from . import orm


class RecordRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session
        self.sections = orm.record_sections
        self.places = orm.record_places

    async def revision(self, event_code: str, section_id: str) -> int | None:
        """The revision the section was recorded from (locked: one publication at a time)."""
        t = self.sections.c
        query = sa.select(t.revision).where(t.event_code == event_code, t.section_id == section_id).with_for_update()
        return (await self.session.execute(query)).scalar_one_or_none()

    async def replace(
        self,
        organisation: str,
        event_code: str,
        section_id: str,
        *,
        revision: int,
        cancelled: bool,
        lines: Sequence[dict[str, Any]],
        now: datetime,
    ) -> None:
        """Record the section from this revision: its lines (person_id, section_name, place,
        level, edition_on, title) instead of the previous ones."""
        t = self.sections
        key = sa.and_(t.c.event_code == event_code, t.c.section_id == section_id)
        values = {"organisation": organisation, "revision": revision, "cancelled": cancelled, "recorded_at": now}
        if (await self.session.execute(sa.update(t).where(key).values(**values))).rowcount == 0:  # type: ignore[attr-defined]
            await self.session.execute(sa.insert(t).values(event_code=event_code, section_id=section_id, **values))
        p = self.places
        await self.session.execute(sa.delete(p).where(p.c.event_code == event_code, p.c.section_id == section_id))
        if lines:
            await self.session.execute(
                sa.insert(p),
                [
                    {"organisation": organisation, "event_code": event_code, "section_id": section_id, **x}
                    for x in lines
                ],
            )

    async def edition_of(self, organisation: str, event_code: str) -> date | None:
        """The day the event's recorded places were won (its last), None: nothing recorded."""
        p = self.places.c
        query = sa.select(sa.func.max(p.edition_on)).where(p.organisation == organisation, p.event_code == event_code)
        won = (await self.session.execute(query)).scalar_one_or_none()
        return date.fromisoformat(won) if isinstance(won, str) else won

    async def entry_people(self, event_code: str, entry_ids: Iterable[str]) -> dict[str, list[str]]:
        """Each of these entries' people (the players of an individual entry: one)."""
        ids = sorted(set(entry_ids))
        if not ids:
            return {}
        e = orm.entries.c
        query = sa.select(e.id, e.person_ids).where(e.event_code == event_code, e.id.in_(ids))
        return {entry_id: list(people) for entry_id, people in (await self.session.execute(query)).all()}

    async def places_of(
        self, organisation: str, registry_ids: Iterable[str] | None = None, *, event_code: str | None = None
    ) -> dict[str, list[RecordedPlace]]:
        """The recorded places of each of these registry people (None: everyone's), of one
        event where it says which, oldest first — each event person as it stands now: the
        registry person it was merged into, if any."""
        p, links, people = self.places, orm.registry_links, orm.registry_people
        stands_as = sa.func.coalesce(people.c.merged_into, links.c.registry_id)
        query = (
            sa.select(p, stands_as.label("stands_as"))
            .join(links, sa.and_(links.c.event_code == p.c.event_code, links.c.person_id == p.c.person_id))
            .outerjoin(people, people.c.id == links.c.registry_id)
            .where(p.c.organisation == organisation)
            .order_by(p.c.edition_on, p.c.event_code, p.c.section_id)
        )
        if registry_ids is not None:
            ids = sorted(set(registry_ids))
            if not ids:
                return {}
            query = query.where(stands_as.in_(ids))
        if event_code is not None:
            query = query.where(p.c.event_code == event_code)
        out: dict[str, list[RecordedPlace]] = {}
        for row in (await self.session.execute(query)).all():
            out.setdefault(row.stands_as, []).append(
                RecordedPlace(
                    event_code=row.event_code,
                    edition_on=row.edition_on
                    if isinstance(row.edition_on, date)
                    else date.fromisoformat(row.edition_on),
                    section_id=row.section_id,
                    section_name=row.section_name,
                    place=row.place,
                    level=row.level,
                    title=row.title,
                )
            )
        return out
