"""Issue 32: a person's sections a page at a time (a history page with 1,000 events in the
registry): the sections' keys first, newest first, then the grants and games of the page's
sections only, each read through the person's indexes (migration 0009)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, or_, select, tuple_, union
from sqlalchemy.engine import Row
from sqlalchemy.ext.asyncio import AsyncSession

from .orm import rated_games, title_grants

#: (event code, section id)
SectionKey = tuple[str, str]


class PersonHistory:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    def _played(self, organisation: str, person_id: str) -> Any:
        t = rated_games.c
        return (t.organisation == organisation) & or_(t.first_id == person_id, t.second_id == person_id)

    async def sections(self, organisation: str, person_id: str, latest: int, skip: int) -> tuple[int, list[SectionKey]]:
        """How many sections the person was granted a title in or played a rated game in, and the
        keys of the newest ``latest`` after the ``skip`` newest."""
        g, t = title_grants.c, rated_games.c
        keys = union(
            select(g.event_code, g.section_id, g.granted_on.label("on")).where(
                g.organisation == organisation, g.person_id == person_id
            ),
            select(t.event_code, t.section_id, t.played_on.label("on")).where(self._played(organisation, person_id)),
        ).subquery()
        newest = keys.c.on.desc(), keys.c.event_code.desc(), keys.c.section_id.desc()
        page = select(keys.c.event_code, keys.c.section_id).order_by(*newest).limit(latest).offset(skip)
        total = (await self.session.execute(select(func.count()).select_from(keys))).scalar_one()
        return int(total), [(r.event_code, r.section_id) for r in (await self.session.execute(page)).all()]

    async def grants_in(self, organisation: str, person_id: str, keys: Sequence[SectionKey]) -> list[Row[Any]]:
        g = title_grants.c
        query = select(title_grants).where(
            g.organisation == organisation,
            g.person_id == person_id,
            tuple_(g.event_code, g.section_id).in_(list(keys)),
        )
        return list((await self.session.execute(query)).all()) if keys else []

    async def games_in(self, organisation: str, person_id: str, keys: Sequence[SectionKey]) -> list[Row[Any]]:
        t = rated_games.c
        query = (
            select(rated_games)
            .where(self._played(organisation, person_id), tuple_(t.event_code, t.section_id).in_(list(keys)))
            .order_by(t.played_on, t.event_code, t.section_id, t.round, t.pairing_id)
        )
        return list((await self.session.execute(query)).all()) if keys else []

    async def grants_of(self, organisation: str, person_ids: Sequence[str]) -> list[Row[Any]]:
        """The grants of these people (a search of a rating list names the titles of those found)."""
        g = title_grants.c
        query = select(title_grants).where(g.organisation == organisation, g.person_id.in_(list(person_ids)))
        return list((await self.session.execute(query)).all()) if person_ids else []
