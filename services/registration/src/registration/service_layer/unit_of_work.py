"""The registration unit of work: the shared one (transaction, clock, outbox) with the typed
repositories of this service on its session."""

from __future__ import annotations

import uuid
from typing import Any

from gomoku_shared.contracts import Envelope, Payload
from gomoku_shared.runtime import UnitOfWork

from ..adapters.protection import DataProtector
from ..adapters.repositories import Repositories


class RegistrationUnitOfWork(Repositories):
    """`uow.events`, `uow.entries`, `uow.people`, `uow.evidence`, `uow.units`, `uow.changes`;
    `emit` writes an event to the outbox in the same transaction."""

    def __init__(self, uow: UnitOfWork, protector: DataProtector) -> None:
        super().__init__(uow.session, protector)
        self._uow = uow
        self.clock = uow.clock

    def emit(
        self, payload: Payload, *, correlation_id: str | None = None, event_id: uuid.UUID | None = None
    ) -> Envelope[Any]:
        return self._uow.emit(payload, correlation_id=correlation_id, event_id=event_id)
