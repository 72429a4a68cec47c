"""Commands of the registration service: request -> domain -> rows + events, in one unit of work.

Every command on an event first locks the event row (`repository.lock_event`), so caps,
waiting lists and idempotency keys are judged one command at a time. Ids are deterministic:
entries `<event>.<stage>.<section>.<nnnn>` by arrival order in the section (next-stage entries
`<event>.<stage>.<player>`), players `<event>.p<nnnnn>`, evidence `<event>.ev<nnnnn>`, change
requests `<event>.chg<nnnn>`. Events carry uuid5 ids derived from what they describe.
"""
from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from gomoku_shared.auth import Principal
from gomoku_shared.contracts.events import EntryAccepted, EntryRefused, EntryWithdrawn, EventConfigured
from gomoku_shared.errors import Conflict, NotFound, ServiceError, Unprocessable
from gomoku_shared.event_config import EventConfig, EventConfigError
from gomoku_shared.runtime import UnitOfWork

from .. import presets
from ..adapters import orm
from ..adapters import repository as repo
from ..adapters.contract_mapping import entrant_for, event_id_for
from ..adapters.protection import DataProtector
from ..domain import (
    REJUDGED, Application, ChangeKind, ChangeRequest, ChangeState, Decision, Entry, EntryStatus, Evidence, IdNumber,
    InsuranceConfirmation, Outcome, Person, RegistrationError, Unit, decide_change, mask_id_number, request_change,
)
from . import schemas as s

log = logging.getLogger("registration.handlers")

STATUS_NAMES = {EntryStatus.ACCEPTED: "accepted", EntryStatus.PENDING_REVIEW: "pending_review",
                EntryStatus.WAITLISTED: "waiting_list", EntryStatus.REFUSED: "refused",
                EntryStatus.WITHDRAWN: "withdrawn"}
#: REG-18: accepted, but on declared evidence an arbiter has still to approve
ACCEPTED_PENDING_EVIDENCE = "accepted_pending_evidence"
VIEW_STATUSES = (*STATUS_NAMES.values(), ACCEPTED_PENDING_EVIDENCE)


def status_name(e: Entry) -> str:
    """The status every view shows: an accepted entry whose admission waits for evidence to be
    approved says so (REG-18)."""
    return ACCEPTED_PENDING_EVIDENCE if e.pending_evidence else STATUS_NAMES[e.status]


def pending_evidence_view(config: EventConfig, e: Entry) -> dict[str, Any] | None:
    """REG-18: by when the evidence must be approved and what happens otherwise (the clause's
    `pending_evidence` configuration), for each player whose admission waits for it."""
    marks = e.pending_evidence
    if not marks:
        return None
    rules = [(d, config.clause(d.clause.rsplit("/", 1)[0]).pending_evidence) for d in marks]
    return {"approve_by": min(pe.approve_by for _, pe in rules).isoformat(),
            "otherwise": rules[0][1].otherwise, "note": rules[0][1].note,
            "players": sorted({d.person_id for d, _ in rules if d.person_id}),
            "clauses": sorted({d.clause for d, _ in rules})}


@dataclass
class Context:
    """What the handlers share across requests: the data key and parsed configurations
    (a configuration never changes once its event is created)."""

    protector: DataProtector
    configs: dict[str, EventConfig] = field(default_factory=dict)
    #: per event, the entries as this process last committed them (a cache checked by version)
    snapshots: dict[str, repo.Snapshot] = field(default_factory=dict)

    def committed(self, cmd: EventCommand) -> None:
        """Called once the command's transaction has committed. Only a fully saved aggregate
        is kept (anything unsaved would make the cache differ from the database)."""
        loaded = cmd.loaded
        saved = loaded.before.keys() == loaded.reg.entries.keys() and all(
            loaded.before[k] is e for k, e in loaded.reg.entries.items()) \
            and loaded.officials_before == len(loaded.reg.officials)
        if saved:
            self.snapshots[cmd.code] = repo.Snapshot.of(cmd.version, loaded, cmd.started_from)
        else:
            self.snapshots.pop(cmd.code, None)

    async def config(self, session, code: str) -> EventConfig:
        if code in self.configs:
            return self.configs[code]
        row = await repo.event_row(session, code)
        if row is None:
            raise NotFound("unknown_event", f"no event {code!r}")
        cfg = EventConfig.model_validate(row.config)
        self.configs[code] = cfg
        return cfg


def owner_of(principal: Principal) -> str | None:
    return principal.partner_id if principal.role == "partner" else None


def may_see(principal: Principal, partner_id: str | None) -> bool:
    return principal.is_staff or (principal.role == "partner" and partner_id == principal.partner_id)


# =========================================================================== events

