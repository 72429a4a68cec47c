"""EVT-7: an arbiter delayed a round (``round.rescheduled``): the round's games nobody has acted
in yet wait for the new start — their clock and no-show limit move with it. A game under way
keeps its course. Idempotent: a redelivered event finds the games at the new start already."""

from __future__ import annotations

from gomoku_shared.contracts.events import RoundRescheduled

from .finishing import save_change
from .unit_of_work import GameplayUnitOfWork


async def on_round_rescheduled(uow: GameplayUnitOfWork, moved: RoundRescheduled) -> int:
    """Move the start of the round's games; the number of games moved."""
    now = int(uow.clock.now().timestamp() * 1000)
    new_starts = int(moved.starts_at.timestamp() * 1000)
    rows = await uow.games.listing(moved.event_code, moved.section_id, moved.round, "active")
    count = 0
    for columns in rows:
        if columns["stage"] != moved.stage or columns["playoff_id"] is not None:
            continue
        game = await uow.games.played(columns)
        change = game.reschedule(new_starts, now)
        if change.empty:
            continue
        await save_change(uow, game, change, now)  # a concurrent action: StaleGame, redelivered
        count += 1
    return count
