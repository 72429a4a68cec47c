"""Eligibility engine (REG-4..REG-8): data-driven checks configured by the event preset.

Age (REG-4) and gender (REG-5) come from the section; residency (REG-6/REG-7) and
representation (REG-8) clauses are listed by id in `section.eligibility` and defined in
`event.eligibility`. Each check returns a `Decision` naming the clause that admitted or refused
the player and a human-readable reason.

Evidence semantics (REG-6 Decision): in a clause with `evidence: declared`, a pending or
approved record counts; with `evidence: verified` (SZ final, REG-7) only approved ones do; a
rejected record never counts. An option with `requires_approval` (the wildcard) is *pending*
until its evidence is approved.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from gomoku_shared.event_config import (
    EligibilityClause,
    EventConfig,
    ResidencyOption,
    SectionConfig,
    grade_rank,
    place_key,
)

from .model import Decision, Evidence, EvidenceKind, EvidenceStatus, Person, Unit, Verdict, combine


def check_age(section: SectionConfig, person: Person) -> Decision:
    """REG-4: birth date inside the section's inclusive window."""
    window = section.birth
    # the reason names the birth year only: decisions are shown beside the masked ID number,
    # and a full birth date there would give away eight of its digits (REG-11)
    if window.contains(person.birth_date):
        return Decision(
            "REG-4", f"{section.id}/birth", Verdict.ADMITTED, f"birth date within {_window(window)}", person.id
        )
    return Decision(
        "REG-4",
        f"{section.id}/birth",
        Verdict.REFUSED,
        f"born in {person.birth_date.year}, outside {section.name} window {_window(window)}",
        person.id,
    )


def _window(window) -> str:
    born_from = window.born_from.isoformat() if window.born_from else "any"
    born_to = window.born_to.isoformat() if window.born_to else "any"
    return f"{born_from}..{born_to} (inclusive)"


def check_gender(section: SectionConfig, person: Person) -> Decision:
    """REG-5: male/female sections admit only that gender; mixed admit both."""
    if section.gender == "mixed" or section.gender == person.gender:
        return Decision(
            "REG-5",
            f"{section.id}/gender",
            Verdict.ADMITTED,
            f"{person.gender} admitted to a {section.gender} section",
            person.id,
        )
    return Decision(
        "REG-5",
        f"{section.id}/gender",
        Verdict.REFUSED,
        f"a {person.gender} player cannot enter {section.name} ({section.gender} only)",
        person.id,
    )


# --------------------------------------------------------------------------- evidence helpers


def _usable(item: Evidence, mode: str) -> bool:
    if item.status is EvidenceStatus.REJECTED:
        return False
    return item.status is EvidenceStatus.APPROVED or mode == "declared"


#: (required region, region as written) -> same place? (REG-17: `EventConfig.same_region`)
RegionMatch = Callable[[str, "str | None"], bool]


def plain_region_match(required: str, written: str | None) -> bool:
    return written is not None and place_key(required) == place_key(written)


def _of(
    evidence: Iterable[Evidence],
    kind: EvidenceKind,
    region: str | None,
    mode: str,
    person_id: str,
    same_region: RegionMatch = plain_region_match,
) -> list[Evidence]:
    return [
        e
        for e in evidence
        if e.kind is kind
        and e.person_id == person_id
        and _usable(e, mode)
        and (region is None or same_region(region, e.region))
    ]


def _month_index(year_month: str) -> int:
    year, month = year_month.split("-")
    if not 1 <= int(month) <= 12:
        raise ValueError(f"bad month {year_month!r}")
    return int(year) * 12 + int(month) - 1


def longest_consecutive_months(months: Iterable[str]) -> int:
    """Longest run of consecutive calendar months in 'YYYY-MM' strings (REG-6 (2))."""
    idx = sorted({_month_index(m) for m in months})
    best = run = 0
    prev = None
    for index in idx:
        run = run + 1 if prev is not None and index == prev + 1 else 1
        best = max(best, run)
        prev = index
    return best


def _full_months_between(start: date, end: date) -> int:
    months = (end.year - start.year) * 12 + (end.month - start.month)
    if end.day < start.day:
        months -= 1
    return months


# --------------------------------------------------------------------------- options