async def create_event(uow: UnitOfWork, ctx: Context, principal: Principal, body: s.EventIn) -> dict[str, Any]:
    """EVT-1..6: an event from a preset plus overrides; emits event.configured."""
    try:
        config = presets.load(body.preset_id, {**body.overrides, "id": body.event_code})
    except presets.PresetNotFound:
        raise NotFound("unknown_preset", f"no preset {body.preset_id!r}", {"known": presets.list_presets()}) from None
    except EventConfigError as exc:
        raise Unprocessable("invalid_event_config", "the preset with these overrides is not valid",
                            [{"path": i.path, "problem": i.message} for i in exc.issues]) from None
    session = uow.session
    if await repo.event_row(session, body.event_code) is not None:
        raise Conflict("event_exists", f"event {body.event_code!r} exists already")
    now = uow.clock.now()
    await session.execute(sa.insert(orm.events).values(
        code=config.id, preset_id=body.preset_id, name=config.name, config=config.model_dump(mode="json"),
        overrides=body.overrides, created_at=now, created_by=principal.role, lock_version=0))
    for st in config.stages:
        await session.execute(sa.insert(orm.stages).values(
            event_code=config.id, stage_id=st.id,
            status="open" if st.entry == "registration" else "awaiting_qualifiers"))
    ctx.configs[config.id] = config
    uow.emit(EventConfigured(event_code=config.id, name=config.name, preset_id=body.preset_id,
                             config=config.model_dump(mode="json")),
             correlation_id=config.id, event_id=event_id_for("event.configured", config.id))
    return event_view(config, body.preset_id, {st.id: ("open" if st.entry == "registration" else
                                                       "awaiting_qualifiers") for st in config.stages})


def event_view(config: EventConfig, preset_id: str, statuses: Mapping[str, str]) -> dict[str, Any]:
    return {
        "event_code": config.id, "preset_id": preset_id, "name": config.name, "timezone": config.timezone,
        "registration": {"opens_at": config.registration.opens_at.isoformat() if config.registration.opens_at
                         else None, "closes_at": config.registration.closes_at.isoformat(),
                         "required_items": list(config.registration.required_items)},
        "waiting_list": config.waiting_list,
        # REG-17: the residency regions and every spelling accepted for them
        "regions": [{"id": r.id, "name": r.name, "name_zh": r.name_zh, "accepted_names": r.names()}
                    for r in config.regions],
        "eligibility": [{"id": c.id, "rule": c.rule, "region": c.region, "evidence": c.evidence,
                         "pending_evidence": c.pending_evidence.model_dump(mode="json")
                         if c.pending_evidence else None} for c in config.eligibility],
        "stages": [{
            "id": st.id, "name": st.name, "entry": st.entry, "fed_by": st.fed_by, "status": statuses.get(st.id),
            "starts_on": st.starts_on.isoformat(),
            "sections": [{"id": sec.id, "name": sec.name, "kind": sec.kind, "gender": sec.gender,
                          "track": sec.track, "cap": sec.cap,
                          "born_from": sec.birth.born_from.isoformat() if sec.birth.born_from else None,
                          "born_to": sec.birth.born_to.isoformat() if sec.birth.born_to else None,
                          "format_choice": sec.format.choice if sec.format else None,
                          "formats": list(sec.format.allowed) if sec.format else []}
                         for sec in st.sections]} for st in config.stages],
    }


async def get_event(session, ctx: Context, code: str) -> dict[str, Any]:
    config = await ctx.config(session, code)
    row = await repo.event_row(session, code)
    statuses = {k: await stage_status(session, config, k) for k in (st.id for st in config.stages)}
    return event_view(config, row.preset_id, {k: v["status"] for k, v in statuses.items()})


# =========================================================================== event command

