"""HTTP routes of over-the-board games (PLAY-9, PLAY-10): result slips (double entry), records
entered after the game and the arbiter's answer to a flagged one, the flags of an event (the
console), and the live recorder (a per-game secret an arbiter issues)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Path, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from gomoku_shared.api_docs import View, documented
from gomoku_shared.auth import Reader
from gomoku_shared.event_access import authorize_request
from gomoku_shared.idempotency import principal_id
from gomoku_shared.pagination import Paged, PageIn, paged, sort_by
from gomoku_shared.params import PathId
from gomoku_shared.text import Prose

from ..service_layer.commands import DecideRecord, EnterRecord, EnterSlip, IssueRecorder, RecordStep
from ..service_layer.games import GameService
from .staff_access import person, staff_on_event, staff_on_game

PointText = Annotated[str, Field(min_length=2, max_length=4, pattern=r"^([a-oA-O](1[0-5]|[1-9])|pass)$")]


class SlipBody(BaseModel):
    """One entry of a result slip. A confirmation names the slip it confirms (``confirms``) and
    repeats its result and reason; only then does the result count (PLAY-9)."""

    result: Literal["black", "white", "draw", "double_forfeit"]
    reason: Literal[
        "five", "forbidden", "time", "resignation", "no_show", "arbiter", "agreement", "passes", "full_board"
    ]
    note: Prose = Field(default="", max_length=500)
    confirms: int | None = Field(default=None, ge=1, le=1000)


class OpeningChoices(BaseModel):
    """Professional rules (PLAY-2): the declared N, the swap after move 3, black's fifth-move offers."""

    n: int | None = Field(default=None, ge=1, le=50)
    swapped: bool = False
    offers: list[PointText] = Field(default_factory=list, max_length=50)


class RecordBody(BaseModel):
    """A game record entered after the game: the stones in the order played (``h8``...)."""

    moves: list[PointText] = Field(min_length=1, max_length=225)
    opening: OpeningChoices | None = None


class DecideBody(BaseModel):
    note: Prose = Field(min_length=1, max_length=500)


class RecorderStep(BaseModel):
    """One step the recorder saw at the board (for the side to move)."""

    kind: Literal["opening", "swap", "move", "offers", "choose", "pass"]
    point: PointText | None = None
    stones: list[PointText] | None = Field(default=None, min_length=3, max_length=3)
    n: int | None = Field(default=None, ge=1, le=50)
    swap: bool | None = None
    points: list[PointText] | None = Field(default=None, min_length=1, max_length=50)
    #: the recorder's number of this step (1, 2 ...): a retried step changes nothing
    step: int | None = Field(default=None, ge=1, le=2000)


class SlipView(View):
    slip: int
    result: Literal["black", "white", "draw", "double_forfeit"]
    reason: str
    status: Literal["pending", "confirmed", "mismatch", "disputed"]
    confirms: int | None
    #: the credential that entered it (``role:partner:key``)
    entered_by: str
    #: issue 29: the person's stable id (``acct:<account>``, or the API key's id)
    entered_by_id: str
    #: the person's name (an API key's id for a key; null on slips entered before issue 29)
    entered_by_name: str | None = None


class SlipAnswer(View):
    game: dict[str, Any]
    slips: list[SlipView]


class SlipList(Paged):
    game_id: str
    mode: Literal["online", "offline"]
    slips: list[SlipView]


class FlagView(View):
    ply: int
    code: str
    reason: str
    move: str | None


class RecordEntryView(View):
    game_id: str
    entry: int
    source: Literal["entered", "recorder"]
    status: Literal["valid", "flagged", "accepted", "superseded", "corrected"]
    moves: list[str]
    #: the opening's choices as entered (professional rules), or null
    opening: dict[str, Any] | None
    flags: list[FlagView]
    entered_by: str
    #: the arbiter's note when it accepted a flagged record
    note: str | None


class RecordEntries(Paged):
    game_id: str
    entries: list[RecordEntryView]


class FlaggedEntryView(RecordEntryView):
    """A flagged record with its game's place in the event."""

    section_id: str
    round: int
    pairing_id: str
    game_no: int


#: the order of an event's flagged records (a unique key: a game's entries are numbered)
FLAGGED_ORDER = sort_by("game_id", "entry")


class FlaggedEntries(Paged):
    #: in game_id then entry order
    entries: list[FlaggedEntryView]


class RecorderIssued(View):
    game_id: str
    #: shown once: the recorder presents it in the X-Recorder-Secret header
    recorder_secret: str
    header: str


class RecordedAnswer(View):
    game: dict[str, Any]
    #: the step the rules refused, stored for the arbiter (not on the board); null when accepted
    flag: FlagView | None


