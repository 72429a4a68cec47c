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

from gomoku_shared.event_config import EventConfig, SectionConfig

from .application_checks import _aware, check_insurance, check_team, check_window
from .delegations import quota_exemptions
from .eligibility import evaluate_player, is_pending_evidence_decision, pending_evidence_decision
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

#: the rules eligibility is judged on (REG-18: judged again when their inputs change)
ELIGIBILITY_RULES = frozenset({"REG-4", "REG-5", "REG-6", "REG-7", "REG-8", "REG-18"})
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


@dataclass(frozen=True)
class Official:
    unit_id: str
    role: str  # leader | coach | acting_leader
    name: str
    person_id: str | None = None


# --------------------------------------------------------------------------- aggregate


@dataclass
class EventRegistration:
    """All entries and officials of one event; the consistency boundary for caps and quotas."""

    config: EventConfig
    entries: dict[str, Entry] = field(default_factory=dict)
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

    def in_section(self, section_id: str, *statuses: EntryStatus) -> list[Entry]:
        """Entries of a section in submission order, optionally filtered by status."""
        matching = [
            e for e in self.entries.values() if e.section_id == section_id and (not statuses or e.status in statuses)
        ]
        # insertion order of the dict is submission order; keep it (stable, deterministic)
        return matching

    def holding_places(self, section_id: str) -> list[Entry]:
        return [e for e in self.in_section(section_id) if e.status.holds_place]

    def waiting_list(self, section_id: str) -> list[Entry]:
        return sorted(self.in_section(section_id, EntryStatus.WAITLISTED), key=lambda e: e.waitlist_position or 0)

    def delegation(self, unit_id: str) -> set[str]:
        """Players a unit has in the event (held places), counted once each."""
        return {
            pid for e in self.entries.values() if e.unit_id == unit_id and e.status.holds_place for pid in e.person_ids
        }

    def quota_players(self, unit_id: str) -> set[str]:
        """REG-3: players that count against the delegation quota (exempt ones excluded)."""
        exempt = {
            pid
            for e in self.entries.values()
            if e.unit_id == unit_id and e.status.holds_place
            for pid in e.quota_exempt
        }
        return self.delegation(unit_id) - exempt

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
    ) -> SubmitResult:
        """Judge an application and record the resulting entry (accepted, pending review,
        waitlisted or refused). Every judged rule is in `entry.decisions`."""
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
        decisions: list[Decision] = []

        if stage.entry != "registration":
            decisions.append(
                Decision(
                    "EVT-6",
                    f"{stage.id}/entry",
                    Verdict.REFUSED,
                    f"stage {stage.name} is entered by qualification only",
                )
            )
        window, received = check_window(event, app)
        decisions.append(window)
        decisions.append(check_insurance(event, app, members))
        decisions.extend(self._check_unit(app, unit, members))
        if section.kind == "individual" and len(members) != 1:
            decisions.append(
                Decision(
                    "REG-3", f"{section.id}/entry", Verdict.REFUSED, "an individual entry names exactly one player"
                )
            )
        if section.kind == "team":
            decisions.extend(check_team(section, members, self.entries.values(), app.unit_id))
        for person in members:
            if any(
                person.id in e.person_ids
                for e in self.in_section(section.id)
                if e.status.holds_place or e.status is EntryStatus.WAITLISTED
            ):
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
                event,
                section.id,
                person,
                [e for e in evidence if e.person_id == person.id],
                unit=unit,
                intends_to_represent=app.intends_to_represent,
            )
            decisions.extend(report.decisions)

        outcome = combine(decisions)
        status = {
            Verdict.ADMITTED: EntryStatus.ACCEPTED,
            Verdict.PENDING: EntryStatus.PENDING_REVIEW,
            Verdict.REFUSED: EntryStatus.REFUSED,
        }[outcome]
        waitpos = None
        if status is not EntryStatus.REFUSED:
            cap_decision, status, waitpos = self._check_cap(section, status)
            decisions.append(cap_decision)
        exempt = frozenset(quota_exemptions(event.units, app, members)[0])  # REG-16 (domain.delegations)
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

    def _check_unit(self, app: Application, unit: Unit | None, members: Sequence[Person]) -> list[Decision]:
        """REG-3: individual vs unit entries, delegation quota (NY 20, previous top-8 exempt)."""
        rules = self.config.units
        if app.unit_id is None:
            if not rules.individual_entries_allowed:
                return [
                    Decision(
                        "REG-3", "units/individual", Verdict.REFUSED, "this event accepts entries through units only"
                    )
                ]
            return [Decision("REG-3", "units/individual", Verdict.ADMITTED, "individual entry")]
        if unit is None:
            raise RegistrationError(f"unit {app.unit_id!r} not given")
        out = [Decision("REG-3", "units/unit", Verdict.ADMITTED, f"entered through {unit.name}")]
        if rules.delegation_max_players is not None:
            exempt, claims = quota_exemptions(rules, app, members)
            out.extend(claims)
            counted = self.quota_players(unit.id) | {p.id for p in members if p.id not in exempt}
            if len(counted) > rules.delegation_max_players:
                msg = f"{unit.name} would have {len(counted)} players in its quota (max {rules.delegation_max_players})"
                if unit.is_host and rules.host_may_exceed_quota:
                    out.append(
                        Decision(
                            "REG-3",
                            "units/quota_host",
                            Verdict.PENDING,
                            msg + "; host delegation: needs the organiser's approval",
                        )
                    )
                else:
                    out.append(Decision("REG-3", "units/quota", Verdict.REFUSED, msg))
        return out

    def _check_cap(self, section: SectionConfig, status: EntryStatus) -> tuple[Decision, EntryStatus, int | None]:
        """REG-2: stop at the cap; the next one gets a waiting-list place if enabled."""
        if section.cap is None:
            return Decision("REG-2", f"{section.id}/cap", Verdict.ADMITTED, "no cap"), status, None
        held = len(self.holding_places(section.id))
        if held < section.cap:
            return (
                Decision("REG-2", f"{section.id}/cap", Verdict.ADMITTED, f"place {held + 1} of {section.cap}"),
                status,
                None,
            )
        if self.config.waiting_list:
            pos = len(self.waiting_list(section.id)) + 1
            return (
                Decision(
                    "REG-2",
                    f"{section.id}/waiting_list",
                    Verdict.PENDING,
                    f"{section.name} is full ({section.cap}); waiting-list place {pos}",
                ),
                EntryStatus.WAITLISTED,
                pos,
            )
        return (
            Decision(
                "REG-2",
                f"{section.id}/cap",
                Verdict.REFUSED,
                f"{section.name} is full: cap of {section.cap} entries reached",
            ),
            EntryStatus.REFUSED,
            None,
        )

    def promote_from_waiting_list(self, section_id: str) -> Entry | None:
        """REG-2: when a place frees up, the first waitlisted entry takes it (if eligible otherwise)."""
        section = self.section(section_id)
        if section.cap is not None and len(self.holding_places(section_id)) >= section.cap:
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
        if entry.status is EntryStatus.WITHDRAWN:
            return None
        if entry.status is EntryStatus.REFUSED and not _refused_on_eligibility(entry):
            return None
        section = self.section(entry.section_id)
        closes = self.config.registration.closes_at
        if self.config.stage_of(section.id).entry == "registration":
            evidence = [x for x in evidence if x.arrived_before(closes)]
        fresh: list[Decision] = []
        for pid in entry.person_ids:
            fresh.extend(
                evaluate_player(
                    self.config,
                    section.id,
                    people[pid],
                    [x for x in evidence if x.person_id == pid],
                    unit=unit,
                    intends_to_represent=intends_to_represent,
                ).decisions
            )
        if settled:
            marks = (
                tuple(d for d in fresh if is_pending_evidence_decision(d))
                if entry.status is EntryStatus.ACCEPTED
                else ()
            )
            unmarked = tuple(d for d in entry.decisions if not is_pending_evidence_decision(d))
            new = replace(entry, decisions=unmarked + marks)
            return self._store_if_changed(entry, new)
        waiting = entry.status is EntryStatus.WAITLISTED
        kept = [d for d in entry.decisions if d.rule not in ELIGIBILITY_RULES or d.clause.startswith("arbiter/")]
        log = [d for d in entry.decisions if d.clause == REJUDGED]
        # a waiting-list place is judged like the rest, apart from the place it waits for
        judged = [
            d for d in kept if not d.clause.startswith("arbiter/") and not (waiting and d.rule == "REG-2")
        ] + fresh
        outcome = combine(judged)
        if outcome is Verdict.PENDING and any(d.clause == "arbiter/review" and d.admitted for d in kept):
            outcome = Verdict.ADMITTED  # the arbiter settled what is still pending ...
            fresh += self._still_unapproved(fresh)  # ... but not the evidence itself
        status = {
            Verdict.ADMITTED: EntryStatus.ACCEPTED,
            Verdict.PENDING: EntryStatus.PENDING_REVIEW,
            Verdict.REFUSED: EntryStatus.REFUSED,
        }[outcome]
        if waiting and status is not EntryStatus.REFUSED:
            status = EntryStatus.WAITLISTED  # still eligible: it keeps its place in the queue
        extra: list[Decision] = []
        waitpos = entry.waitlist_position
        if status not in (EntryStatus.REFUSED, EntryStatus.WAITLISTED) and not entry.status.holds_place:
            # a refused entry gains a place: one entry per player and section, then the cap
            dup = [
                pid
                for pid in entry.person_ids
                if any(
                    pid in x.person_ids
                    and x.id != entry.id
                    and (x.status.holds_place or x.status is EntryStatus.WAITLISTED)
                    for x in self.in_section(section.id)
                )
            ]
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
                status = EntryStatus.REFUSED
            else:
                cap_decision, status, waitpos = self._check_cap(section, status)
                extra.append(cap_decision)
        if status is not entry.status:
            extra.append(
                Decision(
                    "REG-18",
                    REJUDGED,
                    _OUTCOME_OF[status],
                    f"judged again after {cause}: {entry.status.value} -> {status.value}",
                )
            )
        if status is EntryStatus.REFUSED:
            kept = [d for d in kept if d.rule != "REG-2"]  # the place it held is free again
        new = replace(
            entry,
            status=status,
            waitlist_position=waitpos if status is EntryStatus.WAITLISTED else None,
            decisions=tuple(d for d in kept if d.clause != REJUDGED) + tuple(fresh) + tuple(log) + tuple(extra),
        )
        if self._store_if_changed(entry, new) is None:
            return None
        if waiting and new.status is EntryStatus.REFUSED:
            for x in self.waiting_list(section.id):  # the ones behind it move up
                if (x.waitlist_position or 0) > (entry.waitlist_position or 0):
                    self.entries[x.id] = replace(x, waitlist_position=(x.waitlist_position or 1) - 1)
        if entry.status.holds_place and not new.status.holds_place:
            self.promote_from_waiting_list(section.id)
        return new

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
        rules = self.config.units
        have = [o for o in self.officials if o.unit_id == unit.id and o.role == role]
        if role == "leader":
            limit = rules.max_leaders
        elif role == "coach":
            limit = rules.max_coaches
            teams = self.config.team_sections()
            entered = {e.section_id for e in self.entries.values() if e.unit_id == unit.id and e.status.holds_place}
            if rules.extra_coaches_if_all_team_sections and teams and all(s.id in entered for s in teams):
                limit += rules.extra_coaches_if_all_team_sections
        elif role == "acting_leader":
            if not rules.player_may_act_as_leader:
                return Decision("REG-3", "units/officials", Verdict.REFUSED, "no acting leaders in this event")
            if any(o.unit_id == unit.id and o.role == "leader" for o in self.officials):
                return Decision("REG-3", "units/officials", Verdict.REFUSED, f"{unit.name} has a leader")
            if person_id is None or person_id not in self.delegation(unit.id):
                return Decision(
                    "REG-3", "units/officials", Verdict.REFUSED, "the acting leader must be one of the unit's players"
                )
            limit = 1
        else:
            raise RegistrationError(f"unknown role {role!r}")
        if len(have) >= limit:
            return Decision(
                "REG-3",
                f"units/{role}",
                Verdict.REFUSED,
                f"{unit.name} already has {len(have)} {role}(s) (max {limit})",
            )
        self.officials.append(Official(unit.id, role, name, person_id))
        return Decision("REG-3", f"units/{role}", Verdict.ADMITTED, f"{name} is {unit.name}'s {role}")

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


_OUTCOME_OF = {
    EntryStatus.ACCEPTED: Verdict.ADMITTED,
    EntryStatus.PENDING_REVIEW: Verdict.PENDING,
    EntryStatus.WAITLISTED: Verdict.PENDING,
    EntryStatus.REFUSED: Verdict.REFUSED,
    EntryStatus.WITHDRAWN: Verdict.REFUSED,
}


def _refused_on_eligibility(entry: Entry) -> bool:
    """Refused by eligibility alone (age, gender, residency...): judged again when its inputs
    change. A refusal for the window, the cap, a duplicate, the team or by the arbiter stands."""
    refusing = [d for d in entry.decisions if d.refused and d.clause != REJUDGED]
    return bool(refusing) and all(d.rule in ELIGIBILITY_RULES and not d.clause.startswith("arbiter/") for d in refusing)
