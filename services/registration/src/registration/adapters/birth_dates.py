"""Birth dates at rest: encrypted under DATA_KEY like ID numbers (`adapters.protection`).
Rows stored before they were encrypted (revision 0010) hold them in clear until the service
seals them at start."""

from __future__ import annotations

from datetime import date

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncSession

from . import orm
from .protection import DataProtector


def birth_date_of(r, protector: DataProtector) -> date:
    """The person's birth date: decrypted (a row stored before birth dates were encrypted holds
    it in clear until the service seals it at start)."""
    if r.birth_date_enc:
        return date.fromisoformat(str(protector.decrypt(r.birth_date_enc)))
    if r.birth_date is None:
        raise ValueError(f"person {r.id}: no birth date")
    return r.birth_date


async def seal_birth_dates(session: AsyncSession, protector: DataProtector, batch: int) -> int:
    """Encrypt up to `batch` birth dates still stored in clear and empty their clear column;
    how many it sealed."""
    people = orm.people.c
    query = sa.select(people.event_code, people.id, people.birth_date).where(people.birth_date.is_not(None))
    found = (await session.execute(query.limit(batch).with_for_update(skip_locked=True))).all()
    for row in found:
        await session.execute(
            sa.update(orm.people)
            .where(people.event_code == row.event_code, people.id == row.id)
            .values(birth_date=None, birth_date_enc=protector.encrypt(row.birth_date.isoformat()))
        )
    return len(found)
