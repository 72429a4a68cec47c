"""The registration unit of work: the shared one (transaction, clock, outbox) with the typed
repositories of this service on its session."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from gomoku_shared.runtime import UnitOfWork

from ..adapters.protection import DataProtector
from ..adapters.repositories import Repositories


class RegistrationUnitOfWork(Repositories):
    """`uow.events`, `uow.entries`, `uow.people`, `uow.evidence`, `uow.units`, `uow.changes`;
    `emit` writes an event to the outbox in the same transaction."""

    def __init__(self, uow: UnitOfWork, protector: DataProtector) -> None:
        super().__init__(uow.session, protector)
        self.clock = uow.clock
        #: the runtime's outbox, in the same transaction
        self.emit = uow.emit


#: what a read is handed: the typed repositories on a session of its own (no lock, no outbox)
Reads = Repositories
T = TypeVar("T")


async def on_own_session(
    sessionmaker: Callable[[], Any], protector: DataProtector, read: Callable[[Reads], Awaitable[T]]
) -> T:
    """Run ``read`` on a session of its own (the routes' reads: no lock, nothing written)."""
    async with sessionmaker() as session:
        return await read(Repositories(session, protector))
