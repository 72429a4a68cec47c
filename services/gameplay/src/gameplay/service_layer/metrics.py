"""Gameplay's business metrics: games in play (sampled at scrape) and accepted player actions
(moves per second is ``rate(gomoku_game_actions_total{kind="move"}[1m])``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from prometheus_client import Gauge

from gomoku_shared.metrics import add_sampler, expose_tally

if TYPE_CHECKING:
    from fastapi import FastAPI

    from .games import GameService

#: the statuses of a game not yet finished
LIVE_STATUSES = ("waiting", "active")


def instrument_games(app: FastAPI, games: GameService) -> None:
    expose_tally(
        app,
        games.jobs.actions.accepted,
        "gomoku_game_actions",
        "Player actions accepted",
        "gameplay",
        ["kind"],
        from_zero=(("move",),),
    )
    live = Gauge(
        "gomoku_games", "Games not finished, by status", ["service", "status"], registry=app.state.metrics_registry
    )
    for status in LIVE_STATUSES:
        live.labels("gameplay", status).set(0)

    async def sample() -> None:
        async with games.units.transaction(correlation_id="metrics") as uow:
            counts = await uow.games.unfinished_by_status()
        for status in LIVE_STATUSES:
            live.labels("gameplay", status).set(counts.get(status, 0))

    add_sampler(app, sample)
