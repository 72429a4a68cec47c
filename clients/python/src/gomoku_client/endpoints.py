"""The endpoint methods of both clients, written once.

Each method here builds what one call sends (a ``Call``: route, path, query, body, key) or, for
the ``iter_*`` methods, how to fetch each page (``Pages``). ``AsyncClient`` and ``Client`` inherit
them: on an instance, ``client.whoami`` is the method that builds the call and sends it, awaited
(``AsyncClient``) or blocking (``Client``), so the two clients have the same methods with the
same arguments and only the sending differs.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Coroutine, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Concatenate, Generic, ParamSpec, TypedDict, TypeVar, Unpack, overload

from pydantic import BaseModel

from . import models as m
from . import routes as r

Params = ParamSpec("Params")
Answer = TypeVar("Answer")
Built = TypeVar("Built")
Item = TypeVar("Item")


@dataclass(frozen=True)
class Call(Generic[Answer]):
    """One request of an endpoint method; its answer is the route's model (None: dropped)."""

    route: r.Route[Any]
    path: Mapping[str, Any] | None = None
    query: Mapping[str, Any] | None = None
    body: BaseModel | None = None
    idempotency_key: str | None = None
    #: the method returns None (a 204, nothing to read)
    no_answer: bool = False


@dataclass(frozen=True)
class Pages(Generic[Item]):
    """The pages of a listing: ``fetch(cursor)`` is the call of the page after ``cursor`` (None:
    the first); its items are the answer's ``field``, and ``next_cursor`` leads to the next."""

    fetch: Callable[[str | None], Call[Any]]
    field: str


class GameFilter(TypedDict, total=False):
    """The filter of ``games`` and ``iter_games``."""

    player: str | None
    event: str | None
    section: str | None
    round: int | None
    status: str | None


class _Method(Generic[Params, Built]):
    """A method of both clients: ``build`` (written with ``self``) makes what it sends; on an
    instance, the client's ``BINDER`` makes the method that sends it."""

    BINDER: ClassVar[str]

    def __init__(self, build: Callable[Concatenate[Any, Params], Built]) -> None:
        self.build = build
        self.__doc__ = build.__doc__

    def _bound(self, client: Any) -> Any:
        return self if client is None else getattr(client, self.BINDER)(self.build.__get__(client))


class endpoint(_Method[Params, Call[Answer]]):  # noqa: N801 (a decorator, named as one)
    """An endpoint method: one call, its answer returned."""

    BINDER = "_endpoint"

    @overload
    def __get__(self, client: None, owner: type[Any]) -> endpoint[Params, Answer]: ...
    @overload
    def __get__(self, client: AwaitedEndpoints, owner: type[Any]) -> Callable[Params, Coroutine[Any, Any, Answer]]: ...
    @overload
    def __get__(self, client: BlockingEndpoints, owner: type[Any]) -> Callable[Params, Answer]: ...
    def __get__(self, client: Any, owner: type[Any]) -> Any:
        return self._bound(client)


class paged(_Method[Params, Pages[Item]]):  # noqa: N801 (a decorator, named as one)
    """An ``iter_*`` method: every item of the pages, page by page."""

    BINDER = "_pager"

    @overload
    def __get__(self, client: None, owner: type[Any]) -> paged[Params, Item]: ...
    @overload
    def __get__(self, client: AwaitedEndpoints, owner: type[Any]) -> Callable[Params, AsyncIterator[Item]]: ...
    @overload
    def __get__(self, client: BlockingEndpoints, owner: type[Any]) -> Callable[Params, Iterator[Item]]: ...
    def __get__(self, client: Any, owner: type[Any]) -> Any:
        return self._bound(client)


def _action(game_id: str, verb: str, body: m.PlayerBody, idempotency_key: str | None) -> Call[m.GameSummary]:
    """A player action by name; every action carries an Idempotency-Key (the route says so)."""
    return Call(r.ACTIONS[verb], path={"game_id": game_id}, body=body, idempotency_key=idempotency_key)


