"""HTTP routes of EVT-7's exception over the board: an arbiter lets one game be played before
its round's scheduled start (a game played early by agreement), with the reason, audited. Staff
only: the live recorder's secret is no API key, so a recorder never records one."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from gomoku_shared.api_docs import View, documented
from gomoku_shared.idempotency import principal_id
from gomoku_shared.params import PathId
from gomoku_shared.text import Prose

from ..service_layer.commands import AllowEarly
from ..service_layer.games import GameService
from .staff_access import person, staff_on_game


class EarlyStartBody(BaseModel):
    """Why this game is played before its round's scheduled start (e.g. both players and the
    arbiter agreed to play it early)."""

    reason: Prose = Field(min_length=1, max_length=500)


class EarlyStartView(View):
    game_id: str
    reason: str
    #: the credential that allowed it (``role:partner:key``)
    allowed_by: str
    #: issue 29: the person's stable id (``acct:<account>``, or the API key's id)
    allowed_by_id: str
    #: the person's name (an API key's id for a key; null on exceptions recorded before issue 29)
    allowed_by_name: str | None = None
    allowed_at: str
    #: the scheduled start it was allowed before
    starts_at: str


class EarlyStartAnswer(View):
    game_id: str
    #: the game's scheduled start (null: none)
    starts_at: str | None
    #: the arbiter's exception to it, or null
    exception: EarlyStartView | None


def routes(games: GameService) -> APIRouter:
    router = APIRouter(prefix="/v1", tags=["over the board"])
    boards = games.board_views

    @router.post(
        "/games/{game_id}/early-start",
        summary="Arbiter: let an over-the-board game progress before its round's start, with the reason (EVT-7)",
        description="Audited (who, when, why). The recorder's steps, result slips and records of the game are then "
        "accepted before the start; asked again, the first exception stands (200).",
        status_code=201,
        response_model=None,
        responses={
            201: {"model": EarlyStartView, "description": "recorded"},
            200: {"model": EarlyStartView, "description": "recorded earlier: the first exception stands"},
        },
    )
    async def allow_early(
        game_id: PathId, body: EarlyStartBody, principal=staff_on_game("games.adjudicate")
    ) -> JSONResponse:
        view, created = await games.handle(
            AllowEarly(game_id, principal_id(principal)[:64], body.reason, person(principal))
        )
        return JSONResponse(view, status_code=201 if created else 200)

    @router.get(
        "/games/{game_id}/early-start",
        summary="Staff: the game's scheduled start and the arbiter's exception to it (EVT-7; the audit)",
        **documented(EarlyStartAnswer),
    )
    async def early_start(game_id: PathId, _principal=staff_on_game("event.read")) -> JSONResponse:
        return JSONResponse(await boards.early_start(game_id))

    return router
