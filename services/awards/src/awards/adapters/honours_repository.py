"""Honours rows (AWD-9), on one AsyncSession."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from .orm import honours


class HonoursRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def count(self, event_code: str) -> int:
        query = select(func.count()).where(honours.c.event_code == event_code)
        return int(await self.session.scalar(query) or 0)

    async def add(self, row: dict[str, Any]) -> None:
        await self.session.execute(insert(honours).values(**row))

    async def get(self, event_code: str, honour_id: str) -> dict[str, Any] | None:
        query = select(honours).where((honours.c.event_code == event_code) & (honours.c.honour_id == honour_id))
        row = (await self.session.execute(query)).mappings().first()
        return dict(row) if row is not None else None

    async def revoke(self, event_code: str, honour_id: str, **values: Any) -> None:
        await self.session.execute(
            update(honours)
            .where((honours.c.event_code == event_code) & (honours.c.honour_id == honour_id))
            .values(status="revoked", **values)
        )

    async def of_event(self, event_code: str, *, active_only: bool = False) -> list[dict[str, Any]]:
        where = honours.c.event_code == event_code
        if active_only:
            where = where & (honours.c.status == "awarded")
        # h1, h2 … h10: in the order recorded
        query = (
            select(honours)
            .where(where)
            .order_by(honours.c.awarded_at, func.length(honours.c.honour_id), honours.c.honour_id)
        )
        return [dict(row) for row in (await self.session.execute(query)).mappings()]
