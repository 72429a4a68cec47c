"""HTTP API of the gameplay service: partner platforms relay their players' actions; the server
judges moves, openings, forbidden points and time (PLAY-1..PLAY-7); records (PLAY-8)."""

from __future__ import annotations

import keyword
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel, Field
from starlette.middleware import Middleware

from gomoku_shared.api_docs import View, documented, text_too
from gomoku_shared.auth import AnyPrincipal, KeyRing, Operator, Reader
from gomoku_shared.errors import Unprocessable, error_body
from gomoku_shared.idempotency import REPLAYED_HEADER, IdemKey, KeyedRequest, fingerprint, principal_id
from gomoku_shared.pagination import PageIn, paged, sort_by
from gomoku_shared.params import ROUND_MAX, PathId, RoundNo
from gomoku_shared.runtime import ServiceRuntime
from gomoku_shared.service import service_app
from gomoku_shared.text import Prose
from gomoku_shared.web import add_front

from ..domain.errors import GameRefusal
from ..service_layer.commands import Act, StaffAct, Sweep
from ..service_layer.games import GameService
from ..service_layer.refusals import as_service_error
from . import boards_api, conditional, early_start_api, event_stream, over_the_board_api, pagination, stream
from .event_stream import partner_scope
from .fast_actions import PlayerActionLane, Route
from .game_schemas import Clocks, GameSummary, Stone
from .lane_front import LaneFront
from .staff_access import decided_by, staff_on_game

PlayerId = Field(min_length=1, max_length=120)
Point = Field(min_length=2, max_length=3, pattern=r"^[a-oA-O](1[0-5]|[1-9])$")


class GameList(BaseModel):
    games: list[GameSummary]


class GamePage(GameList):
    #: the cursor of the next page; null on the last
    next_cursor: str | None


class RoundGamePage(GameList):
    """A page of a round's games (game_id order): ``next_cursor`` continues it, null on the last."""

    next_cursor: str | None = None


class GameView(GameSummary, View):
    """One game as of now (``GET /v1/games/{game_id}``)."""

    rules: dict[str, Any]
    moves: list[str]
    board: list[Stone]
    legal_actions: list[str]
    forbidden: dict[str, Any]
    clocks: Clocks
    joined: dict[str, bool]
    draw_offer_by: str | None


class RecordMove(View):
    ply: int
    colour: Literal["black", "white"]
    move: str
    player: str | None
    at: datetime


class GameRecordView(View):
    """The game record (PLAY-8) as JSON."""

    schema_: str = Field(alias="schema")
    moves: list[RecordMove]
    players: dict[str, str]
    meta: dict[str, Any]


class SweepCounts(View):
    flags: int
    no_shows: int
    double_forfeits: int


class PlayerBody(BaseModel):
    player_id: str = PlayerId


class OpeningBody(PlayerBody):
    stones: list[Annotated[str, Field(max_length=3)]] = Field(min_length=3, max_length=3)
    n: int | None = Field(default=None, ge=1, le=50)


class SwapBody(PlayerBody):
    swap: bool


class MoveBody(PlayerBody):
    point: str = Point


class OffersBody(PlayerBody):
    points: list[Annotated[str, Field(max_length=3)]] = Field(min_length=1, max_length=50)


class DrawBody(PlayerBody):
    action: Literal["offer", "accept", "decline"]


class AdjudicateBody(BaseModel):
    result: Literal["black", "white", "draw"]
    reason: Prose = Field(min_length=1, max_length=500)


class AddTimeBody(PlayerBody):
    seconds: float = Field(ge=-86400, le=86400)


