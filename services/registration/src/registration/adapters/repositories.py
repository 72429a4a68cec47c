"""The registration tables behind typed repositories, one per kind of record, all on one
AsyncSession (the unit of work's). The service layer asks these for rows and aggregates and
never builds a statement itself; row <-> domain mapping lives in `repository`. Personal data
handed to a repository in clear (ID numbers, document references) is stored encrypted."""

from __future__ import annotations

from datetime import date
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncSession

from gomoku_shared.event_config import EventConfig

from . import at_rest, orm
from . import repository as rows
from .access_repository import AccessRepository
from .document_store import DatabaseDocumentStore
from .exemption_repository import ExemptionListRepository
from .protection import DataProtector
from .published_ratings import PublishedRatingRepository
from .record_repository import RecordRepository
from .registry_repository import RegistryRepository
from .schedule_repository import DelayRepository
from .secret_links import REGISTRANT, DelegationLinkRepository, SecretLinkRepository


class EventRepository:
    """Events, their stages, qualifier lists and seeded lists."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def lock(self, code: str) -> bool:
        """Serialise the commands on one event (see `repository.lock_event`); False if unknown."""
        return await rows.lock_event(self.session, code)

    async def lock_writes(self) -> None:
        await rows.lock_writes(self.session)

    async def get(self, code: str) -> Any:
        return await rows.event_row(self.session, code)

    async def version(self, code: str) -> int:
        """The event's command counter (lock_version)."""
        return (
            await self.session.execute(sa.select(orm.events.c.lock_version).where(orm.events.c.code == code))
        ).scalar_one()

    async def add(
        self,
        config: EventConfig,
        *,
        preset_id: str,
        overrides: dict[str, Any],
        now: Any,
        created_by: str,
        stage_statuses: dict[str, str],
        organisation: str,
    ) -> None:
        await self.session.execute(
            sa.insert(orm.events).values(
                code=config.id,
                preset_id=preset_id,
                name=config.name,
                **rows.config_columns(config.model_dump(mode="json")),
                overrides=overrides,
                created_at=now,
                created_by=created_by,
                organisation=organisation,
                lock_version=0,
            )
        )
        for stage_id, status in stage_statuses.items():
            await self.session.execute(
                sa.insert(orm.stages).values(event_code=config.id, stage_id=stage_id, status=status)
            )

    # ---- stages

    async def stages(self, code: str) -> dict[str, Any]:
        return await rows.stage_rows(self.session, code)

    async def update_stage(self, code: str, stage_id: str, **values: Any) -> None:
        await self.session.execute(
            sa.update(orm.stages)
            .where(orm.stages.c.event_code == code, orm.stages.c.stage_id == stage_id)
            .values(**values)
        )

    # ---- qualifier lists

    async def qualifier_lists(self, code: str, to_stage: str) -> list[Any]:
        return await rows.qualifier_rows(self.session, code, to_stage)

    async def qualifier_list(self, key: dict[str, str]) -> Any:
        return (
            await self.session.execute(
                sa.select(orm.qualifier_lists).where(*[orm.qualifier_lists.c[k] == v for k, v in key.items()])
            )
        ).first()

    async def store_qualifier_list(self, key: dict[str, str], values: dict[str, Any], *, exists: bool) -> None:
        if exists:
            await self.session.execute(
                sa.update(orm.qualifier_lists)
                .where(*[orm.qualifier_lists.c[k] == v for k, v in key.items()])
                .values(**values)
            )
        else:
            await self.session.execute(sa.insert(orm.qualifier_lists).values(**key, **values))


