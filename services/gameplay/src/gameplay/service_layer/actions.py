"""Player actions (join, opening steps, moves, passes, resignation, draws) and the arbiter's
(adjudication, time corrections): judged by the game aggregate, stored in one unit of work.

Every change commits together: the game row (optimistic concurrency on ``version``), the
action log row, the stream event rows, an idempotency row and the outbox rows; the caller is
answered only after that commit. A conflict on ``version`` (another replica changed the game
first) reloads and retries the action. An action on the state this process last committed is
judged without a read; any refusal on that state is judged again on the database's.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, cast

from gomoku_shared.errors import Conflict, NotFound
from gomoku_shared.event_access import EventAccessDirectory, check_partner
from gomoku_shared.idempotency import KeyedRequest
from gomoku_shared.metrics import Tally

from ..domain.errors import AlreadyRecorded, GameRefusal
from ..domain.played_game import Actor, Change, PlayedGame
from .finishing import StaleGame, save_change
from .refusals import replay
from .unit_of_work import GameplayUnitOfWork, Units

if TYPE_CHECKING:
    from gomoku_shared.auth import Principal


def epoch_ms_now(uow: GameplayUnitOfWork) -> int:
    return int(uow.clock.now().timestamp() * 1000)


def busy() -> Conflict:
    return Conflict("busy", "the game changed concurrently too often; retry")


async def found(uow: GameplayUnitOfWork, game_id: str) -> PlayedGame:
    game = await uow.games.get(game_id)
    if game is None:
        raise NotFound("game_not_found", f"no game {game_id!r}")
    return game


class PlayerActions:
    """What the player actions share in a process (the units of work come with each call)."""

    def __init__(
        self,
        max_retries: int,
        access: EventAccessDirectory | None = None,
        event_of: Callable[[str], Awaitable[str]] | None = None,
    ) -> None:
        self.max_retries = max_retries
        #: issue 29: the partner apps each event's organiser chose, and the event of a game (both
        #: kept in the process); None: every partner acts
        self.access = access
        self.event_of = event_of
        #: accepted player actions by kind, and the time they took (metrics: moves per second)
        self.accepted = Tally()

    async def act(
        self,
        units: Units,
        game_id: str,
        actor: Actor,
        player_id: str,
        kind: str,
        data: dict | None = None,
        keyed: KeyedRequest | None = None,
    ) -> dict[str, Any]:
        """One player action, retried on a version conflict; returns the game summary. A
        request whose Idempotency-Key is stored returns the stored summary marked
        ``_replayed`` (or raises the stored refusal with the replay header)."""
        data = data or {}
        started = time.perf_counter()
        if actor.role == "partner":
            await self._check_partner(actor, game_id)
        for attempt in range(self.max_retries):
            try:
                summary = await self._act_once(units, game_id, actor, player_id, kind, data, keyed, fresh=attempt > 0)
                self.accepted.record((kind,), time.perf_counter() - started)
                return summary
            except StaleGame:
                continue
            except AlreadyRecorded:
                # a concurrent action took the same log index (it committed first; its game
                # version moved on), or a concurrent retry stored the same idempotency key
                continue
        raise busy()

    async def _act_once(
        self,
        units: Units,
        game_id: str,
        actor: Actor,
        player_id: str,
        kind: str,
        data: dict[str, Any],
        keyed: KeyedRequest | None,
        *,
        fresh: bool,
    ) -> dict[str, Any]:
        async with units.transaction(correlation_id=game_id) as uow:
            # a cached game's key is not looked up first: the group-commit writer applies
            # nothing under a key stored already, and the retry on the database's state looks
            # it up (replay, or 409 for a key that came with another request)
            game = None if fresh else uow.games.cached(game_id)
            from_cache = game is not None
            if game is None:
                if keyed is not None and (hit := await uow.keys.lookup(keyed)) is not None:
                    return replay(hit)
                game = await found(uow, game_id)
            try:
                role = game.authorize(actor, player_id)
            except GameRefusal:
                if from_cache:
                    units.cache.keep(game)
                    if keyed is not None:
                        raise StaleGame() from None  # the key is looked up before any refusal
                raise
            now = epoch_ms_now(uow)
            change = await self._judge(uow, game, role, kind, data, now, keyed, from_cache=from_cache)
            if isinstance(change, dict):
                return change  # the stored answer of this request
            summary = await save_change(uow, game, change, now, keyed)
        units.cache.keep(game)
        if change.error is not None:
            raise change.error
        return summary

    async def _check_partner(self, actor: Actor, game_id: str) -> None:
        """Issue 29: a partner app acts in a game only when the organiser of its event chose it
        (403 ``partner_not_chosen``), checked before the game is loaded: the game's event and the
        event's partner apps come from maps this process keeps (a read on a session of its own
        the first time, never while a transaction holds a connection), not a query per move."""
        if self.access is None or self.event_of is None:
            return
        access = await self.access.get(await self.event_of(game_id))
        if access.partners is not None:
            check_partner(cast("Principal", actor), access)

    async def _judge(
        self,
        uow: GameplayUnitOfWork,
        game: PlayedGame,
        role: str,
        kind: str,
        data: dict[str, Any],
        now: int,
        keyed: KeyedRequest | None,
        *,
        from_cache: bool,
    ) -> Change | dict[str, Any]:
        """The change, or the stored answer when a refused request turns out to be a retry."""
        try:
            return game.decide(role, kind, data, now)
        except GameRefusal:
            if from_cache:
                raise StaleGame() from None  # judged on a cached state: judge again on the database's
            # a concurrent request with the same key may have committed after our first
            # look (each statement sees the latest commits): then this is its retry
            if keyed is not None and (hit := await uow.keys.lookup(keyed)) is not None:
                return replay(hit)
            raise

    async def staff(
        self, units: Units, game_id: str, kind: str, data: dict[str, Any], decided_by: dict[str, str] | None = None
    ) -> dict[str, Any]:
        """Arbiter decisions (adjudicate with a recorded reason) and time corrections; ``decided_by``:
        who (``{"by": name, "by_id": stable id}``, issue 29), stored with the decision."""
        for _attempt in range(self.max_retries):
            try:
                async with units.transaction(correlation_id=game_id) as uow:
                    game = await found(uow, game_id)
                    now = epoch_ms_now(uow)
                    if kind == "adjudicate":
                        change = game.adjudicate(data["result"], data["reason"], decided_by)
                    else:
                        change = game.add_time(data["player_id"], data["seconds"], now, decided_by)
                    summary = await save_change(uow, game, change, now)
                units.cache.keep(game)
                return summary
            except (StaleGame, AlreadyRecorded):
                continue
        raise busy()
