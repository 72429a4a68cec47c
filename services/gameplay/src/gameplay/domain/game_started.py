"""``game.created`` and ``game.started`` of a game, from its stored columns: the game exists and
its players may join (created, possibly days before its round starts), and the game is under way
(both players present, PLAY-7; over the board, its first move recorded, PLAY-9)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from gomoku_shared.contracts.events import GameCreated, GameStarted


def _moment(epoch_ms: int | None) -> datetime | None:
    return None if epoch_ms is None else datetime.fromtimestamp(epoch_ms / 1000, tz=UTC)


def _game(columns: Mapping[str, Any]) -> dict[str, Any]:
    return dict(
        event_code=columns["event_code"],
        stage=columns["stage"],
        section_id=columns["section_id"],
        round=columns["round"],
        pairing_id=columns["pairing_id"],
        game_id=columns["game_id"],
        game_no=columns["game_no"],
        black=columns["first_id"],
        white=columns["second_id"],
        playoff_id=columns["playoff_id"],
        # the pairing's first and second players whatever the colours, as game.finished names them
        first=columns["player_a"],
        second=columns["player_b"],
    )


def game_created(columns: Mapping[str, Any]) -> GameCreated:
    return GameCreated(**_game(columns), starts_at=_moment(columns.get("starts_ms")))


def game_started(columns: Mapping[str, Any], started_ms: int) -> GameStarted:
    """``started_ms``: when its clock started (the scheduled start, if both came before it)."""
    return GameStarted(**_game(columns), started_at=_moment(started_ms))


def has_started(before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
    """A change that puts a waiting game under way (a finished game was never started here)."""
    return before["status"] == "waiting" and after["status"] == "active"
