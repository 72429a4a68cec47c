"""EVT-7: when a round starts, and whether an arbiter may delay it. Pure functions.

- A round starts at its scheduled time (the section's ``round_starts``, or the arbiter's latest
  delay of it); Decision: a round paired after that time (its previous round ran late) starts
  when it is published — its games never begin in the past. A round beyond the schedule (or of
  an unscheduled section) starts when it is published.
- A delay moves a round's start later (never earlier), to a time still ahead, with a written
  reason; a round already under way (published and its start passed) or complete keeps its time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime


def planned_start(scheduled: Sequence[datetime], rnd: int, delayed_to: datetime | None = None) -> datetime | None:
    """The start the schedule (or the latest delay) gives round ``rnd``; None: unscheduled."""
    if delayed_to is not None:
        return delayed_to
    return scheduled[rnd - 1] if 1 <= rnd <= len(scheduled) else None


def round_start(
    scheduled: Sequence[datetime], rnd: int, published_at: datetime, delayed_to: datetime | None = None
) -> datetime:
    """EVT-7: the start of round ``rnd`` published at ``published_at`` (see the module docstring)."""
    planned = planned_start(scheduled, rnd, delayed_to)
    return published_at if planned is None else max(planned, published_at)


def delay_refusal(
    round_row: Mapping | None, current: datetime | None, new_start: datetime, now: datetime, reason: str
) -> tuple[str, str] | None:
    """Why a delay of a round to ``new_start`` is refused — (code, message) — or None.

    ``round_row``: the round's stored row (None: not paired yet); ``current``: its start now."""
    if not reason.strip():
        return "reason_required", "a delay needs its written reason (EVT-7: audited)"
    if round_row is not None and round_row.get("status") == "complete":
        return "round_complete", "the round is complete: its start can no longer move"
    if round_row is not None and round_row.get("status") == "published" and current is not None and current <= now:
        return "round_started", f"the round started at {current.isoformat()}: its games are under way"
    if new_start <= now:
        return "start_in_past", f"the new start {new_start.isoformat()} is not ahead of now {now.isoformat()}"
    if current is not None and new_start <= current:
        return "not_a_delay", f"the new start must be after the current one, {current.isoformat()}"
    return None
