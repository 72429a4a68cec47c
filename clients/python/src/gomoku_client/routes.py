"""Every route the client calls: service, method, path, query parameters, headers, body and answer.

The contract test loads each service's OpenAPI document and checks each route here against it —
the path and method exist, the query parameters and headers are declared, the body and answer
models match the document's schemas field by field — so the client cannot drift from what the
services serve. Paths are relative to the service's mount (``/gameplay`` behind the gateway).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from . import models as m

A = TypeVar("A", bound=BaseModel)

SERVICES = ("registration", "pairing", "gameplay", "awards", "partners")


@dataclass(frozen=True)
class Route(Generic[A]):
    service: str
    method: str
    path: str
    answer: type[A]
    body: type[BaseModel] | None = None
    query: tuple[str, ...] = ()
    #: the request carries an Idempotency-Key (generated when the caller gives none), so a retry
    #: after a lost answer cannot act twice
    idempotent: bool = False
    headers: tuple[str, ...] = ()
    status: int = 200
    media: str = "application/json"
    #: the body is sent as application/x-www-form-urlencoded (the OAuth token endpoint)
    form: bool = False

    @property
    def retry_safe(self) -> bool:
        """May the request be sent again when its answer was lost?"""
        return self.method in ("GET", "DELETE") or self.idempotent or self.form


class NoContent(BaseModel):
    """The answer of a 204."""


# partners: OAuth and webhooks
TOKEN = Route("partners", "POST", "/oauth/token", m.TokenAnswer, m.TokenForm, form=True)
WHOAMI = Route("partners", "GET", "/v1/whoami", m.WhoAmI)
SUBSCRIBE = Route(
    "partners",
    "POST",
    "/v1/webhooks/subscriptions",
    m.SubscriptionWithSecret,
    m.SubscriptionIn,
    idempotent=True,
    status=201,
)
SUBSCRIPTIONS = Route("partners", "GET", "/v1/webhooks/subscriptions", m.SubscriptionList, query=("limit", "cursor"))
SUBSCRIPTION = Route("partners", "GET", "/v1/webhooks/subscriptions/{subscription_id}", m.SubscriptionView)
UNSUBSCRIBE = Route("partners", "DELETE", "/v1/webhooks/subscriptions/{subscription_id}", NoContent, status=204)
ROTATE_SECRET = Route(
    "partners",
    "POST",
    "/v1/webhooks/subscriptions/{subscription_id}/rotate-secret",
    m.SubscriptionWithSecret,
    m.SecretRotateIn,
    idempotent=True,
)
ENABLE = Route(
    "partners", "POST", "/v1/webhooks/subscriptions/{subscription_id}/enable", m.SubscriptionView, idempotent=True
)
DELIVERIES = Route(
    "partners", "GET", "/v1/webhooks/deliveries", m.DeliveryPage, query=("subscription_id", "status", "limit", "cursor")
)
REDELIVER = Route(
    "partners", "POST", "/v1/webhooks/deliveries/{delivery_id}/redeliver", m.DeliveryView, idempotent=True
)

# registration
REGISTER = Route(
    "registration", "POST", "/v1/events/{event_code}/entries", m.SubmittedEntry, m.EntryIn, idempotent=True, status=201
)
REGISTER_TEAM = Route(
    "registration", "POST", "/v1/events/{event_code}/teams", m.SubmittedEntry, m.TeamIn, idempotent=True, status=201
)
ENTRIES = Route(
    "registration",
    "GET",
    "/v1/events/{event_code}/entries",
    m.Entries,
    query=("stage", "section_id", "status", "external_id", "limit", "cursor"),
)
ENTRY = Route("registration", "GET", "/v1/events/{event_code}/entries/{entry_id}", m.EntryView)

# pairing
SECTIONS = Route("pairing", "GET", "/v1/events/{event_code}/sections", m.SectionList, query=("limit", "cursor"))
ROUND = Route("pairing", "GET", "/v1/events/{event_code}/sections/{section_id}/rounds/{n}", m.RoundView)
STANDINGS = Route("pairing", "GET", "/v1/events/{event_code}/sections/{section_id}/standings", m.Standings)

# gameplay
GAMES = Route(
    "gameplay",
    "GET",
    "/v1/games",
    m.GamePage,
    query=("player", "event", "section", "round", "status", "limit", "cursor"),
)
GAME = Route("gameplay", "GET", "/v1/games/{game_id}", m.Game)
ROUND_BOARDS = Route(
    "gameplay",
    "GET",
    "/v1/rounds/{event_code}/{section_id}/{round}/boards",
    m.RoundBoardPage,
    query=("limit", "cursor"),
)


def _action(verb: str, body: type[BaseModel]) -> Route[m.GameSummary]:
    return Route("gameplay", "POST", f"/v1/games/{{game_id}}/{verb}", m.GameSummary, body, idempotent=True)


JOIN = _action("join", m.PlayerBody)
OPENING = _action("opening", m.OpeningBody)
SWAP = _action("swap", m.SwapBody)
MOVE = _action("move", m.MoveBody)
OFFERS = _action("offers", m.OffersBody)
CHOOSE = _action("choose", m.MoveBody)
PASS = _action("pass", m.PlayerBody)
RESIGN = _action("resign", m.PlayerBody)
DRAW = _action("draw", m.DrawBody)
ACTIONS: dict[str, Route[m.GameSummary]] = {
    "join": JOIN,
    "opening": OPENING,
    "swap": SWAP,
    "move": MOVE,
    "offers": OFFERS,
    "choose": CHOOSE,
    "pass": PASS,
    "resign": RESIGN,
    "draw": DRAW,
}
STREAM = Route(
    "gameplay",
    "GET",
    "/v1/events/{event_code}/stream",
    m.StreamEvent,
    query=("since", "section", "round", "follow"),
    headers=("last-event-id",),
    media="application/x-ndjson",
)

# awards
AWARDS = Route("awards", "GET", "/v1/events/{event_code}/sections/{section_id}/awards", m.SectionAwards)
PUBLICATIONS = Route(
    "awards",
    "GET",
    "/v1/events/{event_code}/publications",
    m.PublicationHistory,
    query=("section_id", "limit", "cursor"),
)

ALL: tuple[Route[Any], ...] = (
    TOKEN,
    WHOAMI,
    SUBSCRIBE,
    SUBSCRIPTIONS,
    SUBSCRIPTION,
    UNSUBSCRIBE,
    ROTATE_SECRET,
    ENABLE,
    DELIVERIES,
    REDELIVER,
    REGISTER,
    REGISTER_TEAM,
    ENTRIES,
    ENTRY,
    SECTIONS,
    ROUND,
    STANDINGS,
    GAMES,
    GAME,
    ROUND_BOARDS,
    *ACTIONS.values(),
    STREAM,
    AWARDS,
    PUBLICATIONS,
)
