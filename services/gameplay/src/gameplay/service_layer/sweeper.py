"""The flag-fall / no-show sweep (PLAY-5, PLAY-7): endings that are due with nobody acting.

Replicas share the work: due games are claimed with FOR UPDATE SKIP LOCKED. Where rows cannot
be locked (SQLite) a player's concurrent action can win the version check: the sweep is then
judged again on the new state, like an action."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from gomoku_shared import stall_trace
from gomoku_shared.errors import Conflict
from gomoku_shared.loops import idle, stopped

from ..domain.errors import AlreadyRecorded
from ..domain.played_game import PlayedGame
from .commands import Working
from .finishing import StaleGame, save_change
from .unit_of_work import Units

log = logging.getLogger("gameplay.sweeper")


class Sweeper:
    def __init__(self, max_retries: int, batch: int) -> None:
        self.max_retries = max_retries
        self.batch = batch

    async def sweep(self, units: Units, working: Working | None = None) -> dict[str, int]:
        """Judge the games due now. With ``working``, a sweep that claimed games is counted as
        work in flight (``ServiceRuntime.working``) from the claim until its transaction (and the
        events it emits) committed; a sweep that found nothing due never is."""
        for _attempt in range(self.max_retries):
            try:
                return await self._sweep_once(units, working)
            except (StaleGame, AlreadyRecorded):
                continue
        raise Conflict("busy", "games changed concurrently too often during the sweep; retry")

    async def _sweep_once(self, units: Units, working: Working | None) -> dict[str, int]:
        counts = {"flags": 0, "no_shows": 0, "double_forfeits": 0}
        ended: list[PlayedGame] = []
        with contextlib.ExitStack() as holding:
            async with units.transaction(correlation_id="gameplay-sweep") as uow:
                now = int(uow.clock.now().timestamp() * 1000)
                claimed = await uow.games.due(now, self.batch)
                if claimed and working is not None:
                    holding.enter_context(working())  # left after the commit below
                await self._judge(uow, claimed, now, counts, ended)
        for game in ended:
            units.cache.keep(game)
        return counts

    @staticmethod
    async def _judge(uow, claimed: list[PlayedGame], now: int, counts: dict[str, int], ended: list[PlayedGame]) -> None:
        for game in claimed:
            if game.live.is_over:
                continue
            due = game.due_ending(now)
            if due is None:
                continue
            counter, change = due
            counts[counter] += 1
            await save_change(uow, game, change, now)
            ended.append(game)

    async def run(
        self,
        units: Units,
        poll_s: float,
        stop: asyncio.Event | None = None,
        working: Working | None = None,
    ) -> None:
        """The scheduler loop (any replica may run it): real sleeps, time from the service clock;
        it returns once ``stop`` is set (after the sweep under way). A sweep that claimed games
        runs inside ``working()`` until it committed (see ``sweep``)."""
        while not stopped(stop):
            started = time.monotonic()
            try:
                counts = await self.sweep(units, working)
            except Exception:  # noqa: BLE001 - a failed sweep is retried on the next tick
                log.exception("sweep failed")
                counts = {}
            stall_trace.note_span("sweep", started, sum(counts.values()))
            # more may be due when a batch did work: claim the next one at once
            await idle(stop, 0 if sum(counts.values()) else poll_s)
