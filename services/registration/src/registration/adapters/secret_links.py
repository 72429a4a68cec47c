"""Issue 34: the secret links, one repository for every kind — a registrant's link to an entry
made on the public form and a delegation's link to its unit (the kind is data: its table, the
column naming what the link proves, its contact's columns). Only a token's SHA-256 is kept and
the contact's phone only encrypted. A delegation's roster is kept on its link's row
(`DelegationLinkRepository`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncSession

from . import orm
from .protection import DataProtector


@dataclass(frozen=True)
class LinkTable:
    """Where a kind of link is kept: its table, the holder (what the link proves), the contact."""

    table: sa.Table
    holder: str
    phone_enc: str
    phone_masked: str
    #: the values of a new row's own columns (beside the link's)
    new_row: dict[str, Any] = field(default_factory=dict)
    #: a column counting the re-issues, if the kind keeps one
    reissues: str | None = None


REGISTRANT = LinkTable(
    orm.registrant_links, "entry_id", "guardian_phone_enc", "guardian_phone_masked", {"reissues": 0}, "reissues"
)
DELEGATION = LinkTable(
    orm.delegation_links,
    "unit_id",
    "leader_phone_enc",
    "leader_phone_masked",
    {"roster": None, "submitted_at": None, "amendments": 0},
)


class SecretLinkRepository:
    """A kind's secret links by event and holder (an entry id, a unit id)."""

    def __init__(self, session: AsyncSession, protector: DataProtector, kind: LinkTable) -> None:
        self.session = session
        self.protector = protector
        self.kind = kind
        self.table = kind.table
        self.holder = kind.table.c[kind.holder]

    async def add(
        self, code: str, holder_id: str, *, token_sha256: str, phone: str, masked: str, at: datetime, by: str
    ) -> None:
        kind = self.kind
        values = {
            "event_code": code,
            kind.holder: holder_id,
            "token_sha256": token_sha256,
            kind.phone_enc: self.protector.encrypt(phone),
            kind.phone_masked: masked,
            "issued_at": at,
            "issued_by": by,
            **kind.new_row,
        }
        await self.session.execute(sa.insert(self.table).values(**values))

    async def count(self, code: str) -> int:
        """The links issued in the event (the per-event cap of the form, of the door)."""
        t = self.table
        found = await self.session.execute(sa.select(sa.func.count()).where(t.c.event_code == code))
        return int(found.scalar() or 0)

    async def holders(self, code: str) -> set[str]:
        """The event's holders of a link (the console offers their links' re-issue)."""
        t = self.table
        found = await self.session.execute(sa.select(self.holder).where(t.c.event_code == code))
        return {str(x) for x in found.scalars()}

    async def by_hash(self, token_sha256: str) -> Any:
        t = self.table
        return (await self.session.execute(sa.select(t).where(t.c.token_sha256 == token_sha256))).first()

    async def of_holder(self, code: str, holder_id: str) -> Any:
        t = self.table
        query = sa.select(t).where(t.c.event_code == code, self.holder == holder_id)
        return (await self.session.execute(query)).first()

    async def replace(self, code: str, holder_id: str, *, token_sha256: str, at: datetime, by: str) -> None:
        """A new hash for the holder's link: the old one is overwritten, so the old link finds nothing."""
        t = self.table
        values: dict[str, Any] = {"token_sha256": token_sha256, "issued_at": at, "issued_by": by}
        if self.kind.reissues is not None:
            values[self.kind.reissues] = t.c[self.kind.reissues] + 1
        await self.session.execute(
            sa.update(t).where(t.c.event_code == code, self.holder == holder_id).values(**values)
        )


class DelegationLinkRepository(SecretLinkRepository):
    """The delegations' links, with each delegation's roster as last submitted on its row."""

    def __init__(self, session: AsyncSession, protector: DataProtector) -> None:
        super().__init__(session, protector, DELEGATION)

    async def rosters(self, code: str, *, submitted_only: bool = True) -> dict[str, dict[str, Any] | None]:
        """The event's rosters by unit id (what the fee ledger charges, REG-14); with
        `submitted_only` False, every delegation the door started (its roster None until sent)."""
        t = self.table
        query = sa.select(t.c.unit_id, t.c.roster).where(t.c.event_code == code)
        if submitted_only:
            query = query.where(t.c.roster.is_not(None))
        return {row.unit_id: row.roster for row in await self.session.execute(query)}

    async def save_roster(self, code: str, unit_id: str, roster: dict[str, Any], at: datetime) -> None:
        """The roster as submitted (a replacement counts as an amendment)."""
        t = self.table
        await self.session.execute(
            sa.update(t)
            .where(t.c.event_code == code, t.c.unit_id == unit_id)
            .values(
                roster=roster,
                submitted_at=at,
                amendments=sa.case((t.c.submitted_at.is_(None), 0), else_=t.c.amendments + 1),
            )
        )
