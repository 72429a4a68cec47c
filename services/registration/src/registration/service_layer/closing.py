"""REG-11/REG-12: closing a stage — fees not received by the deadline (REG-14) and absent
players (REG-11) out, small sections merged, tiny ones cancelled, one section.closed per played
or cancelled section, and the stages it feeds rebuilt when their lists are all in."""

from __future__ import annotations

from typing import Any

from gomoku_shared.errors import Conflict, NotFound, Unprocessable
from gomoku_shared.event_config import EventConfig

from ..adapters.contract_mapping import event_id_for, section_closed
from ..domain import (
    ClosedSection,
    Entry,
    EntryStatus,
    FormatChoice,
    RoundLimitExceeded,
    SwissRoundsExceedField,
    cancel_unplayable,
    close_stage,
)
from . import fees
from . import forms as s
from .actors import actor_ref
from .attendance import delegation_issues, settle_undecided
from .command import EventCommand
from .readiness import stage_status
from .rendering import STATUS_NAMES, closed_sections_view, pending_evidence_view
from .stages import rebuild_if_ready


async def close_stage_cmd(cmd: EventCommand, stage_id: str, body: s.CloseIn) -> dict[str, Any]:
    """REG-11/REG-12: the final field of every section (absent players out, small sections
    merged, tiny ones cancelled) and one section.closed per played or cancelled section."""
    config = cmd.config
    choices = await _closing_choices(cmd, stage_id, body)
    # REG-14: entries whose fees were not received by the deadline are invalid, not paired
    not_paired = await fees.refuse_unpaid(cmd, _stage_entries(cmd, stage_id))
    attendance = await settle_undecided(cmd, _stage_entries(cmd, stage_id), body)  # REG-11: who did not check in
    entries = _stage_entries(cmd, stage_id)
    closed = _final_fields(config, stage_id, entries, choices)
    await _publish_closed_sections(cmd, closed)
    summary = closed_sections_view(config, closed)
    await cmd.uow.events.update_stage(
        cmd.code,
        stage_id,
        status="closed",
        closed_at=cmd.now,
        sections=summary,
        format_choices={k: _choice_record(cmd, v) for k, v in body.format_choices.items()},
    )
    # a stage fed by this one may now be complete (all reports in before the close)
    for nxt in config.stages:
        if nxt.fed_by == stage_id:
            await rebuild_if_ready(cmd, nxt.id)
    return {
        "event_code": cmd.code,
        "stage": stage_id,
        "status": "closed",
        "sections": summary,
        "unsettled": _unsettled_view(entries),
        "pending_evidence": _pending_evidence_views(config, entries),
        "not_paired": not_paired,
        "attendance": attendance,
        "delegations": delegation_issues(cmd, entries),  # REG-16 (NT 十(一)4)
    }


async def _closing_choices(cmd: EventCommand, stage_id: str, body: s.CloseIn) -> dict[str, FormatChoice]:
    """The arbiter's format choices of a stage that may close now (404 unknown stage, 409 closed
    or waiting for qualifiers, 422 a section not in the stage)."""
    config = cmd.config
    try:
        stage = config.stage(stage_id)
    except KeyError:
        raise NotFound("unknown_stage", f"no stage {stage_id!r}") from None
    info = await stage_status(cmd.uow.events, config, stage_id)
    if info["status"] == "closed":
        raise Conflict("stage_closed", f"stage {stage_id!r} is closed already")
    if info["status"] == "awaiting_qualifiers":
        raise Conflict(
            "stage_not_ready",
            f"stage {stage_id!r} is waiting for qualifiers",
            {"waiting_for": info.get("waiting_for", [])},
        )
    ids = {sec.id for sec in stage.sections}
    unknown = sorted(set(body.format_choices) - ids)
    if unknown:
        raise Unprocessable("unknown_section", f"no section {unknown} in stage {stage_id}")
    return {k: FormatChoice(v.kind, v.rounds, v.over_max_reason) for k, v in body.format_choices.items()}


def _choice_record(cmd: EventCommand, choice: s.FormatChoiceIn) -> dict[str, Any]:
    """The arbiter's choice as the stage keeps it; going beyond a maximum names who and why (PAIR-1)."""
    record: dict[str, Any] = {"kind": choice.kind, "rounds": choice.rounds}
    if choice.over_max_reason:
        record |= {
            "over_max_reason": choice.over_max_reason,
            "by": actor_ref(cmd.principal),
            "at": cmd.now.isoformat(),
        }
    return record


def _stage_entries(cmd: EventCommand, stage_id: str) -> list[Entry]:
    """The entries of one stage as they stand now, in submission order."""
    return [entry for entry_id, entry in cmd.reg.entries.items() if cmd.loaded.meta[entry_id].stage == stage_id]


