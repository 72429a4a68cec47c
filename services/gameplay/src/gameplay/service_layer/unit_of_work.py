"""The gameplay unit of work: the shared one (transaction, clock, outbox) with this service's
typed repositories, ``uow.games``, ``uow.decisions``, ``uow.keys``, ``uow.event_log`` and
``uow.boards`` (over-the-board games).

The transaction begins at the first statement, not when the unit of work opens: beginning
one costs about as much CPU as judging a move, and a move judged on the state this process
cached is group-committed without one (``GameRepository.save``)."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from gomoku_shared.contracts import Envelope, Payload
from gomoku_shared.idempotency import IdempotencyStore
from gomoku_shared.runtime import ServiceRuntime, UnitOfWork

from ..adapters.event_log import EventLog
from ..adapters.game_cache import GameCache
from ..adapters.move_writer import PgMoveWriter
from ..adapters.over_the_board import OverTheBoardRepository
from ..adapters.repositories import DecisionRepository, GameRepository, KeyRepository


class GameplayUnitOfWork:
    def __init__(
        self,
        units: Units,
        *,
        correlation_id: str | None = None,
        block: _Transaction | None = None,
        begun: UnitOfWork | None = None,
        session: AsyncSession | None = None,
    ) -> None:
        self._units = units
        self._correlation_id = correlation_id
        self._block = block
        self._uow = begun
        self._session = session or (begun.session if begun is not None else None)
        self.clock = units.runtime.clock
        self._games: GameRepository | None = None
        self._decisions: DecisionRepository | None = None
        self._keys: KeyRepository | None = None
        self._event_log: EventLog | None = None
        self._boards: OverTheBoardRepository | None = None

    # the repositories are built on first use (a move uses one of the five)

    @property
    def games(self) -> GameRepository:
        if self._games is None:
            self._games = GameRepository(self, self._units.cache, self._units.keys, self._units.writer)
        return self._games

    @property
    def decisions(self) -> DecisionRepository:
        if self._decisions is None:
            self._decisions = DecisionRepository(self)
        return self._decisions

    @property
    def keys(self) -> KeyRepository:
        if self._keys is None:
            self._keys = KeyRepository(self, self._units.keys)
        return self._keys

    @property
    def event_log(self) -> EventLog:
        if self._event_log is None:
            self._event_log = EventLog(self)
        return self._event_log

    @property
    def boards(self) -> OverTheBoardRepository:
        """PLAY-9 / PLAY-10: result slips, record entries, recorder credentials."""
        if self._boards is None:
            self._boards = OverTheBoardRepository(self)
        return self._boards

    @property
    def begun(self) -> bool:
        return self._session is not None

    async def session(self) -> AsyncSession:
        if self._session is None:
            assert self._block is not None, "a unit of work used after its end"
            transaction = self._units.runtime.transaction(correlation_id=self._correlation_id)
            self._uow = await self._block.enter(transaction)
            self._session = self._uow.session
        return self._session

    async def emit(self, payload: Payload, *, event_id: uuid.UUID | None = None) -> Envelope[Any]:
        """An event written to the outbox in the same transaction."""
        await self.session()
        assert self._uow is not None, "reads emit no events"
        return self._uow.emit(payload, event_id=event_id)


class Units:
    """Per process: what every unit of work of the service shares (runtime, the cache of games,
    the Idempotency-Key store, the group-commit writer)."""

    def __init__(
        self, runtime: ServiceRuntime, cache: GameCache, keys: IdempotencyStore, writer: PgMoveWriter | None
    ) -> None:
        self.runtime = runtime
        self.cache = cache
        self.keys = keys
        self.writer = writer

    def transaction(self, correlation_id: str) -> _Transaction:
        """State and its events commit together when the block ends; roll back on an exception."""
        return _Transaction(self, correlation_id)

    @contextlib.asynccontextmanager
    async def reading(self) -> AsyncIterator[GameplayUnitOfWork]:
        """Reads on a session of their own (no transaction to commit)."""
        async with self.runtime.sessionmaker() as session:
            yield GameplayUnitOfWork(self, session=session)

    def within(self, uow: UnitOfWork) -> GameplayUnitOfWork:
        """The repositories on a unit of work the runtime began (a consumer's)."""
        return GameplayUnitOfWork(self, begun=uow)


class _Transaction:
    """``async with units.transaction(...) as uow``: the unit of work of one block. A plain
    class rather than a generator-based context manager, and the exit stack is made only when
    a transaction begins: a move judged on the cached state opens one and never begins a
    database transaction, so entering and leaving it is most of what it costs."""

    __slots__ = ("_stack", "_units", "_correlation_id")

    def __init__(self, units: Units, correlation_id: str) -> None:
        self._units = units
        self._correlation_id = correlation_id
        self._stack: contextlib.AsyncExitStack | None = None

    async def __aenter__(self) -> GameplayUnitOfWork:
        return GameplayUnitOfWork(self._units, correlation_id=self._correlation_id, block=self)

    async def enter(self, transaction: contextlib.AbstractAsyncContextManager[UnitOfWork]) -> UnitOfWork:
        """Begin ``transaction``: it ends (commits, or rolls back) with this block."""
        if self._stack is None:
            self._stack = contextlib.AsyncExitStack()
        return await self._stack.enter_async_context(transaction)

    async def __aexit__(self, *exc_info: Any) -> None:
        # commits, or rolls back on an exception (which goes on: nothing in the stack suppresses)
        if self._stack is not None:
            await self._stack.__aexit__(*exc_info)
