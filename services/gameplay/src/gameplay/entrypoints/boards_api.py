"""The boards of a round in one read (the public board wall): every game as a small board with
its clocks, tagged for conditional reads (``conditional.py``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel

from gomoku_shared.api_docs import View
from gomoku_shared.auth import Reader
from gomoku_shared.pagination import PageIn, paged, sort_by
from gomoku_shared.params import PathId, RoundNo

from ..service_layer.games import GameService
from . import conditional


class BoardStone(BaseModel):
    point: str
    colour: Literal["black", "white"]


class BoardClocks(View):
    """The times left as of the answer (the running side's counts down from there)."""

    black_ms: int
    white_ms: int
    running: Literal["black", "white"] | None


class BoardView(View):
    """One game of the round as a small board."""

    game_id: str
    event_code: str
    stage: str
    section_id: str
    round: int
    pairing_id: str
    game_no: int
    black: str
    white: str
    status: Literal["waiting", "active", "finished"]
    mode: Literal["online", "offline"] = "online"
    phase: str
    to_act: str | None
    seq: int
    result: Literal["black", "white", "draw", "double_forfeit"] | None
    reason: str | None
    starts_at: datetime | None = None
    #: the moves in the order they were played; the stones on the board now
    moves: list[str]
    board: list[BoardStone]
    #: black's forbidden points while black is to place a stone (professional rules)
    forbidden: dict[str, Any]
    #: the professional opening's state (the fifth-move offers), null under free rules
    opening: dict[str, Any] | None
    clocks: BoardClocks
    winner: str | None
    outcome: dict[str, int] | None
    playoff_id: str | None


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
        offered = conditional.offered(request)
        if offered is not None:
            listed = await games.round_versions(event_code, section_id, round)
            # a running clock changes its board with time alone: such a round is read in full
            if not any(ticking for _, _, ticking in listed):
                shown = [(game_id, version) for game_id, version, _ in listed]
                unchanged = conditional.not_modified(offered, conditional.etag("boards", asked, shown))
                if unchanged is not None:
                    return unchanged
        boards, listed, now = await games.round_boards(event_code, section_id, round)
        shown = [(game_id, version) for game_id, version, _ in listed]
        if any(ticking for _, _, ticking in listed):
            shown.append(("now", now))
        answer = paged({"games": boards}, "games", sort_by("game_id"), page)
        return JSONResponse(answer, headers={"etag": conditional.etag("boards", asked, shown)})

    return router