def _final_fields(
    config: EventConfig, stage_id: str, entries: list[Entry], choices: dict[str, FormatChoice]
) -> list[ClosedSection]:
    """REG-12: the closed sections of the stage; 422 while a played section still needs the
    arbiter's choice of format (and rounds)."""
    try:
        closed = close_stage(config, stage_id, entries, choices)
    except SwissRoundsExceedField as exc:
        raise _swiss_too_long(config, exc) from None
    except RoundLimitExceeded as exc:
        raise _rounds_over_limit(config, exc) from None
    except ValueError as exc:
        raise Unprocessable("invalid_format_choice", str(exc)) from None
    closed = cancel_unplayable(config, closed)
    undecided: list[dict[str, Any]] = [
        {"section_id": c.section_id, "entrants": c.size, "allowed": _allowed_formats(config, c.section_id)}
        for c in closed
        if c.status == "ready" and config.section(c.section_id).played and (c.format is None or c.rounds is None)
    ]
    if undecided:
        raise Unprocessable(
            "format_choice_required",
            "the arbiter must choose the format (and rounds) of these sections: "
            + ", ".join(u["section_id"] for u in undecided),
            undecided,
        )
    return closed


def _swiss_too_long(config: EventConfig, exc: SwissRoundsExceedField) -> Unprocessable:
    """PAIR-2: 422 naming the section and the numbers; nothing is closed."""
    sec = config.section(exc.section_id)
    return Unprocessable(
        "swiss_rounds_exceed_field",
        str(exc),
        {
            "rule": "PAIR-2",
            "section_id": sec.id,
            "section_name": sec.name,
            "section_name_zh": sec.name_zh or sec.name,
            "entrants": exc.entrants,
            "rounds": exc.rounds,
            "max_rounds": exc.max_rounds,
        },
    )


def _rounds_over_limit(config: EventConfig, exc: RoundLimitExceeded) -> Unprocessable:
    """PAIR-1 / EVT-7: 422 naming the section, its limits and the formats that fit; nothing is
    closed. `override` says whether a reason (over_max_reason) may carry more rounds."""
    sec = config.section(exc.section_id)
    code = "rounds_exceed_schedule" if exc.over_schedule else "rounds_exceed_maximum"
    return Unprocessable(
        code,
        str(exc),
        {
            "rule": "EVT-7" if exc.over_schedule else "PAIR-1",
            "section_id": sec.id,
            "section_name": sec.name,
            "section_name_zh": sec.name_zh or sec.name,
            "entrants": exc.entrants,
            "format": exc.kind,
            "rounds": exc.rounds,
            "max_rounds": exc.max_rounds,
            "max_rounds_binding": exc.binding,
            "scheduled_rounds": exc.scheduled,
            "override": "over_max_reason" if exc.override_allowed else None,
            "choices": [{"kind": o.kind, "rounds": o.max_rounds} for o in exc.options],
            # the same choices as numbers the staff console's words can name
            "swiss_rounds": next((o.max_rounds for o in exc.options if o.kind == "swiss"), None),
            "round_robin_rounds": next((o.max_rounds for o in exc.options if o.kind == "round_robin"), None),
        },
    )


async def _publish_closed_sections(cmd: EventCommand, closed: list[ClosedSection]) -> None:
    """One section.closed (through the outbox) per played section that is ready or cancelled."""
    config = cmd.config
    people = await cmd.load_people(sorted({p for c in closed for fe in c.entries for p in fe.person_ids}))
    units = cmd.all_units()
    for c in closed:
        if c.status in ("ready", "cancelled") and config.section(c.section_id).played:
            payload = section_closed(
                config,
                c,
                people,
                units,
                cmd.loaded.meta,
                cmd.reg.entries,
                cmd.registry_ids,
                cmd.published_ratings(),
                listed=cmd.listed_ratings(),
            )
            cmd.uow.emit(
                payload, correlation_id=cmd.code, event_id=event_id_for("section.closed", cmd.code, c.section_id)
            )


def _unsettled_view(entries: list[Entry]) -> list[dict[str, Any]]:
    """Entries nobody settled are not in any field: say so, the arbiter may want to know."""
    return [
        {"entry_id": e.id, "section_id": e.section_id, "status": STATUS_NAMES[e.status]}
        for e in entries
        if e.status in (EntryStatus.PENDING_REVIEW, EntryStatus.WAITLISTED)
    ]


def _pending_evidence_views(config: EventConfig, entries: list[Entry]) -> list[dict[str, Any]]:
    """REG-18: entries playing on declared evidence nobody approved yet, and what that costs them."""
    return [
        {"entry_id": e.id, "section_id": e.section_id, **(pending_evidence_view(config, e) or {})}
        for e in entries
        if e.pending_evidence
    ]


def _allowed_formats(config: EventConfig, section_id: str) -> list[str]:
    rules = config.section(section_id).format
    return list(rules.allowed) if rules is not None else []
