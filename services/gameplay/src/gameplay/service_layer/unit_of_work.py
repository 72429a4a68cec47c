"""The gameplay unit of work: the shared one (transaction, clock, outbox) with this service's
typed repositories, ``uow.games``, ``uow.decisions``, ``uow.keys``, ``uow.event_log`` and
``uow.boards`` (over-the-board games).

The transaction begins at the first statement, not when the unit of work opens: beginning
one costs about as much CPU as judging a move, and a move judged on the state this process
cached is group-committed without one (``GameRepository.save``)."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import AsyncIterator, Awaitable
from typing import TYPE_CHECKING, Any

from gomoku_shared.contracts import Envelope, Payload
from gomoku_shared.idempotency import IdempotencyStore
from gomoku_shared.runtime import ServiceRuntime, UnitOfWork

from ..adapters.event_log import EventLog
from ..adapters.game_cache import GameCache
from ..adapters.move_writer import PgMoveWriter
from ..adapters.over_the_board import OverTheBoardRepository
from ..adapters.repositories import DecisionRepository, GameRepository, KeyRepository
from ..adapters.transactions import translating

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncSession


class _Session:
    """What the repositories of one unit of work share: its session, begun at the first statement.
    It holds neither the unit of work nor the repositories, so that a unit of work and its
    repositories form no reference cycle: every move frees them at once, by reference counting.
    (As a cycle, seven objects a move, they were the bulk of what the collector's young
    generation collected, in pauses of 40-80 ms of CPU under load: the gameplay tail, issue 33.)"""

    __slots__ = ("_units", "_correlation_id", "_block", "uow", "_session")

    def __init__(
        self,
        units: Units,
        correlation_id: str | None,
        block: _Transaction | None,
        begun: UnitOfWork | None,
        session: AsyncSession | None,
    ) -> None:
        self._units = units
        self._correlation_id = correlation_id
        self._block = block
        self.uow = begun
        self._session = session or (begun.session if begun is not None else None)

    @property
    def begun(self) -> bool:
        return self._session is not None

    async def session(self) -> AsyncSession:
        if self._session is None:
            assert self._block is not None, "a unit of work used after its end"
            transaction = self._units.runtime.transaction(correlation_id=self._correlation_id)
            self.uow = await self._block.enter(translating(transaction))
            self._session = self.uow.session
        return self._session


class GameplayUnitOfWork:
    __slots__ = (
        "_handle",
        "clock",
        "games",
        "decisions",
        "keys",
        "event_log",
        "boards",
    )

    def __init__(
        self,
        units: Units,
        *,
        correlation_id: str | None = None,
        block: _Transaction | None = None,
        begun: UnitOfWork | None = None,
        session: AsyncSession | None = None,
    ) -> None:
        self._handle = handle = _Session(units, correlation_id, block, begun, session)
        self.clock = units.runtime.clock
        # the repositories, built here and nowhere else: each holds only the session handle and
        # what the process shares (no statement runs, no connection is taken until one is asked)
        self.games = GameRepository(handle, units.cache, units.keys, units.writer)
        self.decisions = DecisionRepository(handle)
        self.keys = KeyRepository(handle, units.keys)
        self.event_log = EventLog(handle)
        #: PLAY-9 / PLAY-10: result slips, record entries, recorder credentials
        self.boards = OverTheBoardRepository(handle)

    @property
    def begun(self) -> bool:
        return self._handle.begun

    def session(self) -> Awaitable[AsyncSession]:
        return self._handle.session()

    async def emit(self, payload: Payload, *, event_id: uuid.UUID | None = None) -> Envelope[Any]:
        """An event written to the outbox in the same transaction."""
        handle = self._handle
        await handle.session()
        assert handle.uow is not None, "reads emit no events"
        return handle.uow.emit(payload, event_id=event_id)


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
        """Reads on a session of their own (no transaction: each statement alone on PostgreSQL)."""
        async with self.runtime.reading_sessionmaker() as session:
            yield GameplayUnitOfWork(self, session=session)

    def within(self, uow: UnitOfWork) -> GameplayUnitOfWork:
        """The repositories on a unit of work the runtime began (a consumer's)."""
        return GameplayUnitOfWork(self, begun=uow)

    def joining(self, uow: UnitOfWork) -> Units:
        """These units with every ``transaction`` the one the runtime began (a consumer's): its
        handler runs as a route's does, and the runtime commits (with the inbox row) or rolls back."""
        return _Joined(self, uow)


class _Joined(Units):
    def __init__(self, units: Units, begun: UnitOfWork) -> None:
        super().__init__(units.runtime, units.cache, units.keys, units.writer)
        self._begun = begun

    def transaction(self, correlation_id: str) -> _Transaction:
        return _Transaction(self, correlation_id, begun=self._begun)


class _Transaction:
    """``async with units.transaction(...) as uow``: the unit of work of one block. A plain
    class rather than a generator-based context manager, and the exit stack is made only when
    a transaction begins: a move judged on the cached state opens one and never begins a
    database transaction, so entering and leaving it is most of what it costs."""

    __slots__ = ("_stack", "_units", "_correlation_id", "_begun")

    def __init__(self, units: Units, correlation_id: str, begun: UnitOfWork | None = None) -> None:
        self._units = units
        self._correlation_id = correlation_id
        self._stack: contextlib.AsyncExitStack | None = None
        #: the runtime's unit of work this block joins (it ends that one neither way)
        self._begun = begun

    async def __aenter__(self) -> GameplayUnitOfWork:
        if self._begun is not None:
            return GameplayUnitOfWork(self._units, begun=self._begun)
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
