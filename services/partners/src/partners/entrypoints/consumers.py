"""Integration events the partners service consumes: each becomes webhook deliveries, except
``event.access_changed``, which says who owns each event (staff roles on an event are granted
by its organisation only)."""

from __future__ import annotations

from typing import Any

from gomoku_shared.contracts import Envelope
from gomoku_shared.contracts.access_events import EventAccessChanged
from gomoku_shared.runtime import ServiceRuntime, UnitOfWork
from gomoku_shared.topology import CONSUMES as TOPOLOGY

from ..service_layer.ambient import Units
from ..service_layer.commands import DeliverEvent, RecordEventAccess
from ..service_layer.handlers import Services, handle

#: the event types this service consumes: its queue's in the topology (docs/architecture.md, "Bus events"), those
#: partners can subscribe to, and playoff.required (who plays the playoff games); entry.accepted /
#: entry.refused are the ``entry.decided`` webhook
CONSUMES = TOPOLOGY["partners"]
ACCESS_CHANGED = EventAccessChanged.TYPE


def register(runtime: ServiceRuntime, units: Units, services: Services) -> None:
    """Attach the handlers of CONSUMES to ``runtime``: each runs its command in the runtime's unit
    of work (with the inbox row)."""

    @runtime.on(*(t for t in CONSUMES if t != ACCESS_CHANGED))
    async def on_event(uow: UnitOfWork, env: Envelope[Any]) -> None:
        await handle(DeliverEvent(env), units.joining(uow), services)

    @runtime.on(ACCESS_CHANGED)
    async def on_access_changed(uow: UnitOfWork, env: Envelope[EventAccessChanged]) -> None:
        change = env.payload
        command = RecordEventAccess(change.event_code, change.organisation, change.partners, change.changed_at)
        await handle(command, units.joining(uow), services)
