"""Integration events the pairing service consumes: thin translation to service-layer calls."""

from __future__ import annotations

from typing import Any

from gomoku_shared.contracts import Envelope
from gomoku_shared.event_access import EventAccessDirectory, EventAccessStore
from gomoku_shared.runtime import ServiceRuntime, UnitOfWork

from ..service_layer import handlers
from ..service_layer.commands import OpenSection, RecordGame
from ..service_layer.pool import Pairer
from ..service_layer.unit_of_work import SqlPairingUnitOfWork

#: the event types this service consumes (docs/architecture.md, "Bus events")
CONSUMES = ["section.closed", "game.finished", "event.access_changed"]


def register(
    runtime: ServiceRuntime, pairer: Pairer, store: EventAccessStore, access: EventAccessDirectory | None = None
) -> None:
    """Attach the handlers of CONSUMES to ``runtime`` (``store``: event owners on the service's
    table; ``access``: the directory the API authorises staff with, told to read an event's
    owner again once it changed)."""

    @runtime.on("event.access_changed")
    async def on_event_access_changed(uow: UnitOfWork, env: Envelope[Any]) -> None:
        # issue 29: who owns the event, for the staff's per-event authorisation
        change = env.payload
        await store.record(uow.session, change.event_code, change.organisation, change.partners, change.changed_at)
        if access is not None:
            access.forget(change.event_code)

    @runtime.on("section.closed")
    async def on_section_closed(uow: UnitOfWork, env: Envelope[Any]) -> None:
        await handlers.handle(OpenSection(env.payload), SqlPairingUnitOfWork(uow), pairer)

    @runtime.on("game.finished")
    async def on_game_finished(uow: UnitOfWork, env: Envelope[Any]) -> None:
        await handlers.handle(RecordGame(env.payload), SqlPairingUnitOfWork(uow), pairer)
