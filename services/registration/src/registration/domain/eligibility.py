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

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from gomoku_shared.event_config import EligibilityClause, EventConfig, ResidencyOption, SectionConfig

from .model import Decision, Evidence, Person, Unit, Verdict, combine
from .residency_options import OptionResult, RegionMatch, judge_option, longest_consecutive_months, plain_region_match


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
    results: list[tuple[ResidencyOption, OptionResult]] = []
    for opt in options:
        r = judge_option(
            opt,
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
