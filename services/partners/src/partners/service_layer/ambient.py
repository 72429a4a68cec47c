"""The unit of work of a request that carries an ``Idempotency-Key``.

A keyed request's stored answer must commit together with the change it answers (see
``gomoku_shared.idempotency``). The use cases open their transaction with ``unit_of_work``:
inside ``joined(uow)`` (the keyed request's transaction, opened by the HTTP edge) they work in
that transaction, which commits or rolls back as a whole; anywhere else they open their own.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator
from contextvars import ContextVar

from gomoku_shared.runtime import ServiceRuntime, UnitOfWork

from .unit_of_work import PartnersUnitOfWork

_keyed: ContextVar[UnitOfWork | None] = ContextVar("partners_keyed_unit_of_work", default=None)


@contextlib.asynccontextmanager
async def unit_of_work(runtime: ServiceRuntime) -> AsyncIterator[PartnersUnitOfWork]:
    """The keyed request's transaction when there is one, else a new one of ``runtime``."""
    ambient = _keyed.get()
    if ambient is not None:
        yield PartnersUnitOfWork(ambient)
        return
    async with runtime.transaction() as uow:
        yield PartnersUnitOfWork(uow)


@contextlib.asynccontextmanager
async def own_transaction(runtime: ServiceRuntime) -> AsyncIterator[PartnersUnitOfWork]:
    """A new transaction of ``runtime`` even inside a keyed request (the webhook worker's, the
    start-up's and reads that need no keyed answer)."""
    async with runtime.transaction() as uow:
        yield PartnersUnitOfWork(uow)


@contextlib.contextmanager
def joined(uow: UnitOfWork) -> Iterator[None]:
    """Use cases called inside this block work in ``uow``."""
    token = _keyed.set(uow)
    try:
        yield
    finally:
        _keyed.reset(token)


class Units:
    """The partners service's units of work, handed to every handler: ``transaction()`` opens
    one of the runtime's (inside ``joined``: works in the keyed request's), or, joining a
    consumer's (``joining``), works in the one the runtime began for the event."""

    def __init__(self, runtime: ServiceRuntime, begun: UnitOfWork | None = None) -> None:
        self.runtime = runtime
        self._begun = begun

    def transaction(self) -> contextlib.AbstractAsyncContextManager[PartnersUnitOfWork]:
        if self._begun is not None:
            return _given(self._begun)
        return unit_of_work(self.runtime)

    def joining(self, uow: UnitOfWork) -> Units:
        """These units with every ``transaction`` the runtime's ``uow`` (it commits or rolls back)."""
        return Units(self.runtime, uow)


@contextlib.asynccontextmanager
async def _given(uow: UnitOfWork) -> AsyncIterator[PartnersUnitOfWork]:
    yield PartnersUnitOfWork(uow)
