"""Issue 34: the registrants' secret links (the tokens' hashes only) and the guardians' phone
numbers (encrypted) of the entries made on the public form."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncSession

from . import orm
from .protection import DataProtector


class RegistrantLinkRepository:
    def __init__(self, session: AsyncSession, protector: DataProtector) -> None:
        self.session = session
        self.protector = protector

    async def add(
        self, code: str, entry_id: str, *, token_sha256: str, phone: str, masked: str, at: datetime, by: str
    ) -> None:
        await self.session.execute(
            sa.insert(orm.registrant_links).values(
                event_code=code,
                entry_id=entry_id,
                token_sha256=token_sha256,
                guardian_phone_enc=self.protector.encrypt(phone),
                guardian_phone_masked=masked,
                issued_at=at,
                issued_by=by,
                reissues=0,
            )
        )

    async def count(self, code: str) -> int:
        """The entries the form made in the event (its per-event cap)."""
        t = orm.registrant_links
        found = await self.session.execute(sa.select(sa.func.count()).where(t.c.event_code == code))
        return int(found.scalar() or 0)

    async def entry_ids(self, code: str) -> set[str]:
        """The event's entries made on the public form (the console offers their links' re-issue)."""
        t = orm.registrant_links
        found = await self.session.execute(sa.select(t.c.entry_id).where(t.c.event_code == code))
        return {str(x) for x in found.scalars()}

    async def by_hash(self, token_sha256: str) -> Any:
        t = orm.registrant_links
        return (await self.session.execute(sa.select(t).where(t.c.token_sha256 == token_sha256))).first()

    async def of_entry(self, code: str, entry_id: str) -> Any:
        t = orm.registrant_links
        query = sa.select(t).where(t.c.event_code == code, t.c.entry_id == entry_id)
        return (await self.session.execute(query)).first()

    async def replace(self, code: str, entry_id: str, *, token_sha256: str, at: datetime, by: str) -> None:
        """A new link for the entry: the old hash is overwritten, so the old link finds nothing."""
        t = orm.registrant_links
        await self.session.execute(
            sa.update(t)
            .where(t.c.event_code == code, t.c.entry_id == entry_id)
            .values(token_sha256=token_sha256, issued_at=at, issued_by=by, reissues=t.c.reissues + 1)
        )
