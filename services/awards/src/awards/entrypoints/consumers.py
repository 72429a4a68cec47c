"""Integration events the awards service consumes: thin translation to service-layer commands."""

from __future__ import annotations

from typing import Any

from gomoku_shared.contracts import Envelope
from gomoku_shared.event_access import EventAccessDirectory
from gomoku_shared.runtime import ServiceRuntime, UnitOfWork

from ..service_layer.commands import ChangeEventAccess, CompleteSection, ConfigureEvent, MergePeople, SplitPeople
from ..service_layer.handlers import handle
from ..service_layer.unit_of_work import SqlAwardsUnitOfWork

#: the event types this service consumes (docs/architecture.md, "Bus events")
CONSUMES = ["section.completed", "event.configured", "event.access_changed", "people.merged", "people.split"]


def register(runtime: ServiceRuntime, access: EventAccessDirectory | None = None) -> None:
    """Attach the handlers of CONSUMES to ``runtime`` (``access``: the directory the API
    authorises staff with, told to read an event's owner again once it changed)."""

    @runtime.on("event.access_changed")
    async def on_event_access_changed(uow: UnitOfWork, env: Envelope[Any]) -> None:
        # issue 29: who owns the event, for the staff's per-event authorisation
        await handle(ChangeEventAccess(env.payload), SqlAwardsUnitOfWork(uow))
        if access is not None:
            access.forget(env.payload.event_code)

    @runtime.on("event.configured")
    async def on_event_configured(uow: UnitOfWork, env: Envelope[Any]) -> None:
        await handle(ConfigureEvent(env.payload), SqlAwardsUnitOfWork(uow))

    @runtime.on("section.completed")
    async def on_section_completed(uow: UnitOfWork, env: Envelope[Any]) -> None:
        await handle(CompleteSection(env.payload), SqlAwardsUnitOfWork(uow))

    @runtime.on("people.merged")
    async def on_people_merged(uow: UnitOfWork, env: Envelope[Any]) -> None:
        # issue 32: the registry merged people: their grants and games are the kept person's
        await handle(MergePeople(env.payload), SqlAwardsUnitOfWork(uow))

    @runtime.on("people.split")
    async def on_people_split(uow: UnitOfWork, env: Envelope[Any]) -> None:
        # issue 32: a merge undone or an event person split out: their records move back
        await handle(SplitPeople(env.payload), SqlAwardsUnitOfWork(uow))