class EntryRepository:
    """An event's entries and officials as one aggregate (`repository.Loaded`), and withdrawals."""

    def __init__(self, session: AsyncSession, protector: DataProtector) -> None:
        self.session = session
        self.protector = protector

    async def load(self, config: EventConfig) -> rows.Loaded:
        return await rows.load(self.session, config, self.protector)

    async def save(self, loaded: rows.Loaded) -> list[Any]:
        return await rows.save_entries(self.session, loaded)

    async def delete(self, ids: list[str]) -> None:
        await rows.delete_entries(self.session, ids)

    async def stage_rows(self, code: str, stage_id: str) -> list[Any]:
        """What a stage's counts are made of: section, status, no-show, check-in, decisions."""
        query = sa.select(
            orm.entries.c.section_id,
            orm.entries.c.status,
            orm.entries.c.no_show,
            orm.entries.c.checked_in_at,
            orm.entries.c.decisions,
        ).where(orm.entries.c.event_code == code, orm.entries.c.stage == stage_id)
        return list((await self.session.execute(query)).all())

    async def set_intends_to_represent(self, entry_id: str, value: bool) -> None:
        await self.session.execute(
            sa.update(orm.entries).where(orm.entries.c.id == entry_id).values(intends_to_represent=value)
        )

    async def add_withdrawal(self, *, proof_ref: str | None, **values: Any) -> None:
        """REG-10: the withdrawal with its proof reference (stored encrypted)."""
        await self.session.execute(
            sa.insert(orm.withdrawals).values(
                **values, proof_ref_enc=self.protector.encrypt(proof_ref) if proof_ref else None
            )
        )


class PersonRepository:
    """People (ID numbers stored encrypted, found again by their keyed hash)."""

    def __init__(self, session: AsyncSession, protector: DataProtector) -> None:
        self.session = session
        self.protector = protector

    async def rows(self, code: str, ids: list[str] | None = None) -> dict[str, Any]:
        return await rows.people_rows(self.session, code, ids)

    async def by_id_number(self, code: str, id_number: str, *, partner_id: Any) -> Any:
        """The person registered with this ID number (found by its keyed hash; see
        `repository.person_by_index` for `partner_id`)."""
        return await rows.person_by_index(self.session, code, self.protector.indexes(id_number), partner_id=partner_id)

    async def last_seq(self, code: str) -> int:
        return await rows.next_seq(self.session, orm.people, code) - 1

    async def by_external_id(self, code: str, partner_id: str, external_id: str) -> Any:
        """The person ``partner_id`` registered with its own user id ``external_id`` (or None)."""
        people = orm.people.c
        query = sa.select(orm.people).where(
            people.event_code == code, people.partner_id == partner_id, people.external_id == external_id
        )
        return (await self.session.execute(query)).first()

    async def set_external_id(self, code: str, person_id: str, external_id: str) -> None:
        await self.session.execute(
            sa.update(orm.people)
            .where(orm.people.c.event_code == code, orm.people.c.id == person_id)
            .values(external_id=external_id)
        )

    async def seal_birth_dates(self, batch: int) -> int:
        return await at_rest.seal_birth_dates(self.session, self.protector, batch)

    async def add(self, *, id_number: str | None, birth_date: date, **values: Any) -> None:
        """A person; the ID number is stored encrypted beside its keyed hash (the masked form
        comes with `values`), the birth date encrypted."""
        await self.session.execute(
            sa.insert(orm.people).values(
                **values,
                birth_date_enc=self.protector.encrypt(birth_date.isoformat()),
                id_number_enc=self.protector.encrypt(id_number),
                id_number_index=self.protector.index(id_number) if id_number else None,
            )
        )


