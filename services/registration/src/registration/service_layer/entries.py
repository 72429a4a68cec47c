"""Entries: registering a player, a team or a batch (REG-1..9, REG-13), the arbiter's review
(REG-3, REG-6) and withdrawal (REG-10, REG-2). Entry ids are `<event>.<stage>.<section>.<nnnn>`
by arrival order in the section."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from gomoku_shared.contracts.events import EntryWithdrawn
from gomoku_shared.errors import Conflict, ServiceError, Unprocessable
from gomoku_shared.event_config import EventConfig

from ..adapters import repository as repo
from ..adapters.contract_mapping import event_id_for
from ..domain import Application, Entry, EntryStatus, InsuranceConfirmation, RegistrationError
from . import forms as s
from .actors import actor_ref, requester_ref
from .command import EventCommand
from .rendering import pending_evidence_view, status_clause, status_name
from .state import owner_of


def _section_and_stage(config: EventConfig, section_id: str, stage: str | None) -> str:
    try:
        st = config.stage_of(section_id)
    except KeyError:
        raise Unprocessable("unknown_section", f"no section {section_id!r} in {config.id}") from None
    if stage is not None and stage != st.id:
        raise Unprocessable("wrong_stage", f"section {section_id!r} belongs to stage {st.id!r}, not {stage!r}")
    return st.id


async def submit(
    cmd: EventCommand,
    *,
    section_id: str,
    stage: str | None,
    players: list[s.PlayerIn],
    evidence: list[list[s.EvidenceIn]],
    facts: list[s.FactsIn],
    insurance: s.InsuranceIn,
    items: list[str] | None,
    unit_ref: str | None,
    team_name: str | None = None,
) -> Entry:
    """REG-1..9, REG-13: judge one application (a player, or a team in board order)."""
    config = cmd.config
    stage_id = _section_and_stage(config, section_id, stage)
    await cmd.ensure_stage_open(stage_id)
    unit = await cmd.unit_for(unit_ref)
    person_ids = [await cmd.person_for(p) for p in players]
    seq = cmd.next_entry_seq(section_id)
    entry_id = f"{cmd.code}.{stage_id}.{section_id}.{seq:04d}"
    new_evidence = [
        await cmd.add_evidence(pid, ev, entry_id) for pid, evs in zip(person_ids, evidence, strict=True) for ev in evs
    ]
    del new_evidence  # stored; read back below with every earlier record of these players
    all_evidence = await cmd.evidence_of(person_ids)
    required = config.registration.required_items
    delivered = items if items is not None else list(required)
    # REG-1: every delivered item arrives now (the service clock); the window is judged on it
    received = {item: cmd.now for item in delivered}
    exempt = {pid: f.quota_exempt_ref for pid, f in zip(person_ids, facts, strict=True) if f.quota_exempt_ref}
    app = Application(
        id=entry_id,
        section_id=section_id,
        person_ids=tuple(person_ids),
        items_received=received,
        unit_id=unit.id if unit else None,
        insurance=InsuranceConfirmation(insurance.confirmed, insurance.document_ref),
        intends_to_represent=any(f.intends_to_represent for f in facts),
        quota_exempt_refs=exempt,
        team_name=team_name,
        id_keys={
            pid: cmd.state.protector.index(p.id_number)
            for pid, p in zip(person_ids, players, strict=True)
            if pid in exempt and p.id_number
        },
        published_ratings=cmd.listed_ratings(person_ids),  # issue 32 rating band
        registry_ids={pid: cmd.registry_ids[pid] for pid in exempt if pid in cmd.registry_ids},  # REG-16 on the record
    )
    people = await cmd.load_people(person_ids)
    previous_top = await cmd.previous_top() if exempt else None  # REG-16: claims are checked against it
    try:
        result = cmd.reg.submit(
            app, people, evidence=all_evidence, unit=unit, now=cmd.now, entry_id=entry_id, previous_top=previous_top
        )
    except RegistrationError as exc:
        raise Unprocessable("registration_error", str(exc)) from None
    entry = result.entry
    cmd.loaded.meta[entry.id] = repo.EntryMeta(
        stage=stage_id,
        seq=seq,
        partner_id=owner_of(cmd.principal),
        intends_to_represent=app.intends_to_represent,
        rating=max(p.rating for p in players),
        insurance_ref_enc=cmd.state.protector.encrypt(insurance.document_ref) if insurance.document_ref else None,
    )
    cmd.entry_seqs[section_id] = seq
    # the domain keeps the confirmation; the reference itself is stored encrypted (meta)
    entry = replace(
        entry, insurance=InsuranceConfirmation(insurance.confirmed, "[protected]" if insurance.document_ref else None)
    )
    cmd.reg.replace_entry(entry)
    cmd.emit_entry(entry)
    return entry


async def submit_individual(cmd: EventCommand, body: s.EntryIn) -> Entry:
    return await submit(
        cmd,
        section_id=body.section_id,
        stage=body.stage,
        players=[body.player],
        evidence=[body.evidence],
        facts=[body.facts],
        insurance=body.insurance,
        items=body.items,
        unit_ref=body.player.unit,
    )


async def submit_team(cmd: EventCommand, body: s.TeamIn) -> Entry:
    """REG-9: a team with its board order fixed at registration (members sorted by board)."""
    members = sorted(body.members, key=lambda m: m.board)
    return await submit(
        cmd,
        section_id=body.section_id,
        stage=body.stage,
        players=list(members),
        evidence=[m.evidence for m in members],
        facts=[m.facts for m in members],
        insurance=body.insurance,
        items=body.items,
        unit_ref=body.unit,
        team_name=body.team_name,
    )


async def submit_bulk(cmd: EventCommand, body: s.BulkIn) -> list[dict[str, Any]]:
    """All or nothing: a row that errs or is refused fails the whole batch (nothing is kept);
    the report says what each row would have become."""
    report: list[dict[str, Any]] = []
    failed = False
    for index, row in enumerate(body.entries):
        try:
            entry = await submit_individual(cmd, row)
        except ServiceError as exc:
            report.append({"row": index, "ok": False, "error": {"code": exc.code, "message": exc.message}})
            failed = True
            continue
        clause, reason = status_clause(entry)
        ok = entry.status is not EntryStatus.REFUSED
        failed |= not ok
        report.append(
            {
                "row": index,
                "ok": ok,
                "entry_id": entry.id,
                "entrant_id": entry.id,
                "player_id": entry.person_ids[0],
                "status": status_name(entry),
                "pending_evidence": pending_evidence_view(cmd.config, entry),
                "clause": clause,
                "reason": reason,
            }
        )
    if failed:
        raise Unprocessable(
            "bulk_rejected", "at least one row failed; no entry of this batch was registered", {"rows": report}
        )
    return report


def submit_response(cmd: EventCommand, e: Entry) -> dict[str, Any]:
    view = cmd.entry_view(e)
    return {
        k: view[k]
        for k in (
            "entry_id",
            "entrant_id",
            "player_id",
            "stage",
            "section_id",
            "status",
            "clause",
            "reason",
            "pending_evidence",
            "waitlist_position",
            "players",
            "decisions",
        )
    }


async def review_entry(cmd: EventCommand, entry_id: str, body: s.DecisionIn) -> Entry:
    """REG-3 / REG-6: an arbiter settles an entry pending review (host quota, wildcard)."""
    entry, _ = cmd.entry_for(entry_id)
    if body.decision == "reject" and not body.note.strip():
        raise Unprocessable("reason_required", "a rejection needs a note saying why")
    try:
        cmd.reg.review(
            entry_id,
            approve=body.decision == "approve",
            arbiter=actor_ref(cmd.principal),
            note=body.note,
        )
    except RegistrationError as exc:
        raise Conflict("not_pending", str(exc)) from None
    for changed in await cmd.save():
        cmd.emit_entry(changed)
    return cmd.reg.entries[entry_id]


async def withdraw(cmd: EventCommand, entry_id: str, body: s.WithdrawIn) -> dict[str, Any]:
    """REG-10: withdrawal after confirmation with a written reason; REG-2: the waiting list moves up."""
    entry, meta = cmd.entry_for(entry_id)
    promoted = await withdraw_entry(cmd, entry, meta.stage, body.reason, body.proof_ref)
    await cmd.save()
    return {**cmd.entry_view(cmd.reg.entries[entry_id]), "promoted": promoted.id if promoted is not None else None}


async def withdraw_entry(
    cmd: EventCommand, entry: Entry, stage: str, reason: str | None, proof_ref: str | None
) -> Entry | None:
    """REG-10 on an entry the caller may act on (also a delegation amending its roster): recorded,
    announced; the entry the waiting list promotes, if any (announced too)."""
    await cmd.ensure_stage_open(stage)
    try:
        done, promoted = cmd.reg.withdraw(entry.id, reason=reason, proof_ref=proof_ref, now=cmd.now)
    except RegistrationError as exc:
        raise Unprocessable("withdrawal_refused", str(exc)) from None
    await cmd.uow.entries.add_withdrawal(
        entry_id=entry.id,
        event_code=cmd.code,
        at=cmd.now,
        reason=done.withdrawal.reason,
        proof_ref=proof_ref,
        refund_requested=done.withdrawal.refund_requested,
        requested_by=requester_ref(cmd.principal),
    )
    cmd.uow.emit(
        EntryWithdrawn(
            event_code=cmd.code,
            stage=stage,
            section_id=entry.section_id,
            entry_id=entry.id,
            entrant_id=entry.id,
            reason=done.withdrawal.reason,
        ),
        correlation_id=cmd.code,
        event_id=event_id_for("entry.withdrawn", entry.id, cmd.version),
    )
    if promoted is not None:
        await cmd.load_people(promoted.person_ids)  # its event names them
        cmd.emit_entry(promoted)
    return promoted


# ---- what the API calls: judge, save, answer


async def register_player(cmd: EventCommand, body: s.EntryIn) -> dict[str, Any]:
    entry = await submit_individual(cmd, body)
    await cmd.save()
    return submit_response(cmd, entry)


async def register_team(cmd: EventCommand, body: s.TeamIn) -> dict[str, Any]:
    entry = await submit_team(cmd, body)
    await cmd.save()
    return submit_response(cmd, entry)


async def register_bulk(cmd: EventCommand, body: s.BulkIn) -> dict[str, Any]:
    report = await submit_bulk(cmd, body)
    await cmd.save()
    return {"registered": len(report), "rows": report}


async def review(cmd: EventCommand, entry_id: str, body: s.DecisionIn) -> dict[str, Any]:
    return cmd.entry_view(await review_entry(cmd, entry_id, body))
