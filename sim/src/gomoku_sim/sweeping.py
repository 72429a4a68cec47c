"""The run's games: each sweep plays every game as far as its bots go (games in sorted order), and
when no bot can act and the services are quiet the simulation clock moves to the next due time
(flag fall, no-show) and gameplay is asked to sweep; ties left to the arbiter are decided."""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Mapping
from typing import Any

from .bots import GameView, predict_view
from .client import ApiError
from .driver_state import DriverState
from .form_entries import acting_role
from .schedule import (
    any_action,
    at_round_start,
    bot_action,
    capped_at_next_start,
    due_step,
    due_without_clocks,
    earliest_start,
)
from .sim_clock import StuckError
from .venue import over_the_board

#: a bound on the actions of one game in one sweep (a game has at most 225 stones)
MAX_ACTIONS_PER_LOOK = 1000
#: ``Sweeping._act``: the action was refused (409)
_REFUSED = object()


class Sweeping(DriverState):
    """The bots and the clock while a stage is played."""

    async def sweep_bots(self, games: list[dict[str, Any]]) -> tuple[int, list[GameView]]:
        """Every online game played as far as its bots go now (one step of each game at the
        board). Returns (actions taken, views of games nobody acts in)."""
        stalled: list[GameView] = []
        acted = 0
        sem = asyncio.Semaphore(max(1, self.spec.concurrency))
        earliest = earliest_start(games)

        async def one(game: dict[str, Any]) -> None:
            nonlocal acted
            async with sem:
                gid = game["game_id"]
                if over_the_board(game):
                    if await at_round_start(self.clock, game, earliest):  # EVT-7: slots start together
                        await self.venue.step(gid)
                        acted += 1
                    return
                # one player acts at a time, and what a bot does is a function of the game alone
                # (the simulation clock stands still while bots act): the next action follows on
                # the view predicted from the answer, without the list being read again
                for _ in range(MAX_ACTIONS_PER_LOOK):
                    view = await self.view_of(game)
                    if view.over:
                        self.views.pop(gid, None)
                        return
                    seq = await self._act(game, view)
                    if seq is None:
                        stalled.append(view)
                        return
                    acted += 1
                    if seq is _REFUSED:
                        return
                    game = {**game, "seq": seq}

        if self.spec.concurrency > 1:
            await asyncio.gather(*(one(g) for g in games))
        else:
            for g in games:
                await one(g)
        stalled.sort(key=lambda v: v.game_id)
        return acted, stalled

    async def _act(self, game: Mapping[str, Any], view: GameView) -> Any:
        """The first player (in id order) with something to do acts: the game's new ``seq``, or
        ``_REFUSED`` (409: the game changed under the bot, e.g. a flag fell; looked at again on
        the next sweep), or None when no player acts now."""
        for player in sorted(set(view.players)):
            action = bot_action(game, view, player, self.spec.policy, self.spec.seed, self.clock.current)
            if action is None:
                continue
            key = f"{view.game_id}:{len(view.moves)}:{action.verb}:{player}:{view.phase}:{view.draw_offer_by}"
            try:
                summary = await self.p.post(
                    "gameplay",
                    f"/v1/games/{view.game_id}/{action.verb}",
                    action.body,
                    role=acting_role(self.form_entrants, player),
                    idempotency_key=hashlib.sha1(key.encode()).hexdigest(),
                )
            except ApiError as exc:
                self.views.pop(view.game_id, None)
                self.conflicts[exc.code] = self.conflicts.get(exc.code, 0) + 1
                if exc.status != 409:
                    raise RuntimeError(f"bot action refused in {view.game_id}: {action} -> {exc}") from exc
                return _REFUSED
            self.views[view.game_id] = (summary.get("seq"), predict_view(view, player, action, summary))
            return summary.get("seq")
        return None

    async def view_of(self, game: Mapping[str, Any]) -> GameView:
        """The game as the server shows it: the view kept from the last read or predicted after
        the bot's own last action while the list shows the same ``seq``, else read (GET)."""
        gid = game["game_id"]
        cached = self.views.get(gid)
        if cached is not None and cached[0] == game.get("seq") and not self.spec.verify_views:
            return cached[1]
        raw = await self.p.get("gameplay", f"/v1/games/{gid}")
        view = GameView.from_api(raw)
        if cached is not None and cached[0] == raw.get("seq") and self.spec.verify_views:
            _same_view(cached[1], view)
        self.views[gid] = (raw.get("seq"), view)
        return view

    async def next_due_step(
        self,
        stalled: list[GameView],
        section_rules: Mapping[str, int],
        listed: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> float:
        """Seconds to the earliest flag fall or no-show among games nobody acts in. A game of
        ``listed`` (game id -> the list's summary, read since the last change) whose next due
        moment needs no clock (its start, or a no-show) is not read again."""
        steps: list[float] = []
        for view in stalled:
            answer = (listed or {}).get(view.game_id)
            if answer is None or not due_without_clocks(answer, self.clock.current):
                answer = await self.p.get("gameplay", f"/v1/games/{view.game_id}")
            step = due_step(answer, self.clock.current, section_rules)  # EVT-7: a round's start too
            if step is not None:
                steps.append(step)
        return min(steps) if steps else 60.0

    async def advance_stalled(
        self, games: list[dict[str, Any]], no_show: Mapping[str, int], step_factor: float = 1.0
    ) -> None:
        """Move the clock to the next flag fall / no-show of the games nobody acts in, then
        let gameplay judge them (POST /v1/ops/sweep)."""
        async with self.clock.lock:  # no service restarts between this decision and the move
            await self.quiet()
            listed = await self.active_games()
            acted, stalled = await self.sweep_bots(listed)
            if acted:  # a game appeared since the last look: play it before time moves
                self.actions += acted
                return
            if not stalled:
                return
            by_id = {game["game_id"]: game for game in listed}
            step = await self.next_due_step(stalled, no_show, by_id) * step_factor
            step = capped_at_next_start(step, await self.active_games(), self.clock.current)
            moment = await self.clock.advance(step)
            self.clock_moves.append(f"advance {step:.0f}s -> {moment.isoformat()}")
            await self.p.post("gameplay", "/v1/ops/sweep", {})
            # gameplay's own sweeper (a background loop polling every 0.25 s of real time) may be
            # judging the same games: the quiet check counts its round as work in flight
            await self.quiet()

    async def settle_games(self, no_show: Mapping[str, int] | None = None, max_sweeps: int = 100000) -> None:
        """Play every active game of the event to its end (bots, then the clock)."""
        no_show = no_show or {}
        factor = 1.0
        for _ in range(max_sweeps):
            games = await self.active_games()
            if not games:
                await self.quiet()
                if not await self.active_games():
                    return
                continue
            acted, _ = await self.sweep_bots(games)
            self.actions += acted
            if acted:
                factor = 1.0
                continue
            await self.quiet()
            if await self._actionable():
                continue
            await self.advance_stalled(await self.active_games(), no_show, factor)
            factor = min(factor * 2, 500.0)
        raise StuckError(f"games of {self.code} still active after {max_sweeps} sweeps")

    async def handle_ties(self, sections: list[dict[str, Any]]) -> int:
        """PAIR-8: a tie left for the arbiter (SZ online qualification cut) is decided in the
        order the pairing service lists the players (deterministic)."""
        decided = 0
        for s in sections:
            if s.get("status") != "awaiting_arbiter":
                continue
            sid = s["section_id"]
            ties = await self.p.get("pairing", f"/v1/events/{self.code}/sections/{sid}/ties", role="arbiter")
            for tie in ties.get("ties", []):
                if tie.get("decided") or tie.get("status") == "decided":
                    continue
                order = tie.get("entrant_ids") or [e.get("entrant_id") for e in tie.get("entrants", [])]
                await self.p.post(
                    "pairing",
                    f"/v1/events/{self.code}/sections/{sid}/ties/{tie['tie_id']}/decision",
                    {"order": sorted(order)},
                    role="arbiter",
                )
                decided += 1
        return decided

    async def play(self, stage_id: str, section_ids: list[str]) -> None:
        """Sweep games until every section of the stage is completed (or cancelled)."""
        no_show = {s.id: (s.no_show_minutes or 15) for s in self.config.stage(stage_id).sections}
        step_factor = 1.0
        idle_rounds = 0
        idle_since = time.monotonic()
        while True:
            self._check_deadline(f"playing stage {stage_id}")
            games = await self.active_games()
            acted, stalled = await self.sweep_bots(games) if games else (0, [])
            self.actions += acted
            if self.progress.due():
                sections = [s for s in await self.pairing_sections() if s.get("section_id") in section_ids]
                done_rounds = sum(
                    int(s.get("current_round") or 0) - (0 if s.get("status") == "completed" else 1) for s in sections
                )
                total_rounds = sum(int(s.get("rounds") or 0) for s in sections)
                self.progress.show(stage_id, max(0, done_rounds), total_rounds, len(games), self.actions)
            if acted:
                idle_rounds = 0
                step_factor = 1.0
                continue
            # no bot can act: let the services finish what is in flight
            await self.quiet()
            if await self._actionable():
                continue
            sections = [
                s
                for s in await self.pairing_sections()
                if s.get("section_id") in section_ids or s.get("stage") == stage_id
            ]
            if await self.handle_ties(sections):
                continue
            waiting = [s for s in sections if s.get("status") not in ("completed", "cancelled")]
            known = {s.get("section_id") for s in sections}
            missing = [s for s in section_ids if s not in known]
            if not waiting and not missing:
                return
            games = await self.active_games()
            if games:
                # only stalled games are left (no-shows, players letting their clock run out)
                await self.advance_stalled(games, no_show, step_factor)
                step_factor = min(step_factor * 2, 500.0)
                continue
            idle_rounds += 1
            if idle_rounds == 1:
                idle_since = time.monotonic()
            else:
                await asyncio.sleep(min(0.05 * idle_rounds, 0.5))
            if time.monotonic() - idle_since > self.spec.wait_timeout_s:
                raise StuckError(
                    f"timed out waiting for the services to pair the next round or complete "
                    f"sections {sorted(str(s.get('section_id')) for s in waiting) + missing} "
                    f"(statuses {[(s.get('section_id'), s.get('status')) for s in waiting]})"
                )

    async def _actionable(self) -> bool:
        for game in await self.active_games():
            if over_the_board(game):
                return True  # something always happens at the board (a step, or the slip)
            view = await self.view_of(game)
            if any_action(game, view, self.spec.policy, self.spec.seed, self.clock.current):
                return True
        return False


def _same_view(predicted: GameView, actual: GameView) -> None:
    fields = (
        "status",
        "phase",
        "moves",
        "black",
        "white",
        "to_act",
        "joined",
        "forbidden",
        "draw_offer_by",
        "n",
        "offers",
        "opening_code",
    )
    diff = {
        f: (getattr(predicted, f), getattr(actual, f)) for f in fields if getattr(predicted, f) != getattr(actual, f)
    }
    if diff:
        raise AssertionError(f"predicted view of {actual.game_id} differs from the server's: {diff}")
