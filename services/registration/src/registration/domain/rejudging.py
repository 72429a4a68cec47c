"""REG-18: the parts of judging an entry again that need no other entry — which entries are
judged again, which of their decisions stand, and the entry that results. The aggregate
(`EventRegistration.rejudge`) adds what depends on the rest of the section: the place, the
waiting list and the arbiter's marks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .eligibility import is_pending_evidence_decision
from .model import REJUDGED, Decision, Entry, EntryStatus, Verdict, combine

#: the rules eligibility is judged on (REG-18: judged again when their inputs change)
ELIGIBILITY_RULES = frozenset({"REG-4", "REG-5", "REG-6", "REG-7", "REG-8", "REG-18"})

#: the status an entry takes from the combined verdict of its decisions
STATUS_OF = {
    Verdict.ADMITTED: EntryStatus.ACCEPTED,
    Verdict.PENDING: EntryStatus.PENDING_REVIEW,
    Verdict.REFUSED: EntryStatus.REFUSED,
}

_OUTCOME_OF = {
    EntryStatus.ACCEPTED: Verdict.ADMITTED,
    EntryStatus.PENDING_REVIEW: Verdict.PENDING,
    EntryStatus.WAITLISTED: Verdict.PENDING,
    EntryStatus.REFUSED: Verdict.REFUSED,
    EntryStatus.WITHDRAWN: Verdict.REFUSED,
}


def may_be_judged_again(entry: Entry) -> bool:
    """Every entry but a withdrawn one, and a refused one only when eligibility refused it."""
    if entry.status is EntryStatus.WITHDRAWN:
        return False
    return entry.status is not EntryStatus.REFUSED or _refused_on_eligibility(entry)


def _refused_on_eligibility(entry: Entry) -> bool:
    """Refused by eligibility alone (age, gender, residency...): judged again when its inputs
    change. A refusal for the window, the cap, a duplicate, the team or by the arbiter stands."""
    refusing = [d for d in entry.decisions if d.refused and d.clause != REJUDGED]
    return bool(refusing) and all(d.rule in ELIGIBILITY_RULES and not d.clause.startswith("arbiter/") for d in refusing)


def with_current_marks(entry: Entry, fresh: Sequence[Decision]) -> Entry:
    """A settled entry (its stage is closed): the status stays, only the pending-evidence
    marks are brought up to date."""
    marks = tuple(d for d in fresh if is_pending_evidence_decision(d)) if entry.status is EntryStatus.ACCEPTED else ()
    unmarked = tuple(d for d in entry.decisions if not is_pending_evidence_decision(d))
    return replace(entry, decisions=unmarked + marks)


def standing_decisions(entry: Entry) -> list[Decision]:
    """The decisions judging again leaves as they are: the application's other rules (window,
    insurance, unit, team) and the arbiter's own."""
    return [d for d in entry.decisions if d.rule not in ELIGIBILITY_RULES or d.clause.startswith("arbiter/")]


def judged_outcome(entry: Entry, kept: Sequence[Decision], fresh: Sequence[Decision]) -> Verdict:
    """The combined verdict of the standing decisions and the fresh eligibility ones (a
    waiting-list place is judged like the rest, apart from the place it waits for)."""
    waiting = entry.status is EntryStatus.WAITLISTED
    judged = [d for d in kept if not d.clause.startswith("arbiter/") and not (waiting and d.rule == "REG-2")] + list(
        fresh
    )
    return combine(judged)


def rejudged_decision(old: EntryStatus, new: EntryStatus, cause: str) -> Decision:
    """The REG-18 mark of a status that changed on judging again."""
    return Decision("REG-18", REJUDGED, _OUTCOME_OF[new], f"judged again after {cause}: {old.value} -> {new.value}")


def rejudged_entry(
    entry: Entry,
    status: EntryStatus,
    waitpos: int | None,
    kept: Sequence[Decision],
    fresh: Sequence[Decision],
    extra: Sequence[Decision],
) -> Entry:
    """The entry after judging again: standing decisions, the fresh ones, the earlier REG-18
    marks and the new ones; a refused entry no longer holds its place (REG-2)."""
    log = [d for d in entry.decisions if d.clause == REJUDGED]
    if status is EntryStatus.REFUSED:
        kept = [d for d in kept if d.rule != "REG-2"]  # the place it held is free again
    return replace(
        entry,
        status=status,
        waitlist_position=waitpos if status is EntryStatus.WAITLISTED else None,
        decisions=tuple(d for d in kept if d.clause != REJUDGED) + tuple(fresh) + tuple(log) + tuple(extra),
    )
