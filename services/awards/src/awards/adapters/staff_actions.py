"""The audit of staff actions on the awards (SQL of the ``staff_actions`` table)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncSession

from .orm import staff_actions


class StaffActions:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def record(
        self,
        event_code: str,
        section_id: str,
        action: str,
        actor: str,
        revision: int | None,
        published: bool,
        at: datetime,
        actor_id: str | None = None,
    ) -> None:
        await self.session.execute(
            insert(staff_actions).values(
                event_code=event_code,
                section_id=section_id,
                action=action,
                actor=actor[:120],
                actor_id=None if actor_id is None else actor_id[:64],
                revision=revision,
                published=published,
                at=at,
            )
        )

    async def of_section(self, event_code: str, section_id: str) -> list[dict[str, Any]]:
        rows = await self.session.execute(
            select(staff_actions)
            .where(staff_actions.c.event_code == event_code, staff_actions.c.section_id == section_id)
            .order_by(staff_actions.c.id)
        )
        return [dict(row._mapping) for row in rows]
