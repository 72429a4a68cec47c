"""What the pairing service is asked to do: one command per use case, plain data (the routes and
the consumers build them; :mod:`.handlers` runs each on a unit of work)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from gomoku_shared.auth import Principal
from gomoku_shared.contracts.common import Entrant
from gomoku_shared.contracts.events import GameFinished, SectionClosed

from .appeals import AppealForm, Decision


@dataclass(frozen=True)
class OpenSection:
    """section.closed: the section's tournament, round 1 paired (PAIR-1..3, PAIR-11)."""

    closed: SectionClosed


@dataclass(frozen=True)
class RecordGame:
    """game.finished: a game of a round or of a playoff (PAIR-4..6, PAIR-11)."""

    game: GameFinished


@dataclass(frozen=True)
class EnterResult:
    """The arbiter enters or corrects a result (PAIR-11, AWD-8); ``may_correct`` raises when the
    caller may enter results but not change one that stands (issue 29)."""

    event_code: str
    section_id: str
    round: int
    pairing_id: str
    result: str
    principal: Principal
    note: str = ""
    expected_revision: int | None = None
    may_correct: Callable[[], object] | None = None


@dataclass(frozen=True)
class CorrectPairings:
    """The arbiter's pairing of a draft round or of a round the engine could not pair (PAIR-2)."""

    event_code: str
    section_id: str
    round: int
    boards: Sequence[tuple[str, str]]
    byes: Sequence[tuple[str, str]]
    principal: Principal


@dataclass(frozen=True)
class PublishRound:
    event_code: str
    section_id: str
    round: int
    principal: Principal


@dataclass(frozen=True)
class DelayRound:
    """EVT-7: one section's round, or (``slot``) the round of its whole time slot."""

    event_code: str
    section_id: str
    round: int
    starts_at: datetime
    reason: str
    principal: Principal
    slot: bool = False


@dataclass(frozen=True)
class SetHold:
    event_code: str
    section_id: str
    hold: bool
    principal: Principal


@dataclass(frozen=True)
class AddBye:
    event_code: str
    section_id: str
    entrant_id: str
    kind: str
    round: int | None
    principal: Principal


@dataclass(frozen=True)
class Withdraw:
    event_code: str
    section_id: str
    entrant_id: str
    after_round: int | None
    reason: str
    principal: Principal


@dataclass(frozen=True)
class LateEntry:
    event_code: str
    section_id: str
    entrant: Entrant
    principal: Principal


@dataclass(frozen=True)
class DecideTie:
    event_code: str
    section_id: str
    tie_id: str
    order: list[Any]
    principal: Principal
    expected_revision: int | None = None


@dataclass(frozen=True)
class LodgeAppeal:
    event_code: str
    section_id: str
    form: AppealForm
    principal: Principal


@dataclass(frozen=True)
class DecideAppeal:
    event_code: str
    section_id: str
    appeal_id: str
    decision: Decision
    principal: Principal


#: a command asked of a section by a member of its event's staff (an HTTP route)
StaffCommand = (
    EnterResult
    | CorrectPairings
    | PublishRound
    | DelayRound
    | SetHold
    | AddBye
    | Withdraw
    | LateEntry
    | DecideTie
    | LodgeAppeal
    | DecideAppeal
)
Command = OpenSection | RecordGame | StaffCommand
