"""The game models the reads share: the summary of a game (lists, action answers, the round's
games) and what the view of one game and the round's boards add to it (stones, clocks)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel

from gomoku_shared.api_docs import View


class GameSummary(BaseModel):
    """A game in lists and action answers (the GET of one game adds board, clocks, rules...)."""

    game_id: str
    event_code: str
    stage: str
    section_id: str
    round: int
    pairing_id: str
    game_no: int
    black: str
    white: str
    status: Literal["waiting", "active", "finished"]
    #: PLAY-9: offline games are played over the board (slips, records, a recorder)
    mode: Literal["online", "offline"] = "online"
    phase: str
    to_act: str | None
    seq: int
    #: double_forfeit: both players absent, or so decided by the arbiter (0:0, PLAY-7)
    result: Literal["black", "white", "draw", "double_forfeit"] | None
    reason: str | None
    #: lists only: the winner's player id, the pairing's round points (on its last game), the playoff
    winner: str | None = None
    outcome: dict[str, int] | None = None
    playoff_id: str | None = None
    #: EVT-7: the round's scheduled start: no move before it (409 not_started), the clock and
    #: the no-show limit run from it; null: the game started when it was created
    starts_at: datetime | None = None


class Stone(BaseModel):
    point: str
    colour: Literal["black", "white"]


class Clocks(View):
    black_ms: int
    white_ms: int
    running: Literal["black", "white"] | None
    #: when the times were read (epoch ms, the service's clock): the running side's is less by
    #: the time since
    at_ms: int
