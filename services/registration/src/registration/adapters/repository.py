"""Rows <-> the pure domain. The service layer loads an `EventRegistration` per command,
changes it through the domain, and `save_entries` writes back only what changed.

Times: SQLite hands back naive datetimes; every time read here is made UTC-aware."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from typing import Any, overload

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncSession

from gomoku_shared.event_config import EventConfig

from ..domain import (
    Decision,
    Entry,
    EntryStatus,
    EventRegistration,
    Evidence,
    EvidenceKind,
    EvidenceStatus,
    IdNumber,
    InsuranceConfirmation,
    Official,
    Person,
    Unit,
    Verdict,
    Withdrawal,
)
from . import orm
from .at_rest import birth_date_of
from .protection import DataProtector
from .stored_config import config_columns as config_columns  # the event rows' configuration columns
from .stored_config import stored_config as stored_config


@overload
def aware(moment: datetime) -> datetime: ...
@overload
def aware(moment: None) -> None: ...
def aware(moment: datetime | None) -> datetime | None:
    """A stored time with its zone (SQLite hands naive UTC times back)."""
    if moment is None:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


@overload
def utc(moment: datetime) -> datetime: ...
@overload
def utc(moment: None) -> None: ...
def utc(moment: datetime | None) -> datetime | None:
    return None if moment is None else aware(moment).astimezone(UTC)


# --------------------------------------------------------------------------- decisions


def decision_to_json(d: Decision) -> dict[str, Any]:
    out = {"rule": d.rule, "clause": d.clause, "outcome": d.outcome.value, "reason": d.reason, "person_id": d.person_id}
    # params only where a decision has them: every other answer stays as it was
    return {**out, "params": dict(d.params)} if d.params else out


def decision_from_json(d: dict[str, Any]) -> Decision:
    params = tuple(sorted((d.get("params") or {}).items()))
    return Decision(d["rule"], d["clause"], Verdict(d["outcome"]), d["reason"], d.get("person_id"), params)


# --------------------------------------------------------------------------- entries


@dataclass
class EntryMeta:
    """What the service keeps beside the domain's Entry."""

    stage: str
    seq: int
    partner_id: str | None
    intends_to_represent: bool = False
    rating: int = 0
    source: str = "registration"
    attributes: dict[str, Any] = field(default_factory=dict)
    insurance_ref_enc: str | None = None


@dataclass
class Loaded:
    """An event's aggregate plus the service's bookkeeping, as loaded for one command."""

    config: EventConfig
    reg: EventRegistration
    meta: dict[str, EntryMeta]
    before: dict[str, Entry]
    officials_before: int


def as_stored(e: Entry) -> Entry:
    """The entry exactly as `load` would read it back: times in UTC, document references
    replaced by "[protected]" (they are stored encrypted beside the entry)."""
    ins = e.insurance
    if ins.document_ref is not None and ins.document_ref != "[protected]":
        ins = InsuranceConfirmation(ins.confirmed, "[protected]")
    withdrawal = e.withdrawal
    if withdrawal is not None:
        withdrawal = Withdrawal(
            utc(withdrawal.at),
            withdrawal.reason,
            "[protected]" if withdrawal.proof_ref else None,
            withdrawal.refund_requested,
        )
    return replace(
        e,
        received_at=utc(e.received_at),
        checked_in_at=utc(e.checked_in_at),
        insurance=ins,
        withdrawal=withdrawal,
    )


@dataclass(frozen=True)
class Snapshot:
    """An event's entries as committed by this process's last command (version = lock_version).
    Reused by the next command only if no other command (any process) ran in between."""

    version: int
    entries: dict[str, Entry]
    meta: dict[str, EntryMeta]
    officials: tuple[Official, ...]

    @classmethod
    def of(cls, version: int, loaded: Loaded, previous: Snapshot | None = None) -> Snapshot:
        """``previous``: the snapshot the command started from; its entries the command did not
        replace (entries are immutable) are reused as they are, so a command costs in
        proportion to what it changed, not to the size of the event."""
        kept = previous.entries if previous is not None else {}
        entries = {k: e if kept.get(k) is e else as_stored(e) for k, e in loaded.reg.entries.items()}
        return cls(version, entries, {k: _copy_meta(m) for k, m in loaded.meta.items()}, tuple(loaded.reg.officials))

    def loaded(self, config: EventConfig) -> Loaded:
        reg = EventRegistration(config, dict(self.entries), list(self.officials))
        return Loaded(
            config, reg, {k: _copy_meta(m) for k, m in self.meta.items()}, dict(self.entries), len(self.officials)
        )