@dataclass
class EventCommand:
    """One command on one locked event: the loaded aggregate, people and units touched."""

    uow: UnitOfWork
    ctx: Context
    principal: Principal
    config: EventConfig
    loaded: repo.Loaded
    units: dict[str, Any]
    now: datetime
    people: dict[str, Person] = field(default_factory=dict)
    #: the event's command counter (lock_version): makes event ids unique per command, deterministically
    version: int = 0
    person_seq: int = 0
    evidence_seq: int = 0
    #: the snapshot this command's state came from (None: read from the database)
    started_from: repo.Snapshot | None = None

    @classmethod
    async def begin(cls, uow: UnitOfWork, ctx: Context, principal: Principal, code: str) -> EventCommand:
        session = uow.session
        if not await repo.lock_event(session, code):
            raise NotFound("unknown_event", f"no event {code!r}")
        config = await ctx.config(session, code)
        version = (await session.execute(sa.select(orm.events.c.lock_version).where(
            orm.events.c.code == code))).scalar_one()
        snap = ctx.snapshots.get(code)
        if snap is not None and snap.version == version - 1:
            loaded = snap.loaded(config)   # nothing ran since this process's last commit
        else:
            snap = None
            loaded = await repo.load(session, config, ctx.protector)
        units = await repo.unit_rows(session, code)
        cmd = cls(uow, ctx, principal, config, loaded, units, uow.clock.now())
        cmd.version = version
        cmd.started_from = snap
        cmd.person_seq = await repo.next_seq(session, orm.people, code) - 1
        cmd.evidence_seq = await repo.next_seq(session, orm.evidence, code) - 1
        return cmd

    @property
    def code(self) -> str:
        return self.config.id

    @property
    def session(self):
        return self.uow.session

    @property
    def reg(self):
        return self.loaded.reg

    # ---- visibility

    def entry_for(self, entry_id: str) -> tuple[Entry, repo.EntryMeta]:
        e = self.reg.entries.get(entry_id)
        if e is None or not may_see(self.principal, self.loaded.meta[entry_id].partner_id):
            raise NotFound("unknown_entry", f"no entry {entry_id!r}")
        return e, self.loaded.meta[entry_id]

    # ---- people

    async def load_people(self, ids) -> dict[str, Person]:
        missing = [i for i in ids if i not in self.people]
        if missing:
            rows = await repo.people_rows(self.session, self.code, missing)
            for pid, r in rows.items():
                self.people[pid] = repo.person_from_row(r, self.ctx.protector)
        return {i: self.people[i] for i in ids if i in self.people}

    async def person_for(self, p: s.PlayerIn) -> str:
        """The player's id: found again by the ID number's keyed hash, else created. A partner
        finds only the people it registered itself: another partner's person with the same
        number is invisible (the answer is the one for an unknown number: a new person), so
        no request reveals whether a number is registered elsewhere. Staff find anyone's."""
        index = self.ctx.protector.index(p.id_number) if p.id_number else None
        if index is not None:
            scope = repo.ANY_REGISTRANT if self.principal.is_staff else owner_of(self.principal)
            row = await repo.person_by_index(self.session, self.code, index, partner_id=scope)
            if row is not None:
                if (row.name, row.gender, row.birth_date) != (p.name, p.gender, p.birth_date):
                    raise Conflict("player_mismatch", "a player with this ID number is registered with "
                                   "other personal details")
                self.people[row.id] = repo.person_from_row(row, self.ctx.protector)
                return row.id
        self.person_seq += 1
        pid = f"{self.code}.p{self.person_seq:05d}"
        masked = mask_id_number(p.id_number) if p.id_number else None
        await self.session.execute(sa.insert(orm.people).values(
            event_code=self.code, id=pid, seq=self.person_seq, name=p.name, gender=p.gender,
            birth_date=p.birth_date, citizenship=p.citizenship, registered_unit_id=p.registered_unit_id,
            id_number_enc=self.ctx.protector.encrypt(p.id_number), id_number_index=index,
            id_number_masked=masked, partner_id=owner_of(self.principal)))
        self.people[pid] = Person(pid, p.name, p.gender, p.birth_date, IdNumber(masked) if masked else None,
                                  p.citizenship, p.registered_unit_id)
        return pid

    # ---- units

    async def unit_for(self, ref: str | None, *, create: bool = True) -> Unit | None:
        """A unit by id or by name (own units for a partner); created on first use."""
        if ref is None:
            return None
        mine = [r for r in self.units.values() if may_see(self.principal, r.partner_id)]
        for r in mine:
            if r.id == ref:
                return repo.unit_from_row(r)
        for r in mine:
            if r.name == ref:
                return repo.unit_from_row(r)
        if not create:
            raise NotFound("unknown_unit", f"no unit {ref!r}")
        return await self.create_unit(s.UnitIn(name=ref))

    async def create_unit(self, body: s.UnitIn) -> Unit:
        seq = len(self.units) + 1
        uid = body.id or f"u{seq:03d}"
        if uid in self.units:
            raise Conflict("unit_exists", f"unit {uid!r} exists already")
        values = dict(event_code=self.code, id=uid, seq=seq, name=body.name, kind=body.kind, region=body.region,
                      annual_registration=body.annual_registration, is_host=body.is_host,
                      partner_id=owner_of(self.principal))
        await self.session.execute(sa.insert(orm.units).values(**values))
        self.units[uid] = (await self.session.execute(sa.select(orm.units).where(
            orm.units.c.event_code == self.code, orm.units.c.id == uid))).first()
        return repo.unit_from_row(self.units[uid])

    def all_units(self) -> dict[str, Unit]:
        return {uid: repo.unit_from_row(r) for uid, r in self.units.items()}

    # ---- evidence

    async def add_evidence(self, person_id: str, ev: s.EvidenceIn, entry_id: str | None) -> Evidence:
        self.evidence_seq += 1
        eid = f"{self.code}.ev{self.evidence_seq:05d}"
        details = repo.evidence_details(ev.model_dump())
        await self.session.execute(sa.insert(orm.evidence).values(
            id=eid, event_code=self.code, seq=self.evidence_seq, person_id=person_id, entry_id=entry_id,
            kind=ev.kind, document_ref_enc=self.ctx.protector.encrypt(ev.document_ref), details=details,
            submitted_at=self.now, status="pending", partner_id=owner_of(self.principal)))
        row = (await self.session.execute(sa.select(orm.evidence).where(orm.evidence.c.id == eid))).first()
        return repo.evidence_from_row(row)

    async def evidence_of(self, person_ids) -> list[Evidence]:
        return [repo.evidence_from_row(r) for r in await repo.evidence_rows(self.session, self.code, list(person_ids))]

    # ---- events

    def emit_entry(self, e: Entry) -> None:
        """entry.accepted (also for a waiting-list place) or entry.refused; nothing while pending."""
        meta = self.loaded.meta[e.id]
        stage = meta.stage
        # the entry's state names the event: a re-emission of the same state is the same event
        version = hashlib.sha256(json.dumps([e.status.value, [repo.decision_to_json(d) for d in e.decisions]],
                                            sort_keys=True).encode()).hexdigest()[:16]
        if e.status in (EntryStatus.ACCEPTED, EntryStatus.WAITLISTED):
            sec = self.config.section(e.section_id)
            self.uow.emit(EntryAccepted(
                event_code=self.code, stage=stage, section_id=e.section_id, entry_id=e.id,
                entrant=entrant_for(e, meta, self.people, self.all_units(), sec.kind),
                clause=e.admitted_by or "", waiting_list=e.status is EntryStatus.WAITLISTED,
                **_pending_fields(self.config, e)),
                correlation_id=self.code, event_id=event_id_for("entry.accepted", e.id, self.version, version))
        elif e.status is EntryStatus.REFUSED:
            d = e.refused_by
            names = ", ".join(self.people[p].name for p in e.person_ids if p in self.people)
            self.uow.emit(EntryRefused(
                event_code=self.code, stage=stage, section_id=e.section_id, application_id=e.application_id or e.id,
                entrant_name=e.team_name or names, clause=d.clause if d else "", reason=d.reason if d else ""),
                correlation_id=self.code, event_id=event_id_for("entry.refused", e.id, self.version, version))

    async def save(self) -> list[Entry]:
        changed = await repo.save_entries(self.session, self.loaded)
        await self.load_people({p for e in changed for p in e.person_ids})
        return changed

    # ---- views

    def entry_view(self, e: Entry) -> dict[str, Any]:
        return entry_view(e, self.loaded.meta[e.id], self.people, self.units, self.config)


