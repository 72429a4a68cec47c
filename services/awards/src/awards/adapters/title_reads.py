"""Issue 32: the reads of title grants that span many people or a whole event (a page's
current titles in one query; an event's title certificates)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Row
from sqlalchemy.ext.asyncio import AsyncSession

from .orm import title_grants


class TitleReadsRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def grants_of(self, organisation: str, person_ids: Sequence[str]) -> list[Row[Any]]:
        """Every grant of these people in the organisation (the person index serves it)."""
        if not person_ids:
            return []
        t = title_grants.c
        query = select(title_grants).where(t.organisation == organisation, t.person_id.in_(list(person_ids)))
        return list((await self.session.execute(query)).all())

    async def event_grants(self, event_code: str) -> list[Row[Any]]:
        """Every grant the event made, whatever the section."""
        query = select(title_grants).where(title_grants.c.event_code == event_code)
        return list((await self.session.execute(query)).all())
