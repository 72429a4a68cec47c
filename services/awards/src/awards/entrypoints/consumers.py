"""Integration events the awards service consumes: thin translation to service-layer calls."""
from __future__ import annotations

from gomoku_shared.runtime import ServiceRuntime

#: the event types this service consumes (ARCHITECTURE §1)
CONSUMES = ['section.completed', 'event.configured']


def register(runtime: ServiceRuntime) -> None:
    """Attach the handlers of CONSUMES to ``runtime`` (filled in by the service layer)."""
