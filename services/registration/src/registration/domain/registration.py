"""Entries of one event (REG-1, REG-2, REG-3, REG-9, REG-13, with REG-4..8 via eligibility).

`EventRegistration` is the aggregate the service layer loads, changes through its methods and
saves. It holds the event configuration, the entries and the units' officials. It never reads
the clock: every command takes `now` (timezone-aware).

A refusal is a *result* (an entry with status REFUSED and its decisions), not an exception;
exceptions (`RegistrationError`) are for commands that make no sense in the current state.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from gomoku_shared.event_config import EventConfig, SectionConfig, StageConfig

from .application_checks import _aware, check_individual, check_insurance, check_stage_entry, check_team, check_window
from .delegations import Official, check_unit, judge_official, quota_exemptions
from .eligibility import evaluate_player, pending_evidence_decision
from .entry_book import EntryBook
from .errors import RegistrationError, UnknownEntry, UnknownSection
from .model import (
    REJUDGED,
    Application,
    Decision,
    Entry,
    EntryStatus,
    Evidence,
    Person,
    Unit,
    Verdict,
    combine,
)
from .places import check_cap
from .previous_top import PreviousTop
from .rating_band import rating_band_decisions
from .rejudging import (
    STATUS_OF,
    judged_outcome,
    may_be_judged_again,
    rejudged_decision,
    rejudged_entry,
    standing_decisions,
    with_current_marks,
)

#: the residency and representation rules, whose evidence an arbiter approves
RESIDENCY_RULES = frozenset({"REG-6", "REG-7", "REG-8"})


@dataclass(frozen=True)
class SubmitResult:
    entry: Entry

    @property
    def outcome(self) -> Verdict:
        return combine(self.entry.decisions)

    @property
    def accepted(self) -> bool:
        return self.entry.status is EntryStatus.ACCEPTED

    @property
    def reasons(self) -> list[str]:
        return self.entry.refusal_reasons


# --------------------------------------------------------------------------- aggregate


@dataclass
class EventRegistration:
    """All entries and officials of one event; the consistency boundary for caps and quotas."""

    config: EventConfig
    entries: dict[str, Entry] = field(default_factory=EntryBook)
    officials: list[Official] = field(default_factory=list)

    # ---- queries

    def section(self, section_id: str) -> SectionConfig:
        try:
            return self.config.section(section_id)
        except KeyError:
            raise UnknownSection(section_id) from None

    def entry(self, entry_id: str) -> Entry:
        try:
            return self.entries[entry_id]
        except KeyError:
            raise UnknownEntry(entry_id) from None

    @property
    def book(self) -> EntryBook:
        """The entries with their indexes (a plain dict given or assigned is indexed once)."""
        if not isinstance(self.entries, EntryBook):
            self.entries = EntryBook(self.entries)
        return self.entries

    def __post_init__(self) -> None:
        self.book  # noqa: B018  index the entries given

    def in_section(self, section_id: str, *statuses: EntryStatus) -> list[Entry]:
        """Entries of a section in submission order, optionally filtered by status."""
        return [e for e in self.book.of_section(section_id) if not statuses or e.status in statuses]

    def holding_places(self, section_id: str) -> list[Entry]:
        return [e for e in self.in_section(section_id) if e.status.holds_place]

    def waiting_list(self, section_id: str) -> list[Entry]:
        return sorted(self.in_section(section_id, EntryStatus.WAITLISTED), key=lambda e: e.waitlist_position or 0)

    def delegation(self, unit_id: str) -> set[str]:
        """Players a unit has in the event (held places), counted once each."""
        return self.book.unit_players(unit_id)

    def quota_players(self, unit_id: str) -> set[str]:
        """REG-3: players that count against the delegation quota (exempt ones excluded)."""
        return self.delegation(unit_id) - self.book.unit_exempt(unit_id)

    # ---- commands

    def submit(
        self,
        app: Application,
        people: Mapping[str, Person],
        *,
        evidence: Sequence[Evidence] = (),
        unit: Unit | None = None,
        now: datetime,
        entry_id: str | None = None,
        previous_top: PreviousTop | None = None,
    ) -> SubmitResult:
        """Judge an application and record the resulting entry (accepted, pending review,
        waitlisted or refused). Every judged rule is in `entry.decisions`. `previous_top`: the
        list a quota exemption is checked against (REG-16, NY 七(三)), where one is loaded."""
        _aware(now)
        event = self.config
        section = self.section(app.section_id)
        stage = event.stage_of(section.id)
        try:
            members = [people[pid] for pid in app.person_ids]
        except KeyError as exc:
            raise RegistrationError(f"unknown person {exc.args[0]!r}") from None
        if unit is not None and app.unit_id not in (None, unit.id):
            raise RegistrationError("application unit and given unit differ")
        decisions, received = self._judge_application(app, section, stage, members, evidence, unit, previous_top)
        status = STATUS_OF[combine(decisions)]
        waitpos = None
        if status is not EntryStatus.REFUSED:
            cap_decision, status, waitpos = self._check_cap(section, status)
            decisions.append(cap_decision)
        exempt = frozenset(quota_exemptions(event.units, app, members, previous_top)[0])  # REG-16
        entry = Entry(
            id=entry_id or f"{event.id}:{app.id}",
            event_id=event.id,
            section_id=section.id,
            person_ids=tuple(app.person_ids),
            unit_id=app.unit_id,
            status=status,
            received_at=received,
            decisions=tuple(decisions),
            insurance=app.insurance,
            quota_exempt=exempt,
            waitlist_position=waitpos,
            application_id=app.id,
            team_name=app.team_name,
        )
        if entry.id in self.entries:
            raise RegistrationError(f"entry {entry.id} exists already")
        self.entries[entry.id] = entry
        return SubmitResult(entry)

    def _judge_application(
        self,
        app: Application,
        section: SectionConfig,
        stage: StageConfig,
        members: Sequence[Person],
        evidence: Sequence[Evidence],
        unit: Unit | None,
        previous_top: PreviousTop | None = None,
    ) -> tuple[list[Decision], datetime | None]:
        """Every rule of a new application but the cap (EVT-6, REG-1, REG-13, REG-3, REG-9,
        then each player's eligibility), and when the complete application was received."""
        decisions = check_stage_entry(stage)
        window, received = check_window(self.config, app)
        decisions.append(window)
        decisions.append(check_insurance(self.config, app, members))
        decisions.extend(check_unit(self.config.units, app, unit, members, self.quota_players, previous_top))
        decisions.extend(check_individual(section, members))
        if section.kind == "team":
            decisions.extend(check_team(section, members, self.entries.values(), app.unit_id))
        for person in members:
            if self._has_place_or_waits(section.id, person.id):
                decisions.append(
                    Decision(
                        "REG-3",
                        f"{section.id}/duplicate",
                        Verdict.REFUSED,
                        f"{person.name} already has an entry in {section.name}",
                        person.id,
                    )
                )
            report = evaluate_player(
                self.config,
                section.id,
                person,
                [e for e in evidence if e.person_id == person.id],
                unit=unit,
                intends_to_represent=app.intends_to_represent,
            )
            decisions.extend(report.decisions)
        decisions.extend(rating_band_decisions(section, members, app.published_ratings))  # issue 32
        return decisions, received

    def _has_place_or_waits(self, section_id: str, person_id: str, other_than: str | None = None) -> bool:
        """REG-3: one entry per player and section — one holding a place or waiting for one."""
        return bool(self.book.seats(section_id, person_id) - {other_than})

    def _check_cap(self, section: SectionConfig, status: EntryStatus) -> tuple[Decision, EntryStatus, int | None]:
        """REG-2: stop at the cap; the next one gets a waiting-list place if enabled."""
        return check_cap(
            section,
            status,
            held=self.book.held(section.id),
            waiting=self.book.waiting(section.id),
            waiting_list=self.config.waiting_list,
        )

    def promote_from_waiting_list(self, section_id: str) -> Entry | None:
        """REG-2: when a place frees up, the first waitlisted entry takes it (if eligible otherwise)."""
        section = self.section(section_id)
        if section.cap is not None and self.book.held(section_id) >= section.cap:
            return None
        queue = self.waiting_list(section_id)
        if not queue:
            return None
        first = queue[0]
        others = tuple(d for d in first.decisions if d.rule != "REG-2")
        judged = [d for d in others if d.clause != REJUDGED]
        status = EntryStatus.PENDING_REVIEW if combine(judged) is Verdict.PENDING else EntryStatus.ACCEPTED
        promoted = replace(
            first,
            status=status,
            waitlist_position=None,
            decisions=others
            + (Decision("REG-2", f"{section_id}/waiting_list", Verdict.ADMITTED, "promoted from the waiting list"),),
        )
        self.entries[first.id] = promoted
        for entry in queue[1:]:
            self.entries[entry.id] = replace(entry, waitlist_position=(entry.waitlist_position or 1) - 1)
        return promoted

    def review(self, entry_id: str, *, approve: bool, arbiter: str, note: str) -> Entry:
        """An arbiter/organiser settles a PENDING_REVIEW entry (wildcard evidence, host quota)."""
        entry = self.entry(entry_id)
        if entry.status is not EntryStatus.PENDING_REVIEW:
            raise RegistrationError(f"entry {entry_id} is {entry.status.value}, not pending review")
        decision = Decision(
            "REG-6"
            if any(x.clause.endswith("/wildcard") and x.outcome is Verdict.PENDING for x in entry.decisions)
            else "REG-3",
            "arbiter/review",
            Verdict.ADMITTED if approve else Verdict.REFUSED,
            f"{'approved' if approve else 'refused'} by {arbiter}: {note}",
        )
        new = replace(
            entry,
            status=EntryStatus.ACCEPTED if approve else EntryStatus.REFUSED,
            decisions=entry.decisions + (decision,) + (self._still_unapproved(entry.decisions) if approve else ()),
        )
        self.entries[entry_id] = new
        if not approve:
            self.promote_from_waiting_list(entry.section_id)
        return new

    def rejudge(
        self,
        entry_id: str,
        people: Mapping[str, Person],
        *,
        evidence: Sequence[Evidence],
        unit: Unit | None,
        intends_to_represent: bool,
        cause: str,
        settled: bool = False,
    ) -> Entry | None:
        """REG-18: judge an entry's eligibility again because an input changed (evidence
        arrived, approved or rejected; facts corrected), refused entries included when
        eligibility refused them. Materials count by the time they arrive (SZ 十三(二)): in a
        registration stage, evidence received at or after the close is not counted.

        Only the eligibility decisions are judged again; the application's other decisions
        (window, insurance, unit, team) and the arbiter's own decisions stand. An entry that
        gains a place takes it like a new one (cap, waiting list, one entry per player); one
        that loses it frees it for the waiting list. `settled` (the stage is closed, the field
        is fixed): the status stays, only the pending-evidence marks are brought up to date.
        Returns the changed entry, or None if nothing changed."""
        entry = self.entry(entry_id)
        if not may_be_judged_again(entry):
            return None
        section = self.section(entry.section_id)
        fresh = self._eligibility_again(entry, people, evidence, unit, intends_to_represent)
        if settled:
            return self._store_if_changed(entry, with_current_marks(entry, fresh))
        kept = standing_decisions(entry)
        outcome = judged_outcome(entry, kept, fresh)
        if outcome is Verdict.PENDING and any(d.clause == "arbiter/review" and d.admitted for d in kept):
            outcome = Verdict.ADMITTED  # the arbiter settled what is still pending ...
            fresh += self._still_unapproved(fresh)  # ... but not the evidence itself
        status = STATUS_OF[outcome]
        if entry.status is EntryStatus.WAITLISTED and status is not EntryStatus.REFUSED:
            status = EntryStatus.WAITLISTED  # still eligible: it keeps its place in the queue
        extra, status, waitpos = self._place_again(entry, section, status, people)
        if status is not entry.status:
            extra.append(rejudged_decision(entry.status, status, cause))
        new = rejudged_entry(entry, status, waitpos, kept, fresh, extra)
        if self._store_if_changed(entry, new) is None:
            return None
        self._after_place_changed(entry, new)
        return new

    def _eligibility_again(
        self,
        entry: Entry,
        people: Mapping[str, Person],
        evidence: Sequence[Evidence],
        unit: Unit | None,
        intends_to_represent: bool,
    ) -> list[Decision]:
        """REG-18: the eligibility decisions of every player of the entry on the evidence as it
        stands (in a registration stage, only what arrived before the close counts)."""
        section_id = entry.section_id
        closes = self.config.registration.closes_at
        if self.config.stage_of(section_id).entry == "registration":
            evidence = [x for x in evidence if x.arrived_before(closes)]
        fresh: list[Decision] = []
        for pid in entry.person_ids:
            fresh.extend(
                evaluate_player(
                    self.config,
                    section_id,
                    people[pid],
                    [x for x in evidence if x.person_id == pid],
                    unit=unit,
                    intends_to_represent=intends_to_represent,
                ).decisions
            )
        return fresh

    def _place_again(
        self, entry: Entry, section: SectionConfig, status: EntryStatus, people: Mapping[str, Person]
    ) -> tuple[list[Decision], EntryStatus, int | None]:
        """A refused entry that gains a place takes it like a new one: one entry per player and
        section (REG-3), then the cap (REG-2). The decisions, the status and the waiting place."""
        extra: list[Decision] = []
        waitpos = entry.waitlist_position
        if status in (EntryStatus.REFUSED, EntryStatus.WAITLISTED) or entry.status.holds_place:
            return extra, status, waitpos
        dup = [pid for pid in entry.person_ids if self._has_place_or_waits(section.id, pid, other_than=entry.id)]
        if dup:
            extra.append(
                Decision(
                    "REG-3",
                    f"{section.id}/duplicate",
                    Verdict.REFUSED,
                    f"{', '.join(people[p].name for p in dup)} already has an entry in {section.name}",
                    dup[0],
                )
            )
            return extra, EntryStatus.REFUSED, waitpos
        cap_decision, status, waitpos = self._check_cap(section, status)
        extra.append(cap_decision)
        return extra, status, waitpos

    def _after_place_changed(self, old: Entry, new: Entry) -> None:
        """A refused waiting entry lets the ones behind it move up; a place lost goes to the
        first on the waiting list (REG-2)."""
        if old.status is EntryStatus.WAITLISTED and new.status is EntryStatus.REFUSED:
            for x in self.waiting_list(old.section_id):  # the ones behind it move up
                if (x.waitlist_position or 0) > (old.waitlist_position or 0):
                    self.entries[x.id] = replace(x, waitlist_position=(x.waitlist_position or 1) - 1)
        if old.status.holds_place and not new.status.holds_place:
            self.promote_from_waiting_list(old.section_id)

    def _still_unapproved(self, decisions: Iterable[Decision]) -> tuple[Decision, ...]:
        """REG-18: an arbiter admitted an entry whose evidence is still pending (the wildcard):
        where the clause says the evidence must still be approved, the entry says so."""
        marks = []
        for decision in decisions:
            if decision.outcome is Verdict.PENDING and decision.rule in RESIDENCY_RULES:
                clause = self.config.clause(decision.clause.split("/")[0])
                if clause.pending_evidence is not None:
                    marks.append(pending_evidence_decision(clause, decision.person_id))
        return tuple(marks)

    def _store_if_changed(self, old: Entry, new: Entry) -> Entry | None:
        if new.status is old.status and set(new.decisions) == set(old.decisions):
            return None
        self.entries[new.id] = new
        return new

    # ---- officials (REG-3)

    def add_official(self, unit: Unit, role: str, name: str, person_id: str | None = None) -> Decision:
        """A unit names a leader or coach (NT: +1 coach if it enters every team section)."""
        decision = judge_official(
            self.config, self.officials, self.entries.values(), self.delegation(unit.id), unit, role, name, person_id
        )
        if decision.admitted:
            self.officials.append(Official(unit.id, role, name, person_id))
        return decision

    # ---- lifecycle wrappers (REG-10, REG-11) keeping caps and waiting lists consistent

    def withdraw(
        self, entry_id: str, *, reason: str | None, now: datetime, proof_ref: str | None = None
    ) -> tuple[Entry, Entry | None]:
        """Withdraw (REG-10) and promote the first waitlisted entry of the section (REG-2).
        Returns (withdrawn entry, promoted entry or None)."""
        from .changes import withdraw as _withdraw

        entry = self.entry(entry_id)
        held = entry.status.holds_place
        done = _withdraw(self.config, entry, reason=reason, now=_aware(now), proof_ref=proof_ref)
        self.entries[entry_id] = done
        return done, (self.promote_from_waiting_list(entry.section_id) if held else None)

    def check_in(
        self,
        entry_id: str,
        *,
        now: datetime,
        documents_shown: Iterable[str] = (),
        insurance_ref: str | None = None,
        arbiter_override: str | None = None,
    ) -> Decision:
        """REG-11 check-in of one entry; the entry is updated only when admitted."""
        from .checkin import check_in as _check_in

        new, decision = _check_in(
            self.config,
            self.entry(entry_id),
            now=_aware(now),
            documents_shown=documents_shown,
            insurance_ref=insurance_ref,
            arbiter_override=arbiter_override,
        )
        self.entries[entry_id] = new
        return decision

    def mark_no_show(self, entry_id: str, *, arbiter: str) -> Entry:
        """REG-11: the arbiter marks an entry absent; it is not paired."""
        from .checkin import mark_no_show as _mark

        new = _mark(self.entry(entry_id), arbiter=arbiter)
        self.entries[entry_id] = new
        return new

    def replace_entry(self, entry: Entry) -> None:
        if entry.id not in self.entries:
            raise UnknownEntry(entry.id)
        self.entries[entry.id] = entry

    def add_entry(self, entry: Entry) -> None:
        """A place built for a qualification stage (EVT-6, judged by `build_next_stage`)."""
        if entry.id in self.entries:
            raise RegistrationError(f"entry {entry.id} exists already")
        self.entries[entry.id] = entry

    def remove_entries(self, entry_ids: Iterable[str]) -> None:
        """A qualification stage rebuilt from revised lists drops its places first (EVT-6)."""
        for entry_id in entry_ids:
            self.entry(entry_id)
            del self.entries[entry_id]

    def standing_clause(self, person_id: str) -> str | None:
        """The residency/representation clause a player stands under now: the latest settled
        decision naming the player (REG-6..8), from the latest entry."""
        return next(
            (
                d.clause
                for e in reversed(list(self.entries.values()))
                if person_id in e.person_ids
                for d in reversed(e.decisions)
                if d.person_id == person_id and d.rule in RESIDENCY_RULES and d.outcome is not Verdict.PENDING
            ),
            None,
        )
