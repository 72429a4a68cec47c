"""Birth dates stored in clear before they were encrypted (databases migrated from before
revision 0010) are encrypted by the service when it starts: the migrate step has no DATA_KEY."""

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