def _pending_fields(config: EventConfig, e: Entry) -> dict[str, Any]:
    """entry.accepted v1 optional fields (REG-18): admitted on evidence still to be approved."""
    view = pending_evidence_view(config, e)
    if view is None:
        return {}
    return {"evidence_pending": True, "evidence_approve_by": view["approve_by"]}


def _status_clause(e: Entry) -> tuple[str, str]:
    if e.status is EntryStatus.REFUSED and e.refused_by is not None:
        return e.refused_by.clause, e.refused_by.reason
    pend = next((d for d in e.decisions if d.outcome is Outcome.PENDING and d.clause != REJUDGED), None)
    if e.status in (EntryStatus.PENDING_REVIEW, EntryStatus.WAITLISTED) and pend is not None:
        return pend.clause, pend.reason
    if e.status is EntryStatus.WITHDRAWN and e.withdrawal is not None:
        return "changes/withdrawal", e.withdrawal.reason
    clause = e.admitted_by
    reason = next((d.reason for d in e.decisions if d.clause == clause), "") if clause else ""
    return clause, reason


def entry_view(e: Entry, meta: repo.EntryMeta, people: Mapping[str, Person], units: Mapping[str, Any],
               config: EventConfig) -> dict:
    """An entry as the API shows it: ID numbers masked and the birth year only (REG-11: the two
    together must not narrow an ID number down), every decision with its clause."""
    clause, reason = _status_clause(e)
    players = []
    for i, pid in enumerate(e.person_ids):
        p = people.get(pid)
        players.append({"player_id": pid, "name": p.name if p else None, "gender": p.gender if p else None,
                        "birth_year": p.birth_date.year if p else None,
                        "id_number": p.id_number.masked if p and p.id_number else None, "board": i + 1})
    unit = units.get(e.unit_id) if e.unit_id else None
    return {
        "entry_id": e.id, "entrant_id": e.id, "player_id": e.person_ids[0] if len(e.person_ids) == 1 else None,
        "event_code": e.event_id, "stage": meta.stage, "section_id": e.section_id,
        "status": status_name(e), "clause": clause, "reason": reason,
        "pending_evidence": pending_evidence_view(config, e),
        "unit": {"id": unit.id, "name": unit.name} if unit is not None else None,
        "team_name": e.team_name, "players": players, "waitlist_position": e.waitlist_position,
        "received_at": e.received_at.isoformat() if e.received_at else None,
        "checked_in_at": e.checked_in_at.isoformat() if e.checked_in_at else None, "no_show": e.no_show,
        "insurance_confirmed": e.insurance.confirmed, "source": meta.source, "rating": meta.rating,
        "partner_id": meta.partner_id,
        "withdrawal": {"at": e.withdrawal.at.isoformat(), "reason": e.withdrawal.reason,
                       "refund_requested": e.withdrawal.refund_requested} if e.withdrawal else None,
        "decisions": [repo.decision_to_json(d) for d in e.decisions],
    }


# =========================================================================== registration

def _section_and_stage(config: EventConfig, section_id: str, stage: str | None) -> str:
    try:
        st = config.stage_of(section_id)
    except KeyError:
        raise Unprocessable("unknown_section", f"no section {section_id!r} in {config.id}") from None
    if stage is not None and stage != st.id:
        raise Unprocessable("wrong_stage", f"section {section_id!r} belongs to stage {st.id!r}, not {stage!r}")
    return st.id


async def _stage_open(cmd: EventCommand, stage_id: str) -> None:
    rows = await repo.stage_rows(cmd.session, cmd.code)
    if rows.get(stage_id) is not None and rows[stage_id].status == "closed":
        raise Conflict("stage_closed", f"stage {stage_id!r} is closed")


