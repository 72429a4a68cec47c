"""EVT-7 + PAIR-6 / PLAY-7: a game of a scheduled round starts at the round's start time.

Before it no move is played (a player may join: presence is recorded; a player may resign); the
clock of the side to move starts at the scheduled start (or when the second player joins, if
later: nobody's time runs while the opponent is still missing, PLAY-7); the no-show limit counts
from the scheduled start. An arbiter's delay moves all three for the games nobody has acted in
yet. Pure functions of the stored columns and the time (epoch ms).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from .errors import GameConflict


@functools.lru_cache(maxsize=4096)
def iso(epoch_ms: int | None) -> str | None:
    """ISO 8601 of an epoch-ms time (cached: every game summary carries its round's start)."""
    return None if epoch_ms is None else datetime.fromtimestamp(epoch_ms / 1000, tz=UTC).isoformat()


def before_start(columns: Mapping[str, Any], now: int) -> bool:
    """Is ``now`` before the game's scheduled start (a game without one has started)?"""
    starts = columns.get("starts_ms")
    return starts is not None and now < starts


def refuse_before_start(
    columns: Mapping[str, Any], now: int, *, doing: str = "no move", excepted: bool = False
) -> None:
    """409 ``not_started`` for an action before the round's scheduled start: a player's move, and
    over the board a recorder's step, a result slip or a record (``doing`` says which). An
    arbiter's audited exception (``excepted``: a game played early by agreement) lets the
    over-the-board ones through; the start itself stays where it is."""
    if excepted or not before_start(columns, now):
        return
    starts = columns["starts_ms"]
    raise GameConflict(
        "not_started",
        f"round {columns['round']} starts at {iso(starts)}: {doing} before it (EVT-7)",
        {"starts_at": iso(starts)},
    )


def clock_start(columns: Mapping[str, Any], now: int) -> int:
    """When the clock starts once both players are present: the scheduled start, or now if later."""
    starts = columns.get("starts_ms")
    return now if starts is None else max(now, starts)


def rescheduled(columns: Mapping[str, Any], new_starts: int, now: int) -> dict[str, Any] | None:
    """The column values moving a game's start to ``new_starts`` (an arbiter's delay), or None
    when the game is under way (an action was played) or over: it keeps its course."""
    if columns["status"] == "finished" or columns["n_actions"] > 0:
        return None
    old = columns.get("starts_ms")
    if old == new_starts:
        return None
    values: dict[str, Any] = {"starts_ms": new_starts}
    due = columns.get("no_show_due_ms")
    if columns["status"] == "waiting" and due is not None:
        limit = due - old if old is not None else 0
        values["no_show_due_ms"] = new_starts + limit
    running = columns.get("clock_running")
    if running is not None:  # both present already: the clock waits for the new start
        since = max(new_starts, now)
        left = columns["clock_first_ms"] if running == "first" else columns["clock_second_ms"]
        values.update(clock_since_ms=since, flag_due_ms=since + left)
    return values
