"""EVT-7: the arbiter delays a round — audited (who, when, reason, old and new time) and
announced (``round.rescheduled``: gameplay moves the games' start, partners are told); and the
section's round times as they stand (the schedule, the delays, the published starts)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from gomoku_shared.auth import Principal
from gomoku_shared.contracts.events import RoundRescheduled
from gomoku_shared.errors import Conflict, NotFound, ServiceError, Unprocessable

from ..domain.aggregate import Section
from ..domain.schedule import delay_refusal, planned_start
from .arbiter import FINISHED, audit
from .unit_of_work import PairingUnitOfWork


def current_start(state: Section, rnd: int, delayed: dict[int, datetime]) -> datetime | None:
    """The round's start as it stands: its published start, else the delay's or the schedule's."""
    stored = state.rounds.get(rnd)
    if stored is not None and stored["status"] != "draft" and stored.get("starts_at") is not None:
        return stored["starts_at"]
    return planned_start(state.rules.round_starts, rnd, delayed.get(rnd))


async def delay_round(
    uow: PairingUnitOfWork,
    event_code: str,
    section_id: str,
    rnd: int,
    starts_at: datetime,
    reason: str,
    principal: Principal,
    slot: list[str] | None = None,
) -> dict[str, Any]:
    """EVT-7: delay one section's round (``slot``: the sections of the time slot delayed with it,
    recorded in the audit)."""
    state = await uow.locked_section(event_code, section_id)
    if state.row["status"] in FINISHED:
        raise Conflict("section_finished", f"section {section_id} is {state.row['status']}")
    if not 1 <= rnd <= state.rules.rounds:
        raise Unprocessable("unknown_round", f"{section_id} plays rounds 1..{state.rules.rounds}")
    if starts_at.tzinfo is None:
        raise Unprocessable("offset_required", "starts_at needs its UTC offset")
    delayed = dict(state.delays)
    previous = current_start(state, rnd, delayed)
    now = uow.clock.now()
    refused = delay_refusal(state.rounds.get(rnd), previous, starts_at, now, reason)
    if refused is not None:
        raise Conflict(*refused) if refused[0] != "reason_required" else Unprocessable(*refused)
    if rnd in state.rounds and state.rounds[rnd]["status"] != "draft":
        state.update_round(rnd, starts_at=starts_at)
    details: dict[str, Any] = {
        "reason": reason,
        "previous_starts_at": previous.isoformat() if previous else None,
        "starts_at": starts_at.isoformat(),
    }
    if slot is not None:
        details["slot_sections"] = slot
    audit(uow, state, principal, "delay", rnd, details)
    uow.emit_for(
        state,
        RoundRescheduled(
            event_code=event_code,
            stage=state.row["stage"],
            section_id=section_id,
            round=rnd,
            starts_at=starts_at,
            previous_starts_at=previous,
            reason=reason,
            decided_by=principal.actor_id or principal.role,
            decided_at=now,
        ),
    )
    await uow.sections.save(state)
    return {"round": rnd, **details, "decided_at": now.isoformat()}


async def delay_slot(
    uow: PairingUnitOfWork,
    event_code: str,
    section_id: str,
    rnd: int,
    starts_at: datetime,
    reason: str,
    principal: Principal,
) -> dict[str, Any]:
    """EVT-7: delay round ``rnd`` of a whole time slot — every section of the stage scheduled to
    start that round at the same time as ``section_id`` does (finished ones aside) — together, in
    one transaction: each section audited and announced as by its own delay; a refusal for any of
    them refuses them all (nothing moves), its details naming the section refused."""
    first = await uow.sections.load(event_code, section_id)
    if first is None:
        raise NotFound("section_not_found", f"no section {section_id!r} in event {event_code!r}")
    scheduled = planned_start(first.rules.round_starts, rnd)
    if scheduled is None:
        raise Unprocessable("unscheduled_round", f"round {rnd} of {section_id} is in no time slot: delay it alone")
    members = [section_id]
    for row in await uow.sections.of_event(event_code):
        other_id = row["section_id"]
        if other_id == section_id or row["stage"] != first.row["stage"] or row["status"] in FINISHED:
            continue
        other = await uow.sections.load(event_code, other_id)
        if other is not None and planned_start(other.rules.round_starts, rnd) == scheduled:
            members.append(other_id)
    members.sort()
    delayed = []
    for sid in members:
        try:
            delayed.append(await delay_round(uow, event_code, sid, rnd, starts_at, reason, principal, members))
        except ServiceError as refused:
            refused.details = {"section_id": sid, "slot_sections": members}
            raise
    return {
        "round": rnd,
        "scheduled_at": scheduled.isoformat(),
        "starts_at": starts_at.isoformat(),
        "reason": reason,
        "sections": [
            {"section_id": sid, "previous_starts_at": d["previous_starts_at"]} for sid, d in zip(members, delayed)
        ],
        "decided_at": delayed[0]["decided_at"],
    }


def round_times(state: Section, delayed: dict[int, datetime]) -> dict[str, Any]:
    """Every round of the section with its scheduled, delayed and actual start."""
    rounds = []
    for rnd in range(1, state.rules.rounds + 1):
        stored = state.rounds.get(rnd)
        scheduled = planned_start(state.rules.round_starts, rnd)
        rounds.append(
            {
                "round": rnd,
                "scheduled_at": scheduled.isoformat() if scheduled else None,
                "delayed_to": delayed[rnd].isoformat() if rnd in delayed else None,
                "starts_at": _iso(current_start(state, rnd, delayed)),
                "status": stored["status"] if stored else "not_paired",
            }
        )
    return {"event_code": state.event_code, "section_id": state.section_id, "rounds": rounds}


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None
