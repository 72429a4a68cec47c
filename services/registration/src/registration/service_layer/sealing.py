"""What the service does to stored personal data when it starts (the migrate step has no
DATA_KEY): birth dates stored in clear before they were encrypted (databases migrated from before
revision 0010) are encrypted; after a key rotation (DATA_KEY_PREVIOUS set) everything encrypted
under a previous secret is encrypted again under DATA_KEY."""

from __future__ import annotations

import logging

from gomoku_shared.runtime import ServiceRuntime

from ..adapters.protection import DataProtector
from .unit_of_work import RegistrationUnitOfWork

log = logging.getLogger("registration.sealing")


async def seal_birth_dates(runtime: ServiceRuntime, protector: DataProtector, batch: int = 200) -> int:
    """Encrypt every birth date still in clear, `batch` rows per transaction (replicas starting
    together skip each other's locked rows); how many this call sealed."""
    sealed = 0
    while True:
        async with runtime.transaction() as uow:
            found = await RegistrationUnitOfWork(uow, protector).people.seal_birth_dates(batch)
        sealed += found
        if found < batch:
            break
    if sealed:
        log.info("encrypted the birth dates of %d people stored in clear", sealed)
    return sealed


async def rekey(runtime: ServiceRuntime, protector: DataProtector) -> int:
    """A key rotation: every encrypted value still under a previous secret re-encrypted under
    DATA_KEY, one table per transaction; how many rows changed (0 when no rotation is set)."""
    if not protector.rotating:
        return 0
    changed = 0
    async with runtime.transaction() as uow:
        tables = RegistrationUnitOfWork(uow, protector).protected.tables()
    for table in tables:
        async with runtime.transaction() as uow:
            changed += await RegistrationUnitOfWork(uow, protector).protected.rekey(table)
    async with runtime.transaction() as uow:
        changed += await RegistrationUnitOfWork(uow, protector).documents.rekey()
    log.info("data key rotation: %d rows re-encrypted under DATA_KEY; DATA_KEY_PREVIOUS may be removed", changed)
    return changed
