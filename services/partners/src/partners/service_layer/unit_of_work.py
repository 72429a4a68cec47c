"""The partners unit of work: the runtime's transaction (session, clock, outbox) with this
service's repositories on its session, built here and nowhere else in the service layer (issue
31). Every use case takes its repositories from the unit of work it opens (``uow.partners``,
``uow.staff``, ``uow.webhooks(vault)``)."""

from __future__ import annotations

import uuid
from typing import Any

from gomoku_shared.contracts import Payload
from gomoku_shared.runtime import UnitOfWork

from ..adapters.repository import PartnerRepository
from ..adapters.signing import KeyVault
from ..adapters.staff_repository import StaffRepository
from ..adapters.webhook_repository import WebhookRepository


class PartnersUnitOfWork:
    """One transaction of the runtime (``base``) and the repositories on its session."""

    def __init__(self, base: UnitOfWork) -> None:
        self.base = base
        self.session = base.session
        self.clock = base.clock
        self.correlation_id = base.correlation_id
        self.partners = PartnerRepository(base.session)
        self.staff = StaffRepository(base.session)

    def webhooks(self, vault: KeyVault) -> WebhookRepository:
        """The subscriptions and deliveries, their secrets sealed and opened with ``vault``."""
        return WebhookRepository(self.session, vault)

    def emit(self, payload: Payload, *, correlation_id: str | None = None, event_id: uuid.UUID | None = None) -> Any:
        return self.base.emit(payload, correlation_id=correlation_id, event_id=event_id)
