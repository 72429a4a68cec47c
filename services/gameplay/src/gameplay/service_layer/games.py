"""The gameplay service in one object per process: its writes are commands run by
:mod:`.handlers` (``handle``), its reads the views (``views``, ``board_views``) and the per-event
stream's reader (``feed``); the units of work and what the handlers share are built here once."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from contextlib import AbstractContextManager
from typing import Any

from gomoku_shared.event_access import EventAccessDirectory
from gomoku_shared.idempotency import IdempotencyStore
from gomoku_shared.runtime import ServiceRuntime, UnitOfWork

from ..adapters.game_cache import GameCache
from ..adapters.move_writer import PgMoveWriter
from ..adapters.orm import event_access, idempotency_keys
from ..config import GameplayConfig
from ..domain.errors import GameRefusal
from ..domain.played_game import Actor, actor_role
from . import handlers
from .actions import PlayerActions
from .board_views import BoardViews
from .commands import Command
from .event_feed import EventFeed
from .over_the_board import OverTheBoard
from .refusals import as_service_error
from .sweeper import Sweeper
from .unit_of_work import Units
from .views import GameViews


class GameService:
    """Per process: the cache of the games this process last committed is shared by every job."""

    def __init__(
        self,
        runtime: ServiceRuntime,
        writer: PgMoveWriter | None = None,
        keys: IdempotencyStore | None = None,
        config: GameplayConfig | None = None,
    ) -> None:
        self.runtime = runtime
        self.config = config = config or GameplayConfig.from_settings(runtime.settings)
        #: Idempotency-Keys of player actions (gomoku_shared.idempotency)
        self.keys = keys or IdempotencyStore(idempotency_keys, runtime.clock, config.idempotency_ttl_s)
        #: group-committed writes of plain moves (PostgreSQL); None: every action via the ORM
        self.writer = writer
        self.units = Units(runtime, GameCache(config.cache_size), self.keys, writer)
        #: issue 29: each event's organisation and chosen partner apps, cached per process
        #: (``event.access_changed``); the staff routes and the partner check of every player
        #: action read it (a dictionary lookup while cached: no query per move)
        self.access = EventAccessDirectory.on_table(runtime.sessionmaker, event_access)
        self.views = GameViews(self.units)
        #: PLAY-9 / PLAY-10: slips, records, the live recorder (the reads)
        self.board_views = BoardViews(self.units)
        self.jobs = handlers.Jobs(
            PlayerActions(config.max_retries, self.access, self.views.event_of),
            Sweeper(config.max_retries, config.sweep_batch),
            OverTheBoard(config.max_retries),
            self.access,
        )
        #: the per-event stream's shared reader (one per process)
        self.feed = EventFeed(self.units)

    def handle(self, command: Command, uow: UnitOfWork | None = None) -> Awaitable[Any]:
        """Run a command: a route's on units of work of its own, a consumer's in ``uow`` (the
        runtime's, which commits it with the inbox row)."""
        return handlers.handle(command, self.units if uow is None else self.units.joining(uow), self.jobs)

    def authorize(self, actor: Actor, columns: Mapping[str, Any], player_id: str) -> str:
        """The acting player's role in a game (its stored columns); 422 / 403 otherwise."""
        try:
            return actor_role(columns, actor, player_id)
        except GameRefusal as refusal:
            raise as_service_error(refusal) from None

    async def run_sweeper(
        self, stop: asyncio.Event | None = None, working: Callable[[], AbstractContextManager[None]] | None = None
    ) -> None:
        await self.jobs.sweeper.run(self.units, self.config.sweep_poll_s, stop, working)