class Endpoints:
    """The partner API's methods, shared by ``AsyncClient`` and ``Client``."""

    # ------------------------------------------------------------------ partners

    @endpoint
    def whoami(self) -> Call[m.WhoAmI]:
        """The credential as the platform sees it: role, partner, scopes."""
        return Call(r.WHOAMI)

    @endpoint
    def subscribe(
        self, url: str, event_types: Sequence[m.EventType], description: str = ""
    ) -> Call[m.SubscriptionWithSecret]:
        """A webhook subscription; the answer's ``secret`` (shown once) verifies its deliveries."""
        body = m.SubscriptionIn(url=url, event_types=list(event_types), description=description)
        return Call(r.SUBSCRIBE, body=body)

    @endpoint
    def subscriptions(self, limit: int | None = None, cursor: str | None = None) -> Call[m.SubscriptionList]:
        """The partner's subscriptions (every one without ``limit``; else a page)."""
        return Call(r.SUBSCRIPTIONS, query={"limit": limit, "cursor": cursor})

    @paged
    def iter_subscriptions(self, page_size: int = 100) -> Pages[m.SubscriptionView]:
        """Every subscription, page by page."""
        return Pages(lambda cursor: Endpoints.subscriptions.build(self, page_size, cursor), "items")

    @endpoint
    def subscription(self, subscription_id: str) -> Call[m.SubscriptionView]:
        return Call(r.SUBSCRIPTION, path={"subscription_id": subscription_id})

    @endpoint
    def unsubscribe(self, subscription_id: str) -> Call[None]:
        return Call(r.UNSUBSCRIBE, path={"subscription_id": subscription_id}, no_answer=True)

    @endpoint
    def rotate_secret(self, subscription_id: str, grace_s: int | None = None) -> Call[m.SubscriptionWithSecret]:
        path = {"subscription_id": subscription_id}
        return Call(r.ROTATE_SECRET, path=path, body=m.SecretRotateIn(grace_s=grace_s))

    @endpoint
    def enable_subscription(self, subscription_id: str) -> Call[m.SubscriptionView]:
        return Call(r.ENABLE, path={"subscription_id": subscription_id})

    @endpoint
    def deliveries(
        self,
        subscription_id: str | None = None,
        status: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> Call[m.DeliveryPage]:
        query = {"subscription_id": subscription_id, "status": status, "limit": limit, "cursor": cursor}
        return Call(r.DELIVERIES, query=query)

    @paged
    def iter_deliveries(
        self, subscription_id: str | None = None, status: str | None = None, page_size: int = 100
    ) -> Pages[m.DeliveryView]:
        """Every delivery of the filter (newest first), page by page."""
        return Pages(
            lambda cursor: Endpoints.deliveries.build(self, subscription_id, status, page_size, cursor), "items"
        )

    @endpoint
    def redeliver(self, delivery_id: str) -> Call[m.DeliveryView]:
        return Call(r.REDELIVER, path={"delivery_id": delivery_id})

    # ------------------------------------------------------------------ registration

    @endpoint
    def register(self, event_code: str, entry: m.EntryIn, idempotency_key: str | None = None) -> Call[m.SubmittedEntry]:
        """Register one person's entry; its ``entrant_id`` is the player id of pairing and gameplay."""
        return Call(r.REGISTER, path={"event_code": event_code}, body=entry, idempotency_key=idempotency_key)

    @endpoint
    def register_team(
        self, event_code: str, team: m.TeamIn, idempotency_key: str | None = None
    ) -> Call[m.SubmittedEntry]:
        """Register a unit's team; its ``entrant_id`` stands for all its members in games."""
        return Call(r.REGISTER_TEAM, path={"event_code": event_code}, body=team, idempotency_key=idempotency_key)

    @endpoint
    def entries(
        self,
        event_code: str,
        stage: str | None = None,
        section_id: str | None = None,
        status: str | None = None,
        external_id: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> Call[m.Entries]:
        """The partner's own entries of an event (``external_id``: those of the player you gave
        that user id of yours): every one without ``limit``, else a page after ``cursor``."""
        query = {"stage": stage, "section_id": section_id, "status": status, "external_id": external_id}
        paging = {"limit": limit, "cursor": cursor}
        return Call(r.ENTRIES, path={"event_code": event_code}, query={**query, **paging})

    @paged
    def iter_entries(self, event_code: str, *, page_size: int = 100, **filters: str | None) -> Pages[m.EntryView]:
        """Every entry of the filter (``stage``, ``section_id``, ``status``, ``external_id``), page by page."""
        fetch = lambda cursor: Endpoints.entries.build(self, event_code, **filters, limit=page_size, cursor=cursor)  # noqa: E731
        return Pages(fetch, "entries")

    @endpoint
    def entry(self, event_code: str, entry_id: str) -> Call[m.EntryView]:
        return Call(r.ENTRY, path={"event_code": event_code, "entry_id": entry_id})

    # ------------------------------------------------------------------ pairing

    @endpoint
    def sections(self, event_code: str, limit: int | None = None, cursor: str | None = None) -> Call[m.SectionList]:
        return Call(r.SECTIONS, path={"event_code": event_code}, query={"limit": limit, "cursor": cursor})

    @endpoint
    def round(self, event_code: str, section_id: str, n: int) -> Call[m.RoundView]:
        """A round's pairings (entrant ids) and results."""
        return Call(r.ROUND, path={"event_code": event_code, "section_id": section_id, "n": n})

    @endpoint
    def standings(self, event_code: str, section_id: str) -> Call[m.Standings]:
        return Call(r.STANDINGS, path={"event_code": event_code, "section_id": section_id})

    # ------------------------------------------------------------------ gameplay

    @endpoint
    def games(
        self,
        *,
        player: str | None = None,
        event: str | None = None,
        section: str | None = None,
        round: int | None = None,
        status: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> Call[m.GamePage]:
        """One page of games (``player``: an entrant id — a partner sees its own players' games)."""
        query = {"player": player, "event": event, "section": section, "round": round, "status": status}
        return Call(r.GAMES, query={**query, "limit": limit, "cursor": cursor})

    @paged
    def iter_games(self, *, page_size: int = 200, **filters: Unpack[GameFilter]) -> Pages[m.GameSummary]:
        """Every game of the filter (``games``' own), page by page (``next_cursor``), in game_id order."""
        fetch = lambda cursor: Endpoints.games.build(self, **filters, limit=page_size, cursor=cursor)  # noqa: E731
        return Pages(fetch, "games")

    @endpoint
    def game(self, game_id: str) -> Call[m.Game]:
        """One game as of now: board, phase, whose turn, legal actions, forbidden points, clocks."""
        return Call(r.GAME, path={"game_id": game_id})

    @endpoint
    def round_boards(
        self, event_code: str, section_id: str, round: int, *, limit: int | None = None, cursor: str | None = None
    ) -> Call[m.RoundBoardPage]:
        """One page of a round's games as boards with their clocks (game_id order)."""
        path = {"event_code": event_code, "section_id": section_id, "round": round}
        return Call(r.ROUND_BOARDS, path=path, query={"limit": limit, "cursor": cursor})

    @endpoint
    def act(
        self, game_id: str, verb: str, body: m.PlayerBody, idempotency_key: str | None = None
    ) -> Call[m.GameSummary]:
        """A player action by name (``join``, ``move``, ``resign``, ``draw``…); every action is
        sent with an Idempotency-Key (``idempotency_key``, or a new one kept across retries)."""
        return _action(game_id, verb, body, idempotency_key)

    @endpoint
    def join(self, game_id: str, player_id: str, idempotency_key: str | None = None) -> Call[m.GameSummary]:
        return _action(game_id, "join", m.PlayerBody(player_id=player_id), idempotency_key)

    @endpoint
    def opening(
        self,
        game_id: str,
        player_id: str,
        stones: Sequence[str],
        n: int | None = None,
        idempotency_key: str | None = None,
    ) -> Call[m.GameSummary]:
        body = m.OpeningBody(player_id=player_id, stones=list(stones), n=n)
        return _action(game_id, "opening", body, idempotency_key)

    @endpoint
    def swap(self, game_id: str, player_id: str, swap: bool, idempotency_key: str | None = None) -> Call[m.GameSummary]:
        return _action(game_id, "swap", m.SwapBody(player_id=player_id, swap=swap), idempotency_key)

    @endpoint
    def move(self, game_id: str, player_id: str, point: str, idempotency_key: str | None = None) -> Call[m.GameSummary]:
        return _action(game_id, "move", m.MoveBody(player_id=player_id, point=point), idempotency_key)

    @endpoint
    def offers(
        self, game_id: str, player_id: str, points: Sequence[str], idempotency_key: str | None = None
    ) -> Call[m.GameSummary]:
        return _action(game_id, "offers", m.OffersBody(player_id=player_id, points=list(points)), idempotency_key)

    @endpoint
    def choose(
        self, game_id: str, player_id: str, point: str, idempotency_key: str | None = None
    ) -> Call[m.GameSummary]:
        return _action(game_id, "choose", m.MoveBody(player_id=player_id, point=point), idempotency_key)

    @endpoint
    def pass_(self, game_id: str, player_id: str, idempotency_key: str | None = None) -> Call[m.GameSummary]:
        return _action(game_id, "pass", m.PlayerBody(player_id=player_id), idempotency_key)

    @endpoint
    def resign(self, game_id: str, player_id: str, idempotency_key: str | None = None) -> Call[m.GameSummary]:
        return _action(game_id, "resign", m.PlayerBody(player_id=player_id), idempotency_key)

    @endpoint
    def draw(
        self, game_id: str, player_id: str, action: str, idempotency_key: str | None = None
    ) -> Call[m.GameSummary]:
        """``action``: ``offer``, ``accept`` or ``decline``."""
        body = m.DrawBody.model_validate({"player_id": player_id, "action": action})
        return _action(game_id, "draw", body, idempotency_key)

    # ------------------------------------------------------------------ awards

    @endpoint
    def awards(self, event_code: str, section_id: str) -> Call[m.SectionAwards]:
        """A section's published awards (404 until they are published)."""
        return Call(r.AWARDS, path={"event_code": event_code, "section_id": section_id})

    @endpoint
    def publications(
        self, event_code: str, section_id: str | None = None, limit: int | None = None, cursor: str | None = None
    ) -> Call[m.PublicationHistory]:
        """Every publication of an event's awards, revisions included (a page, with ``limit``)."""
        query = {"section_id": section_id, "limit": limit, "cursor": cursor}
        return Call(r.PUBLICATIONS, path={"event_code": event_code}, query=query)

    @paged
    def iter_publications(
        self, event_code: str, section_id: str | None = None, page_size: int = 50
    ) -> Pages[m.PublicationEntry]:
        """Every publication, page by page (section, revision order)."""
        fetch = lambda cursor: Endpoints.publications.build(self, event_code, section_id, page_size, cursor)  # noqa: E731
        return Pages(fetch, "publications")


# The two kinds of client, named here so the methods' types need not import the clients (which
# import this module): ``AsyncClient`` is an ``AwaitedEndpoints``, ``Client`` a ``BlockingEndpoints``.


class AwaitedEndpoints(Endpoints):
    """The methods sent and awaited (``aio.AsyncClient``)."""


class BlockingEndpoints(Endpoints):
    """The methods sent and waited for (``sync.Client``)."""
