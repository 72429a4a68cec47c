"""Issue 32: the registry of people's rows (`registry_tables`). Personal data handed in clear (an
ID number, a birth date) is stored encrypted beside the ID number's keyed hash and masked form;
a person created from an event person's row takes that row's ciphertexts as they are."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from datetime import date, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from ..domain.personal_data import mask_id_number
from . import orm
from .protection import DataProtector

#: (event code, event person id): an event person as the registry names it
EventPerson = tuple[str, str]


_NAMESPACE = uuid.UUID("5b0f3a52-8f0e-4d7c-9a3e-32c1e0d4a9b7")


def registry_id_for(organisation: str, event_code: str, person_id: str, split_from: str = "") -> str:
    """The id of the registry person created for an event person (when it is linked, or split
    out of ``split_from``): derived, not numbered — commands on different events create registry
    people at once, a re-run of the same requests gives the same ids, and the id says nothing of
    how many people an organisation has."""
    return "rp" + uuid.uuid5(_NAMESPACE, "/".join((organisation, event_code, person_id, split_from))).hex[:16]


class RegistryRepository:
    def __init__(self, session: AsyncSession, protector: DataProtector) -> None:
        self.session = session
        self.protector = protector

    # ---------------------------------------------------------------- finding and creating

    async def by_id_number(self, organisation: str, id_number: str) -> Any:
        """The registry person with this ID number (by its keyed hash under any current key)."""
        return await self.by_index(organisation, self.protector.indexes(id_number))

    async def by_index(self, organisation: str, indexes: Sequence[str]) -> Any:
        table = orm.registry_people
        query = sa.select(table).where(table.c.organisation == organisation, table.c.id_number_index.in_(indexes))
        return (await self.session.execute(query)).first()

    async def create(
        self,
        organisation: str,
        registry_id: str,
        *,
        name: str,
        gender: str,
        birth_date: date | None,
        id_number: str | None,
        now: datetime,
    ) -> str | None:
        """A new registry person; None when one with this ID number was created meanwhile (a
        command on another event of the organisation: find it again)."""
        return await self._insert(
            organisation,
            registry_id,
            {
                "name": name,
                "gender": gender,
                "birth_date_enc": self.protector.encrypt(birth_date.isoformat()) if birth_date else None,
                "id_number_enc": self.protector.encrypt(id_number),
                "id_number_index": self.protector.index(id_number) if id_number else None,
                "id_number_masked": mask_id_number(id_number) if id_number else None,
            },
            now,
        )

    async def create_from(
        self, organisation: str, registry_id: str, row: Any, now: datetime, *, with_id_number: bool = True
    ) -> str | None:
        """A new registry person with an event person's details (``row``: a ``people`` row), its
        ciphertexts copied (a birth date still in clear is encrypted)."""
        if row.birth_date_enc:
            birth_enc = row.birth_date_enc
        else:
            birth_enc = self.protector.encrypt(row.birth_date.isoformat()) if row.birth_date else None
        keep = with_id_number and row.id_number_enc is not None
        return await self._insert(
            organisation,
            registry_id,
            {
                "name": row.name,
                "gender": row.gender,
                "birth_date_enc": birth_enc,
                "id_number_enc": row.id_number_enc if keep else None,
                "id_number_index": row.id_number_index if keep else None,
                "id_number_masked": row.id_number_masked if keep else None,
            },
            now,
        )

    async def _insert(self, organisation: str, registry_id: str, values: dict[str, Any], now: datetime) -> str | None:
        row = {"id": registry_id, "organisation": organisation, "merged_into": None, "created_at": now, **values}
        dialect = self.session.get_bind().dialect.name
        insert = (postgresql.insert if dialect == "postgresql" else sqlite.insert)(orm.registry_people)
        # a concurrent command may have created the person with this ID number: nothing, then
        # (PostgreSQL waits for that command and finds its row afterwards)
        statement = insert.values(**row).on_conflict_do_nothing(index_elements=["organisation", "id_number_index"])
        done = await self.session.execute(statement)
        return registry_id if done.rowcount else None  # type: ignore[attr-defined]

    async def link(self, event_code: str, person_id: str, registry_id: str, now: datetime) -> None:
        await self.session.execute(
            sa.insert(orm.registry_links).values(
                event_code=event_code, person_id=person_id, registry_id=registry_id, linked_at=now
            )
        )

    async def relink(self, event_code: str, person_id: str, registry_id: str) -> None:
        links = orm.registry_links
        await self.session.execute(
            sa.update(links)
            .where(links.c.event_code == event_code, links.c.person_id == person_id)
            .values(registry_id=registry_id)
        )

    async def unlinked(self, batch: int) -> list[Any]:
        """Up to ``batch`` event people with no registry person yet (stored before the registry),
        with their event's organisation, oldest first; replicas skip each other's locked rows."""
        people, links, events = orm.people, orm.registry_links, orm.events
        query = (
            sa.select(people, events.c.organisation)
            .join(events, events.c.code == people.c.event_code)
            .outerjoin(links, sa.and_(links.c.event_code == people.c.event_code, links.c.person_id == people.c.id))
            .where(links.c.person_id.is_(None))
            .order_by(people.c.event_code, people.c.seq)
            .limit(batch)
        )
        return list((await self.session.execute(query.with_for_update(skip_locked=True, of=people))).all())

    # ---------------------------------------------------------------- who an event person is

    async def registry_ids(self, event_code: str, person_ids: Iterable[str]) -> dict[str, str]:
        """Each event person's registry person as it stands (the one merged into, if any)."""
        links, table = orm.registry_links, orm.registry_people
        ids = list(person_ids)
        if not ids:
            return {}
        query = (
            sa.select(links.c.person_id, sa.func.coalesce(table.c.merged_into, links.c.registry_id))
            .select_from(links.outerjoin(table, table.c.id == links.c.registry_id))
            .where(links.c.event_code == event_code, links.c.person_id.in_(ids))
        )
        return {pid: rid for pid, rid in (await self.session.execute(query)).all()}

    # ---------------------------------------------------------------- staff reads and actions

    async def get(self, organisation: str, registry_id: str, *, lock: bool = False) -> Any:
        table = orm.registry_people
        query = sa.select(table).where(table.c.organisation == organisation, table.c.id == registry_id)
        return (await self.session.execute(query.with_for_update() if lock else query)).first()

    async def search(self, organisation: str, words: str | None) -> list[Any]:
        """The organisation's people not merged into another, whose name contains ``words``."""
        table = orm.registry_people
        query = sa.select(table).where(table.c.organisation == organisation, table.c.merged_into.is_(None))
        if words:
            query = query.where(sa.func.lower(table.c.name).contains(words.lower(), autoescape=True))
        return list((await self.session.execute(query.order_by(table.c.name, table.c.id))).all())

    async def merged_into(self, root_ids: Sequence[str]) -> list[Any]:
        """The people merged into these ones."""
        table = orm.registry_people
        query = sa.select(table).where(table.c.merged_into.in_(list(root_ids))).order_by(table.c.id)
        return list((await self.session.execute(query)).all())

    async def set_merged(self, registry_ids: Sequence[str], into: str | None) -> None:
        table = orm.registry_people
        await self.session.execute(sa.update(table).where(table.c.id.in_(list(registry_ids))).values(merged_into=into))

    async def links_of(self, registry_ids: Sequence[str]) -> list[Any]:
        """The event people linked to these registry people (event code, person id, registry id)."""
        links = orm.registry_links
        query = (
            sa.select(links)
            .where(links.c.registry_id.in_(list(registry_ids)))
            .order_by(links.c.event_code, links.c.person_id)
        )
        return list((await self.session.execute(query)).all())

    async def event_people(self, keys: Sequence[EventPerson]) -> list[Any]:
        """The ``people`` rows of these event people, with their event's name."""
        if not keys:
            return []
        people, events = orm.people, orm.events
        query = (
            sa.select(people, events.c.name.label("event_name"))
            .join(events, events.c.code == people.c.event_code)
            .where(sa.tuple_(people.c.event_code, people.c.id).in_(list(keys)))
            .order_by(people.c.event_code, people.c.seq)
        )
        return list((await self.session.execute(query)).all())

    async def entries_of(self, keys: Sequence[EventPerson]) -> list[Any]:
        """The entries these event people hold (an entry names its people in a JSON list)."""
        codes = sorted({code for code, _ in keys})
        if not codes:
            return []
        wanted = set(keys)
        query = sa.select(orm.entries).where(orm.entries.c.event_code.in_(codes)).order_by(orm.entries.c.id)
        rows = (await self.session.execute(query)).all()
        return [row for row in rows if any((row.event_code, pid) in wanted for pid in row.person_ids)]

    async def update(self, registry_id: str, **values: Any) -> None:
        """Corrected details (a birth date handed in clear is stored encrypted)."""
        if "birth_date" in values:
            values["birth_date_enc"] = self.protector.encrypt(values.pop("birth_date").isoformat())
        table = orm.registry_people
        await self.session.execute(sa.update(table).where(table.c.id == registry_id).values(**values))

    async def add_audit(self, **values: Any) -> None:
        await self.session.execute(sa.insert(orm.registry_audit).values(**values))

    async def audit_of(self, registry_ids: Sequence[str]) -> list[Any]:
        audit = orm.registry_audit
        ids = list(registry_ids)
        query = sa.select(audit).where(sa.or_(audit.c.person_id.in_(ids), audit.c.other_id.in_(ids)))
        return list((await self.session.execute(query.order_by(audit.c.seq))).all())

    async def last_merge(self, other_id: str) -> Any:
        """The latest merge of ``other_id`` into someone (what it moved along with it)."""
        audit = orm.registry_audit
        query = (
            sa.select(audit).where(audit.c.action == "merge", audit.c.other_id == other_id).order_by(audit.c.seq.desc())
        )
        return (await self.session.execute(query)).first()