async def submit(cmd: EventCommand, *, section_id: str, stage: str | None, players: list[s.PlayerIn],
                 evidence: list[list[s.EvidenceIn]], facts: list[s.FactsIn], insurance: s.InsuranceIn,
                 items: list[str] | None, unit_ref: str | None, team_name: str | None = None) -> Entry:
    """REG-1..9, REG-13: judge one application (a player, or a team in board order)."""
    config = cmd.config
    stage_id = _section_and_stage(config, section_id, stage)
    await _stage_open(cmd, stage_id)
    unit = await cmd.unit_for(unit_ref)
    person_ids = [await cmd.person_for(p) for p in players]
    seq = 1 + max((m.seq for eid, m in cmd.loaded.meta.items()
                   if cmd.reg.entries[eid].section_id == section_id), default=0)
    entry_id = f"{cmd.code}.{stage_id}.{section_id}.{seq:04d}"
    new_evidence = [await cmd.add_evidence(pid, ev, entry_id) for pid, evs in zip(person_ids, evidence, strict=True) for ev in evs]
    del new_evidence  # stored; read back below with every earlier record of these players
    all_evidence = await cmd.evidence_of(person_ids)
    required = config.registration.required_items
    delivered = items if items is not None else list(required)
    # REG-1: every delivered item arrives now (the service clock); the window is judged on it
    received = {item: cmd.now for item in delivered}
    exempt = {pid: f.quota_exempt_ref for pid, f in zip(person_ids, facts, strict=True) if f.quota_exempt_ref}
    app = Application(
        id=entry_id, section_id=section_id, person_ids=tuple(person_ids), items_received=received,
        unit_id=unit.id if unit else None,
        insurance=InsuranceConfirmation(insurance.confirmed, insurance.document_ref),
        intends_to_represent=any(f.intends_to_represent for f in facts), quota_exempt_refs=exempt,
        team_name=team_name)
    people = await cmd.load_people(person_ids)
    try:
        result = cmd.reg.submit(app, people, evidence=all_evidence, unit=unit, now=cmd.now, entry_id=entry_id)
    except RegistrationError as exc:
        raise Unprocessable("registration_error", str(exc)) from None
    entry = result.entry
    cmd.loaded.meta[entry.id] = repo.EntryMeta(
        stage=stage_id, seq=seq, partner_id=owner_of(cmd.principal),
        intends_to_represent=app.intends_to_represent, rating=max(p.rating for p in players),
        insurance_ref_enc=cmd.ctx.protector.encrypt(insurance.document_ref) if insurance.document_ref else None)
    # the domain keeps the confirmation; the reference itself is stored encrypted (meta)
    entry = replace(entry, insurance=InsuranceConfirmation(insurance.confirmed,
                                                           "[protected]" if insurance.document_ref else None))
    cmd.reg.entries[entry.id] = entry
    cmd.emit_entry(entry)
    return entry


async def submit_individual(cmd: EventCommand, body: s.EntryIn) -> Entry:
    return await submit(cmd, section_id=body.section_id, stage=body.stage, players=[body.player],
                        evidence=[body.evidence], facts=[body.facts], insurance=body.insurance, items=body.items,
                        unit_ref=body.player.unit)


async def submit_team(cmd: EventCommand, body: s.TeamIn) -> Entry:
    """REG-9: a team with its board order fixed at registration (members sorted by board)."""
    members = sorted(body.members, key=lambda m: m.board)
    return await submit(cmd, section_id=body.section_id, stage=body.stage, players=list(members),
                        evidence=[m.evidence for m in members], facts=[m.facts for m in members],
                        insurance=body.insurance, items=body.items, unit_ref=body.unit, team_name=body.team_name)


async def submit_bulk(cmd: EventCommand, body: s.BulkIn) -> list[dict[str, Any]]:
    """All or nothing: a row that errs or is refused fails the whole batch (nothing is kept);
    the report says what each row would have become."""
    report: list[dict[str, Any]] = []
    failed = False
    for i, row in enumerate(body.entries):
        try:
            e = await submit_individual(cmd, row)
        except ServiceError as exc:
            report.append({"row": i, "ok": False, "error": {"code": exc.code, "message": exc.message}})
            failed = True
            continue
        clause, reason = _status_clause(e)
        ok = e.status is not EntryStatus.REFUSED
        failed |= not ok
        report.append({"row": i, "ok": ok, "entry_id": e.id, "entrant_id": e.id, "player_id": e.person_ids[0],
                       "status": status_name(e), "pending_evidence": pending_evidence_view(cmd.config, e),
                       "clause": clause, "reason": reason})
    if failed:
        raise Unprocessable("bulk_rejected", "at least one row failed; no entry of this batch was registered",
                            {"rows": report})
    return report


def submit_response(cmd: EventCommand, e: Entry) -> dict[str, Any]:
    view = cmd.entry_view(e)
    return {k: view[k] for k in ("entry_id", "entrant_id", "player_id", "stage", "section_id", "status", "clause",
                                 "reason", "pending_evidence", "waitlist_position", "players", "decisions")}


# =========================================================================== review / evidence

async def rejudge_player(cmd: EventCommand, person_id: str, cause: str) -> None:
    """REG-18: a player's evidence or facts changed: each registration entry of the player is
    judged again by the domain, while its stage is open (the arbiter's review period runs
    until the close); after the close only the pending-evidence marks are brought up to date."""
    stage_rows = await repo.stage_rows(cmd.session, cmd.code)
    for e in list(cmd.reg.entries.values()):
        meta = cmd.loaded.meta[e.id]
        if person_id not in e.person_ids or meta.source != "registration":
            continue
        row = stage_rows.get(meta.stage)
        people = await cmd.load_people(list(e.person_ids))
        unit = repo.unit_from_row(cmd.units[e.unit_id]) if e.unit_id else None
        cmd.reg.rejudge(e.id, people, evidence=await cmd.evidence_of(e.person_ids), unit=unit,
                        intends_to_represent=meta.intends_to_represent, cause=cause,
                        settled=row is not None and row.status == "closed")


