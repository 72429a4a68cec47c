"""Change requests (REG-10: changes need the arbiter after the close or from submission, none
inside the freeze; REG-9: board order). An approved substitution is applied to the entry
(domain.substitution): the substitute re-judged, the team re-checked, entry.accepted emitted
with the new entrant. Ids are `<event>.chg<nnnn>`."""

from __future__ import annotations

from typing import Any

from gomoku_shared.auth import Principal
from gomoku_shared.errors import Conflict, NotFound, Unprocessable

from ..adapters import repository as repo
from ..adapters.repositories import Repositories
from ..domain import (
    ChangeKind,
    ChangeRequest,
    ChangeState,
    Decision,
    RegistrationError,
    Verdict,
    decide_change,
    request_change,
)
from ..domain.substitution import apply_substitution
from . import forms as s
from .actors import actor_ref
from .command import EventCommand
from .rendering import change_view
from .state import RegistrationState
from .unit_of_work import RegistrationUnitOfWork


async def request_change_cmd(cmd: EventCommand, entry_id: str, body: s.ChangeIn) -> dict[str, Any]:
    """REG-10 (changes need the arbiter after the close; none inside the freeze), REG-9 (board order)."""
    entry, meta = cmd.entry_for(entry_id)
    substitute_id = None
    if body.kind == "substitute_player":
        if body.replaces_player_id is None or body.substitute is None:
            raise Unprocessable("substitute_required", "a substitution names replaces_player_id and the substitute")
        if body.replaces_player_id not in entry.person_ids:
            raise Unprocessable("not_in_entry", f"{body.replaces_player_id} is not a player of entry {entry_id}")
        await cmd.ensure_stage_open(meta.stage)
    count = await cmd.uow.changes.count(cmd.code)
    cid = f"{cmd.code}.chg{count + 1:04d}"
    change = request_change(cmd.config, entry, cid, ChangeKind(body.kind), body.details, cmd.now)
    if body.substitute is not None and change.state is not ChangeState.REFUSED:
        substitute_id = await cmd.person_for(body.substitute)
        for item in body.substitute_evidence:
            await cmd.add_evidence(substitute_id, item, None)
    row = await cmd.uow.changes.add(
        id=cid,
        event_code=cmd.code,
        entry_id=entry.id,
        kind=change.kind.value,
        details=change.details,
        requested_at=cmd.now,
        state=change.state.value,
        decision=repo.decision_to_json(change.decision) if change.decision else None,
        partner_id=meta.partner_id,
        replaces_person_id=body.replaces_player_id if substitute_id else None,
        new_person_id=substitute_id,
    )
    if change.state is ChangeState.APPROVED and substitute_id is not None:
        row = await _apply(cmd, row, change)
    return change_view(row)


async def change_event(repos: Repositories, change_id: str) -> str:
    """The event a change request belongs to (it never changes)."""
    row = await repos.changes.get(change_id)
    if row is None:
        raise NotFound("unknown_change", f"no change request {change_id!r}")
    return row.event_code


async def decide_change_cmd(
    uow: RegistrationUnitOfWork, state: RegistrationState, principal: Principal, change_id: str, body: s.DecisionIn
) -> dict[str, Any]:
    row = await uow.changes.get(change_id)
    if row is None:
        raise NotFound("unknown_change", f"no change request {change_id!r}")
    cmd = await EventCommand.begin(uow, state, principal, row.event_code)
    entry = cmd.reg.entries[row.entry_id]
    change = ChangeRequest(
        row.id,
        row.entry_id,
        ChangeKind(row.kind),
        repo.aware(row.requested_at),
        row.details,
        ChangeState(row.state),
        repo.decision_from_json(row.decision) if row.decision else None,
        row.decided_by,
    )
    arbiter = actor_ref(principal)
    try:
        done = decide_change(
            cmd.config, entry, change, approve=body.decision == "approve", arbiter=arbiter, note=body.note, now=cmd.now
        )
    except RegistrationError as exc:
        raise Conflict("change_decided", str(exc)) from None
    if done.state is ChangeState.APPROVED and row.new_person_id is not None:
        await cmd.ensure_stage_open(cmd.loaded.meta[entry.id].stage)
    row = await uow.changes.update(
        change_id,
        state=done.state.value,
        decision=repo.decision_to_json(done.decision) if done.decision else None,
        decided_by=arbiter,
        decided_at=cmd.now,
    )
    if done.state is ChangeState.APPROVED and row.new_person_id is not None:
        row = await _apply(cmd, row, done)
    return change_view(row)


async def _apply(cmd: EventCommand, row: Any, change: ChangeRequest) -> Any:
    """The approved substitution on the entry, or the change refused with the reasons
    (the substitute not eligible, the team no longer valid): audited on the change request."""
    entry = cmd.reg.entries[row.entry_id]
    people = await cmd.load_people([*entry.person_ids, row.new_person_id])
    units = cmd.all_units()
    new, decisions = apply_substitution(
        cmd.config,
        entry,
        replaced=row.replaces_person_id,
        substitute=people[row.new_person_id],
        people=people,
        evidence=await cmd.evidence_of([row.new_person_id]),
        others=list(cmd.reg.entries.values()),
        unit=units.get(entry.unit_id) if entry.unit_id else None,
    )
    if new is None:
        reasons = "; ".join(d.reason for d in decisions)
        refusal = Decision("REG-10", "changes/substitution", Verdict.REFUSED, f"substitution not applied: {reasons}")
        return await cmd.uow.changes.update(
            row.id, state=ChangeState.REFUSED.value, decision=repo.decision_to_json(refusal)
        )
    cmd.reg.replace_entry(new)
    await cmd.save()
    cmd.emit_entry(new)
    audit = repo.decision_to_json(decisions[0])
    return await cmd.uow.changes.update(row.id, decision=audit, applied_at=cmd.now)