@dataclass(frozen=True)
class _OptionResult:
    outcome: Verdict
    reason: str


def _option(
    opt: ResidencyOption,
    clause: EligibilityClause,
    person: Person,
    evidence: Sequence[Evidence],
    *,
    region: str | None,
    unit: Unit | None,
    intends_to_represent: bool,
    as_of: date,
    mode: str,
    same_region: RegionMatch = plain_region_match,
) -> _OptionResult:
    where = f" in {region}" if region else ""
    pid = person.id
    if opt.kind == "household":
        if _of(evidence, EvidenceKind.HOUSEHOLD, region, mode, pid, same_region):
            return _OptionResult(Verdict.ADMITTED, f"household registration{where}")
        return _OptionResult(Verdict.REFUSED, f"no {_qual(mode)}household registration{where}")

    if opt.kind == "student_status":
        if _of(evidence, EvidenceKind.STUDENT_STATUS, region, mode, pid, same_region):
            return _OptionResult(Verdict.ADMITTED, f"student status{where}")
        return _OptionResult(Verdict.REFUSED, f"no {_qual(mode)}student status{where}")

    if opt.kind == "residence_permit":
        permits = _of(evidence, EvidenceKind.RESIDENCE_PERMIT, region, mode, pid, same_region)
        if not permits:
            return _OptionResult(Verdict.REFUSED, f"no {_qual(mode)}residence permit{where}")
        if opt.permit_issued_before is not None:
            dated = [p for p in permits if p.issued_on is not None and p.issued_on < opt.permit_issued_before]
            if not dated:
                return _OptionResult(
                    Verdict.REFUSED, f"residence permit{where} not dated before {opt.permit_issued_before}"
                )
        if opt.min_consecutive_insurance_months is not None:
            need = opt.min_consecutive_insurance_months
            months = [
                m
                for e in _of(evidence, EvidenceKind.SOCIAL_INSURANCE, region, mode, pid, same_region)
                for m in e.months_paid
            ]
            run = longest_consecutive_months(months)
            if run < need:
                return _OptionResult(
                    Verdict.REFUSED,
                    f"residence permit{where} but only {run} consecutive months of social insurance (needs {need})",
                )
            return _OptionResult(
                Verdict.ADMITTED, f"residence permit{where} and {run} consecutive months of social insurance"
            )
        return _OptionResult(
            Verdict.ADMITTED,
            f"residence permit{where}"
            + (f" dated before {opt.permit_issued_before}" if opt.permit_issued_before else ""),
        )

    if opt.kind == "registered_athlete":
        if person.registered_unit_id is None:
            return _OptionResult(Verdict.REFUSED, "not a registered athlete")
        if unit is not None and person.registered_unit_id == unit.id:
            return _OptionResult(Verdict.ADMITTED, f"registered athlete of {unit.name}")
        return _OptionResult(
            Verdict.REFUSED, f"registered with unit {person.registered_unit_id}, must represent that unit"
        )

    if opt.kind == "employment":
        if unit is None:
            return _OptionResult(Verdict.REFUSED, "employment proof needs a registering unit")
        need = opt.min_employment_months or 0
        employed_since = [
            item.employed_since
            for item in evidence
            if item.kind is EvidenceKind.EMPLOYMENT
            and item.person_id == pid
            and _usable(item, mode)
            and item.employer_unit_id == unit.id
            and item.employed_since is not None
        ]
        best = max((_full_months_between(since, as_of) for since in employed_since), default=None)
        if best is None:
            return _OptionResult(Verdict.REFUSED, f"no {_qual(mode)}proof of employment with {unit.name}")
        if best < need:
            return _OptionResult(
                Verdict.REFUSED, f"employed by {unit.name} for {best} months on {as_of} (needs {need})"
            )
        return _OptionResult(Verdict.ADMITTED, f"employed by {unit.name} for {best} months")

    if opt.kind == "wildcard":
        return _wildcard(opt, person, evidence, intends_to_represent=intends_to_represent, mode=mode)
    raise AssertionError(opt.kind)  # pragma: no cover - the schema restricts kinds


def _qual(mode: str) -> str:
    return "approved " if mode == "verified" else ""