async def correct_facts(cmd: EventCommand, entry_id: str, body: s.FactsCorrectionIn) -> dict[str, Any]:
    """REG-18: corrected facts are judged again, refused entries included. The registrant may
    correct while the window is open and changes need no approval (REG-10); afterwards, until the
    stage closes (the review period), only an arbiter or operator."""
    e, meta = cmd.entry_for(entry_id)
    await _stage_open(cmd, meta.stage)
    if meta.source != "registration":
        raise Unprocessable("not_correctable", "this entry comes from qualification; its facts are those of the "
                            "registration entry")
    needs_approval = cmd.config.changes.approval_required_from == "submission" \
        or cmd.now >= cmd.config.registration.closes_at
    if needs_approval and not cmd.principal.is_staff:
        raise Conflict("change_needs_approval", "facts can no longer be corrected directly: request a change, "
                       "an arbiter decides (REG-10)")
    who = f"{cmd.principal.role}:{cmd.principal.partner_id or cmd.principal.key_id}"
    meta.intends_to_represent = body.intends_to_represent
    await cmd.session.execute(sa.update(orm.entries).where(orm.entries.c.id == entry_id).values(
        intends_to_represent=body.intends_to_represent))
    people = await cmd.load_people(list(e.person_ids))
    unit = repo.unit_from_row(cmd.units[e.unit_id]) if e.unit_id else None
    cmd.reg.rejudge(e.id, people, evidence=await cmd.evidence_of(e.person_ids), unit=unit,
                    intends_to_represent=body.intends_to_represent, cause=f"facts corrected by {who}")
    changed = await cmd.save()
    for x in changed:
        cmd.emit_entry(x)
    return {**cmd.entry_view(cmd.reg.entries[entry_id]), "entries": changed_entries_view(changed)}


def changed_entries_view(changed: list[Entry]) -> list[dict[str, Any]]:
    return [{"entry_id": e.id, "status": status_name(e), "clause": _status_clause(e)[0],
             "reason": _status_clause(e)[1]} for e in changed]


async def evidence_event(session, evidence_id: str) -> str:
    """The event an evidence record belongs to (it never changes)."""
    row = (await session.execute(sa.select(orm.evidence.c.event_code).where(
        orm.evidence.c.id == evidence_id))).first()
    if row is None:
        raise NotFound("unknown_evidence", f"no evidence {evidence_id!r}")
    return row.event_code


async def decide_evidence(cmd: EventCommand, evidence_id: str, body: s.DecisionIn) -> dict[str, Any]:
    """REG-6: the arbiter approves or rejects an evidence record; the player's entries are
    judged again and every decision names its clause."""
    uow, principal = cmd.uow, cmd.principal
    ev_row = (await uow.session.execute(sa.select(orm.evidence).where(orm.evidence.c.id == evidence_id))).first()
    ev = repo.evidence_from_row(ev_row)
    if body.decision == "reject" and not body.note.strip():
        raise Unprocessable("reason_required", "a rejection needs a note saying why")
    arbiter = f"{principal.role}:{principal.key_id}"
    ev = ev.approve(arbiter, body.note or None, at=cmd.now) if body.decision == "approve" \
        else ev.reject(arbiter, body.note, at=cmd.now)
    await uow.session.execute(sa.update(orm.evidence).where(orm.evidence.c.id == evidence_id).values(
        status=ev.status.value, reviewed_by=arbiter, review_note=ev.review_note, reviewed_at=cmd.now))
    await rejudge_player(cmd, ev.person_id, f"evidence {evidence_id} was {ev.status.value} by {arbiter}")
    changed = await cmd.save()
    for e in changed:
        cmd.emit_entry(e)
    # the clause the player now stands under (latest settled residency/representation decision)
    clause = next((d.clause for e in reversed(list(cmd.reg.entries.values())) if ev.person_id in e.person_ids
                   for d in reversed(e.decisions) if d.person_id == ev.person_id
                   and d.rule in ("REG-6", "REG-7", "REG-8") and d.outcome is not Outcome.PENDING), None)
    await uow.session.execute(sa.update(orm.evidence).where(orm.evidence.c.id == evidence_id).values(clause=clause))
    # a qualification stage not yet closed is rebuilt: REG-7 uses verified (approved) evidence
    rebuilt = await rebuild_ready_stages(cmd)
    return {"evidence_id": evidence_id, "status": ev.status.value, "clause": clause,
            "entries": changed_entries_view(changed), "rebuilt_stages": rebuilt}