#: the player actions: route -> (body model, the (kind, data) handed to GameService.act);
#: served by the FastAPI routes below and, identically, by the lean lane (fast_actions.py)
ACTIONS: dict[str, Route] = {
    "join": (PlayerBody, lambda b: ("join", None)),
    "opening": (OpeningBody, lambda b: ("opening", {"stones": b.stones, "n": b.n})),
    "swap": (SwapBody, lambda b: ("swap", {"swap": b.swap})),
    "move": (MoveBody, lambda b: ("move", {"point": b.point.lower()})),
    "offers": (OffersBody, lambda b: ("offers", {"points": [x.lower() for x in b.points]})),
    "choose": (MoveBody, lambda b: ("choose", {"point": b.point.lower()})),
    "pass": (PlayerBody, lambda b: ("pass", None)),
    "resign": (PlayerBody, lambda b: ("resign", None)),
    "draw": (DrawBody, lambda b: ("draw", {"action": b.action})),
}


def _out(summary: dict[str, Any]) -> JSONResponse:
    """The body as plain JSON: the summaries are JSON-ready dicts, so FastAPI's generic encoder
    (a measurable share of a move's CPU time) is skipped."""
    return JSONResponse(_strip(summary), headers={REPLAYED_HEADER: "true"} if summary.get("_replayed") else None)


def keyed_action(principal, game_id: str, name: str, body: BaseModel, key: str | None) -> KeyedRequest | None:
    """The Idempotency-Key of a player action bound to its request (route, game and body);
    the FastAPI routes and the lean lane compute it alike."""
    if key is None:
        return None
    return KeyedRequest(
        principal_id(principal), key, fingerprint("POST", f"/v1/games/{game_id}/{name}", body.model_dump(mode="json"))
    )


def _strip(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if not k.startswith("_")}


def create_api(
    runtime: ServiceRuntime,
    keyring: KeyRing,
    games: GameService | None = None,
    *,
    fast_lane: bool = True,
    front: bool = True,
) -> FastAPI:
    """``fast_lane``: player actions served by the lean lane (fast_actions.py), not the routes;
    ``front``: the lane also in front of the whole middleware stack (lane_front.py)."""
    games = games or GameService(runtime)
    app = service_app(
        runtime,
        keyring,
        title="Gomoku gameplay service",
        description="Server-judged online games: moves, openings, forbidden points, authoritative clocks, live streams, records.\n"
        + stream.DESCRIPTION,
    )
    app.state.games = games
    # issue 29: who owns each event and which partner apps it chose (require(..., action=) reads it)
    app.state.event_access = games.access

    @app.exception_handler(GameRefusal)
    async def refused(_request: Request, refusal: GameRefusal) -> JSONResponse:
        """A game rule's refusal: 409, 422 or 403 with the error body of every service."""
        error = as_service_error(refusal)
        return JSONResponse(error_body(error.code, error.message, error.details), status_code=error.status)

    app.include_router(_read_routes(games))
    app.include_router(_action_routes(games))
    app.include_router(_record_routes(games))
    app.include_router(_staff_routes(games))
    app.include_router(over_the_board_api.routes(games))
    app.include_router(early_start_api.routes(games))
    app.include_router(boards_api.routes(games))
    stream.install(app, games)
    event_stream.install(app, games)
    if fast_lane:
        lane: dict[str, Any] = {
            "games": games,
            "keyring": keyring,
            "routes": ACTIONS,
            "strip": _strip,
            "keyed": keyed_action,
        }
        # innermost user middleware: inside the correlation id / metrics layer (while tracing is on)
        app.user_middleware.append(Middleware(PlayerActionLane, **lane))
        if front:  # and in front of the whole stack, doing its layers' work in one pass (lane_front.py)
            add_front(
                app, lambda stack, observability: LaneFront(stack, PlayerActionLane(stack, **lane), observability)
            )
    return app


async def _act(
    games: GameService, game_id: str, principal: Any, name: str, body: PlayerBody, key: str | None
) -> JSONResponse:
    kind, data = ACTIONS[name][1](body)
    keyed = keyed_action(principal, game_id, name, body, key)
    return _out(await games.handle(Act(game_id, principal, body.player_id, kind, data, keyed)))


