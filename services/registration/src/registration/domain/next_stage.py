"""EVT-6 / AWD-QUAL / REG-7: qualifiers of one stage become the entries of the next.

Input per cohort (a source section, or one gender of a merged section): the ordered
qualifiers and the ordered substitutes, as selected by the awards service. Every candidate is
re-checked against the destination section (age, gender and its clauses — SZ: REG-7 with
*verified* evidence). A non-eligible qualifier's place passes to the next eligible substitute.
Wildcard players (REG-6 (4)) keep a place only through a section of the configured track
(professional) as a top-N qualifier or as one of its ordered substitutes.

Decision: a player who already holds a place in the stage (qualified twice, or seeded and
qualified) takes one place; the other passes on like a non-eligible one. Seeded players
(SZ: 2022 Shenzhen Cup professional top 4) are re-checked like the others.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Literal

from gomoku_shared.event_config import EventConfig

from .eligibility import evaluate_player, is_wildcard_decision, wildcard_option
from .errors import RegistrationError
from .model import Decision, Entry, EntryStatus, Evidence, EvidenceStatus, Gender, Person, Unit, Verdict, combine


@dataclass(frozen=True)
class QualifierList:
    """Ordered qualifiers and substitutes of one cohort of the previous stage."""

    section_id: str
    qualifiers: tuple[str, ...]
    substitutes: tuple[str, ...] = ()
    #: the gender cohort of a merged section; None = the section's own gender
    gender: Gender | None = None


@dataclass(frozen=True)
class SeededList:
    """Players seeded straight into a section of the stage (e.g. 2022 Shenzhen Cup top 4)."""

    source: str
    to_section: str
    qualifiers: tuple[str, ...]
    substitutes: tuple[str, ...] = ()


#: how a player reached a place in the next stage (REG-7)
PlaceVia = Literal["qualified", "substitute", "seeded", "seeded_substitute"]


@dataclass(frozen=True)
class StagePlace:
    person_id: str
    to_section: str
    via: PlaceVia
    source: str  # source section id or seeded source name
    place: int  # place in the source ranking (substitutes continue after the qualifiers)
    decisions: tuple[Decision, ...] = ()
    unit_id: str | None = None


@dataclass(frozen=True)
class PassedOver:
    person_id: str
    source: str
    place: int
    decisions: tuple[Decision, ...]
    #: REG-18: passed over only because evidence still awaits approval; approved before this
    #: time, the place comes back (None: another reason, or no deadline configured)
    approve_by: datetime | None = None
    awaiting_approval: bool = False

    @property
    def reason(self) -> str:
        return "; ".join(d.reason for d in self.decisions if not d.admitted)


@dataclass(frozen=True)
class NextStageResult:
    stage_id: str
    places: tuple[StagePlace, ...]
    passed_over: tuple[PassedOver, ...]
    #: cohort label -> places left empty (not enough eligible substitutes)
    unfilled: Mapping[str, int] = field(default_factory=dict)

    def for_section(self, section_id: str) -> list[StagePlace]:
        return [p for p in self.places if p.to_section == section_id]

    def to_entries(self, event_id: str, received_at: datetime | None = None) -> list[Entry]:
        """Accepted entries of the stage (ids `<event>:<stage>:<person>`), ready for check-in
        and `close_stage` (REG-12 also cancels final sections of <= 4)."""
        return [
            Entry(
                id=f"{event_id}:{self.stage_id}:{p.person_id}",
                event_id=event_id,
                section_id=p.to_section,
                person_ids=(p.person_id,),
                unit_id=p.unit_id,
                status=EntryStatus.ACCEPTED,
                received_at=received_at,
                decisions=p.decisions,
            )
            for p in self.places
        ]


def approval_deadline(event: EventConfig, section_id: str) -> datetime | None:
    """REG-18: when the evidence behind a declared admission to `section_id` must be approved
    by (the earliest `pending_evidence.approve_by` of its clauses), if configured."""
    times = [
        c.pending_evidence.approve_by
        for c in (event.clause(cid) for cid in event.section(section_id).eligibility)
        if c.pending_evidence is not None
    ]
    return min(times, default=None)


def _as_of_deadline(evidence: Sequence[Evidence], deadline: datetime | None) -> list[Evidence]:
    """An approval given at or after the deadline came too late: the record counts as unapproved."""
    if deadline is None:
        return list(evidence)
    return [
        replace(e, status=EvidenceStatus.PENDING)
        if e.status is EvidenceStatus.APPROVED and e.reviewed_at is not None and e.reviewed_at >= deadline
        else e
        for e in evidence
    ]


def build_next_stage(
    event: EventConfig,
    stage_id: str,
    cohorts: Sequence[QualifierList],
    people: Mapping[str, Person],
    *,
    evidence: Sequence[Evidence] = (),
    seeded: Sequence[SeededList] = (),
    units_of: Mapping[str, Unit] | None = None,
    intents: Collection[str] = (),
) -> NextStageResult:
    """Fill the stage from its cohorts (in the given order; seeded lists first).

    `units_of` maps a person id to the unit they entered through (for unit-based clauses);
    `intents` are the person ids who declared the intent to represent (wildcard)."""
    stage = event.stage(stage_id)
    if stage.entry != "qualification":
        raise RegistrationError(f"stage {stage_id} is entered by registration, not qualification")
    builder = _StageBuilder(event, stage_id, people, evidence, units_of or {}, intents)
    for seeded_list in seeded:
        builder.fill_seeded(seeded_list)
    for cohort in cohorts:
        builder.fill_cohort(cohort)
    placed = builder.placed
    if stage.cap_total is not None and len(placed) > stage.cap_total:
        raise RegistrationError(f"stage {stage_id} would have {len(placed)} players (cap {stage.cap_total})")
    return NextStageResult(stage_id, tuple(placed.values()), tuple(builder.passed), builder.unfilled)


class _StageBuilder:
    """The places of one qualification stage as they are filled, list by list."""

    def __init__(
        self,
        event: EventConfig,
        stage_id: str,
        people: Mapping[str, Person],
        evidence: Sequence[Evidence],
        units_of: Mapping[str, Unit],
        intents: Collection[str],
    ) -> None:
        self.event, self.stage_id, self.people = event, stage_id, people
        self.evidence, self.units_of, self.intents = evidence, units_of, intents
        self.placed: dict[str, StagePlace] = {}
        self.passed: list[PassedOver] = []
        self.unfilled: dict[str, int] = {}

    def fill_seeded(self, seeded: SeededList) -> None:
        self.event.section(seeded.to_section)  # KeyError for an unknown section
        filled = 0
        order: list[tuple[str, PlaceVia, int]] = [
            (pid, "seeded", index + 1) for index, pid in enumerate(seeded.qualifiers)
        ] + [
            (pid, "seeded_substitute", len(seeded.qualifiers) + index + 1)
            for index, pid in enumerate(seeded.substitutes)
        ]
        for pid, via, place in order:
            if filled >= len(seeded.qualifiers):
                break
            if self.consider(pid, seeded.to_section, via, seeded.source, place, None):
                filled += 1
        if filled < len(seeded.qualifiers):
            self.unfilled[f"{seeded.source}->{seeded.to_section}"] = len(seeded.qualifiers) - filled

    def fill_cohort(self, cohort: QualifierList) -> None:
        src = self.event.section(cohort.section_id)
        rule = src.qualification
        if rule is None or rule.to_stage != self.stage_id:
            raise RegistrationError(f"section {cohort.section_id} does not qualify into {self.stage_id}")
        gender = cohort.gender or (src.gender if src.gender != "mixed" else None)
        if gender is None or gender not in rule.to_section:
            raise RegistrationError(f"cohort of {cohort.section_id} needs a gender with a destination")
        to_section = rule.to_section[gender]
        slots = min(rule.top, len(cohort.qualifiers) + len(cohort.substitutes))
        order: list[tuple[str, PlaceVia, int]] = [
            (pid, "qualified", index + 1) for index, pid in enumerate(cohort.qualifiers[: rule.top])
        ] + [
            (pid, "substitute", rule.top + index + 1)
            for index, pid in enumerate(cohort.substitutes[: rule.substitutes])
        ]
        filled = 0
        for pid, via, place in order:
            if filled >= slots:
                break
            if self.consider(pid, to_section, via, cohort.section_id, place, src.track):
                filled += 1
        if filled < rule.top:
            self.unfilled[f"{cohort.section_id}/{gender}->{to_section}"] = rule.top - filled

    def consider(
        self, pid: str, to_section: str, via: PlaceVia, source: str, place: int, src_track: str | None
    ) -> bool:
        """Place the player if eligible (REG-7); else record why the place passed on."""
        event, stage_id = self.event, self.stage_id
        person = self.people.get(pid)
        if person is None:
            raise RegistrationError(f"unknown person {pid!r}")
        if pid in self.placed:
            self.passed.append(
                PassedOver(
                    pid,
                    source,
                    place,
                    (
                        Decision(
                            "EVT-6",
                            f"{stage_id}/duplicate",
                            Verdict.REFUSED,
                            f"{person.name} already holds a place in {self.placed[pid].to_section}",
                            pid,
                        ),
                    ),
                )
            )
            return False
        unit = self.units_of.get(pid)
        deadline = approval_deadline(event, source) if via in ("qualified", "substitute") else None
        own = _as_of_deadline([e for e in self.evidence if e.person_id == pid], deadline)
        decisions = self.judge(pid, person, to_section, own, unit, via, source, place, src_track, None)
        outcome = combine(decisions)
        if outcome is Verdict.ADMITTED:
            decisions.append(
                Decision(
                    "REG-7",
                    f"{stage_id}/place",
                    Verdict.ADMITTED,
                    f"{via} from {source} (place {place}) into {to_section}",
                    pid,
                )
            )
            self.placed[pid] = StagePlace(
                pid, to_section, via, source, place, tuple(decisions), unit.id if unit else None
            )
            return True
        # REG-18: refused only because evidence still awaits approval (it would admit as declared)?
        awaiting = (
            outcome is Verdict.PENDING
            or combine(self.judge(pid, person, to_section, own, unit, via, source, place, src_track, "declared"))
            is not Verdict.REFUSED
        )
        if awaiting:
            before = f" before {deadline.isoformat()}" if deadline is not None else ""
            decisions.append(
                Decision(
                    "REG-7",
                    f"{stage_id}/place",
                    Verdict.REFUSED,
                    f"evidence not yet approved: the place passes on (approved{before}, the place comes back)",
                    pid,
                )
            )
        self.passed.append(PassedOver(pid, source, place, tuple(decisions), deadline, awaiting))
        return False

    def judge(
        self,
        pid: str,
        person: Person,
        to_section: str,
        own: Sequence[Evidence],
        unit: Unit | None,
        via: str,
        source: str,
        place: int,
        src_track: str | None,
        mode: str | None,
    ) -> list[Decision]:
        """The player's eligibility for the target section, with REG-7's wildcard limits."""
        event = self.event
        report = evaluate_player(
            event, to_section, person, own, unit=unit, intends_to_represent=pid in self.intents, mode=mode
        )
        decisions = list(report.decisions)
        for decision in report.decisions:
            if is_wildcard_decision(decision) and src_track is not None:
                clause = event.clause(decision.clause.split("/")[0])
                opt = wildcard_option(clause)
                if opt and opt.wildcard_track and src_track != opt.wildcard_track:
                    decisions.append(
                        Decision(
                            "REG-7",
                            f"{clause.id}/wildcard_track",
                            Verdict.REFUSED,
                            f"wildcard players qualify only through a {opt.wildcard_track}-rules section "
                            f"(came from {source})",
                            pid,
                        )
                    )
                elif opt and opt.wildcard_max_place and via == "qualified" and place > opt.wildcard_max_place:
                    decisions.append(
                        Decision(
                            "REG-7",
                            f"{clause.id}/wildcard_place",
                            Verdict.REFUSED,
                            f"wildcard players need place {opt.wildcard_max_place} or better",
                            pid,
                        )
                    )
        return decisions
