"""EVT-7's exception: an arbiter lets an over-the-board game progress before its round's
scheduled start (a game the players and the arbiter agreed to play early). It is recorded once
per game with who allowed it, when and why (the audit); the game's recorder steps, result slips
and records are then accepted before the start. Only staff record it — a recorder's secret admits
steps, never an exception — and the start itself does not move (an arbiter's delay does that)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import GameConflict, game_over
from .round_start import before_start, iso


@dataclass(frozen=True)
class EarlyStart:
    game_id: str
    reason: str
    #: the staff member who allowed it (their credential: ``role:partner:key``)
    allowed_by: str
    allowed_ms: int
    #: the scheduled start it was allowed before
    starts_ms: int
    #: issue 29: the person's stable id (``acct:<account>``, or the API key's id) and name;
    #: None on exceptions recorded before staff accounts
    allowed_by_id: str | None = None
    allowed_by_name: str | None = None

    def view(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "reason": self.reason,
            "allowed_by": self.allowed_by,
            "allowed_by_id": self.allowed_by_id or self.allowed_by.split(":", 2)[-1],
            "allowed_by_name": self.allowed_by_name,
            "allowed_at": iso(self.allowed_ms),
            "starts_at": iso(self.starts_ms),
        }


def refuse_early_start(columns: Mapping[str, Any], now: int) -> None:
    """Why an exception cannot be recorded for this game, as a refusal: an online game (its
    players' moves wait for the start; an arbiter moves a round's start with a delay), a finished
    game, or a round that has started (nothing is left to except)."""
    if columns.get("mode") != "offline":
        raise GameConflict(
            "not_over_the_board",
            f"game {columns['game_id']} is an online game: only an over-the-board game is played early (EVT-7)",
        )
    if columns["status"] == "finished":
        raise game_over(columns["result"], columns["reason"], columns["winner"])
    if not before_start(columns, now):
        starts = iso(columns.get("starts_ms"))
        raise GameConflict(
            "already_started",
            f"round {columns['round']} has started ({starts or 'no scheduled start'}): the game is "
            "played and recorded now, no exception is needed",
            {"starts_at": starts},
        )