def _read_routes(games: GameService) -> APIRouter:
    """Lists and the view of one game."""
    router = APIRouter(prefix="/v1", tags=["games"])

    @router.get(
        "/games",
        response_model=GamePage,
        summary="List games, by player, event, section, round and status (cursor pagination, game_id order)",
        description="A partner sees only the games of its own players (an empty list otherwise). "
        "`event_code` and `section_id` are the older names of `event` and `section`. "
        "The answer has an ETag: 304 to If-None-Match while none of its games changed.",
        responses={304: {"description": "None of the page's games changed since the ETag sent"}},
    )
    async def list_games(
        request: Request,
        principal: Reader,
        player: str | None = Query(None, min_length=1, max_length=120, description="an entrant id: its games"),
        event: str | None = Query(None, max_length=64),
        section: str | None = Query(None, max_length=64),
        event_code: str | None = Query(None, max_length=64),
        section_id: str | None = Query(None, max_length=64),
        round: int | None = Query(None, ge=0, le=ROUND_MAX),
        status: Literal["waiting", "active", "finished", "all"] = Query(
            "all", description="active: not finished yet (waiting ones too)"
        ),
        limit: int = Query(50, ge=1, le=200),
        cursor: str | None = Query(
            None, max_length=300, pattern=r"^[A-Za-z0-9_-]+$", description="`next_cursor` of the page before"
        ),
    ) -> Response:
        filters = {
            "event_code": event if event is not None else event_code,
            "section_id": section if section is not None else section_id,
            "round": round,
            "player": player,
            "status": status,
        }
        scope, after = partner_scope(principal), pagination.after(cursor)
        asked = (*sorted(filters.items(), key=str), scope, cursor, limit)
        offered = conditional.offered(request)
        if offered is not None:
            versions = await games.views.page_versions(filters, scope, after, limit)
            shown = (*versions[:limit], ("more", int(len(versions) > limit)))
            unchanged = conditional.not_modified(offered, conditional.etag("games", asked, shown))
            if unchanged is not None:
                return unchanged
        listed, last = await games.views.page(filters, scope, after, limit)
        shown = (*((game["game_id"], game["_version"]) for game in listed), ("more", int(last is not None)))
        return JSONResponse(
            {"games": [_strip(game) for game in listed], "next_cursor": pagination.cursor_of(last)},
            headers={"etag": conditional.etag("games", asked, shown)},
        )

    @router.get(
        "/games/{game_id}",
        summary="One game as of now: board, turn, legal actions, forbidden points, clocks",
        **documented(GameView),
    )
    async def get_game(game_id: PathId, _principal: Reader) -> JSONResponse:
        return JSONResponse(await games.views.view(game_id))

    return router


#: the summary of each player action's route, in the order the routes are listed
ACTION_SUMMARIES = {
    "join": "Presence: both joined starts the clock (PLAY-7)",
    "opening": "Professional rules: moves 1-3 and N (PLAY-2 step 1)",
    "swap": "Swap after three: the other player takes black (true) or stays white (PLAY-2 step 2)",
    "move": "Place a stone (moves 4, 6 and on; every move under free rules)",
    "offers": "Black offers N fifth moves (PLAY-2 step 4)",
    "choose": "White chooses one offer as move 5 (PLAY-2 step 5)",
    "pass": "Pass (two in succession: a draw, PLAY-4)",
    "resign": "Resign",
    "draw": "Offer, accept or decline a draw",
}


def _action_routes(games: GameService) -> APIRouter:
    """The player actions, one route each from ACTIONS (the lean lane serves the same requests,
    fast_actions.py)."""
    router = APIRouter(prefix="/v1", tags=["games"])
    for name, summary in ACTION_SUMMARIES.items():
        router.add_api_route(
            f"/games/{{game_id}}/{name}",
            _action_endpoint(games, name),
            methods=["POST"],
            # "pass" is a keyword: its route was always named pass_ (the operation id keeps it)
            name=f"{name}_" if keyword.iskeyword(name) else name,
            response_model=GameSummary,
            summary=summary,
        )
    return router


def _action_endpoint(games: GameService, name: str) -> Callable[..., Awaitable[JSONResponse]]:
    async def endpoint(
        game_id: PathId, body: PlayerBody, principal: AnyPrincipal, key: str | None = IdemKey
    ) -> JSONResponse:
        return await _act(games, game_id, principal, name, body, key)

    # the body model of this action (FastAPI reads the annotation to validate and document it)
    endpoint.__annotations__ = {**endpoint.__annotations__, "body": ACTIONS[name][0]}
    return endpoint


