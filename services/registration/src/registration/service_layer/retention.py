"""Issue 34: a registrant's documents are deleted once their retention has ended (the event's
last day plus DOCUMENT_RETENTION_DAYS, fixed on each document when it was stored). The service
runs this once an hour in the background (`bootstrap`), and an operator can run it at once:
``python -m registration.purge_documents`` (docs/operators.md)."""

from __future__ import annotations

import logging
from datetime import date

from gomoku_shared.runtime import ServiceRuntime

from ..adapters.protection import DataProtector
from .unit_of_work import RegistrationUnitOfWork

log = logging.getLogger("registration.retention")


async def purge_documents(runtime: ServiceRuntime, protector: DataProtector, today: date | None = None) -> int:
    """Delete every document whose retention ended before `today` (the service's clock's
    date by default); how many."""
    day = today or runtime.clock.now().date()
    async with runtime.transaction() as uow:
        deleted = await RegistrationUnitOfWork(uow, protector).documents.delete_due(day)
    if deleted:
        log.info("deleted %d documents whose retention ended", deleted)
    return deleted