def _wildcard(
    opt: ResidencyOption, person: Person, evidence: Sequence[Evidence], *, intends_to_represent: bool, mode: str
) -> _OptionResult:
    """REG-6 (4): citizen AND (grade OR past result) AND intent; own deadline; arbiter approval."""
    if opt.requires_citizenship and (person.citizenship or "").upper() != opt.requires_citizenship.upper():
        return _OptionResult(Verdict.REFUSED, f"wildcard needs {opt.requires_citizenship} citizenship")
    if opt.requires_intent_to_represent and not intends_to_represent:
        return _OptionResult(Verdict.REFUSED, "wildcard needs the declared intent to represent the region")

    def in_time(item: Evidence) -> bool:
        return opt.deadline is None or (item.submitted_at is not None and item.submitted_at < opt.deadline)

    candidates: list[tuple[Evidence, str]] = []
    if opt.min_grade:
        need = grade_rank(opt.min_grade)
        for e in evidence:
            if e.kind is EvidenceKind.GRADE_CERTIFICATE and e.person_id == person.id and e.grade:
                r = grade_rank(e.grade)
                if r is not None and need is not None and r >= need:
                    candidates.append((e, f"grade {e.grade} (needs {opt.min_grade} or better)"))
    for e in evidence:
        if (
            e.kind is EvidenceKind.PAST_RESULT
            and e.person_id == person.id
            and e.result_level
            and e.result_place
            and e.officially_recognised
        ):
            worst = opt.result_places.get(e.result_level)
            if worst is not None and e.result_place <= worst:
                candidates.append((e, f"{e.result_level} result place {e.result_place} (top {worst})"))
    if not candidates:
        return _OptionResult(
            Verdict.REFUSED,
            "wildcard needs a grade of "
            + (opt.min_grade or "-")
            + " or better, or a qualifying official result "
            + ", ".join(f"{k} top {v}" for k, v in opt.result_places.items()),
        )
    timely = [(e, why) for e, why in candidates if in_time(e)]
    if not timely:
        return _OptionResult(Verdict.REFUSED, f"wildcard evidence arrived after the deadline {opt.deadline}")
    live = [(e, why) for e, why in timely if e.status is not EvidenceStatus.REJECTED]
    if not live:
        return _OptionResult(Verdict.REFUSED, "wildcard evidence rejected by the arbiter")
    approved = [(e, why) for e, why in live if e.status is EvidenceStatus.APPROVED]
    if approved:
        return _OptionResult(Verdict.ADMITTED, f"wildcard: {approved[0][1]}, approved")
    if opt.requires_approval or mode == "verified":
        return _OptionResult(Verdict.PENDING, f"wildcard: {live[0][1]}, awaiting the arbiter's approval")
    return _OptionResult(Verdict.ADMITTED, f"wildcard: {live[0][1]}")


# --------------------------------------------------------------------------- clauses


def check_clause(
    clause: EligibilityClause,
    person: Person,
    evidence: Sequence[Evidence],
    *,
    unit: Unit | None = None,
    intends_to_represent: bool = False,
    as_of: date,
    mode: str | None = None,
    same_region: RegionMatch = plain_region_match,
) -> Decision:
    """Evaluate one residency/representation clause: the first option that admits wins.

    `as_of` is the reference date for durations (employment); `mode` overrides the clause's
    evidence mode (declared/verified); `same_region` compares places as written (REG-17)."""
    mode = mode or clause.evidence
    region = clause.region or (unit.region if unit else None)
    options = list(clause.options)
    if clause.kind == "representation":
        # REG-8: a registered athlete represents the unit of registration, and nothing else
        if person.registered_unit_id is not None:
            options = [o for o in options if o.kind == "registered_athlete"]
        else:
            options = [o for o in options if o.kind != "registered_athlete"]
            # an industry association without annual registration: only its employees
            if unit is not None and unit.kind == "industry_association" and not unit.annual_registration:
                options = [o for o in options if o.kind == "employment"]
            else:
                options = [o for o in options if o.kind != "employment"]
        if not options:
            return Decision(
                clause.rule,
                clause.id,
                Verdict.REFUSED,
                "no representation clause applies to this player and unit",
                person.id,
            )
    results: list[tuple[ResidencyOption, _OptionResult]] = []
    for opt in options:
        r = _option(
            opt,
            clause,
            person,
            evidence,
            region=region,
            unit=unit,
            intends_to_represent=intends_to_represent,
            as_of=as_of,
            mode=mode,
            same_region=same_region,
        )
        if r.outcome is Verdict.ADMITTED:
            return Decision(clause.rule, f"{clause.id}/{opt.kind}", Verdict.ADMITTED, r.reason, person.id)
        results.append((opt, r))
    pending = [(o, r) for o, r in results if r.outcome is Verdict.PENDING]
    if pending:
        o, r = pending[0]
        return Decision(clause.rule, f"{clause.id}/{o.kind}", Verdict.PENDING, r.reason, person.id)
    why = "; ".join(f"({i + 1}) {r.reason}" for i, (_, r) in enumerate(results))
    return Decision(clause.rule, clause.id, Verdict.REFUSED, f"meets no clause: {why}", person.id)