def _record_routes(games: GameService) -> APIRouter:
    """Game records (PLAY-8) and the games of a round."""
    router = APIRouter(prefix="/v1", tags=["games"])

    @router.get(
        "/games/{game_id}/record",
        summary="Game record (PLAY-8): json, notation or psq",
        response_model=None,
        responses={200: {"model": GameRecordView, **text_too("text/plain")[200]}},
    )
    async def record(game_id: PathId, _principal: Reader, format: Literal["json", "notation", "psq"] = "json"):
        rec = await games.views.export(game_id)
        if format == "json":
            return JSONResponse(rec)
        moves = [m["move"] for m in rec["moves"]]
        if format == "notation":
            return PlainTextResponse(" ".join(moves) + "\n")
        from ..engine import GameRecord

        try:
            return PlainTextResponse(GameRecord.from_dict(rec).to_psq())
        except ValueError as exc:
            raise Unprocessable("psq_unsupported", str(exc)) from None

    @router.get(
        "/rounds/{event_code}/{section_id}/{round}/games",
        response_model=RoundGamePage,
        summary="The games of one round (cursor pagination, game_id order; ETag: 304 to If-None-Match "
        "while none of them changed)",
        responses={304: {"description": "No game of the round changed since the ETag sent"}},
    )
    async def round_games(
        request: Request, event_code: PathId, section_id: PathId, round: RoundNo, _principal: Reader, page: PageIn
    ) -> Response:
        asked = (event_code, section_id, round, page.limit, page.cursor)
        unchanged = await conditional.round_unchanged(request, games, "round", asked)
        if unchanged is not None:
            return unchanged
        listed = await games.views.list_games(event_code, section_id, round, "all")
        versions = [(game["game_id"], game["_version"], False) for game in listed]
        answer = paged({"games": [_strip(game) for game in listed]}, "games", sort_by("game_id"), page)
        return JSONResponse(answer, headers={"etag": conditional.round_etag("round", asked, versions)})

    return router


def _staff_routes(games: GameService) -> APIRouter:
    """The arbiter's and the operator's actions."""
    staff = APIRouter(prefix="/v1", tags=["arbiter"])

    # issue 29: adjudications and clock corrections are games.adjudicate in the game's event
    StaffDep = staff_on_game("games.adjudicate")

    @staff.post(
        "/games/{game_id}/adjudicate",
        response_model=GameSummary,
        summary="Arbiter decision with a recorded reason (PLAY-4)",
    )
    async def adjudicate_(game_id: PathId, body: AdjudicateBody, principal=StaffDep) -> JSONResponse:
        decision = {"result": body.result, "reason": body.reason}
        return _out(await games.handle(StaffAct(game_id, "adjudicate", decision, decided_by(principal))))

    @staff.post(
        "/games/{game_id}/add-time",
        response_model=GameSummary,
        summary="Arbiter: add (or deduct) time on a player's clock",
    )
    async def add_time(game_id: PathId, body: AddTimeBody, principal=StaffDep) -> JSONResponse:
        if body.seconds == 0:
            raise Unprocessable("bad_amount", "add a non-zero number of seconds")
        correction = {"player_id": body.player_id, "seconds": body.seconds}
        return _out(await games.handle(StaffAct(game_id, "add_time", correction, decided_by(principal))))

    @staff.post(
        "/ops/sweep",
        tags=["ops"],
        summary="Run the flag-fall / no-show check now (PLAY-5, PLAY-7)",
        response_model=SweepCounts,
    )
    async def sweep(_principal: Operator) -> dict:
        total = {"flags": 0, "no_shows": 0, "double_forfeits": 0}
        while True:
            counts = await games.handle(Sweep())
            for counter, count in counts.items():
                total[counter] += count
            if not sum(counts.values()):
                return total

    return staff
