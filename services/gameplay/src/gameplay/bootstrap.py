"""Composition root of the gameplay service: build(settings, bus=None, clock=None) -> Service."""

from __future__ import annotations

from gomoku_shared import idempotency
from gomoku_shared.auth import KeyRing
from gomoku_shared.clock import Clock
from gomoku_shared.messaging.bus import EventBus
from gomoku_shared.service import Service, runtime_for
from gomoku_shared.settings import ServiceSettings

from .adapters.move_writer import PgMoveWriter
from .adapters.orm import idempotency_keys, metadata
from .config import GameplayConfig
from .entrypoints import consumers
from .entrypoints.api import create_api
from .service_layer.games import GameService
from .service_layer.metrics import instrument_games

NAME = "gameplay"


def build(
    settings: ServiceSettings,
    *,
    bus: EventBus | None = None,
    clock: Clock | None = None,
    config: GameplayConfig | None = None,
) -> Service:
    """The service from its settings (``config``: the gameplay settings, when not the settings' own)."""
    runtime = runtime_for(NAME, settings, metadata, bus=bus, clock=clock)
    config = config or GameplayConfig.from_settings(settings)
    writer = None
    if runtime.database_url.startswith("postgresql") and config.move_writers > 0:
        writer = PgMoveWriter.for_database(
            runtime.database_url,
            flushers=config.move_writers,
            linger_s=config.move_linger_ms / 1000,
        )
        runtime.on_stop(writer.close)
    games = GameService(runtime, writer, idempotency.for_runtime(runtime, idempotency_keys), config)
    runtime.on_stop(games.feed.close)
    consumers.register(runtime, games)
    app = create_api(runtime, KeyRing(settings.api_keys), games)
    if writer is not None:
        writer.instrument(app.state.metrics_registry)
    instrument_games(app, games)
    return Service(NAME, runtime, app, extras={"games": games})
