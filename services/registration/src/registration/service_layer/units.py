"""Units with their leader and coaches (REG-3)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gomoku_shared.errors import Unprocessable

from ..adapters import repository as repo
from ..domain import Decision
from . import forms as s
from .command import EventCommand
from .rendering import render_unit


async def add_unit(cmd: EventCommand, body: s.UnitIn) -> dict[str, Any]:
    """REG-3: a unit with at most the configured leader and coaches."""
    unit = await cmd.create_unit(body)
    decisions = []
    if body.leader:
        decisions.append(cmd.reg.add_official(unit, "leader", body.leader))
    for coach in body.coaches:
        decisions.append(cmd.reg.add_official(unit, "coach", coach))
    if any(d.refused for d in decisions):
        raise Unprocessable(
            "officials_refused",
            "; ".join(d.reason for d in decisions if d.refused),
            [repo.decision_to_json(d) for d in decisions],
        )
    await cmd.save()
    return unit_view(cmd, unit.id, decisions)


async def add_official(cmd: EventCommand, unit_id: str, body: s.OfficialIn) -> dict[str, Any]:
    unit = cmd.existing_unit(unit_id)
    decision = cmd.reg.add_official(unit, body.role, body.name, body.person_id)
    if decision.refused:
        raise Unprocessable("official_refused", decision.reason, repo.decision_to_json(decision))
    await cmd.save()
    return unit_view(cmd, unit.id, [decision])


def unit_view(cmd: EventCommand, unit_id: str, decisions: Sequence[Decision] = ()) -> dict[str, Any]:
    return render_unit(cmd.units[unit_id], cmd.reg, decisions)
