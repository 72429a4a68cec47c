"""The boards of a round in one read (the public board wall): every game as a small board with
its clocks, tagged for conditional reads (``conditional.py``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from gomoku_shared.api_docs import View
from gomoku_shared.auth import Reader
from gomoku_shared.pagination import PageIn, paged, sort_by
from gomoku_shared.params import PathId, RoundNo

from ..service_layer.games import GameService
from . import conditional
from .game_schemas import Clocks, GameSummary, Stone


class BoardStone(Stone):
    pass


class BoardClocks(Clocks):
    """The times left as of the answer (the running side's counts down from there)."""


class BoardView(GameSummary, View):
    """One game of the round as a small board: its summary, its stones and its clocks."""

    #: the moves in the order they were played; the stones on the board now
    moves: list[str]
    board: list[BoardStone]
    #: black's forbidden points while black is to place a stone (professional rules)
    forbidden: dict[str, Any]
    #: the professional opening's state (the fifth-move offers), null under free rules
    opening: dict[str, Any] | None
    clocks: BoardClocks


class RoundBoardPage(View):
    """A page of a round's boards (game_id order): ``next_cursor`` continues it, null on the last."""

    games: list[BoardView]
    next_cursor: str | None = None


def routes(games: GameService) -> APIRouter:
    router = APIRouter(prefix="/v1", tags=["games"])

    @router.get(
        "/rounds/{event_code}/{section_id}/{round}/boards",
        response_model=RoundBoardPage,
        summary="Every game of one round as a board with its clocks, in one read (cursor pagination, game_id order)",
        description="The answer has an ETag: 304 to If-None-Match while no game of the round changed "
        "and no clock of it runs (a running clock changes its board with time alone).",
        responses={304: {"description": "No game of the round changed and none is being played"}},
    )
    async def round_boards(
        request: Request, event_code: PathId, section_id: PathId, round: RoundNo, _principal: Reader, page: PageIn
    ) -> Response:
        asked = (event_code, section_id, round, page.limit, page.cursor)
        # a running clock changes its board with time alone: such a round is read in full
        unchanged = await conditional.round_unchanged(request, games, "boards", asked, full_while_ticking=True)
        if unchanged is not None:
            return unchanged
        boards, listed, now = await games.views.round_boards(event_code, section_id, round)
        answer = paged({"games": boards}, "games", sort_by("game_id"), page)
        return JSONResponse(answer, headers={"etag": conditional.round_etag("boards", asked, listed, now)})

    return router
