"""What the gameplay service is asked to do: one command per use case, plain data (the routes and
the consumers build them; :mod:`.handlers` runs each on the unit of work). A player's move is
one ``Act``: frozen and slotted, it is the one object the lean lane adds per move (ADR 0004)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from gomoku_shared.contracts.events import (
    EventAccessChanged,
    PlayoffRequired,
    ResultDecided,
    RoundPaired,
    RoundRescheduled,
)
from gomoku_shared.idempotency import KeyedRequest

from ..domain.played_game import Actor

#: ``ServiceRuntime.working``: a round of background work, counted as work in flight while it runs
Working = Callable[[], AbstractContextManager[None]]


@dataclass(frozen=True, slots=True)
class Act:
    """A player's action (join, opening steps, moves, passes, resignation, draws; PLAY-1..4)."""

    game_id: str
    actor: Actor
    player_id: str
    kind: str
    data: dict[str, Any] | None = None
    keyed: KeyedRequest | None = None


@dataclass(frozen=True, slots=True)
class StaffAct:
    """The arbiter's decision (``adjudicate``, with a reason) or time correction (``add_time``);
    ``decided_by``: who (``{"by": name, "by_id": stable id}``, issue 29)."""

    game_id: str
    kind: str
    data: dict[str, Any]
    decided_by: dict[str, str] | None = None


@dataclass(frozen=True, slots=True)
class Sweep:
    """The flag-fall / no-show sweep of the games due now (PLAY-5, PLAY-7)."""

    working: Working | None = None


@dataclass(frozen=True, slots=True)
class CreateRoundGames:
    """round.paired: the round's games (PLAY-1)."""

    paired: RoundPaired
    occurred_at: datetime


@dataclass(frozen=True, slots=True)
class CreatePlayoffGames:
    """playoff.required: the playoff's games."""

    required: PlayoffRequired
    occurred_at: datetime


@dataclass(frozen=True, slots=True)
class ApplyDecision:
    """result.decided: the arbiter's decision on a round pairing closes its games."""

    decided: ResultDecided


@dataclass(frozen=True, slots=True)
class RescheduleRound:
    """round.rescheduled (EVT-7): the round's games start later."""

    moved: RoundRescheduled


@dataclass(frozen=True, slots=True)
class ChangeEventAccess:
    """event.access_changed (issue 29): the event's organisation and chosen partner apps."""

    changed: EventAccessChanged


@dataclass(frozen=True, slots=True)
class EnterSlip:
    """PLAY-9: one entry of a result slip; ``person``: (stable id, name) of who entered it."""

    game_id: str
    entered_by: str
    result: str
    reason: str
    note: str
    confirms: int | None
    person: tuple[str, str] | None = None


@dataclass(frozen=True, slots=True)
class EnterRecord:
    """PLAY-9: a record entered after the game (or an arbiter's corrected one)."""

    game_id: str
    entered_by: str
    moves: list[str]
    opening: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class DecideRecord:
    """The arbiter accepts a flagged record entry as it stands."""

    game_id: str
    entry: int
    note: str


@dataclass(frozen=True, slots=True)
class IssueRecorder:
    """PLAY-10: a new live recorder secret for one game."""

    game_id: str
    issued_by: str


@dataclass(frozen=True, slots=True)
class RecordStep:
    """PLAY-10: one step the live recorder saw at the board."""

    game_id: str
    secret: str | None
    kind: str
    data: dict[str, Any]
    step: int | None = None


@dataclass(frozen=True, slots=True)
class AllowEarly:
    """EVT-7: an arbiter's exception to the round's start for one over-the-board game."""

    game_id: str
    allowed_by: str
    reason: str
    person: tuple[str, str] | None = None


#: a command of the consumers (run in the unit of work the runtime began for the event)
EventCommand = CreateRoundGames | CreatePlayoffGames | ApplyDecision | RescheduleRound | ChangeEventAccess
#: a command of the routes (and the sweeper's loop), each opening its own units of work
RequestCommand = (
    Act | StaffAct | Sweep | EnterSlip | EnterRecord | DecideRecord | IssueRecorder | RecordStep | AllowEarly
)
Command = EventCommand | RequestCommand
