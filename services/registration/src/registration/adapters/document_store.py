"""Issue 34: the `DocumentStore` (service_layer.document_port) in the service's own PostgreSQL
database: the `documents` table, the bytes sealed with AES-256-GCM under DATA_KEY
(`DataProtector.seal`, bound to the document's id)."""

from __future__ import annotations

from datetime import date

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncSession

from ..domain.documents import DocumentRecord
from . import orm
from .protection import DataProtector

_META = [c for c in orm.documents.columns if c.name != "ciphertext"]


def _record(row) -> DocumentRecord:
    return DocumentRecord(**{c.name: getattr(row, c.name) for c in _META})


class DatabaseDocumentStore:
    def __init__(self, session: AsyncSession, protector: DataProtector) -> None:
        self.session = session
        self.protector = protector

    async def put(self, record: DocumentRecord, data: bytes) -> None:
        values = {c.name: getattr(record, c.name) for c in _META}
        await self.session.execute(
            sa.insert(orm.documents).values(**values, ciphertext=self.protector.seal(data, record.id))
        )

    async def list_of_entry(self, event_code: str, entry_id: str) -> list[DocumentRecord]:
        docs = orm.documents.c
        query = sa.select(*_META).where(docs.event_code == event_code, docs.entry_id == entry_id)
        return [_record(row) for row in await self.session.execute(query.order_by(docs.uploaded_at, docs.id))]

    async def list_of_event(self, event_code: str) -> list[DocumentRecord]:
        docs = orm.documents.c
        query = sa.select(*_META).where(docs.event_code == event_code)
        return [_record(row) for row in await self.session.execute(query.order_by(docs.uploaded_at, docs.id))]

    async def list_of_unit(self, event_code: str, unit_id: str) -> list[DocumentRecord]:
        docs = orm.documents.c
        query = sa.select(*_META).where(docs.event_code == event_code, docs.unit_id == unit_id)
        return [_record(row) for row in await self.session.execute(query.order_by(docs.uploaded_at, docs.id))]

    async def bytes_of_unit(self, event_code: str, unit_id: str) -> int:
        docs = orm.documents.c
        query = sa.select(sa.func.coalesce(sa.func.sum(docs.size), 0)).where(
            docs.event_code == event_code, docs.unit_id == unit_id
        )
        return int((await self.session.execute(query)).scalar_one())

    async def bytes_of_entry(self, event_code: str, entry_id: str) -> int:
        docs = orm.documents.c
        query = sa.select(sa.func.coalesce(sa.func.sum(docs.size), 0)).where(
            docs.event_code == event_code, docs.entry_id == entry_id
        )
        return int((await self.session.execute(query)).scalar_one())

    async def get(self, event_code: str, document_id: str) -> tuple[DocumentRecord, bytes] | None:
        docs = orm.documents.c
        query = sa.select(orm.documents).where(docs.event_code == event_code, docs.id == document_id)
        row = (await self.session.execute(query)).first()
        if row is None:
            return None
        return _record(row), self.protector.open(row.ciphertext, row.id)

    async def set_review_state(self, event_code: str, evidence_id: str, state: str) -> None:
        docs = orm.documents.c
        await self.session.execute(
            sa.update(orm.documents)
            .where(docs.event_code == event_code, docs.evidence_id == evidence_id)
            .values(review_state=state)
        )

    async def delete_due(self, today: date) -> int:
        done = await self.session.execute(sa.delete(orm.documents).where(orm.documents.c.delete_after < today))
        return int(done.rowcount or 0)  # type: ignore[attr-defined]

    async def rekey(self) -> int:
        """A DATA_KEY rotation: the documents still sealed under a previous secret sealed again
        under DATA_KEY; how many."""
        docs = orm.documents.c
        changed = 0
        for row in await self.session.execute(sa.select(docs.id, docs.ciphertext).with_for_update()):
            if not self.protector.sealed_current(row.ciphertext, row.id):
                sealed = self.protector.seal(self.protector.open(row.ciphertext, row.id), row.id)
                await self.session.execute(sa.update(orm.documents).where(docs.id == row.id).values(ciphertext=sealed))
                changed += 1
        return changed