class EvidenceRepository:
    def __init__(self, session: AsyncSession, protector: DataProtector) -> None:
        self.session = session
        self.protector = protector

    async def last_seq(self, code: str) -> int:
        return await rows.next_seq(self.session, orm.evidence, code) - 1

    async def add(self, *, document_ref: str, **values: Any) -> Any:
        """An evidence record; its document reference is stored encrypted."""
        await self.session.execute(
            sa.insert(orm.evidence).values(**values, document_ref_enc=self.protector.encrypt(document_ref))
        )
        return await self.get(values["id"])

    async def get(self, evidence_id: str) -> Any:
        return (await self.session.execute(sa.select(orm.evidence).where(orm.evidence.c.id == evidence_id))).first()

    async def event_of(self, evidence_id: str) -> str | None:
        row = (
            await self.session.execute(sa.select(orm.evidence.c.event_code).where(orm.evidence.c.id == evidence_id))
        ).first()
        return row.event_code if row is not None else None

    async def rows(self, code: str, person_ids: list[str] | None = None) -> list[Any]:
        return await rows.evidence_rows(self.session, code, person_ids)

    async def update(self, evidence_id: str, **values: Any) -> None:
        await self.session.execute(sa.update(orm.evidence).where(orm.evidence.c.id == evidence_id).values(**values))


class UnitRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def rows(self, code: str) -> dict[str, Any]:
        return await rows.unit_rows(self.session, code)

    async def add(self, **values: Any) -> Any:
        await self.session.execute(sa.insert(orm.units).values(**values))
        return (
            await self.session.execute(
                sa.select(orm.units).where(
                    orm.units.c.event_code == values["event_code"], orm.units.c.id == values["id"]
                )
            )
        ).first()


class ChangeRepository:
    """Change requests (REG-10)."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def count(self, code: str) -> int:
        return (
            await self.session.execute(
                sa.select(sa.func.count())
                .select_from(orm.change_requests)
                .where(orm.change_requests.c.event_code == code)
            )
        ).scalar_one()

    async def add(self, **values: Any) -> Any:
        await self.session.execute(sa.insert(orm.change_requests).values(**values))
        return await self.get(values["id"])

    async def get(self, change_id: str) -> Any:
        return (
            await self.session.execute(sa.select(orm.change_requests).where(orm.change_requests.c.id == change_id))
        ).first()

    async def update(self, change_id: str, **values: Any) -> Any:
        await self.session.execute(
            sa.update(orm.change_requests).where(orm.change_requests.c.id == change_id).values(**values)
        )
        return await self.get(change_id)

    async def of_event(self, code: str) -> list[Any]:
        return list(
            (
                await self.session.execute(
                    sa.select(orm.change_requests)
                    .where(orm.change_requests.c.event_code == code)
                    .order_by(orm.change_requests.c.id)
                )
            ).all()
        )


class LedgerRepository:
    """REG-14/15: the append-only fee ledger (no update, no delete) and the refund requests.
    Payment references and proofs are stored encrypted."""

    def __init__(self, session: AsyncSession, protector: DataProtector) -> None:
        self.session = session
        self.protector = protector

    async def lines(self, code: str) -> list[Any]:
        query = sa.select(orm.ledger_lines).where(orm.ledger_lines.c.event_code == code)
        return list((await self.session.execute(query.order_by(orm.ledger_lines.c.seq))).all())

    async def by_source(self, code: str, source: str) -> Any:
        table = orm.ledger_lines
        query = sa.select(table).where(table.c.event_code == code, table.c.source == source)
        return (await self.session.execute(query)).first()

    async def append(self, *, reference: str | None, **values: Any) -> Any:
        """A new line, numbered after the event's last one (`<event>.l<nnnnn>`)."""
        seq = await rows.next_seq(self.session, orm.ledger_lines, values["event_code"])
        line_id = f"{values['event_code']}.l{seq:05d}"
        await self.session.execute(
            sa.insert(orm.ledger_lines).values(
                **values,
                id=line_id,
                seq=seq,
                reference_enc=self.protector.encrypt(reference) if reference else None,
            )
        )
        query = sa.select(orm.ledger_lines).where(orm.ledger_lines.c.id == line_id)
        return (await self.session.execute(query)).one()

    async def announcements(self, code: str) -> list[Any]:
        table = orm.fee_announcements
        query = sa.select(table).where(table.c.event_code == code).order_by(table.c.seq)
        return list((await self.session.execute(query)).all())

    async def announce(self, **values: Any) -> Any:
        """A new announcement of an item's amount (`<event>.fa<nnnn>`); never updated."""
        return await self._append(orm.fee_announcements, "fa", values)

    async def confirmations(self, code: str) -> list[Any]:
        table = orm.fee_confirmations
        query = sa.select(table).where(table.c.event_code == code).order_by(table.c.seq)
        return list((await self.session.execute(query)).all())

    async def confirm(self, **values: Any) -> Any:
        """A new "paid in full" confirmation or its withdrawal (`<event>.fc<nnnnn>`)."""
        return await self._append(orm.fee_confirmations, "fc", values)

    async def _append(self, table: sa.Table, prefix: str, values: dict[str, Any]) -> Any:
        seq = await rows.next_seq(self.session, table, values["event_code"])
        row_id = f"{values['event_code']}.{prefix}{seq:05d}"
        await self.session.execute(sa.insert(table).values(**values, id=row_id, seq=seq))
        return (await self.session.execute(sa.select(table).where(table.c.id == row_id))).one()

    async def refunds(self, code: str) -> list[Any]:
        query = sa.select(orm.refund_requests).where(orm.refund_requests.c.event_code == code)
        return list((await self.session.execute(query.order_by(orm.refund_requests.c.id))).all())

    async def refund(self, refund_id: str) -> Any:
        query = sa.select(orm.refund_requests).where(orm.refund_requests.c.id == refund_id)
        return (await self.session.execute(query)).first()

    async def add_refund(self, *, proof_ref: str | None, **values: Any) -> Any:
        await self.session.execute(
            sa.insert(orm.refund_requests).values(
                **values, proof_ref_enc=self.protector.encrypt(proof_ref) if proof_ref else None
            )
        )
        return await self.refund(values["id"])

    async def decide_refund(self, refund_id: str, **values: Any) -> Any:
        await self.session.execute(
            sa.update(orm.refund_requests).where(orm.refund_requests.c.id == refund_id).values(**values)
        )
        return await self.refund(refund_id)


