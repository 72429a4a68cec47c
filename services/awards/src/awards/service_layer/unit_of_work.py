"""The awards unit of work: what a use case may ask of its transaction (:class:`AwardsUnitOfWork`,
a protocol), and the SQL one the service runs on (:class:`SqlAwardsUnitOfWork`: the shared
runtime's transaction, clock and outbox with this service's repositories on its session, built
in ``adapters.repositories`` and nowhere else). The tests' in-memory one
(``awards_fakes.FakeUnitOfWork``) satisfies the same protocol, so a use case runs unchanged on
either."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, Protocol

from gomoku_shared.clock import Clock
from gomoku_shared.contracts import Payload
from gomoku_shared.event_access import EventAccessStore
from gomoku_shared.runtime import UnitOfWork

from ..adapters.orm import event_access
from ..adapters.repositories import Repositories
from .ports import Awards, Backfill, Honours, Season, StaffAudit


class AwardsUnitOfWork(Protocol):
    """The repositories, the clock, ``emit`` (an event into the outbox, written in the same
    transaction) and the event's owner as the consumers learn it (issue 29)."""

    awards: Awards
    season: Season
    honours: Honours
    staff_actions: StaffAudit
    backfill: Backfill
    clock: Clock

    def emit(self, payload: Payload, *, correlation_id: str | None = None, event_id: uuid.UUID | None = None) -> Any:
        """The event into the outbox of this transaction."""
        ...

    async def record_access(
        self, event_code: str, organisation: str, partners: list[str] | None, changed_at: datetime
    ) -> bool:
        """Keep the event's owner unless a later change is stored; True when kept."""
        ...


class SqlAwardsUnitOfWork(AwardsUnitOfWork):
    """The repositories on the runtime's session; ``emit`` writes to its outbox."""

    def __init__(self, uow: UnitOfWork) -> None:
        repositories = Repositories(uow.session)
        self.session = uow.session
        self.awards = repositories.awards
        self.season = repositories.season
        self.honours = repositories.honours
        self.staff_actions = repositories.staff_actions
        self.backfill = repositories.backfill
        self.clock = uow.clock
        self._runtime = uow

    def emit(self, payload: Payload, *, correlation_id: str | None = None, event_id: uuid.UUID | None = None) -> Any:
        return self._runtime.emit(payload, correlation_id=correlation_id, event_id=event_id)

    async def record_access(
        self, event_code: str, organisation: str, partners: list[str] | None, changed_at: datetime
    ) -> bool:
        return await EventAccessStore(event_access).record(self.session, event_code, organisation, partners, changed_at)
