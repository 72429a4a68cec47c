"""REG-11: check-in (报到) before the stage; arbiters mark no-shows, who are not paired."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime

from gomoku_shared.event_config import EventConfig

from .errors import RegistrationError
from .model import Decision, Entry, EntryStatus, Verdict


def check_in(
    event: EventConfig,
    entry: Entry,
    *,
    now: datetime,
    documents_shown: Iterable[str] = (),
    insurance_ref: str | None = None,
    arbiter_override: str | None = None,
) -> tuple[Entry, Decision]:
    """Check an accepted entry in. Late check-in or missing documents are refused unless an
    arbiter overrides (name given). Where insurance is verified at check-in (NT) the policy
    reference is recorded on the entry (REG-13)."""
    if entry.status is not EntryStatus.ACCEPTED:
        raise RegistrationError(f"entry {entry.id} is {entry.status.value}, only accepted entries check in")
    if entry.no_show:
        raise RegistrationError(f"entry {entry.id} was marked a no-show")
    problems: list[str] = []
    cfg = event.check_in
    if cfg.deadline is not None and now >= cfg.deadline:
        problems.append(f"check-in closed at {cfg.deadline.isoformat()}")
    shown = set(documents_shown)
    missing = [d for d in cfg.documents if d not in shown]
    if missing:
        problems.append(f"documents not shown: {', '.join(missing)}")
    ins = event.insurance
    new_ins = entry.insurance
    if ins.required and ins.provided_by == "participant" and ins.verified_at == "check_in":
        if not (insurance_ref or "").strip():
            problems.append("insurance policy not shown")
        else:
            new_ins = replace(entry.insurance, confirmed=True, document_ref=insurance_ref)
    if problems and not arbiter_override:
        return entry, Decision("REG-11", "check_in", Verdict.REFUSED, "; ".join(problems))
    reason = "checked in" + (f" (arbiter {arbiter_override}: {'; '.join(problems)})" if problems else "")
    d = Decision("REG-11", "check_in", Verdict.ADMITTED, reason)
    return replace(entry, checked_in_at=now, insurance=new_ins, decisions=entry.decisions + (d,)), d


def mark_no_show(entry: Entry, *, arbiter: str) -> Entry:
    """An arbiter marks an entry absent: it is not paired."""
    decision = Decision("REG-11", "no_show", Verdict.REFUSED, f"marked absent by {arbiter}")
    return replace(entry, no_show=True, decisions=entry.decisions + (decision,))


def pairable(entries: Iterable[Entry], *, require_check_in: bool = True) -> list[Entry]:
    """Entries the pairing may use: accepted, not absent, checked in (if required)."""
    return [
        e
        for e in entries
        if e.status is EntryStatus.ACCEPTED and not e.no_show and (e.checked_in_at is not None or not require_check_in)
    ]


def undecided(entries: Iterable[Entry]) -> list[Entry]:
    """REG-11 at the close: accepted entries neither checked in nor marked absent."""
    return [e for e in entries if e.status is EntryStatus.ACCEPTED and not e.no_show and e.checked_in_at is None]


def settle_attendance(entry: Entry, *, present: bool, by: str) -> Entry:
    """The arbiter's (or the event's default) decision on an entry that did not check in:
    played (present) or left out of the field (absent, like a no-show)."""
    what = "plays without checking in" if present else "absent: not checked in"
    decision = Decision(
        "REG-11", "check_in/at_close", Verdict.ADMITTED if present else Verdict.REFUSED, f"{what} ({by})"
    )
    return replace(entry, no_show=entry.no_show or not present, decisions=entry.decisions + (decision,))
