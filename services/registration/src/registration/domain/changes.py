"""REG-10: change requests and withdrawals.

- From 00:00 local time on (start date - freeze_days) no change at all is accepted
  ("赛前两天不接受变更"); start = the section's start date.
- Before that, a change needs an arbiter's approval after the close (digest) or from
  submission on (NY/DA/NT seeds: "报名后如需人员变更，需经竞赛组委会批准"), as configured.
- A fixed board order (REG-9, NT) is never changed.
- Withdrawal after confirmation needs a written reason (and proof where configured); the
  refund request is recorded, never paid out here.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from gomoku_shared.event_config import EventConfig

from .errors import RegistrationError
from .model import Decision, Entry, EntryStatus, Verdict, Withdrawal


class ChangeKind(str, enum.Enum):
    SUBSTITUTE_PLAYER = "substitute_player"
    BOARD_ORDER = "board_order"
    SECTION = "section"
    DETAILS = "details"


class ChangeState(str, enum.Enum):
    APPROVED = "approved"
    AWAITING_ARBITER = "awaiting_arbiter"
    REFUSED = "refused"


@dataclass(frozen=True)
class ChangeRequest:
    id: str
    entry_id: str
    kind: ChangeKind
    requested_at: datetime
    details: str
    state: ChangeState = ChangeState.AWAITING_ARBITER
    decision: Decision | None = None
    decided_by: str | None = None


def freeze_starts_at(event: EventConfig, section_id: str) -> datetime:
    """First instant at which no change is accepted for the section."""
    tz = ZoneInfo(event.timezone)
    day = event.section_start(section_id) - timedelta(days=event.changes.freeze_days)
    return datetime.combine(day, time(0, 0), tzinfo=tz)


def judge_change(event: EventConfig, entry: Entry, kind: ChangeKind, now: datetime) -> Decision:
    """Whether a change may be made now: admitted (free), pending (arbiter) or refused."""
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    section = event.section(entry.section_id)
    if entry.status in (EntryStatus.WITHDRAWN, EntryStatus.REFUSED):
        return Decision(
            "REG-10", "changes/status", Verdict.REFUSED, f"entry is {entry.status.value}; nothing to change"
        )
    if kind is ChangeKind.BOARD_ORDER and section.team and section.team.fixed_board_order:
        return Decision(
            "REG-9",
            "changes/board_order",
            Verdict.REFUSED,
            "the board order is fixed at registration and never changed",
        )
    freeze = freeze_starts_at(event, section.id)
    if now >= freeze:
        return Decision(
            "REG-10",
            "changes/freeze",
            Verdict.REFUSED,
            f"no changes within {event.changes.freeze_days} days of the start (frozen since {freeze.isoformat()})",
        )
    rules = event.changes
    if rules.approval_required_from == "submission" or now >= event.registration.closes_at:
        when = "after submission" if rules.approval_required_from == "submission" else "after the close"
        return Decision("REG-10", "changes/approval", Verdict.PENDING, f"changes {when} need the arbiter's approval")
    return Decision("REG-10", "changes/open", Verdict.ADMITTED, "registration open: change allowed")


def request_change(
    event: EventConfig, entry: Entry, request_id: str, kind: ChangeKind, details: str, now: datetime
) -> ChangeRequest:
    decision = judge_change(event, entry, kind, now)
    state = {
        Verdict.ADMITTED: ChangeState.APPROVED,
        Verdict.PENDING: ChangeState.AWAITING_ARBITER,
        Verdict.REFUSED: ChangeState.REFUSED,
    }[decision.outcome]
    return ChangeRequest(request_id, entry.id, kind, now, details, state, decision)


def decide_change(
    event: EventConfig, entry: Entry, request: ChangeRequest, *, approve: bool, arbiter: str, note: str, now: datetime
) -> ChangeRequest:
    """The arbiter's decision; the freeze still applies at decision time."""
    if request.state is not ChangeState.AWAITING_ARBITER:
        raise RegistrationError(f"change {request.id} is {request.state.value}")
    again = judge_change(event, entry, request.kind, now)
    if again.refused:
        return replace(request, state=ChangeState.REFUSED, decision=again, decided_by=arbiter)
    decision = Decision(
        "REG-10",
        "changes/arbiter",
        Verdict.ADMITTED if approve else Verdict.REFUSED,
        f"{'approved' if approve else 'refused'} by {arbiter}: {note}",
    )
    return replace(
        request, state=ChangeState.APPROVED if approve else ChangeState.REFUSED, decision=decision, decided_by=arbiter
    )


def withdraw(
    event: EventConfig, entry: Entry, *, reason: str | None, now: datetime, proof_ref: str | None = None
) -> Entry:
    """Withdraw an entry. After confirmation (accepted) a written reason is required, plus a
    proof document where the event says so; a refund request is recorded."""
    if entry.status in (EntryStatus.WITHDRAWN, EntryStatus.REFUSED):
        raise RegistrationError(f"entry {entry.id} is {entry.status.value}")
    confirmed = entry.status is EntryStatus.ACCEPTED
    rules = event.changes
    if confirmed and rules.withdrawal_requires_reason and not (reason or "").strip():
        raise RegistrationError("REG-10: withdrawal after confirmation needs a written reason")
    if confirmed and rules.withdrawal_requires_proof and not (proof_ref or "").strip():
        raise RegistrationError("REG-10: withdrawal after confirmation needs a supporting document")
    withdrawal = Withdrawal(at=now, reason=(reason or "").strip(), proof_ref=proof_ref, refund_requested=confirmed)
    decision = Decision(
        "REG-10",
        "changes/withdrawal",
        Verdict.ADMITTED,
        f"withdrawn: {withdrawal.reason or 'no reason needed before confirmation'}",
    )
    return replace(entry, status=EntryStatus.WITHDRAWN, withdrawal=withdrawal, decisions=entry.decisions + (decision,))
