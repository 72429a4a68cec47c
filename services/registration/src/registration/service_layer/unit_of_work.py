"""The registration unit of work: the shared one (transaction, clock, outbox) with the typed
repositories of this service on its session."""

from __future__ import annotations

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
