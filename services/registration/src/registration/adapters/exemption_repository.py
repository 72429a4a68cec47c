"""REG-16 (NY 七(三)): the list a delegation-quota exemption is checked against, as the organiser
loaded it: every load kept (who, when, which edition: the audit), the lines of the latest one in
force, their ID numbers and birth dates encrypted (`adapters.protection`)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncSession

from ..domain import ListedPlayer, PreviousTop, mask_id_number
from . import orm
from .protection import DataProtector


class ExemptionListRepository:
    def __init__(self, session: AsyncSession, protector: DataProtector) -> None:
        self.session = session
        self.protector = protector

    async def loads(self, code: str) -> list[Any]:
        """Every load of the event's list, the first first."""
        table = orm.exemption_lists
        query = sa.select(table).where(table.c.event_code == code).order_by(table.c.revision)
        return list((await self.session.execute(query)).all())

    async def replace(
        self,
        code: str,
        *,
        edition: str,
        source: str,
        players: list[tuple[ListedPlayer, str | None]],
        beyond_top: int,
        loaded_at: datetime,
        loaded_by: str,
    ) -> int:
        """Record a load and put its lines (each with its ID number in clear, or None) in force
        instead of the previous ones; its revision."""
        table = orm.exemption_lists
        last = await self.session.execute(sa.select(sa.func.max(table.c.revision)).where(table.c.event_code == code))
        revision = (last.scalar() or 0) + 1
        await self.session.execute(
            sa.insert(table).values(
                event_code=code,
                revision=revision,
                edition=edition,
                source=source,
                loaded_at=loaded_at,
                loaded_by=loaded_by,
                players=len(players),
                beyond_top=beyond_top,
            )
        )
        lines = orm.exemption_players
        await self.session.execute(sa.delete(lines).where(lines.c.event_code == code))
        for seq, (player, id_number) in enumerate(players, start=1):
            await self.session.execute(
                sa.insert(lines).values(
                    event_code=code,
                    seq=seq,
                    revision=revision,
                    section=player.section,
                    place=player.place,
                    name=player.name,
                    birth_date_enc=self.protector.encrypt(player.birth_date.isoformat()) if player.birth_date else None,
                    id_number_enc=self.protector.encrypt(id_number),
                    id_number_index=self.protector.index(id_number) if id_number else None,
                    id_number_masked=mask_id_number(id_number) if id_number else None,
                )
            )
        return revision

    async def lines(self, code: str) -> list[Any]:
        """The lines in force, in the order loaded (personal data still encrypted)."""
        table = orm.exemption_players
        query = sa.select(table).where(table.c.event_code == code).order_by(table.c.seq)
        return list((await self.session.execute(query)).all())

    async def in_force(self, code: str) -> PreviousTop | None:
        """The list in force for the check (birth dates decrypted, ID numbers by their keyed
        index only); None if none was ever loaded."""
        loads = await self.loads(code)
        if not loads:
            return None
        players = tuple(
            ListedPlayer(
                section=row.section,
                place=row.place,
                name=row.name,
                birth_date=date.fromisoformat(str(self.protector.decrypt(row.birth_date_enc)))
                if row.birth_date_enc
                else None,
                id_key=row.id_number_index,
            )
            for row in await self.lines(code)
        )
        return PreviousTop(loads[-1].edition, players)
