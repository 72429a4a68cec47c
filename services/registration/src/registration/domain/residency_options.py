"""The options of a residency or representation clause (REG-6, REG-7, REG-8), one judge per
kind: household registration, student status, residence permit (with its date and social
insurance), registered athlete, employment with the unit, and the wildcard. Each answers
admitted, refused or pending with its reason; `eligibility.check_clause` takes the first option
that admits. Evidence counts as the clause's mode says (`declared`: pending or approved records;
`verified`: approved only; a rejected record never counts).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from gomoku_shared.event_config import ResidencyOption, grade_rank, place_key

from .model import Evidence, EvidenceKind, EvidenceStatus, Person, Unit, Verdict


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
class OptionResult:
    outcome: Verdict
    reason: str


@dataclass(frozen=True)
class _Claim:
    """What an option is judged on: the player, their evidence, the region and unit they
    claim, the reference date for durations and how evidence counts (`mode`)."""

    person: Person
    evidence: Sequence[Evidence]
    region: str | None
    unit: Unit | None
    intends_to_represent: bool
    as_of: date
    mode: str
    same_region: RegionMatch

    @property
    def where(self) -> str:
        return f" in {self.region}" if self.region else ""

    def records(self, kind: EvidenceKind) -> list[Evidence]:
        """The player's usable records of one kind in the claimed region."""
        return _of(self.evidence, kind, self.region, self.mode, self.person.id, self.same_region)


def judge_option(
    opt: ResidencyOption,
    person: Person,
    evidence: Sequence[Evidence],
    *,
    region: str | None,
    unit: Unit | None,
    intends_to_represent: bool,
    as_of: date,
    mode: str,
    same_region: RegionMatch = plain_region_match,
) -> OptionResult:
    """One option of a clause for one player."""
    claim = _Claim(person, evidence, region, unit, intends_to_represent, as_of, mode, same_region)
    if opt.kind in _RECORD_OPTIONS:
        return _record_option(opt.kind, claim)
    if opt.kind == "residence_permit":
        return _residence_permit(opt, claim)
    if opt.kind == "registered_athlete":
        return _registered_athlete(claim)
    if opt.kind == "employment":
        return _employment(opt, claim)
    if opt.kind == "wildcard":
        return _wildcard(opt, person, evidence, intends_to_represent=intends_to_represent, mode=mode)
    raise AssertionError(opt.kind)  # pragma: no cover - the schema restricts kinds


#: options met by one record of their kind in the region: (the record's kind, what it is called)
_RECORD_OPTIONS = {
    "household": (EvidenceKind.HOUSEHOLD, "household registration"),
    "student_status": (EvidenceKind.STUDENT_STATUS, "student status"),
}


def _record_option(kind: str, claim: _Claim) -> OptionResult:
    """REG-6 (1): household registration, or student status, in the region."""
    evidence_kind, name = _RECORD_OPTIONS[kind]
    if claim.records(evidence_kind):
        return OptionResult(Verdict.ADMITTED, f"{name}{claim.where}")
    return OptionResult(Verdict.REFUSED, f"no {_qual(claim.mode)}{name}{claim.where}")


def _residence_permit(opt: ResidencyOption, claim: _Claim) -> OptionResult:
    """REG-6 (2): a residence permit in the region, dated before a day where the option says so,
    with a run of consecutive months of social insurance where it asks for one."""
    where = claim.where
    permits = claim.records(EvidenceKind.RESIDENCE_PERMIT)
    if not permits:
        return OptionResult(Verdict.REFUSED, f"no {_qual(claim.mode)}residence permit{where}")
    if opt.permit_issued_before is not None:
        dated = [p for p in permits if p.issued_on is not None and p.issued_on < opt.permit_issued_before]
        if not dated:
            return OptionResult(Verdict.REFUSED, f"residence permit{where} not dated before {opt.permit_issued_before}")
    if opt.min_consecutive_insurance_months is not None:
        need = opt.min_consecutive_insurance_months
        months = [m for e in claim.records(EvidenceKind.SOCIAL_INSURANCE) for m in e.months_paid]
        run = longest_consecutive_months(months)
        if run < need:
            return OptionResult(
                Verdict.REFUSED,
                f"residence permit{where} but only {run} consecutive months of social insurance (needs {need})",
            )
        return OptionResult(
            Verdict.ADMITTED, f"residence permit{where} and {run} consecutive months of social insurance"
        )
    return OptionResult(
        Verdict.ADMITTED,
        f"residence permit{where}" + (f" dated before {opt.permit_issued_before}" if opt.permit_issued_before else ""),
    )


