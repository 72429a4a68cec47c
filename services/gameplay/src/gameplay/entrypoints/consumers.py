"""Integration events the gameplay service consumes: thin translation to service-layer calls."""

from __future__ import annotations

from gomoku_shared.runtime import ServiceRuntime

from ..service_layer.commands import (
    ApplyDecision,
    ChangeEventAccess,
    CreatePlayoffGames,
    CreateRoundGames,
    RescheduleRound,
)
from ..service_layer.games import GameService

#: the event types this service consumes (docs/architecture.md, "Bus events")
CONSUMES = ["round.paired", "playoff.required", "result.decided", "round.rescheduled", "event.access_changed"]


def register(runtime: ServiceRuntime, games: GameService) -> None:
    """Attach the handlers of CONSUMES to ``runtime``, and the flag-fall / no-show scheduler."""

    @runtime.on("round.paired")
    async def on_round_paired(uow, env):
        await games.handle(CreateRoundGames(env.payload, env.occurred_at), uow)

    @runtime.on("playoff.required")
    async def on_playoff_required(uow, env):
        await games.handle(CreatePlayoffGames(env.payload, env.occurred_at), uow)

    @runtime.on("result.decided")
    async def on_result_decided(uow, env):
        await games.handle(ApplyDecision(env.payload), uow)

    @runtime.on("round.rescheduled")
    async def on_round_rescheduled(uow, env):
        await games.handle(RescheduleRound(env.payload), uow)

    @runtime.on("event.access_changed")
    async def on_event_access_changed(uow, env):
        # issue 29: who owns the event and which partner apps run its games
        await games.handle(ChangeEventAccess(env.payload), uow)

    @runtime.background
    async def flag_sweeper():
        await games.run_sweeper(runtime.stopping, runtime.working)
