"""Every use case of the gameplay service in one table: a command's type → the function that runs
it, each taking the command, the units of work and the jobs (what the process shares). The routes
and the consumers call :func:`handle` (``GameService.handle``) and nothing else of the service
layer's writes. A route's command opens its own units of work (a player action is retried on a
new one when the game moved on); a consumer's runs in the one the runtime began
(``Units.joining``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from gomoku_shared.event_access import EventAccessDirectory, EventAccessStore

from ..adapters.orm import event_access
from . import arbiter_decisions, creation, rescheduling
from .actions import PlayerActions
from .commands import (
    Act,
    AllowEarly,
    ApplyDecision,
    ChangeEventAccess,
    Command,
    CreatePlayoffGames,
    CreateRoundGames,
    DecideRecord,
    EnterRecord,
    EnterSlip,
    IssueRecorder,
    RecordStep,
    RescheduleRound,
    StaffAct,
    Sweep,
)
from .over_the_board import OverTheBoard
from .sweeper import Sweeper
from .unit_of_work import Units


@dataclass(frozen=True, slots=True)
class Jobs:
    """What the handlers share in a process: retry limits, the accepted-action tally, the event
    access directory (issue 29); none holds a unit of work."""

    actions: PlayerActions
    sweeper: Sweeper
    boards: OverTheBoard
    access: EventAccessDirectory


async def act(command: Act, units: Units, jobs: Jobs) -> dict[str, Any]:
    return await jobs.actions.act(
        units, command.game_id, command.actor, command.player_id, command.kind, command.data, command.keyed
    )


async def staff_act(command: StaffAct, units: Units, jobs: Jobs) -> dict[str, Any]:
    return await jobs.actions.staff(units, command.game_id, command.kind, command.data, command.decided_by)


async def sweep(command: Sweep, units: Units, jobs: Jobs) -> dict[str, int]:
    return await jobs.sweeper.sweep(units, command.working)


async def create_round_games(command: CreateRoundGames, units: Units, _jobs: Jobs) -> None:
    async with units.transaction(correlation_id=command.paired.section_id) as uow:
        await creation.on_round_paired(uow, command.paired, command.occurred_at)


async def create_playoff_games(command: CreatePlayoffGames, units: Units, _jobs: Jobs) -> None:
    async with units.transaction(correlation_id=command.required.section_id) as uow:
        await creation.on_playoff_required(uow, command.required, command.occurred_at)


async def apply_decision(command: ApplyDecision, units: Units, _jobs: Jobs) -> None:
    async with units.transaction(correlation_id=command.decided.section_id) as uow:
        await arbiter_decisions.on_result_decided(uow, command.decided)


async def reschedule_round(command: RescheduleRound, units: Units, _jobs: Jobs) -> None:
    async with units.transaction(correlation_id=command.moved.section_id) as uow:
        await rescheduling.on_round_rescheduled(uow, command.moved)


async def change_event_access(command: ChangeEventAccess, units: Units, jobs: Jobs) -> None:
    """Issue 29: keep the latest owner and partner apps of the event; this replica forgets what it
    cached (the others within the directory's 30 s)."""
    changed = command.changed
    async with units.transaction(correlation_id=changed.event_code) as uow:
        store = EventAccessStore(event_access)
        await store.record(
            await uow.session(), changed.event_code, changed.organisation, changed.partners, changed.changed_at
        )
    jobs.access.forget(changed.event_code)


async def enter_slip(command: EnterSlip, units: Units, jobs: Jobs) -> dict[str, Any]:
    return await jobs.boards.enter_slip(
        units,
        command.game_id,
        command.entered_by,
        command.result,
        command.reason,
        command.note,
        command.confirms,
        command.person,
    )


async def enter_record(command: EnterRecord, units: Units, jobs: Jobs) -> dict[str, Any]:
    return await jobs.boards.enter_record(units, command.game_id, command.entered_by, command.moves, command.opening)


async def decide_record(command: DecideRecord, units: Units, jobs: Jobs) -> dict[str, Any]:
    return await jobs.boards.decide_record(units, command.game_id, command.entry, command.note)


async def issue_recorder(command: IssueRecorder, units: Units, jobs: Jobs) -> dict[str, Any]:
    return await jobs.boards.issue_recorder(units, command.game_id, command.issued_by)


async def record_step(command: RecordStep, units: Units, jobs: Jobs) -> dict[str, Any]:
    return await jobs.boards.record_step(
        units, command.game_id, command.secret, command.kind, command.data, command.step
    )


async def allow_early(command: AllowEarly, units: Units, jobs: Jobs) -> tuple[dict[str, Any], bool]:
    return await jobs.boards.allow_early(units, command.game_id, command.allowed_by, command.reason, command.person)


Handler = Callable[[Any, Units, Jobs], Awaitable[Any]]

#: the service's use cases, by the command each runs
HANDLERS: dict[type, Handler] = {
    Act: act,
    StaffAct: staff_act,
    Sweep: sweep,
    CreateRoundGames: create_round_games,
    CreatePlayoffGames: create_playoff_games,
    ApplyDecision: apply_decision,
    RescheduleRound: reschedule_round,
    ChangeEventAccess: change_event_access,
    EnterSlip: enter_slip,
    EnterRecord: enter_record,
    DecideRecord: decide_record,
    IssueRecorder: issue_recorder,
    RecordStep: record_step,
    AllowEarly: allow_early,
}


def handle(command: Command, units: Units, jobs: Jobs) -> Awaitable[Any]:
    """Run ``command``'s use case (the caller awaits it: no frame of its own on a player's move)."""
    return HANDLERS[type(command)](command, units, jobs)
