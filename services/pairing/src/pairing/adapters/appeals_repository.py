"""Appeals rows (AWD-10): written inside the unit of work that locked their section."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Select, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from . import orm


def _with_pairing() -> Select:
    """Appeal rows with the appealed pairing's result as it stands (``pairing_outcome``) and its
    revision (``pairing_revision``): what a decision that changes the result must name."""
    table, pairings = orm.appeals, orm.pairings
    appealed = (
        (pairings.c.event_code == table.c.event_code)
        & (pairings.c.section_id == table.c.section_id)
        & (pairings.c.round == table.c.round)
        & (pairings.c.pairing_id == table.c.pairing_id)
    )
    return select(
        table, pairings.c.outcome.label("pairing_outcome"), pairings.c.revision.label("pairing_revision")
    ).select_from(table.outerjoin(pairings, appealed))


class AppealRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def count(self, event_code: str, section_id: str) -> int:
        table = orm.appeals
        query = select(func.count()).where((table.c.event_code == event_code) & (table.c.section_id == section_id))
        return int(await self.session.scalar(query) or 0)

    async def add(self, row: dict[str, Any]) -> None:
        await self.session.execute(insert(orm.appeals).values(**row))

    async def get(self, event_code: str, section_id: str, appeal_id: str) -> dict[str, Any] | None:
        table = orm.appeals
        query = _with_pairing().where(
            (table.c.event_code == event_code) & (table.c.section_id == section_id) & (table.c.appeal_id == appeal_id)
        )
        row = (await self.session.execute(query)).mappings().first()
        return dict(row) if row is not None else None

    async def update(self, event_code: str, section_id: str, appeal_id: str, **values: Any) -> None:
        table = orm.appeals
        await self.session.execute(
            update(table)
            .where(
                (table.c.event_code == event_code)
                & (table.c.section_id == section_id)
                & (table.c.appeal_id == appeal_id)
            )
            .values(**values)
        )

    async def of_event(self, event_code: str, section_id: str | None = None) -> list[dict[str, Any]]:
        table = orm.appeals
        where = table.c.event_code == event_code
        if section_id is not None:
            where = where & (table.c.section_id == section_id)
        query = _with_pairing().where(where).order_by(table.c.section_id, table.c.lodged_at, table.c.appeal_id)
        return [dict(row) for row in (await self.session.execute(query)).mappings()]
