"""Integration events the awards service consumes: thin translation to service-layer calls."""

from __future__ import annotations

from typing import Any

from gomoku_shared.contracts import Envelope
from gomoku_shared.event_access import EventAccessDirectory, EventAccessStore
from gomoku_shared.runtime import ServiceRuntime, UnitOfWork

from ..service_layer import handlers, registry_changes, season

#: the event types this service consumes (docs/architecture.md, "Bus events")
CONSUMES = ["section.completed", "event.configured", "event.access_changed", "people.merged", "people.split"]


def register(runtime: ServiceRuntime, store: EventAccessStore, access: EventAccessDirectory | None = None) -> None:
    """Attach the handlers of CONSUMES to ``runtime`` (``store``: event owners on the service's
    table; ``access``: the directory the API authorises staff with, told to read an event's
    owner again once it changed)."""

    @runtime.on("event.access_changed")
    async def on_event_access_changed(uow: UnitOfWork, env: Envelope[Any]) -> None:
        # issue 29: who owns the event, for the staff's per-event authorisation
        change = env.payload
        if await store.record(uow.session, change.event_code, change.organisation, change.partners, change.changed_at):
            # issue 32: titles and games belong to the event's owner, whenever that is learnt
            await season.on_owner_changed(uow, change.event_code)
        if access is not None:
            access.forget(change.event_code)

    @runtime.on("event.configured")
    async def on_event_configured(uow: UnitOfWork, env: Envelope[Any]) -> None:
        await handlers.event_configured(uow, env.payload)

    @runtime.on("section.completed")
    async def on_section_completed(uow: UnitOfWork, env: Envelope[Any]) -> None:
        await handlers.section_completed(uow, env.payload)

    @runtime.on("people.merged")
    async def on_people_merged(uow: UnitOfWork, env: Envelope[Any]) -> None:
        # issue 32: the registry merged people: their grants and games are the kept person's
        await registry_changes.people_merged(uow, env.payload)

    @runtime.on("people.split")
    async def on_people_split(uow: UnitOfWork, env: Envelope[Any]) -> None:
        # issue 32: a merge undone or an event person split out: their records move back
        await registry_changes.people_split(uow, env.payload)