def _copy_meta(meta: EntryMeta) -> EntryMeta:
    # called for every entry of the event on every command: a plain copy of the fields
    # (dataclasses.replace re-inspects the class on every call)
    copied = EntryMeta.__new__(EntryMeta)
    copied.__dict__.update(meta.__dict__)
    copied.attributes = dict(meta.attributes)
    return copied


async def lock_event(session: AsyncSession, code: str) -> bool:
    """Serialise commands on one event: the first statement of the transaction is a write
    on the event row (row lock on PostgreSQL, the database write lock on SQLite)."""
    locked = await session.execute(
        sa.update(orm.events)
        .where(orm.events.c.code == code)
        .values(lock_version=orm.events.c.lock_version + 1)
        .returning(orm.events.c.code)
    )
    return locked.scalar_one_or_none() is not None


async def lock_writes(session: AsyncSession) -> None:
    """Start the transaction as a writer (commands not bound to one event): on SQLite a read
    first and a write later could fail if another writer committed in between."""
    await session.execute(
        sa.update(orm.events).where(orm.events.c.code == "").values(lock_version=orm.events.c.lock_version)
    )


async def event_row(session: AsyncSession, code: str):
    return (await session.execute(sa.select(orm.events).where(orm.events.c.code == code))).first()


def _entry_from_row(row, protector: DataProtector) -> tuple[Entry, EntryMeta]:
    withdrawal = None
    entry = Entry(
        id=row.id,
        event_id=row.event_code,
        section_id=row.section_id,
        person_ids=tuple(row.person_ids),
        unit_id=row.unit_id,
        status=EntryStatus(row.status),
        received_at=aware(row.received_at),
        decisions=tuple(decision_from_json(d) for d in row.decisions),
        # the policy reference stays encrypted: the domain only needs to know one was given
        insurance=InsuranceConfirmation(row.insurance_confirmed, "[protected]" if row.insurance_ref_enc else None),
        quota_exempt=frozenset(row.quota_exempt),
        waitlist_position=row.waitlist_position,
        checked_in_at=aware(row.checked_in_at),
        no_show=row.no_show,
        withdrawal=withdrawal,
        application_id=row.application_id,
        team_name=row.team_name,
    )
    meta = EntryMeta(
        row.stage,
        row.seq,
        row.partner_id,
        row.intends_to_represent,
        row.rating,
        row.source,
        dict(row.attributes or {}),
        row.insurance_ref_enc,
    )
    return entry, meta


async def load(session: AsyncSession, config: EventConfig, protector: DataProtector) -> Loaded:
    code = config.id
    rows = (
        await session.execute(
            sa.select(orm.entries)
            .where(orm.entries.c.event_code == code)
            .order_by(orm.entries.c.section_id, orm.entries.c.seq)
        )
    ).all()
    wrows = {
        w.entry_id: w
        for w in (await session.execute(sa.select(orm.withdrawals).where(orm.withdrawals.c.event_code == code))).all()
    }
    reg = EventRegistration(config)
    meta: dict[str, EntryMeta] = {}
    for row in rows:
        entry, m = _entry_from_row(row, protector)
        if row.id in wrows:
            w = wrows[row.id]
            entry = replace(
                entry,
                withdrawal=Withdrawal(
                    aware(w.at), w.reason, "[protected]" if w.proof_ref_enc else None, w.refund_requested
                ),
            )
        reg.entries[entry.id] = entry
        meta[entry.id] = m
    orows = (
        await session.execute(
            sa.select(orm.officials)
            .where(orm.officials.c.event_code == code)
            .order_by(orm.officials.c.unit_id, orm.officials.c.seq)
        )
    ).all()
    reg.officials = [Official(o.unit_id, o.role, o.name, o.person_id) for o in orows]
    return Loaded(config, reg, meta, dict(reg.entries), len(reg.officials))


