"""One command on one locked event: the loaded aggregate, the people and units it touches,
deterministic ids and the events it emits.

Every command on an event first locks the event row (`EventRepository.lock`), so caps, waiting
lists and idempotency keys are judged one command at a time. Ids are deterministic: players
`<event>.p<nnnnn>`, evidence `<event>.ev<nnnnn>`, units `u<nnn>`. Events carry uuid5 ids
derived from what they describe.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from gomoku_shared.auth import Principal
from gomoku_shared.contracts.events import EntryAccepted, EntryRefused
from gomoku_shared.errors import Conflict, NotFound, Unprocessable
from gomoku_shared.event_access import check_partner
from gomoku_shared.event_config import EventConfig

from ..adapters import repository as repo
from ..adapters.contract_mapping import entrant_for, event_id_for
from ..domain import Entry, EntryStatus, Evidence, IdNumber, Person, PreviousTop, Unit, mask_id_number
from ..domain.rating_band import reads_rating_bands
from . import forms as s
from . import record
from .people_registry import link_person
from .rendering import entry_view, pending_fields
from .state import RegistrationState, external_ids_seen, may_see, owner_of
from .unit_of_work import RegistrationUnitOfWork


@dataclass
class EventCommand:
    """One command on one locked event: the loaded aggregate, people and units touched."""

    uow: RegistrationUnitOfWork
    state: RegistrationState
    principal: Principal
    config: EventConfig
    loaded: repo.Loaded
    units: dict[str, Any]
    now: datetime
    people: dict[str, Person] = field(default_factory=dict)
    #: the caller's own user ids for the people it registered (a partner's only: see external_ids_seen)
    external_ids: dict[str, str] = field(default_factory=dict)
    #: person -> (the partner that registered it, that partner's user id for it), whoever the
    #: caller is: the entry events carry the entry's partner's own ids (its entry.decided webhook)
    registrant_ids: dict[str, tuple[str | None, str]] = field(default_factory=dict)
    #: the event's command counter (lock_version): makes event ids unique per command, deterministically
    version: int = 0
    person_seq: int = 0
    evidence_seq: int = 0
    #: section -> the last entry number given in it (read once per command, then counted on)
    entry_seqs: dict[str, int] = field(default_factory=dict)
    #: the snapshot this command's state came from (None: read from the database)
    started_from: repo.Snapshot | None = None
    #: issue 29: the command changed who may act on the event (the replica's cache forgets it)
    access_changed: bool = False
    #: REG-16: the loaded list of the previous top N, read once per command ((None,): none loaded)
    _previous_top: tuple[PreviousTop | None] | None = None
    #: issue 32: the registry person each person of `people` stands as (the facts sent name it)
    registry_ids: dict[str, str] = field(default_factory=dict)
    #: issue 32: registry id → published rating, and the registry ids already looked up
    seed_ratings: dict[str, int] = field(default_factory=dict)
    ratings_seen: set[str] = field(default_factory=set)
    _has_ratings: bool | None = None
    #: issue 32: the organisation that owns the event (its registry), read once per command
    _organisation: str | None = None
    #: issue 34: the unit whose delegation's secret link the caller proved (it acts on it alone)
    own_unit: str | None = None

    @classmethod
    async def begin(
        cls, uow: RegistrationUnitOfWork, state: RegistrationState, principal: Principal, code: str
    ) -> EventCommand:
        if not await uow.events.lock(code):
            raise NotFound("unknown_event", f"no event {code!r}")
        if principal.role == "partner":  # issue 29: only the partner apps the organiser chose act here
            check_partner(principal, await uow.access.get(code))
        config = await state.config(uow, code)
        version = await uow.events.version(code)
        snap = state.snapshots.get(code)
        if snap is not None and snap.version == version - 1:
            loaded = snap.loaded(config)  # nothing ran since this process's last commit
        else:
            snap = None
            loaded = await uow.entries.load(config)
        units = await uow.units.rows(code)
        cmd = cls(uow, state, principal, config, loaded, units, uow.clock.now())
        cmd.version = version
        cmd.started_from = snap
        cmd.person_seq = await uow.people.last_seq(code)
        cmd.evidence_seq = await uow.evidence.last_seq(code)
        return cmd

    @property
    def code(self) -> str:
        return self.config.id

    async def previous_top(self) -> PreviousTop | None:
        """REG-16 (NY 七(三)): the list a quota exemption is checked against, None if none is loaded."""
        if self._previous_top is None:
            loaded = await self.uow.exemptions.in_force(self.code)
            self._previous_top = (await record.previous_top(self, loaded),)  # issue 32: the record first
        return self._previous_top[0]

    async def organisation(self) -> str:
        """The organisation that owns the event (issue 29), whose registry its people are in."""
        if self._organisation is None:
            self._organisation = (await self.uow.access.get(self.code)).organisation
        return self._organisation

    @property
    def reg(self):
        return self.loaded.reg

    def next_entry_seq(self, section_id: str) -> int:
        """The number of the section's next entry: one past the highest it has (`entry_seqs`
        remembers it once an entry took a number, so a batch does not scan the section again)."""
        if section_id not in self.entry_seqs:
            meta = self.loaded.meta
            entries = self.reg.book.of_section(section_id)
            self.entry_seqs[section_id] = max((meta[e.id].seq for e in entries if e.id in meta), default=0)
        return self.entry_seqs[section_id] + 1

    # ---- visibility

    def entry_for(self, entry_id: str) -> tuple[Entry, repo.EntryMeta]:
        entry = self.reg.entries.get(entry_id)
        if entry is None or not may_see(self.principal, self.loaded.meta[entry_id].partner_id):
            raise NotFound("unknown_entry", f"no entry {entry_id!r}")
        return entry, self.loaded.meta[entry_id]

    # ---- people

    async def load_people(self, ids) -> dict[str, Person]:
        missing = [i for i in ids if i not in self.people]
        if missing:
            rows = await self.uow.people.rows(self.code, missing)
            for pid, row in rows.items():
                self.people[pid] = repo.person_from_row(row, self.state.protector)
                self._note_registrant(row)
            self.external_ids |= external_ids_seen(self.principal, rows)
            self.registry_ids |= await self.uow.registry.registry_ids(self.code, missing)
            await self._look_up_ratings()
        return {i: self.people[i] for i in ids if i in self.people}

    async def _look_up_ratings(self) -> None:
        """Issue 32: the published ratings of the registry people not looked up yet (entries
        carry them, the TRF rating column), unless the event neither seeds by rating nor has a
        rating band (entry or prizes)."""
        if not self.config.ratings.seed and not reads_rating_bands(self.config):
            return
        if self._has_ratings is None:  # once per command: most organisations publish none
            self._has_ratings = await self.uow.ratings.has_list(await self.organisation())
        new = set(self.registry_ids.values()) - self.ratings_seen
        if new and self._has_ratings:
            self.ratings_seen |= new
            self.seed_ratings |= await self.uow.ratings.ratings(await self.organisation(), new)

    def published_ratings(self) -> dict[str, int] | None:
        """Each player's published rating (player id → rating) of those who have one; None: the
        event does not seed by rating."""
        if not self.config.ratings.seed:
            return None
        return {pid: self.seed_ratings[rid] for pid, rid in self.registry_ids.items() if rid in self.seed_ratings}

    def listed_ratings(self, player_ids: Iterable[str] | None = None) -> dict[str, int]:
        """Issue 32 rating bands: each player's published rating (player id → rating, of those
        of ``player_ids`` or of everyone looked up who have one), whatever the seeding."""
        ids = list(self.registry_ids) if player_ids is None else player_ids
        rids = {pid: rid for pid in ids if (rid := self.registry_ids.get(pid)) is not None}
        return {pid: self.seed_ratings[rid] for pid, rid in rids.items() if rid in self.seed_ratings}

    async def person_for(self, p: s.PlayerIn) -> str:
        """The player's id: found again by the ID number's keyed hash, else created. A partner
        finds only the people it registered itself: another partner's person with the same
        number is invisible (the answer is the one for an unknown number: a new person), so
        no request reveals whether a number is registered elsewhere. Staff find anyone's."""
        if p.external_id is not None and self.principal.role != "partner":
            raise Unprocessable("external_id_partner_only", "external_id is a partner's own user id: partners set it")
        if p.id_number:
            scope = repo.ANY_REGISTRANT if self.principal.is_staff else owner_of(self.principal)
            row = await self.uow.people.by_id_number(self.code, p.id_number, partner_id=scope)
            if row is not None:
                person = repo.person_from_row(row, self.state.protector)
                if (person.name, person.gender, person.birth_date) != (p.name, p.gender, p.birth_date):
                    raise Conflict(
                        "player_mismatch", "a player with this ID number is registered with other personal details"
                    )
                self.people[row.id] = person
                self._note_registrant(row)
                self.registry_ids |= await self.uow.registry.registry_ids(self.code, [row.id])
                await self._look_up_ratings()
                await self._external_id(p.external_id, row)
                return row.id
        await self._external_id(p.external_id, None)
        self.person_seq += 1
        pid = f"{self.code}.p{self.person_seq:05d}"
        masked = mask_id_number(p.id_number) if p.id_number else None
        await self.uow.people.add(
            event_code=self.code,
            id=pid,
            seq=self.person_seq,
            name=p.name,
            gender=p.gender,
            birth_date=p.birth_date,
            citizenship=p.citizenship,
            registered_unit_id=p.registered_unit_id,
            id_number=p.id_number,
            id_number_masked=masked,
            partner_id=owner_of(self.principal),
            external_id=p.external_id,
        )
        self.registry_ids[pid] = await link_person(
            self.uow.registry,
            await self.organisation(),
            self.code,
            pid,
            name=p.name,
            gender=p.gender,
            birth_date=p.birth_date,
            id_number=p.id_number,
            now=self.now,
        )
        await self._look_up_ratings()
        if p.external_id is not None:
            self.external_ids[pid] = p.external_id
            self.registrant_ids[pid] = (owner_of(self.principal), p.external_id)
        self.people[pid] = Person(
            pid,
            p.name,
            p.gender,
            p.birth_date,
            IdNumber(masked) if masked else None,
            p.citizenship,
            p.registered_unit_id,
        )
        return pid

    async def _external_id(self, external_id: str | None, row: Any) -> None:
        """The partner's user id for the person ``row`` (None: a new person): one person per
        external id in a partner's records; a person keeps the external id it was given."""
        if external_id is None:
            if row is not None:
                self.external_ids |= external_ids_seen(self.principal, {row.id: row})
            return
        if row is not None and row.external_id is not None:
            if row.external_id != external_id:
                raise Conflict("external_id_mismatch", "this player is registered with another external_id")
            self.external_ids[row.id] = external_id
            return
        holder = await self.uow.people.by_external_id(self.code, owner_of(self.principal) or "", external_id)
        if holder is not None:
            raise Conflict("external_id_taken", "another of your players is registered with this external_id")
        if row is not None:
            await self.uow.people.set_external_id(self.code, row.id, external_id)
            self.external_ids[row.id] = external_id
            self.registrant_ids[row.id] = (row.partner_id, external_id)

    def _note_registrant(self, row: Any) -> None:
        if row.external_id is not None:
            self.registrant_ids[row.id] = (row.partner_id, row.external_id)

    def partner_external_ids(self, e: Entry, partner_id: str | None) -> dict[str, str]:
        """The user ids ``partner_id`` gave the entry's people (none for a staff entry)."""
        if partner_id is None:
            return {}
        found = {pid: self.registrant_ids.get(pid) for pid in e.person_ids}
        return {pid: held[1] for pid, held in found.items() if held is not None and held[0] == partner_id}

    # ---- units

    async def unit_for(self, ref: str | None) -> Unit | None:
        """A unit by id or by name (own units for a partner); created on first use."""
        if ref is None:
            return None
        return self._visible_unit(ref) or await self.create_unit(s.UnitIn(name=ref))

    def existing_unit(self, ref: str) -> Unit:
        """A unit by id or by name (own units for a partner) that must exist already."""
        unit = self._visible_unit(ref)
        if unit is None:
            raise NotFound("unknown_unit", f"no unit {ref!r}")
        return unit

    def _visible_unit(self, ref: str) -> Unit | None:
        mine = [r for r in self.units.values() if may_see(self.principal, r.partner_id) or r.id == self.own_unit]
        for row in mine:
            if row.id == ref:
                return repo.unit_from_row(row)
        for row in mine:
            if row.name == ref:
                return repo.unit_from_row(row)
        return None

    async def create_unit(self, body: s.UnitIn) -> Unit:
        seq = len(self.units) + 1
        uid = body.id or f"u{seq:03d}"
        if uid in self.units:
            raise Conflict("unit_exists", f"unit {uid!r} exists already")
        values = dict(
            event_code=self.code,
            id=uid,
            seq=seq,
            name=body.name,
            kind=body.kind,
            region=body.region,
            annual_registration=body.annual_registration,
            is_host=body.is_host,
            partner_id=owner_of(self.principal),
        )
        self.units[uid] = await self.uow.units.add(**values)
        return repo.unit_from_row(self.units[uid])

    def all_units(self) -> dict[str, Unit]:
        return {uid: repo.unit_from_row(r) for uid, r in self.units.items()}

    # ---- evidence

    async def add_evidence(self, person_id: str, ev: s.EvidenceIn, entry_id: str | None) -> Evidence:
        self.evidence_seq += 1
        eid = f"{self.code}.ev{self.evidence_seq:05d}"
        details = repo.evidence_details(dataclasses.asdict(ev))
        row = await self.uow.evidence.add(
            id=eid,
            event_code=self.code,
            seq=self.evidence_seq,
            person_id=person_id,
            entry_id=entry_id,
            kind=ev.kind,
            document_ref=ev.document_ref,
            details=details,
            submitted_at=self.now,
            status="pending",
            partner_id=owner_of(self.principal),
        )
        return repo.evidence_from_row(row)

    async def evidence_of(self, person_ids) -> list[Evidence]:
        """The people's evidence, and what the federation's record proves (issue 32: SZ 六(4))."""
        stored = [repo.evidence_from_row(r) for r in await self.uow.evidence.rows(self.code, list(person_ids))]
        return stored + await record.evidence_on_record(self, person_ids)

    # ---- stages

    async def ensure_stage_open(self, stage_id: str) -> None:
        rows = await self.uow.events.stages(self.code)
        if rows.get(stage_id) is not None and rows[stage_id].status == "closed":
            raise Conflict("stage_closed", f"stage {stage_id!r} is closed")

    # ---- events

    def emit_entry(self, e: Entry) -> None:
        """entry.accepted (also for a waiting-list place) or entry.refused; nothing while pending."""
        meta = self.loaded.meta[e.id]
        stage = meta.stage
        # the entry's state names the event: a re-emission of the same state is the same event
        version = hashlib.sha256(
            json.dumps([e.status.value, [repo.decision_to_json(d) for d in e.decisions]], sort_keys=True).encode()
        ).hexdigest()[:16]
        if e.status in (EntryStatus.ACCEPTED, EntryStatus.WAITLISTED):
            sec = self.config.section(e.section_id)
            self.uow.emit(
                EntryAccepted(
                    event_code=self.code,
                    stage=stage,
                    section_id=e.section_id,
                    entry_id=e.id,
                    entrant=entrant_for(
                        e, meta, self.people, self.all_units(), sec.kind, self.registry_ids, self.published_ratings()
                    ),
                    clause=e.admitted_by or "",
                    waiting_list=e.status is EntryStatus.WAITLISTED,
                    external_ids=self.partner_external_ids(e, meta.partner_id),
                    **pending_fields(self.config, e),
                ),
                correlation_id=self.code,
                event_id=event_id_for("entry.accepted", e.id, self.version, version),
            )
        elif e.status is EntryStatus.REFUSED:
            d = e.refused_by
            names = ", ".join(self.people[p].name for p in e.person_ids if p in self.people)
            self.uow.emit(
                EntryRefused(
                    event_code=self.code,
                    stage=stage,
                    section_id=e.section_id,
                    application_id=e.application_id or e.id,
                    entrant_name=e.team_name or names,
                    clause=d.clause if d else "",
                    reason=d.reason if d else "",
                    entry_id=e.id,
                    partner_id=meta.partner_id,
                    external_ids=self.partner_external_ids(e, meta.partner_id),
                ),
                correlation_id=self.code,
                event_id=event_id_for("entry.refused", e.id, self.version, version),
            )

    async def save(self) -> list[Entry]:
        changed = await self.uow.entries.save(self.loaded)
        await self.load_people({p for e in changed for p in e.person_ids})
        return changed

    # ---- views

    def entry_view(self, e: Entry) -> dict[str, Any]:
        registry = self.registry_ids if self.principal.is_staff else None  # issue 32: staff only
        return entry_view(e, self.loaded.meta[e.id], self.people, self.units, self.config, self.external_ids, registry)