async def upload_evidence(cmd: EventCommand, body: s.EvidenceUploadIn) -> dict[str, Any]:
    if body.entry_id:
        e, _ = cmd.entry_for(body.entry_id)
        if body.player_id and body.player_id not in e.person_ids:
            raise Unprocessable("player_not_in_entry", "the player is not part of this entry")
        person_id = body.player_id or e.person_ids[0]
        entry_id = e.id
    elif body.player_id:
        entry_id = None
        visible = [e for eid, e in cmd.reg.entries.items() if body.player_id in e.person_ids
                   and may_see(cmd.principal, cmd.loaded.meta[eid].partner_id)]
        if not visible:
            raise NotFound("unknown_player", f"no player {body.player_id!r}")
        person_id = body.player_id
    else:
        raise Unprocessable("player_required", "give entry_id or player_id")
    ev = await cmd.add_evidence(person_id, s.EvidenceIn(**body.model_dump(exclude={"player_id", "entry_id"})),
                                entry_id)
    # REG-18: new material -> the player's entries are judged again (refused ones included)
    await rejudge_player(cmd, person_id, f"evidence {ev.id} arrived")
    changed = await cmd.save()
    for e in changed:
        cmd.emit_entry(e)
    return {**evidence_view(ev, entry_id), "entries": changed_entries_view(changed)}


def evidence_view(ev: Evidence, entry_id: str | None, clause: str | None = None) -> dict[str, Any]:
    return {"evidence_id": ev.id, "player_id": ev.person_id, "entry_id": entry_id, "kind": ev.kind.value,
            "status": ev.status.value, "submitted_at": ev.submitted_at.isoformat() if ev.submitted_at else None,
            "reviewed_by": ev.reviewed_by, "note": ev.review_note, "clause": clause,
            "document": "[protected]"}


async def review_entry(cmd: EventCommand, entry_id: str, body: s.DecisionIn) -> Entry:
    """REG-3 / REG-6: an arbiter settles an entry pending review (host quota, wildcard)."""
    e, _ = cmd.entry_for(entry_id)
    if body.decision == "reject" and not body.note.strip():
        raise Unprocessable("reason_required", "a rejection needs a note saying why")
    try:
        cmd.reg.review(entry_id, approve=body.decision == "approve",
                       arbiter=f"{cmd.principal.role}:{cmd.principal.key_id}", note=body.note)
    except RegistrationError as exc:
        raise Conflict("not_pending", str(exc)) from None
    for changed in await cmd.save():
        cmd.emit_entry(changed)
    return cmd.reg.entries[entry_id]


# =========================================================================== withdrawals / changes

async def withdraw(cmd: EventCommand, entry_id: str, body: s.WithdrawIn) -> dict[str, Any]:
    """REG-10: withdrawal after confirmation with a written reason; REG-2: the waiting list moves up."""
    e, meta = cmd.entry_for(entry_id)
    await _stage_open(cmd, meta.stage)
    try:
        done, promoted = cmd.reg.withdraw(entry_id, reason=body.reason, proof_ref=body.proof_ref, now=cmd.now)
    except RegistrationError as exc:
        raise Unprocessable("withdrawal_refused", str(exc)) from None
    await cmd.session.execute(sa.insert(orm.withdrawals).values(
        entry_id=entry_id, event_code=cmd.code, at=cmd.now, reason=done.withdrawal.reason,
        proof_ref_enc=cmd.ctx.protector.encrypt(body.proof_ref) if body.proof_ref else None,
        refund_requested=done.withdrawal.refund_requested,
        requested_by=f"{cmd.principal.role}:{cmd.principal.partner_id or cmd.principal.key_id}"))
    await cmd.save()
    cmd.uow.emit(EntryWithdrawn(event_code=cmd.code, stage=meta.stage, section_id=e.section_id, entry_id=e.id,
                                entrant_id=e.id, reason=done.withdrawal.reason),
                 correlation_id=cmd.code, event_id=event_id_for("entry.withdrawn", e.id, cmd.version))
    if promoted is not None:
        cmd.emit_entry(promoted)
    return {**cmd.entry_view(cmd.reg.entries[entry_id]),
            "promoted": promoted.id if promoted is not None else None}


def change_view(r) -> dict[str, Any]:
    return {"change_id": r.id, "entry_id": r.entry_id, "kind": r.kind, "details": r.details, "state": r.state,
            "decision": r.decision, "decided_by": r.decided_by,
            "requested_at": repo.aware(r.requested_at).isoformat()}


async def request_change_cmd(cmd: EventCommand, entry_id: str, body: s.ChangeIn) -> dict[str, Any]:
    """REG-10 (changes need the arbiter after the close; none inside the freeze), REG-9 (board order)."""
    e, meta = cmd.entry_for(entry_id)
    n = (await cmd.session.execute(sa.select(sa.func.count()).select_from(orm.change_requests).where(
        orm.change_requests.c.event_code == cmd.code))).scalar_one()
    cid = f"{cmd.code}.chg{n + 1:04d}"
    cr = request_change(cmd.config, e, cid, ChangeKind(body.kind), body.details, cmd.now)
    await cmd.session.execute(sa.insert(orm.change_requests).values(
        id=cid, event_code=cmd.code, entry_id=e.id, kind=cr.kind.value, details=cr.details, requested_at=cmd.now,
        state=cr.state.value, decision=repo.decision_to_json(cr.decision) if cr.decision else None,
        partner_id=meta.partner_id))
    row = (await cmd.session.execute(sa.select(orm.change_requests).where(orm.change_requests.c.id == cid))).first()
    return change_view(row)