@dataclass(frozen=True)
class EligibilityReport:
    person_id: str
    section_id: str
    decisions: tuple[Decision, ...]

    @property
    def outcome(self) -> Verdict:
        return combine(self.decisions)

    @property
    def admitted_by(self) -> str | None:
        """The residency/representation clause that admitted the player (if any)."""
        for decision in self.decisions:
            if decision.admitted and decision.rule not in ("REG-4", "REG-5"):
                return decision.clause
        return None

    @property
    def reasons(self) -> list[str]:
        return [d.reason for d in self.decisions if not d.admitted]


def evaluate_player(
    event: EventConfig,
    section_id: str,
    person: Person,
    evidence: Sequence[Evidence],
    *,
    unit: Unit | None = None,
    intends_to_represent: bool = False,
    mode: str | None = None,
) -> EligibilityReport:
    """All eligibility decisions for one player in one section (REG-4, REG-5, section clauses)."""
    section = event.section(section_id)
    decisions = [check_age(section, person), check_gender(section, person)]
    as_of = event.section_start(section_id)

    def judged(clause: EligibilityClause, judging_mode: str | None) -> Decision:
        return check_clause(
            clause,
            person,
            evidence,
            unit=unit,
            intends_to_represent=intends_to_represent,
            as_of=as_of,
            mode=judging_mode,
            same_region=event.same_region,
        )

    for clause_id in section.eligibility:
        clause = event.clause(clause_id)
        decision = judged(clause, mode)
        decisions.append(decision)
        declared = (mode or clause.evidence) == "declared"
        if decision.admitted and clause.pending_evidence is not None and declared:
            # REG-18: admitted as declared; would it stand on approved evidence alone?
            if not judged(clause, "verified").admitted:
                decisions.append(pending_evidence_decision(clause, person.id))
    return EligibilityReport(person.id, section_id, tuple(decisions))


PENDING_EVIDENCE = "pending_evidence"


def pending_evidence_decision(clause: EligibilityClause, person_id: str | None) -> Decision:
    """REG-18: admitted on declared evidence an arbiter has not approved yet; says by when it
    must be approved and what happens otherwise (the clause's `pending_evidence`)."""
    pending = clause.pending_evidence
    if pending is None:
        raise ValueError(f"clause {clause.id} admits no pending evidence")
    return Decision(
        "REG-18",
        f"{clause.id}/{PENDING_EVIDENCE}",
        Verdict.ADMITTED,
        f"admitted on declared evidence not yet approved: it must be approved before "
        f"{pending.approve_by.isoformat()}; otherwise {pending.note}",
        person_id,
    )


def is_pending_evidence_decision(d: Decision) -> bool:
    return d.rule == "REG-18" and d.clause.endswith("/" + PENDING_EVIDENCE)


def wildcard_option(clause: EligibilityClause) -> ResidencyOption | None:
    return next((o for o in clause.options if o.kind == "wildcard"), None)


def is_wildcard_decision(d: Decision) -> bool:
    return d.admitted and d.clause.endswith("/wildcard")


__all__ = [
    "EligibilityReport",
    "check_age",
    "check_clause",
    "check_gender",
    "evaluate_player",
    "is_pending_evidence_decision",
    "is_wildcard_decision",
    "longest_consecutive_months",
    "pending_evidence_decision",
    "plain_region_match",
    "wildcard_option",
]
