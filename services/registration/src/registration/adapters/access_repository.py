"""Issue 29: who may act on an event — its owner and the partner apps its organiser chose (the
shared ``event_access`` table, which the service's ``app.state.event_access`` directory reads),
the audit of each choice of partner apps, and the events listed with their owners."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncSession

from gomoku_shared.event_access import EventAccess, EventAccessStore

from . import orm


class AccessRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session
        self._store = EventAccessStore(orm.event_access)

    async def get(self, code: str) -> EventAccess:
        """The event's owner and partner apps; an event from before organisations: the default
        organisation, every partner."""
        return await self._store.get(self.session, code) or EventAccess(code)

    async def record(self, code: str, organisation: str, partners: list[str] | None, at: datetime) -> None:
        await self._store.record(self.session, code, organisation, partners, at)

    async def add_choice(self, code: str, partners: list[str] | None, at: datetime, by: str) -> None:
        table = orm.partner_choices
        last = (
            await self.session.execute(sa.select(sa.func.max(table.c.seq)).where(table.c.event_code == code))
        ).scalar_one()
        await self.session.execute(
            sa.insert(table).values(event_code=code, seq=(last or 0) + 1, partners=partners, chosen_at=at, chosen_by=by)
        )

    async def choices(self, code: str) -> list[Any]:
        table = orm.partner_choices
        query = sa.select(table).where(table.c.event_code == code).order_by(table.c.seq)
        return list((await self.session.execute(query)).all())

    async def events(self, organisation: str | None) -> list[Any]:
        """The events (code, name, preset, owner, creation), of one organisation or all."""
        t = orm.events
        query = sa.select(t.c.code, t.c.name, t.c.preset_id, t.c.organisation, t.c.created_at)
        if organisation is not None:
            query = query.where(t.c.organisation == organisation)
        return list((await self.session.execute(query.order_by(t.c.code))).all())
