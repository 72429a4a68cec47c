"""The gameplay service's use cases behind one object, by job: games from events
(``creation``), player and arbiter actions (``actions``), the arbiter's pairing decisions
(``arbiter_decisions``), the flag/no-show sweep (``sweeper``) and the views (``views``)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any

from gomoku_shared.contracts.events import (
    EventAccessChanged,
    PlayoffRequired,
    ResultDecided,
    RoundPaired,
    RoundRescheduled,
)
from gomoku_shared.event_access import EventAccessDirectory, EventAccessStore
from gomoku_shared.idempotency import IdempotencyStore
from gomoku_shared.runtime import ServiceRuntime, UnitOfWork

from ..adapters.game_cache import GameCache
from ..adapters.move_writer import PgMoveWriter
from ..adapters.orm import event_access, idempotency_keys
from ..config import GameplayConfig
from ..domain.errors import GameRefusal
from ..domain.played_game import Actor, actor_role
from . import arbiter_decisions, creation, rescheduling
from .actions import PlayerActions
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
        self.config = config or GameplayConfig.from_settings(runtime.settings)
        #: Idempotency-Keys of player actions (gomoku_shared.idempotency)
        self.keys = keys or IdempotencyStore(idempotency_keys, runtime.clock, self.config.idempotency_ttl_s)
        #: group-committed writes of plain moves (PostgreSQL); None: every action via the ORM
        self.writer = writer
        self.units = Units(runtime, GameCache(self.config.cache_size), self.keys, writer)
        #: issue 29: each event's organisation and chosen partner apps, cached per process
        #: (``event.access_changed``); the staff routes and the partner check of every player
        #: action read it (a dictionary lookup while cached: no query per move)
        self.access = EventAccessDirectory.on_table(runtime.sessionmaker, event_access)
        self.views = GameViews(self.units)
        self.actions = PlayerActions(self.units, self.config.max_retries, self.access, self.views.event_of)
        self.sweeper = Sweeper(self.units, self.config.max_retries, self.config.sweep_batch)
        #: PLAY-9 / PLAY-10: slips, records, the live recorder
        self.boards = OverTheBoard(self.units, self.config.max_retries)
        #: the per-event stream's shared reader (one per process)
        self.feed = EventFeed(self.units)
        # the jobs' use cases as this object's own: player and arbiter actions, the sweep, the views
        actions, views = self.actions, self.views
        self.act, self.staff, self.sweep = actions.act, actions.staff, self.sweeper.sweep
        self.list_games, self.page, self.page_versions = views.list_games, views.page, views.page_versions
        self.round_versions, self.round_boards = views.round_versions, views.round_boards
        self.view, self.export, self.game_exists = views.view, views.export, views.game_exists
        self.events_since, self.round_events_since = views.events_since, views.round_events_since
        self.event_of = views.event_of

    # ------------------------------------------------------------------ events consumed

    async def on_round_paired(self, uow: UnitOfWork, paired: RoundPaired, occurred_at: datetime) -> None:
        await creation.on_round_paired(self.units.within(uow), paired, occurred_at)

    async def on_playoff_required(self, uow: UnitOfWork, required: PlayoffRequired, occurred_at: datetime) -> None:
        await creation.on_playoff_required(self.units.within(uow), required, occurred_at)

    async def on_result_decided(self, uow: UnitOfWork, decided: ResultDecided) -> None:
        await arbiter_decisions.on_result_decided(self.units.within(uow), decided)

    async def on_round_rescheduled(self, uow: UnitOfWork, moved: RoundRescheduled) -> None:
        await rescheduling.on_round_rescheduled(self.units.within(uow), moved)

    async def on_event_access_changed(self, uow: UnitOfWork, changed: EventAccessChanged) -> None:
        """Issue 29: keep the latest owner and partner apps of the event; this replica forgets
        what it cached (the others within the directory's 30 s)."""
        store = EventAccessStore(event_access)
        await store.record(uow.session, changed.event_code, changed.organisation, changed.partners, changed.changed_at)
        self.access.forget(changed.event_code)

    # ------------------------------------------------------------------ actions

    def authorize(self, actor: Actor, columns: Mapping[str, Any], player_id: str) -> str:
        """The acting player's role in a game (its stored columns); 422 / 403 otherwise."""
        try:
            return actor_role(columns, actor, player_id)
        except GameRefusal as refusal:
            raise as_service_error(refusal) from None

    async def run_sweeper(
        self, stop: asyncio.Event | None = None, working: Callable[[], AbstractContextManager[None]] | None = None
    ) -> None:
        await self.sweeper.run(self.config.sweep_poll_s, stop, working)
