"""The gameplay service's use cases behind one object, by job: games from events
(``creation``), player and arbiter actions (``actions``), the arbiter's pairing decisions
(``arbiter_decisions``), the flag/no-show sweep (``sweeper``) and the views (``views``)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any

from gomoku_shared.contracts.events import PlayoffRequired, ResultDecided, RoundPaired, RoundRescheduled
from gomoku_shared.idempotency import IdempotencyStore, KeyedRequest
from gomoku_shared.runtime import ServiceRuntime, UnitOfWork

from ..adapters.game_cache import GameCache
from ..adapters.move_writer import PgMoveWriter
from ..adapters.orm import idempotency_keys
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
        self.actions = PlayerActions(self.units, self.config.max_retries)
        self.sweeper = Sweeper(self.units, self.config.max_retries, self.config.sweep_batch)
        self.views = GameViews(self.units)
        #: PLAY-9 / PLAY-10: slips, records, the live recorder
        self.boards = OverTheBoard(self.units, self.config.max_retries)
        #: the per-event stream's shared reader (one per process)
        self.feed = EventFeed(self.units)

    # ------------------------------------------------------------------ events consumed

    async def on_round_paired(self, uow: UnitOfWork, paired: RoundPaired, occurred_at: datetime) -> None:
        await creation.on_round_paired(self.units.within(uow), paired, occurred_at)

    async def on_playoff_required(self, uow: UnitOfWork, required: PlayoffRequired, occurred_at: datetime) -> None:
        await creation.on_playoff_required(self.units.within(uow), required, occurred_at)

    async def on_result_decided(self, uow: UnitOfWork, decided: ResultDecided) -> None:
        await arbiter_decisions.on_result_decided(self.units.within(uow), decided)

    async def on_round_rescheduled(self, uow: UnitOfWork, moved: RoundRescheduled) -> None:
        await rescheduling.on_round_rescheduled(self.units.within(uow), moved)

    # ------------------------------------------------------------------ actions

    def authorize(self, actor: Actor, columns: Mapping[str, Any], player_id: str) -> str:
        """The acting player's role in a game (its stored columns); 422 / 403 otherwise."""
        try:
            return actor_role(columns, actor, player_id)
        except GameRefusal as refusal:
            raise as_service_error(refusal) from None

    async def act(
        self,
        game_id: str,
        actor: Actor,
        player_id: str,
        kind: str,
        data: dict | None = None,
        keyed: KeyedRequest | None = None,
    ) -> dict[str, Any]:
        return await self.actions.act(game_id, actor, player_id, kind, data, keyed)

    async def staff(self, game_id: str, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        return await self.actions.staff(game_id, kind, data)

    async def sweep(self) -> dict[str, int]:
        return await self.sweeper.sweep()

    async def run_sweeper(
        self, stop: asyncio.Event | None = None, working: Callable[[], AbstractContextManager[None]] | None = None
    ) -> None:
        await self.sweeper.run(self.config.sweep_poll_s, stop, working)

    # ------------------------------------------------------------------ views

    async def list_games(
        self,
        event_code: str | None = None,
        section_id: str | None = None,
        round_no: int | None = None,
        status: str = "all",
    ) -> list[dict[str, Any]]:
        return await self.views.list_games(event_code, section_id, round_no, status)

    async def page(
        self, filters: dict[str, Any], partner_id: str | None, after: str | None, limit: int
    ) -> tuple[list[dict[str, Any]], str | None]:
        return await self.views.page(filters, partner_id, after, limit)

    async def page_versions(
        self, filters: dict[str, Any], partner_id: str | None, after: str | None, limit: int
    ) -> list[tuple[str, int]]:
        return await self.views.page_versions(filters, partner_id, after, limit)

    async def round_versions(self, event_code: str, section_id: str, round_no: int) -> list[tuple[str, int, bool]]:
        return await self.views.round_versions(event_code, section_id, round_no)

    async def round_boards(
        self, event_code: str, section_id: str, round_no: int
    ) -> tuple[list[dict[str, Any]], list[tuple[str, int, bool]], int]:
        return await self.views.round_boards(event_code, section_id, round_no)

    async def view(self, game_id: str) -> dict[str, Any]:
        return await self.views.view(game_id)

    async def export(self, game_id: str) -> dict[str, Any]:
        return await self.views.export(game_id)

    async def events_since(self, game_id: str, since: int, limit: int = 500) -> list[dict[str, Any]]:
        return await self.views.events_since(game_id, since, limit)

    async def round_events_since(self, key: str, since_id: int, limit: int = 500) -> list[dict[str, Any]]:
        return await self.views.round_events_since(key, since_id, limit)

    async def game_exists(self, game_id: str) -> bool:
        return await self.views.game_exists(game_id)
