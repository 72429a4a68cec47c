"""Request bodies of the arbiter's actions (validated at the edge: lengths, ranges, known names)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from gomoku_shared.text import Line, Prose

IdField = Field(min_length=1, max_length=160)
EntrantId = Annotated[Line, Field(min_length=1, max_length=160)]
ResultName = Literal[
    "first_wins",
    "second_wins",
    "draw",
    "first_forfeit_win",
    "second_forfeit_win",
    "double_forfeit",
    "1-0",
    "0-1",
    "=-=",
    "+--",
    "--+",
    "---",
]


class ResultBody(BaseModel):
    pairing_id: Line = Field(min_length=1, max_length=64)
    #: from the pairing's first player's side (first moves first in game 1)
    result: ResultName
    note: Prose = Field(default="", max_length=1000)
    #: the result's revision the arbiter saw (the round's ``pairings[].revision``); may be left
    #: out only while the pairing has no result; an older one is refused (409 stale_revision)
    expected_revision: int | None = Field(default=None, ge=0, le=1_000_000)


class BoardBody(BaseModel):
    first: Line = IdField
    second: Line = IdField


class ByeItem(BaseModel):
    entrant_id: Line = IdField
    kind: Literal["pairing", "requested", "forced", "absent"] = "pairing"


class PairingsBody(BaseModel):
    """Individual: boards are games (first moves first). Teams: boards are matches of teams
    (first = first-listed team, PAIR-9)."""

    boards: list[BoardBody] = Field(max_length=1000)
    byes: list[ByeItem] = Field(default_factory=list, max_length=1000)


class ByeBody(BaseModel):
    entrant_id: Line = IdField
    kind: Literal["requested", "forced"] = "requested"
    round: int | None = Field(default=None, ge=1, le=99)


class WithdrawalBody(BaseModel):
    entrant_id: Line = IdField
    #: not paired after this round (default: the last published round)
    after_round: int | None = Field(default=None, ge=0, le=99)
    reason: Prose = Field(default="", max_length=1000)


class LateEntryBody(BaseModel):
    entrant_id: Line = IdField
    name: Line = Field(min_length=1, max_length=200)
    gender: Literal["male", "female"] | None = None
    unit: Line | None = Field(default=None, max_length=200)
    rating: int = Field(default=0, ge=0, le=4000)
    partner_id: Line | None = Field(default=None, max_length=120)


class HoldBody(BaseModel):
    hold: bool


class DecisionBody(BaseModel):
    #: the tied entrants best first; a nested list keeps those entrants sharing their places
    order: list[EntrantId | Annotated[list[EntrantId], Field(min_length=1, max_length=200)]] = Field(
        min_length=1, max_length=200
    )
    #: the tie's revision the arbiter decided on (``ties[].revision``): a tie opened again since
    #: is refused (409 stale_revision with the tie as it stands)
    expected_revision: int | None = Field(default=None, ge=1, le=1_000_000)


class DelayBody(BaseModel):
    """EVT-7: the round's new start (with its UTC offset) and the written reason."""

    starts_at: datetime
    reason: Prose = Field(min_length=1, max_length=1000)