async def decide_change_cmd(uow: UnitOfWork, ctx: Context, principal: Principal, change_id: str,
                            body: s.DecisionIn) -> dict[str, Any]:
    row = (await uow.session.execute(sa.select(orm.change_requests).where(
        orm.change_requests.c.id == change_id))).first()
    if row is None:
        raise NotFound("unknown_change", f"no change request {change_id!r}")
    cmd = await EventCommand.begin(uow, ctx, principal, row.event_code)
    e = cmd.reg.entries[row.entry_id]
    cr = ChangeRequest(row.id, row.entry_id, ChangeKind(row.kind), repo.aware(row.requested_at), row.details,
                       ChangeState(row.state), repo.decision_from_json(row.decision) if row.decision else None,
                       row.decided_by)
    arbiter = f"{principal.role}:{principal.key_id}"
    try:
        done = decide_change(cmd.config, e, cr, approve=body.decision == "approve", arbiter=arbiter,
                             note=body.note, now=cmd.now)
    except RegistrationError as exc:
        raise Conflict("change_decided", str(exc)) from None
    await uow.session.execute(sa.update(orm.change_requests).where(orm.change_requests.c.id == change_id).values(
        state=done.state.value, decision=repo.decision_to_json(done.decision) if done.decision else None,
        decided_by=arbiter, decided_at=cmd.now))
    row = (await uow.session.execute(sa.select(orm.change_requests).where(
        orm.change_requests.c.id == change_id))).first()
    return change_view(row)


# =========================================================================== units

async def add_unit(cmd: EventCommand, body: s.UnitIn) -> dict[str, Any]:
    """REG-3: a unit with at most the configured leader and coaches."""
    unit = await cmd.create_unit(body)
    decisions = []
    if body.leader:
        decisions.append(cmd.reg.add_official(unit, "leader", body.leader))
    for c in body.coaches:
        decisions.append(cmd.reg.add_official(unit, "coach", c))
    if any(d.refused for d in decisions):
        raise Unprocessable("officials_refused", "; ".join(d.reason for d in decisions if d.refused),
                            [repo.decision_to_json(d) for d in decisions])
    await cmd.save()
    return unit_view(cmd, unit.id, decisions)


async def add_official(cmd: EventCommand, unit_id: str, body: s.OfficialIn) -> dict[str, Any]:
    unit = await cmd.unit_for(unit_id, create=False)
    d = cmd.reg.add_official(unit, body.role, body.name, body.person_id)
    if d.refused:
        raise Unprocessable("official_refused", d.reason, repo.decision_to_json(d))
    await cmd.save()
    return unit_view(cmd, unit.id, [d])


def unit_view(cmd: EventCommand, unit_id: str, decisions: list[Decision] = ()) -> dict[str, Any]:
    return render_unit(cmd.units[unit_id], cmd.reg, decisions)


def render_unit(r, reg, decisions: list[Decision] = ()) -> dict[str, Any]:
    return {"unit_id": r.id, "name": r.name, "kind": r.kind, "region": r.region,
            "annual_registration": r.annual_registration, "is_host": r.is_host,
            "officials": [{"role": o.role, "name": o.name, "person_id": o.person_id}
                          for o in reg.officials if o.unit_id == r.id],
            "players": sorted(reg.delegation(r.id)),
            "decisions": [repo.decision_to_json(d) for d in decisions]}


# =========================================================================== check-in

async def check_in(cmd: EventCommand, stage_id: str, body: s.CheckInIn) -> dict[str, Any]:
    """REG-11: check-in before the stage; the arbiter marks no-shows, who are not paired."""
    try:
        cmd.config.stage(stage_id)
    except KeyError:
        raise NotFound("unknown_stage", f"no stage {stage_id!r}") from None
    await _stage_open(cmd, stage_id)
    arbiter = f"{cmd.principal.role}:{cmd.principal.key_id}"
    out = []
    for eid in list(body.entry_ids) + list(body.no_show):
        e, meta = cmd.entry_for(eid)
        if meta.stage != stage_id:
            raise Unprocessable("wrong_stage", f"entry {eid} is in stage {meta.stage}")
    for eid in body.entry_ids:
        try:
            d = cmd.reg.check_in(eid, now=cmd.now, documents_shown=body.documents_shown,
                                 insurance_ref=body.insurance_refs.get(eid),
                                 arbiter_override=arbiter if body.override else None)
        except RegistrationError as exc:
            out.append({"entry_id": eid, "status": "refused", "clause": "check_in", "reason": str(exc)})
            continue
        if d.admitted and body.insurance_refs.get(eid):
            # REG-13 (NT): the policy shown at check-in, kept encrypted like every document reference
            cmd.loaded.meta[eid].insurance_ref_enc = cmd.ctx.protector.encrypt(body.insurance_refs[eid])
            cmd.reg.entries[eid] = replace(cmd.reg.entries[eid], insurance=InsuranceConfirmation(True, "[protected]"))
        out.append({"entry_id": eid, "status": "checked_in" if d.admitted else "refused", "clause": d.clause,
                    "reason": d.reason})
    for eid in body.no_show:
        cmd.reg.mark_no_show(eid, arbiter=arbiter)
        out.append({"entry_id": eid, "status": "no_show", "clause": "no_show", "reason": f"marked absent by {arbiter}"})
    await cmd.save()
    return {"stage": stage_id, "results": out}


# =========================================================================== stage state (forward refs)

from .stages import rebuild_ready_stages, stage_status  # noqa: E402  (stages imports this module's helpers)
