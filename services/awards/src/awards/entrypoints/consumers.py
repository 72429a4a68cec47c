"""Integration events the awards service consumes: thin translation to service-layer calls."""

from __future__ import annotations

from typing import Any

from gomoku_shared.contracts import Envelope
from gomoku_shared.runtime import ServiceRuntime, UnitOfWork

from ..service_layer import handlers

#: the event types this service consumes (ARCHITECTURE §1)
CONSUMES = ["section.completed", "event.configured"]


def register(runtime: ServiceRuntime) -> None:
    """Attach the handlers of CONSUMES to ``runtime``."""

    @runtime.on("event.configured")
    async def on_event_configured(uow: UnitOfWork, env: Envelope[Any]) -> None:
        await handlers.event_configured(uow, env.payload)

    @runtime.on("section.completed")
    async def on_section_completed(uow: UnitOfWork, env: Envelope[Any]) -> None:
        await handlers.section_completed(uow, env.payload)