def _entry_values(entry: Entry, meta: EntryMeta) -> dict[str, Any]:
    return {
        "id": entry.id,
        "event_code": entry.event_id,
        "stage": meta.stage,
        "section_id": entry.section_id,
        "seq": meta.seq,
        "application_id": entry.application_id,
        "person_ids": list(entry.person_ids),
        "unit_id": entry.unit_id,
        "status": entry.status.value,
        "received_at": utc(entry.received_at),
        "decisions": [decision_to_json(d) for d in entry.decisions],
        "insurance_confirmed": entry.insurance.confirmed,
        "insurance_ref_enc": meta.insurance_ref_enc,
        "quota_exempt": sorted(entry.quota_exempt),
        "waitlist_position": entry.waitlist_position,
        "checked_in_at": utc(entry.checked_in_at),
        "no_show": entry.no_show,
        "team_name": entry.team_name,
        "intends_to_represent": meta.intends_to_represent,
        "rating": meta.rating,
        "source": meta.source,
        "attributes": meta.attributes,
        "partner_id": meta.partner_id,
    }


async def save_entries(session: AsyncSession, loaded: Loaded) -> list[Entry]:
    """Insert new entries, update changed ones; returns the changed/new entries."""
    changed: list[Entry] = []
    for eid, entry in loaded.reg.entries.items():
        old = loaded.before.get(eid)
        if old is entry or (old is not None and old == entry):  # identity first: most entries are untouched
            continue
        values = _entry_values(entry, loaded.meta[eid])
        if old is None:
            await session.execute(sa.insert(orm.entries).values(**values))
        else:
            values.pop("id")
            await session.execute(sa.update(orm.entries).where(orm.entries.c.id == eid).values(**values))
        changed.append(entry)
    new_officials = loaded.reg.officials[loaded.officials_before :]
    for official in new_officials:
        seq = (
            1
            + sum(1 for x in loaded.reg.officials[: loaded.officials_before] if x.unit_id == official.unit_id)
            + sum(1 for x in new_officials[: new_officials.index(official)] if x.unit_id == official.unit_id)
        )
        await session.execute(
            sa.insert(orm.officials).values(
                event_code=loaded.config.id,
                unit_id=official.unit_id,
                seq=seq,
                role=official.role,
                name=official.name,
                person_id=official.person_id,
            )
        )
    loaded.before = dict(loaded.reg.entries)
    loaded.officials_before = len(loaded.reg.officials)
    return changed


async def delete_entries(session: AsyncSession, ids: list[str]) -> None:
    if ids:
        await session.execute(sa.delete(orm.entries).where(orm.entries.c.id.in_(ids)))


# --------------------------------------------------------------------------- people


def person_from_row(r, protector: DataProtector, *, decrypt: bool = False) -> Person:
    """A domain Person. The ID number is decrypted only when `decrypt` (the domain needs to
    know one exists, not its value); otherwise it carries the masked form."""
    id_number = None
    if r.id_number_enc:
        shown = protector.decrypt(r.id_number_enc) if decrypt else r.id_number_masked
        if shown is None:
            raise ValueError(f"person {r.id}: an encrypted ID number without its masked form")
        id_number = IdNumber(shown)
    return Person(r.id, r.name, r.gender, birth_date_of(r, protector), id_number, r.citizenship, r.registered_unit_id)


async def people_rows(session: AsyncSession, code: str, ids: list[str] | None = None) -> dict[str, Any]:
    query = sa.select(orm.people).where(orm.people.c.event_code == code)
    if ids is not None:
        query = query.where(orm.people.c.id.in_(ids))
    return {r.id: r for r in (await session.execute(query.order_by(orm.people.c.seq))).all()}


#: `person_by_index(..., partner_id=ANY_REGISTRANT)`: staff see every registrant's people
ANY_REGISTRANT = object()


