"""REG-11 and REG-16 at the stage close: every accepted entry neither checked in nor marked absent gets a
decision — the arbiter's (per entry, or one for all the rest) or the event's default
(`check_in.undecided_at_close`); where the default is "ask", the close waits for one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gomoku_shared.errors import Unprocessable

from ..domain import Entry
from ..domain.checkin import settle_attendance, undecided
from ..domain.delegations import units_without_leader
from . import forms as s
from .actors import actor_ref
from .command import EventCommand


async def settle_undecided(cmd: EventCommand, entries: Sequence[Entry], body: s.CloseIn) -> list[dict[str, Any]]:
    """The decisions taken (entry, present/absent, by whom); raises 422 listing the entries
    still waiting for one when the event asks the arbiter."""
    waiting = undecided(entries)
    unknown = sorted(set(body.attendance) - {e.id for e in waiting})
    if unknown:
        raise Unprocessable("not_undecided", "these entries are not waiting for an attendance decision", unknown)
    default = cmd.config.check_in.undecided_at_close
    arbiter = actor_ref(cmd.principal)
    open_ones = [e for e in waiting if e.id not in body.attendance and body.not_checked_in is None]
    if default == "ask" and open_ones:
        raise Unprocessable(
            "attendance_decision_required",
            f"{len(open_ones)} entries neither checked in nor marked absent: decide each (attendance) "
            "or all of them (not_checked_in)",
            [{"entry_id": e.id, "section_id": e.section_id} for e in open_ones],
        )
    out = []
    for entry in waiting:
        choice = body.attendance.get(entry.id) or body.not_checked_in
        by = arbiter if choice else "the event's default"
        present = (choice or default) == "present"
        cmd.reg.replace_entry(settle_attendance(entry, present=present, by=by))
        out.append({"entry_id": entry.id, "section_id": entry.section_id, "present": present, "by": by})
    if out:
        await cmd.save()
    return out


def delegation_issues(cmd: EventCommand, entries: Sequence[Entry]) -> list[dict[str, Any]]:
    """REG-16 (NT 十(一)4): units with a team and no leader, who name a player as acting leader."""
    officials = [(o.unit_id, o.role) for o in cmd.reg.officials]
    issues = units_without_leader(cmd.config, entries, officials, cmd.all_units())
    return [{"rule": d.rule, "clause": d.clause, "reason": d.reason} for d in issues]
