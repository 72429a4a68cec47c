"""Composition root of the awards service: build(settings, bus=None, clock=None) -> Service."""

from __future__ import annotations

from gomoku_shared.auth import KeyRing
from gomoku_shared.clock import Clock
from gomoku_shared.event_access import EventAccessDirectory
from gomoku_shared.messaging.bus import EventBus
from gomoku_shared.service import Service, runtime_for
from gomoku_shared.settings import ServiceSettings

from .adapters.orm import event_access, metadata
from .config import AwardsSettings
from .entrypoints import consumers
from .entrypoints.api import create_api

NAME = "awards"


def build(settings: ServiceSettings, *, bus: EventBus | None = None, clock: Clock | None = None) -> Service:
    config = AwardsSettings.from_shared(settings)
    runtime = runtime_for(NAME, config, metadata, bus=bus, clock=clock)
    # issue 29: who owns each event, for the staff's per-event authorisation
    access = EventAccessDirectory.on_table(runtime.sessionmaker, event_access)
    consumers.register(runtime, access)
    app = create_api(runtime, KeyRing(config.api_keys), access)
    return Service(NAME, runtime, app)