async def person_by_index(session: AsyncSession, code: str, indexes: list[str], *, partner_id: Any):
    """The person with this ID number (any of its `indexes`: one per key during a key rotation) among
    those `partner_id` registered (None: staff-registered; ANY_REGISTRANT: the first registered by
    anyone). A partner never finds another's people."""
    query = sa.select(orm.people).where(orm.people.c.event_code == code, orm.people.c.id_number_index.in_(indexes))
    if partner_id is not ANY_REGISTRANT:
        query = query.where(
            orm.people.c.partner_id.is_(None) if partner_id is None else orm.people.c.partner_id == partner_id
        )
    return (await session.execute(query.order_by(orm.people.c.seq))).first()


async def next_seq(session: AsyncSession, table: sa.Table, code: str, **where: Any) -> int:
    query = sa.select(sa.func.coalesce(sa.func.max(table.c.seq), 0)).where(table.c.event_code == code)
    for key, value in where.items():
        query = query.where(table.c[key] == value)
    return int((await session.execute(query)).scalar_one()) + 1


# --------------------------------------------------------------------------- evidence

_DETAIL_FIELDS = (
    "region",
    "issued_on",
    "months_paid",
    "grade",
    "result_level",
    "result_place",
    "result_event",
    "officially_recognised",
    "employer_unit_id",
    "employed_since",
)


def evidence_details(values: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for key in _DETAIL_FIELDS:
        value = values.get(key)
        if isinstance(value, date):
            value = value.isoformat()
        if isinstance(value, tuple):
            value = list(value)
        out[key] = value
    return out


def evidence_from_row(r) -> Evidence:
    decision = r.details
    return Evidence(
        id=r.id,
        person_id=r.person_id,
        kind=EvidenceKind(r.kind),
        document_ref="[protected]",
        region=decision.get("region"),
        submitted_at=aware(r.submitted_at),
        issued_on=date.fromisoformat(decision["issued_on"]) if decision.get("issued_on") else None,
        months_paid=tuple(decision.get("months_paid") or ()),
        grade=decision.get("grade"),
        result_level=decision.get("result_level"),
        result_place=decision.get("result_place"),
        result_event=decision.get("result_event"),
        officially_recognised=decision.get("officially_recognised", True) is not False,
        employer_unit_id=decision.get("employer_unit_id"),
        employed_since=date.fromisoformat(decision["employed_since"]) if decision.get("employed_since") else None,
        status=EvidenceStatus(r.status),
        reviewed_by=r.reviewed_by,
        review_note=r.review_note,
        reviewed_at=aware(r.reviewed_at),
    )


async def evidence_rows(session: AsyncSession, code: str, person_ids: list[str] | None = None) -> list[Any]:
    query = sa.select(orm.evidence).where(orm.evidence.c.event_code == code)
    if person_ids is not None:
        query = query.where(orm.evidence.c.person_id.in_(person_ids))
    return list((await session.execute(query.order_by(orm.evidence.c.seq))).all())


# --------------------------------------------------------------------------- units


def unit_from_row(r) -> Unit:
    return Unit(r.id, r.name, r.kind, r.region, r.annual_registration, r.is_host)


async def unit_rows(session: AsyncSession, code: str) -> dict[str, Any]:
    query = sa.select(orm.units).where(orm.units.c.event_code == code).order_by(orm.units.c.seq)
    return {r.id: r for r in (await session.execute(query)).all()}


# --------------------------------------------------------------------------- stages


async def stage_rows(session: AsyncSession, code: str) -> dict[str, Any]:
    query = sa.select(orm.stages).where(orm.stages.c.event_code == code)
    return {r.stage_id: r for r in (await session.execute(query)).all()}


async def qualifier_rows(session: AsyncSession, code: str, to_stage: str) -> list[Any]:
    query = sa.select(orm.qualifier_lists).where(
        orm.qualifier_lists.c.event_code == code, orm.qualifier_lists.c.to_stage == to_stage
    )
    return list((await session.execute(query)).all())
