"""EVT-7: the delayed rounds registration learnt from pairing (``round.rescheduled``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncSession

from . import orm


class DelayRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def record(self, row: dict[str, Any]) -> bool:
        """Keep the latest delay of a round (by decision time; of two decided at one instant, the
        later start: pairing only ever moves a round later); False if an as-new one is kept."""
        table = orm.round_delays
        key = (
            (table.c.event_code == row["event_code"])
            & (table.c.section_id == row["section_id"])
            & (table.c.round == row["round"])
        )
        current = (await self.session.execute(sa.select(table.c.decided_at, table.c.starts_at).where(key))).first()
        if current is None:
            await self.session.execute(sa.insert(table).values(**row))
            return True
        if (current.decided_at, current.starts_at) >= (row["decided_at"], row["starts_at"]):
            return False
        await self.session.execute(sa.update(table).where(key).values(**row))
        return True

    async def of_event(self, event_code: str) -> dict[tuple[str, int], dict[str, Any]]:
        """(section, round) -> the delay row."""
        table = orm.round_delays
        rows = (await self.session.execute(sa.select(table).where(table.c.event_code == event_code))).mappings()
        return {(row["section_id"], row["round"]): dict(row) for row in rows}


def delay_row(event_code: str, section_id: str, rnd: int, starts_at: datetime, **rest: Any) -> dict[str, Any]:
    return dict(event_code=event_code, section_id=section_id, round=rnd, starts_at=starts_at, **rest)
