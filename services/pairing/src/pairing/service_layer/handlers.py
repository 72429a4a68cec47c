"""Every use case of the pairing service in one table: a command's type → the function that
runs it, each taking the command, the unit of work and the pairer. The routes and the consumers
call :func:`handle` and nothing else of the service layer's writes."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from . import appeals, arbiter, lifecycle, schedule
from .commands import (
    AddBye,
    Command,
    CorrectPairings,
    DecideAppeal,
    DecideTie,
    DelayRound,
    EnterResult,
    LateEntry,
    LodgeAppeal,
    OpenSection,
    PublishRound,
    RecordGame,
    SetHold,
    Withdraw,
)
from .pool import Pairer
from .unit_of_work import PairingUnitOfWork


async def open_section(command: OpenSection, uow: PairingUnitOfWork, pairer: Pairer) -> None:
    await lifecycle.open_tournament(uow, command.closed, pairer)


async def record_game(command: RecordGame, uow: PairingUnitOfWork, pairer: Pairer) -> None:
    await lifecycle.game_finished(uow, command.game, pairer)


async def enter_result(command: EnterResult, uow: PairingUnitOfWork, pairer: Pairer) -> dict:
    return await arbiter.enter_result(
        uow,
        command.event_code,
        command.section_id,
        command.round,
        command.pairing_id,
        command.result,
        command.principal,
        pairer,
        command.note,
        command.expected_revision,
        command.may_correct,
    )


async def correct_pairings(command: CorrectPairings, uow: PairingUnitOfWork, pairer: Pairer) -> dict:
    return await arbiter.correct_pairings(
        uow,
        command.event_code,
        command.section_id,
        command.round,
        command.boards,
        command.byes,
        command.principal,
        pairer,
    )


async def publish_round(command: PublishRound, uow: PairingUnitOfWork, _pairer: Pairer) -> dict:
    return await arbiter.publish_round(uow, command.event_code, command.section_id, command.round, command.principal)


async def delay_round(command: DelayRound, uow: PairingUnitOfWork, _pairer: Pairer) -> dict:
    delay = schedule.delay_slot if command.slot else schedule.delay_round
    return await delay(
        uow, command.event_code, command.section_id, command.round, command.starts_at, command.reason, command.principal
    )


async def set_hold(command: SetHold, uow: PairingUnitOfWork, _pairer: Pairer) -> dict:
    return await arbiter.set_hold(uow, command.event_code, command.section_id, command.hold, command.principal)


async def add_bye(command: AddBye, uow: PairingUnitOfWork, pairer: Pairer) -> dict:
    return await arbiter.add_bye(
        uow,
        command.event_code,
        command.section_id,
        command.entrant_id,
        command.kind,
        command.round,
        command.principal,
        pairer,
    )


async def withdraw(command: Withdraw, uow: PairingUnitOfWork, pairer: Pairer) -> dict:
    return await arbiter.withdraw(
        uow,
        command.event_code,
        command.section_id,
        command.entrant_id,
        command.after_round,
        command.reason,
        command.principal,
        pairer,
    )


async def late_entry(command: LateEntry, uow: PairingUnitOfWork, pairer: Pairer) -> dict:
    return await arbiter.late_entry(
        uow, command.event_code, command.section_id, command.entrant, command.principal, pairer
    )


async def decide_tie(command: DecideTie, uow: PairingUnitOfWork, _pairer: Pairer) -> dict:
    return await arbiter.decide_tie(
        uow,
        command.event_code,
        command.section_id,
        command.tie_id,
        command.order,
        command.principal,
        command.expected_revision,
    )


async def lodge_appeal(command: LodgeAppeal, uow: PairingUnitOfWork, _pairer: Pairer) -> dict:
    return await appeals.lodge(uow, command.event_code, command.section_id, command.form, command.principal)


async def decide_appeal(command: DecideAppeal, uow: PairingUnitOfWork, pairer: Pairer) -> dict:
    return await appeals.decide(
        uow, command.event_code, command.section_id, command.appeal_id, command.decision, command.principal, pairer
    )


Handler = Callable[[Any, PairingUnitOfWork, Pairer], Awaitable[Any]]

#: the service's use cases, by the command each runs
HANDLERS: dict[type, Handler] = {
    OpenSection: open_section,
    RecordGame: record_game,
    EnterResult: enter_result,
    CorrectPairings: correct_pairings,
    PublishRound: publish_round,
    DelayRound: delay_round,
    SetHold: set_hold,
    AddBye: add_bye,
    Withdraw: withdraw,
    LateEntry: late_entry,
    DecideTie: decide_tie,
    LodgeAppeal: lodge_appeal,
    DecideAppeal: decide_appeal,
}


async def handle(command: Command, uow: PairingUnitOfWork, pairer: Pairer) -> Any:
    """Run ``command``'s use case in ``uow`` (the caller's transaction)."""
    return await HANDLERS[type(command)](command, uow, pairer)