def _step_data(body: RecorderStep) -> dict[str, Any]:
    def lower(items: list[str]) -> list[str]:
        return [item.lower() for item in items]

    if body.kind in ("move", "choose"):
        return {"point": (body.point or "").lower() or None}
    if body.kind == "opening":
        return {"stones": lower(body.stones or []), "n": body.n}
    if body.kind == "swap":
        return {"swap": bool(body.swap)}
    if body.kind == "offers":
        return {"points": lower(body.points or [])}
    return {}


def routes(games: GameService) -> APIRouter:
    router = APIRouter(prefix="/v1", tags=["over the board"])
    boards = games.board_views

    @router.post(
        "/games/{game_id}/slips",
        summary="Result slip (PLAY-9): enter it, or confirm the pending one; only a confirmed slip counts",
        description="Entering needs the action slips.enter in the game's event (a recorder, an arbiter, the "
        "chief arbiter), confirming (`confirms`) slips.confirm (an arbiter, the chief arbiter) — and another person "
        "than the one who entered the slip: 409 `same_person_confirms` otherwise (issue 29).",
        **documented(SlipAnswer, 200, 403, 409),
    )
    async def enter_slip(
        request: Request, game_id: PathId, body: SlipBody, principal=staff_on_game("slips.enter")
    ) -> JSONResponse:
        if body.confirms is not None:
            await authorize_request(request, principal, "slips.confirm", await games.views.event_of(game_id))
        who = principal_id(principal)[:64]
        answer = await games.handle(
            EnterSlip(game_id, who, body.result, body.reason, body.note, body.confirms, person(principal))
        )
        return JSONResponse(answer)

    @router.get("/games/{game_id}/slips", summary="The result slips of a game (PLAY-9)", **documented(SlipList))
    async def list_slips(game_id: PathId, _principal: Reader, page: PageIn) -> JSONResponse:
        return JSONResponse(paged(await boards.slips(game_id), "slips", sort_by("slip"), page))

    @router.post(
        "/games/{game_id}/record-entries",
        summary="Enter (or correct) a game record after the game; the engine flags what the rules refuse",
        status_code=201,
        **documented(RecordEntryView, 201),
    )
    async def enter_record(game_id: PathId, body: RecordBody, principal=staff_on_game("games.record")) -> JSONResponse:
        opening = body.opening.model_dump() if body.opening else None
        if opening:
            opening["offers"] = [offer.lower() for offer in opening["offers"]]
        entry = await games.handle(EnterRecord(game_id, principal_id(principal)[:64], list(body.moves), opening))
        return JSONResponse(entry, status_code=201)

    @router.get(
        "/games/{game_id}/record-entries",
        summary="The entered and recorded records of a game with their flags",
        **documented(RecordEntries),
    )
    async def list_records(game_id: PathId, _principal: Reader, page: PageIn) -> JSONResponse:
        return JSONResponse(paged(await boards.records(game_id), "entries", sort_by("entry"), page))

    @router.post(
        "/games/{game_id}/record-entries/{entry}/accept",
        summary="Arbiter: accept a flagged record as it stands, with the reason (a correction is a new entry)",
        **documented(RecordEntryView),
    )
    async def accept_record(
        game_id: PathId,
        entry: Annotated[int, Path(ge=1, le=100000)],
        body: DecideBody,
        _principal=staff_on_game("games.adjudicate"),
    ) -> JSONResponse:
        return JSONResponse(await games.handle(DecideRecord(game_id, entry, body.note)))

    @router.get(
        "/events/{event_code}/record-flags",
        summary="Flagged records of an event awaiting the arbiter (PLAY-9; cursor pagination)",
        **documented(FlaggedEntries),
    )
    async def flagged(event_code: PathId, page: PageIn, _principal=staff_on_event("event.read")) -> JSONResponse:
        return JSONResponse(paged({"entries": await boards.flagged(event_code)}, "entries", FLAGGED_ORDER, page))

    _recorder_routes(router, games)
    return router


def _recorder_routes(router: APIRouter, games: GameService) -> None:
    """PLAY-10: the live recorder's secret (issued by staff) and the steps it records."""

    @router.post(
        "/games/{game_id}/recorder",
        summary="Arbiter: issue the live recorder's secret for one game (PLAY-10; shown once)",
        status_code=201,
        **documented(RecorderIssued, 201),
    )
    async def issue_recorder(game_id: PathId, principal=staff_on_game("games.record")) -> JSONResponse:
        return JSONResponse(await games.handle(IssueRecorder(game_id, principal_id(principal)[:64])), status_code=201)

    @router.post(
        "/games/{game_id}/recorded",
        summary="Live recorder (PLAY-10): one step seen at the board, for the side to move",
        description="Authenticated by the game's recorder secret (header `X-Recorder-Secret`), not an API key.",
        **documented(RecordedAnswer, 200, 403),
    )
    async def recorded(
        game_id: PathId,
        body: RecorderStep,
        secret: Annotated[str | None, Header(alias="X-Recorder-Secret", max_length=100)] = None,
    ) -> JSONResponse:
        return JSONResponse(await games.handle(RecordStep(game_id, secret, body.kind, _step_data(body), body.step)))
