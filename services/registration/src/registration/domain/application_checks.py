"""The checks of one application that need no other entry's state: a stage open to
registration (EVT-6), the window (REG-1), the insurance (REG-13), one player in an individual
entry (REG-3) and a team's shape and board order (REG-9)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from gomoku_shared.event_config import EventConfig, SectionConfig, StageConfig

from .model import Application, Decision, Entry, Person, Verdict


def _aware(now: datetime) -> datetime:
    if now.tzinfo is None:
        raise ValueError("times must be timezone-aware")
    return now


def check_stage_entry(stage: StageConfig) -> list[Decision]:
    """EVT-6: a stage entered by qualification takes no applications."""
    if stage.entry == "registration":
        return []
    return [
        Decision("EVT-6", f"{stage.id}/entry", Verdict.REFUSED, f"stage {stage.name} is entered by qualification only")
    ]


def check_individual(section: SectionConfig, members: Sequence[Person]) -> list[Decision]:
    """REG-3: an individual entry names exactly one player."""
    if section.kind == "individual" and len(members) != 1:
        return [
            Decision("REG-3", f"{section.id}/entry", Verdict.REFUSED, "an individual entry names exactly one player")
        ]
    return []


def check_window(event: EventConfig, app: Application) -> tuple[Decision, datetime | None]:
    """REG-1: the complete application must arrive in [opens_at, closes_at)."""
    reg = event.registration
    done = app.completed_at(reg.required_items)
    if done is None:
        return (
            Decision(
                "REG-1",
                "registration/complete",
                Verdict.REFUSED,
                f"incomplete application (missing: {', '.join(app.missing(reg.required_items))}); "
                "incomplete applications are invalid",
            ),
            None,
        )
    _aware(done)
    if reg.opens_at is not None and done < reg.opens_at:
        return (
            Decision(
                "REG-1",
                "registration/window",
                Verdict.REFUSED,
                f"complete at {done.isoformat()}, before registration opens {reg.opens_at.isoformat()}",
            ),
            done,
        )
    if done >= reg.closes_at:
        return (
            Decision(
                "REG-1",
                "registration/window",
                Verdict.REFUSED,
                f"complete at {done.isoformat()}, after registration closed {reg.closes_at.isoformat()}",
            ),
            done,
        )
    return (
        Decision("REG-1", "registration/window", Verdict.ADMITTED, f"complete application received {done.isoformat()}"),
        done,
    )


def check_insurance(event: EventConfig, app: Application, people: Sequence[Person]) -> Decision:
    """REG-13: a confirmation flag with a document reference per entry (unless the organiser insures)."""
    ins = event.insurance
    if not ins.required:
        return Decision("REG-13", "insurance", Verdict.ADMITTED, "no insurance required")
    if ins.provided_by == "organiser":
        missing = [p.name for p in people if p.id_number is None]
        if event.registration.id_number_required and missing:
            return Decision(
                "REG-13",
                "insurance/organiser",
                Verdict.REFUSED,
                f"ID number needed for the organiser's insurance: {', '.join(missing)}",
            )
        return Decision("REG-13", "insurance/organiser", Verdict.ADMITTED, "insured by the organiser")
    if ins.verified_at == "check_in":
        return Decision("REG-13", "insurance/check_in", Verdict.ADMITTED, "insurance to be shown at check-in")
    insurance = app.insurance
    if not insurance.confirmed or not (insurance.document_ref or "").strip():
        return Decision(
            "REG-13", "insurance/participant", Verdict.REFUSED, "insurance not confirmed with a document reference"
        )
    # the reference itself is personal data: it is kept (encrypted) beside the entry, never
    # written into a decision
    return Decision(
        "REG-13", "insurance/participant", Verdict.ADMITTED, "insurance confirmed with a document reference"
    )


def check_team(
    section: SectionConfig,
    people: Sequence[Person],
    individual_entries: Iterable[Entry] = (),
    unit_id: str | None = None,
) -> list[Decision]:
    """REG-9: team size, gender counts, board genders (board order = order of `people`).
    Teams scored from individual results need each member's individual entry, in the same unit."""
    comp = section.team
    if comp is None:
        return []
    out: list[Decision] = []
    n = len(people)
    males = sum(p.gender == "male" for p in people)
    females = n - males

    def bad(clause: str, reason: str) -> None:
        out.append(Decision("REG-9", f"{section.id}/team/{clause}", Verdict.REFUSED, reason))

    if n < comp.size_min or (comp.size_max is not None and n > comp.size_max):
        size = (
            f"{comp.size_min}"
            if comp.size_min == comp.size_max
            else f"{comp.size_min}..{comp.size_max if comp.size_max is not None else 'any'}"
        )
        bad("size", f"team of {n} players; {section.name} needs {size}")
    if len({p.id for p in people}) != n:
        bad("size", "a player is listed twice in the team")
    for count, minimum, maximum, gender in (
        (males, comp.male_min, comp.male_max, "male"),
        (females, comp.female_min, comp.female_max, "female"),
    ):
        if count < minimum:
            bad(gender, f"team has {count} {gender} players, needs at least {minimum}")
        if maximum is not None and count > maximum:
            bad(gender, f"team has {count} {gender} players, at most {maximum} allowed")
    for board, gender in sorted(comp.board_gender.items()):
        if board <= n and people[board - 1].gender != gender:
            bad(
                "board",
                f"board {board} must be a {gender} player, {people[board - 1].name} is {people[board - 1].gender}",
            )
    if comp.scored_from_individual_sections:
        src = set(comp.scored_from_individual_sections)
        entered = {
            pid
            for e in individual_entries
            if e.section_id in src and e.status.holds_place and e.unit_id == unit_id
            for pid in e.person_ids
        }
        for p in people:
            if p.id not in entered:
                bad("members", f"{p.name} has no entry for this unit in {', '.join(sorted(src))}")
    if not out:
        order = ", ".join(f"{i + 1}: {p.name}" for i, p in enumerate(people))
        out.append(
            Decision(
                "REG-9",
                f"{section.id}/team",
                Verdict.ADMITTED,
                f"team composition valid ({order})" + (" — board order fixed" if comp.fixed_board_order else ""),
            )
        )
    return out
