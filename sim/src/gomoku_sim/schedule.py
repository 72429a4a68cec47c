"""EVT-7 in the simulation: rounds start at their scheduled times on the fake clock. A stage
begins at its first scheduled round; bots only join a game before its round's start; the clock
never jumps past a round's start; a game's next due moment (its start, its no-show limit counted
from the start, its flag fall) tells the driver how far to move the clock."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from gomoku_shared.event_config import EventConfig

from .bots import BotAction, BotPolicy, GameView, decide


def stage_start(config: EventConfig, stage_id: str, unscheduled: datetime) -> datetime:
    """The stage's first scheduled round (``unscheduled`` when the stage has no schedule)."""
    schedule = config.schedule.of_stage(stage_id)
    first = min((slot.starts_at for slot in schedule.slots), default=None) if schedule else None
    return first.astimezone(UTC) if first else unscheduled


def until_start(game: Mapping[str, Any], now: datetime | None) -> float:
    """Seconds until the game's scheduled start; <= 0 once it has passed (or it has none)."""
    start = _start_of(game)
    if start is None or now is None:
        return 0.0
    return (start - now).total_seconds()


def bot_action(
    game: Mapping[str, Any], view: GameView, player: str, policy: BotPolicy, seed: int, now: datetime | None
) -> BotAction | None:
    """The bot's next action; before the round's start only joining (a move would be refused)."""
    action = decide(view, player, policy, seed)
    if action is not None and action.verb != "join" and until_start(game, now) > 0:
        return None
    return action


def any_action(game: Mapping[str, Any], view: GameView, policy: BotPolicy, seed: int, now: datetime | None) -> bool:
    return any(bot_action(game, view, player, policy, seed, now) for player in sorted(set(view.players)))


def due_step(game: Mapping[str, Any], now: datetime | None, no_show_minutes: Mapping[str, int]) -> float | None:
    """Seconds until something is due in a game nobody acts in: its start, its no-show limit
    (PAIR-6: counted from the start), or its running side's flag fall; None: nothing."""
    ahead = until_start(game, now)
    if ahead > 0:
        return ahead
    if game.get("status") == "waiting":
        return max(1.0, no_show_minutes.get(game.get("section_id", ""), 15) * 60 + 1 + ahead)
    clocks = game.get("clocks") or {}
    running = clocks.get("running")
    return max(1.0, clocks.get(f"{running}_ms", 0) / 1000 + 1) if running else None


def due_without_clocks(game: Mapping[str, Any], now: datetime | None) -> bool:
    """``due_step`` of the game needs no clock reading: its start is ahead, or it waits for a
    player (a game list's summary, without clocks, is enough)."""
    return until_start(game, now) > 0 or game.get("status") == "waiting"


def capped_at_next_start(step: float, games: list[dict[str, Any]], now: datetime | None) -> float:
    """A clock move never jumps past a round's scheduled start: the round starts on time."""
    return min([step, *(ahead for ahead in (until_start(g, now) for g in games) if ahead > 0)])


def _start_of(game: Mapping[str, Any]) -> datetime | None:
    starts = game.get("starts_at")
    if not starts:
        return None
    return starts if isinstance(starts, datetime) else datetime.fromisoformat(str(starts))


def earliest_start(games: list[dict[str, Any]]) -> datetime | None:
    """The earliest round start among the games still in play."""
    return min((start for start in map(_start_of, games) if start is not None), default=None)


async def at_round_start(clock: Any, game: Mapping[str, Any], earliest: datetime | None) -> bool:
    """May an over-the-board game be played now? Yes once its round has started; a round still
    ahead starts (the clock moves to it: no server clock runs at the board) only when no game of
    an earlier round is left at the board — the sections of a slot start together."""
    start = _start_of(game)
    if start is None:
        return True
    # gameplay refuses a recorder's step or a slip before the start (EVT-7): never assume it passed
    now = clock.current if clock.current is not None else await clock.now()
    if start <= now:
        return True
    if earliest is not None and start > earliest:
        return False
    await clock.set(start)
    return True
