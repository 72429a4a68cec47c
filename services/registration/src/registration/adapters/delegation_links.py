"""Issue 34: the delegations' secret links (the tokens' hashes only), their leaders' phone
numbers (encrypted) and each delegation's roster as last submitted."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncSession

from . import orm
from .protection import DataProtector


class DelegationLinkRepository:
    def __init__(self, session: AsyncSession, protector: DataProtector) -> None:
        self.session = session
        self.protector = protector

    async def add(
        self, code: str, unit_id: str, *, token_sha256: str, phone: str, masked: str, at: datetime, by: str
    ) -> None:
        await self.session.execute(
            sa.insert(orm.delegation_links).values(
                event_code=code,
                unit_id=unit_id,
                token_sha256=token_sha256,
                leader_phone_enc=self.protector.encrypt(phone),
                leader_phone_masked=masked,
                issued_at=at,
                issued_by=by,
                roster=None,
                submitted_at=None,
                amendments=0,
            )
        )

    async def count(self, code: str) -> int:
        """The delegations the door started in the event (its per-event cap)."""
        t = orm.delegation_links
        found = await self.session.execute(sa.select(sa.func.count()).where(t.c.event_code == code))
        return int(found.scalar() or 0)

    async def by_hash(self, token_sha256: str) -> Any:
        t = orm.delegation_links
        return (await self.session.execute(sa.select(t).where(t.c.token_sha256 == token_sha256))).first()

    async def rosters(self, code: str, *, submitted_only: bool = True) -> dict[str, dict[str, Any] | None]:
        """The event's rosters by unit id (what the fee ledger charges, REG-14); with
        `submitted_only` False, every delegation the door started (its roster None until sent)."""
        t = orm.delegation_links
        query = sa.select(t.c.unit_id, t.c.roster).where(t.c.event_code == code)
        if submitted_only:
            query = query.where(t.c.roster.is_not(None))
        return {row.unit_id: row.roster for row in await self.session.execute(query)}

    async def of_unit(self, code: str, unit_id: str) -> Any:
        t = orm.delegation_links
        query = sa.select(t).where(t.c.event_code == code, t.c.unit_id == unit_id)
        return (await self.session.execute(query)).first()

    async def replace(self, code: str, unit_id: str, *, token_sha256: str, at: datetime, by: str) -> None:
        """A new link for the delegation: the old hash is overwritten, so the old link finds nothing."""
        t = orm.delegation_links
        await self.session.execute(
            sa.update(t)
            .where(t.c.event_code == code, t.c.unit_id == unit_id)
            .values(token_sha256=token_sha256, issued_at=at, issued_by=by)
        )

    async def save_roster(self, code: str, unit_id: str, roster: dict[str, Any], at: datetime) -> None:
        """The roster as submitted (a replacement counts as an amendment)."""
        t = orm.delegation_links
        await self.session.execute(
            sa.update(t)
            .where(t.c.event_code == code, t.c.unit_id == unit_id)
            .values(
                roster=roster,
                submitted_at=at,
                amendments=sa.case((t.c.submitted_at.is_(None), 0), else_=t.c.amendments + 1),
            )
        )
