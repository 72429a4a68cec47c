"""Composition root of the pairing service: build(settings, bus=None, clock=None) -> Service."""

from __future__ import annotations

from gomoku_shared import idempotency
from gomoku_shared.auth import KeyRing
from gomoku_shared.clock import Clock
from gomoku_shared.event_access import EventAccessDirectory, EventAccessStore
from gomoku_shared.messaging.bus import EventBus
from gomoku_shared.metrics import expose_tally
from gomoku_shared.service import Service, runtime_for
from gomoku_shared.settings import ServiceSettings

from .adapters.orm import event_access, idempotency_keys, metadata
from .config import PairingSettings
from .entrypoints import appeal_routes, consumers
from .entrypoints.api import create_api
from .service_layer.pool import Pairer

NAME = "pairing"


def build(settings: ServiceSettings, *, bus: EventBus | None = None, clock: Clock | None = None) -> Service:
    config = PairingSettings.from_shared(settings)
    runtime = runtime_for(NAME, config, metadata, bus=bus, clock=clock)
    pairer = Pairer(config.pairing_workers)  # 0: pair in-process
    # issue 29: who owns each event, for the staff's per-event authorisation
    access = EventAccessDirectory.on_table(runtime.sessionmaker, event_access)
    consumers.register(runtime, pairer, EventAccessStore(event_access), access)

    @runtime.background
    async def pool_owner() -> None:
        # lives as long as the service: shuts the worker pool down when the runtime stops
        try:
            await runtime.stopping.wait()
        finally:
            pairer.close()

    app = create_api(
        runtime, KeyRing(config.api_keys), pairer, access, idempotency.for_runtime(runtime, idempotency_keys)
    )
    app.include_router(appeal_routes.router)  # AWD-10
    # a round's pairing time: rate(gomoku_pairing_rounds_seconds_total) / rate(gomoku_pairing_rounds_total)
    expose_tally(
        app,
        pairer.timings,
        "gomoku_pairing_rounds",
        "Rounds paired",
        NAME,
        ["where"],
        from_zero=(("pool" if config.pairing_workers else "in_process",),),
    )
    return Service(NAME, runtime, app, extras={"pairer": pairer})
