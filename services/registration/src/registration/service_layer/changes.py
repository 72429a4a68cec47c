"""Change requests (REG-10: changes need the arbiter after the close, none inside the freeze;
REG-9: board order). Ids are `<event>.chg<nnnn>`."""

from __future__ import annotations

from typing import Any

from gomoku_shared.auth import Principal
from gomoku_shared.errors import Conflict, NotFound

from ..adapters import repository as repo
from ..domain import ChangeKind, ChangeRequest, ChangeState, RegistrationError, decide_change, request_change
from . import schemas as s
from .command import EventCommand
from .rendering import change_view
from .state import RegistrationState
from .unit_of_work import RegistrationUnitOfWork


async def request_change_cmd(cmd: EventCommand, entry_id: str, body: s.ChangeIn) -> dict[str, Any]:
    """REG-10 (changes need the arbiter after the close; none inside the freeze), REG-9 (board order)."""
    entry, meta = cmd.entry_for(entry_id)
    count = await cmd.uow.changes.count(cmd.code)
    cid = f"{cmd.code}.chg{count + 1:04d}"
    change = request_change(cmd.config, entry, cid, ChangeKind(body.kind), body.details, cmd.now)
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
    )
    return change_view(row)


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
    arbiter = f"{principal.role}:{principal.key_id}"
    try:
        done = decide_change(
            cmd.config, entry, change, approve=body.decision == "approve", arbiter=arbiter, note=body.note, now=cmd.now
        )
    except RegistrationError as exc:
        raise Conflict("change_decided", str(exc)) from None
    row = await uow.changes.update(
        change_id,
        state=done.state.value,
        decision=repo.decision_to_json(done.decision) if done.decision else None,
        decided_by=arbiter,
        decided_at=cmd.now,
    )
    return change_view(row)
