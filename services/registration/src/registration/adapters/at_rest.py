"""Personal data at rest, encrypted under DATA_KEY (`adapters.protection`): birth dates like ID
numbers (rows stored before revision 0010 hold them in clear until the service seals them at
start), and every encrypted column re-encrypted under a new DATA_KEY after a rotation."""

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


class ProtectedData:
    """The encrypted columns (``*_enc``) of every table, for a key rotation."""

    def __init__(self, session: AsyncSession, protector: DataProtector) -> None:
        self.session = session
        self.protector = protector

    @staticmethod
    def tables() -> list[str]:
        return [t.name for t in orm.metadata.sorted_tables if any(c.name.endswith("_enc") for c in t.columns)]

    async def rekey(self, name: str) -> int:
        """Re-encrypt the table's values still under a previous secret under DATA_KEY (and the
        ID numbers' index with them); how many rows changed."""
        table = orm.metadata.tables[name]
        columns = [c for c in table.columns if c.name.endswith("_enc")]
        keys = list(table.primary_key.columns)
        query = sa.select(*keys, *columns).where(sa.or_(*(c.is_not(None) for c in columns)))
        changed = 0
        for row in (await self.session.execute(query.with_for_update())).mappings():
            values = {
                c.name: self.protector.rotate(row[c.name])
                for c in columns
                if row[c.name] and not self.protector.is_current(row[c.name])
            }
            if values.get("id_number_enc"):
                values["id_number_index"] = self.protector.index(str(self.protector.decrypt(values["id_number_enc"])))
            if values:
                await self.session.execute(sa.update(table).where(*(k == row[k.name] for k in keys)).values(**values))
                changed += 1
        return changed