class Repositories:
    """Every registration repository on one session: what a unit of work (or a read) uses."""

    def __init__(self, session: AsyncSession, protector: DataProtector) -> None:
        self.session = session
        self.protector = protector
        self.events = EventRepository(session)
        self.entries = EntryRepository(session, protector)
        self.people = PersonRepository(session, protector)
        self.evidence = EvidenceRepository(session, protector)
        self.units = UnitRepository(session)
        self.changes = ChangeRepository(session)
        self.ledger = LedgerRepository(session, protector)
        #: EVT-7: rounds delayed by the arbiter
        self.delays = DelayRepository(session)
        #: REG-16: the list a quota exemption is checked against (NY 七(三))
        self.exemptions = ExemptionListRepository(session, protector)
        #: issue 29: the event's owner and chosen partner apps
        self.access = AccessRepository(session)
        #: issue 34: a registrant's documents, encrypted (the DocumentStore port's adapter)
        self.documents = DatabaseDocumentStore(session, protector)
        #: issue 34: the registrants' secret links (hashes) of the public form's entries
        self.links = SecretLinkRepository(session, protector, REGISTRANT)
        #: issue 32: the organisation's registry of people, and each event person's link to it
        self.registry = RegistryRepository(session, protector)
        #: issue 32: the organisations' latest published ratings (entries are seeded by them)
        self.ratings = PublishedRatingRepository(session, orm.rating_publications, orm.published_ratings)
        #: issue 32: the organisations' record of final places (REG-16, REG-6 read it)
        self.record = RecordRepository(session)
        #: issue 34: the delegations' secret links (hashes) and rosters
        self.delegation_links = DelegationLinkRepository(session, protector)
        #: every encrypted column (a DATA_KEY rotation)
        self.protected = at_rest.ProtectedData(session, protector)
