"""Integration events the pairing service consumes: thin translation to service-layer calls."""

from __future__ import annotations

from gomoku_shared.runtime import ServiceRuntime

from ..service_layer import handlers
from ..service_layer.pool import Pairer

#: the event types this service consumes (ARCHITECTURE §1)
CONSUMES = ["section.closed", "game.finished"]


def register(runtime: ServiceRuntime, pairer: Pairer | None = None) -> None:
    """Attach the handlers of CONSUMES to ``runtime``."""
    pairer = pairer or Pairer()

    @runtime.on("section.closed")
    async def on_section_closed(uow, env):
        await handlers.open_tournament(uow, env.payload, pairer)

    @runtime.on("game.finished")
    async def on_game_finished(uow, env):
        await handlers.game_finished(uow, env.payload, pairer)
