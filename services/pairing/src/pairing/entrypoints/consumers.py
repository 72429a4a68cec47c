"""Integration events the pairing service consumes: thin translation to service-layer calls."""

from __future__ import annotations

from typing import Any

from gomoku_shared.contracts import Envelope
from gomoku_shared.runtime import ServiceRuntime, UnitOfWork

from ..service_layer import lifecycle
from ..service_layer.pool import Pairer
from ..service_layer.unit_of_work import PairingUnitOfWork

#: the event types this service consumes (ARCHITECTURE §1)
CONSUMES = ["section.closed", "game.finished"]


def register(runtime: ServiceRuntime, pairer: Pairer | None = None) -> None:
    """Attach the handlers of CONSUMES to ``runtime``."""
    pairer = pairer or Pairer()

    @runtime.on("section.closed")
    async def on_section_closed(uow: UnitOfWork, env: Envelope[Any]) -> None:
        await lifecycle.open_tournament(PairingUnitOfWork(uow), env.payload, pairer)

    @runtime.on("game.finished")
    async def on_game_finished(uow: UnitOfWork, env: Envelope[Any]) -> None:
        await lifecycle.game_finished(PairingUnitOfWork(uow), env.payload, pairer)