def _registered_athlete(claim: _Claim) -> OptionResult:
    """REG-8: a registered athlete represents the unit of registration."""
    person, unit = claim.person, claim.unit
    if person.registered_unit_id is None:
        return OptionResult(Verdict.REFUSED, "not a registered athlete")
    if unit is not None and person.registered_unit_id == unit.id:
        return OptionResult(Verdict.ADMITTED, f"registered athlete of {unit.name}")
    return OptionResult(Verdict.REFUSED, f"registered with unit {person.registered_unit_id}, must represent that unit")


def _employment(opt: ResidencyOption, claim: _Claim) -> OptionResult:
    """REG-8: employed by the registering unit for at least `min_employment_months` on the
    reference date."""
    unit = claim.unit
    if unit is None:
        return OptionResult(Verdict.REFUSED, "employment proof needs a registering unit")
    need = opt.min_employment_months or 0
    employed_since = [
        item.employed_since
        for item in claim.evidence
        if item.kind is EvidenceKind.EMPLOYMENT
        and item.person_id == claim.person.id
        and _usable(item, claim.mode)
        and item.employer_unit_id == unit.id
        and item.employed_since is not None
    ]
    best = max((_full_months_between(since, claim.as_of) for since in employed_since), default=None)
    if best is None:
        return OptionResult(Verdict.REFUSED, f"no {_qual(claim.mode)}proof of employment with {unit.name}")
    if best < need:
        return OptionResult(
            Verdict.REFUSED, f"employed by {unit.name} for {best} months on {claim.as_of} (needs {need})"
        )
    return OptionResult(Verdict.ADMITTED, f"employed by {unit.name} for {best} months")


def _qual(mode: str) -> str:
    return "approved " if mode == "verified" else ""


#: who "approved" a fact the federation's record proves (issue 32: `domain.record`)
ON_RECORD = "record"


def _wanted(opt: ResidencyOption) -> str:
    """What a wildcard needs, in words (a grade or better, or places by level)."""
    grade = [f"a grade of {opt.min_grade} or better"] if opt.min_grade else []
    places = [f"{level} top {worst}" for level, worst in opt.result_places.items()]
    return " or ".join(grade + ([", ".join(places)] if places else []))


def _wildcard(
    opt: ResidencyOption, person: Person, evidence: Sequence[Evidence], *, intends_to_represent: bool, mode: str
) -> OptionResult:
    """REG-6 (4): citizen AND (grade OR past result) AND intent; own deadline; arbiter approval."""
    if opt.requires_citizenship and (person.citizenship or "").upper() != opt.requires_citizenship.upper():
        return OptionResult(Verdict.REFUSED, f"wildcard needs {opt.requires_citizenship} citizenship")
    if opt.requires_intent_to_represent and not intends_to_represent:
        return OptionResult(Verdict.REFUSED, "wildcard needs the declared intent to represent the region")

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
                at = f" at {e.result_event}" if e.reviewed_by == ON_RECORD and e.result_event else ""
                candidates.append((e, f"{e.result_level} result place {e.result_place}{at} (top {worst})"))
    if not candidates and opt.from_record:
        # SZ 六(4): the record does not prove it and no document does (十三(二): materials count
        # when they arrive: a certificate sent later is judged again, then by the arbiter)
        return OptionResult(
            Verdict.REFUSED, "wildcard: not proven by the record nor by a document (" + _wanted(opt) + ")"
        )
    if not candidates:
        return OptionResult(
            Verdict.REFUSED,
            "wildcard needs a grade of "
            + (opt.min_grade or "-")
            + " or better, or a qualifying official result "
            + ", ".join(f"{k} top {v}" for k, v in opt.result_places.items()),
        )
    timely = [(e, why) for e, why in candidates if in_time(e)]
    if not timely:
        return OptionResult(Verdict.REFUSED, f"wildcard evidence arrived after the deadline {opt.deadline}")
    live = [(e, why) for e, why in timely if e.status is not EvidenceStatus.REJECTED]
    if not live:
        return OptionResult(Verdict.REFUSED, "wildcard evidence rejected by the arbiter")
    approved = [(e, why) for e, why in live if e.status is EvidenceStatus.APPROVED]
    if approved:
        how = "on the record" if approved[0][0].reviewed_by == ON_RECORD else "approved"
        return OptionResult(Verdict.ADMITTED, f"wildcard: {approved[0][1]}, {how}")
    if opt.requires_approval or mode == "verified":
        return OptionResult(Verdict.PENDING, f"wildcard: {live[0][1]}, awaiting the arbiter's approval")
    return OptionResult(Verdict.ADMITTED, f"wildcard: {live[0][1]}")
