"""The synchronous client (``httpx.Client``), generated from aio.py by generate_sync.py: do not edit."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from types import TracebackType
from typing import Any, TypeVar

import httpx
from pydantic import BaseModel

from . import models as m
from . import routes as r
from ._core import (
    Attempts,
    ClientCredentials,
    Credentials,
    Prepared,
    RateLimitState,
    RetryPolicy,
    answer_of,
    authorization,
    prepare,
    rate_limit_of,
    refusal,
    service_bases,
    token_answer,
)

A = TypeVar("A", bound=BaseModel)
#: errors a transport raises when nothing (or not all) came back
TRANSPORT_ERRORS = (httpx.TransportError, OSError)
#: refusals after which a fresh token is worth one more attempt
STALE_TOKEN = ('error="invalid_token"', "expired_token")


class Client:
    """The platform's partner API.

    ``base_url`` is the platform's one URL (the gateway; every service under ``/<service>``);
    ``bases`` instead gives one URL per service. ``credentials`` is a partner's
    ``ClientCredentials`` (tokens obtained and refreshed as needed) or an ``ApiKey``. Pass
    ``http`` to share an ``httpx.Client`` (it is then not closed here) or ``transport`` for
    a custom httpx transport.
    """

    def __init__(
        self,
        base_url: str | None = None,
        *,
        credentials: Credentials,
        bases: Mapping[str, str] | None = None,
        http: httpx.Client | None = None,
        transport: httpx.BaseTransport | None = None,
        timeout: float = 30.0,
        retry: RetryPolicy | None = None,
    ) -> None:
        self.bases = service_bases(base_url, bases)
        self.credentials = credentials
        self.retry = retry or RetryPolicy()
        self._owns_http = http is None
        self.http = http or httpx.Client(transport=transport, timeout=timeout)
        self._token_lock = threading.Lock()
        #: attempts sent (retries included)
        self.requests = 0
        #: the last ``RateLimit`` header of an answer (None before any, or for API keys)
        self.rate_limit: RateLimitState | None = None

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        if self._owns_http:
            self.http.close()

    # ------------------------------------------------------------------ plumbing

    def _token(self) -> str | None:
        creds = self.credentials
        if not isinstance(creds, ClientCredentials):
            return None
        token = creds.valid_token(time.monotonic())
        if token is not None:
            return token
        with self._token_lock:  # one request for a new token, however many callers wait
            token = creds.valid_token(time.monotonic())
            if token is not None:
                return token
            form, headers = creds.token_request()
            prepared = Prepared("POST", self.bases["partners"] + r.TOKEN.path, {}, headers, None, form)
            attempts = Attempts(self.retry, r.TOKEN, prepared)
            while True:
                started = time.monotonic()
                attempts.count += 1
                self.requests += 1
                try:
                    response = self.http.post(prepared.url, data=form, headers=headers)
                except TRANSPORT_ERRORS as exc:
                    time.sleep(attempts.after_transport_error(exc))
                    continue
                delay = attempts.after_answer(response)
                if delay is None:
                    return token_answer(response, started, creds)
                time.sleep(delay)

    def _stale_token(self, response: httpx.Response) -> bool:
        if response.status_code != 401 or not isinstance(self.credentials, ClientCredentials):
            return False
        said = response.headers.get("www-authenticate", "") + response.text[:300]
        return any(mark in said for mark in STALE_TOKEN)

    def _send(self, route: r.Route[Any], prepared: Prepared) -> httpx.Response:
        attempts = Attempts(self.retry, route, prepared)
        refreshed = False
        while True:
            headers = {**prepared.headers, **authorization(self.credentials, self._token())}
            attempts.count += 1
            self.requests += 1
            try:
                response = self.http.request(
                    prepared.method, prepared.url, params=prepared.params or None, json=prepared.json, headers=headers
                )
            except TRANSPORT_ERRORS as exc:
                time.sleep(attempts.after_transport_error(exc))
                continue
            self.rate_limit = rate_limit_of(response) or self.rate_limit
            if not refreshed and self._stale_token(response):
                assert isinstance(self.credentials, ClientCredentials)
                self.credentials.forget()
                refreshed = True
                continue
            delay = attempts.after_answer(response)
            if delay is None:
                return response
            time.sleep(delay)

    def _call(
        self,
        route: r.Route[A],
        *,
        path: Mapping[str, Any] | None = None,
        query: Mapping[str, Any] | None = None,
        body: BaseModel | None = None,
        idempotency_key: str | None = None,
    ) -> A:
        prepared = prepare(self.bases, route, path=path, query=query, body=body, idempotency_key=idempotency_key)
        return answer_of(route, self._send(route, prepared), prepared)

    # ------------------------------------------------------------------ partners

    def whoami(self) -> m.WhoAmI:
        """The credential as the platform sees it: role, partner, scopes."""
        return self._call(r.WHOAMI)

    def subscribe(
        self, url: str, event_types: Sequence[m.EventType], description: str = ""
    ) -> m.SubscriptionWithSecret:
        """A webhook subscription; the answer's ``secret`` (shown once) verifies its deliveries."""
        return self._call(
            r.SUBSCRIBE, body=m.SubscriptionIn(url=url, event_types=list(event_types), description=description)
        )

    def subscriptions(self, limit: int | None = None, cursor: str | None = None) -> m.SubscriptionList:
        """The partner's subscriptions (every one without ``limit``; else a page)."""
        return self._call(r.SUBSCRIPTIONS, query={"limit": limit, "cursor": cursor})

    def iter_subscriptions(self, page_size: int = 100) -> Iterator[m.SubscriptionView]:
        """Every subscription, page by page."""
        for item in self._every(lambda cursor: self.subscriptions(page_size, cursor), "items"):
            yield item

    def subscription(self, subscription_id: str) -> m.SubscriptionView:
        return self._call(r.SUBSCRIPTION, path={"subscription_id": subscription_id})

    def unsubscribe(self, subscription_id: str) -> None:
        self._call(r.UNSUBSCRIBE, path={"subscription_id": subscription_id})

    def rotate_secret(self, subscription_id: str, grace_s: int | None = None) -> m.SubscriptionWithSecret:
        return self._call(
            r.ROTATE_SECRET, path={"subscription_id": subscription_id}, body=m.SecretRotateIn(grace_s=grace_s)
        )

    def enable_subscription(self, subscription_id: str) -> m.SubscriptionView:
        return self._call(r.ENABLE, path={"subscription_id": subscription_id})

    def deliveries(
        self,
        subscription_id: str | None = None,
        status: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> m.DeliveryPage:
        query = {"subscription_id": subscription_id, "status": status, "limit": limit, "cursor": cursor}
        return self._call(r.DELIVERIES, query=query)

    def iter_deliveries(
        self, subscription_id: str | None = None, status: str | None = None, page_size: int = 100
    ) -> Iterator[m.DeliveryView]:
        """Every delivery of the filter (newest first), page by page."""
        fetch = lambda cursor: self.deliveries(subscription_id, status, page_size, cursor)  # noqa: E731
        for item in self._every(fetch, "items"):
            yield item

    def redeliver(self, delivery_id: str) -> m.DeliveryView:
        return self._call(r.REDELIVER, path={"delivery_id": delivery_id})

    # ------------------------------------------------------------------ registration

    def register(self, event_code: str, entry: m.EntryIn, idempotency_key: str | None = None) -> m.SubmittedEntry:
        """Register one person's entry; its ``entrant_id`` is the player id of pairing and gameplay."""
        return self._call(
            r.REGISTER, path={"event_code": event_code}, body=entry, idempotency_key=idempotency_key
        )

    def register_team(
        self, event_code: str, team: m.TeamIn, idempotency_key: str | None = None
    ) -> m.SubmittedEntry:
        """Register a unit's team; its ``entrant_id`` stands for all its members in games."""
        return self._call(
            r.REGISTER_TEAM, path={"event_code": event_code}, body=team, idempotency_key=idempotency_key
        )

    def entries(
        self,
        event_code: str,
        stage: str | None = None,
        section_id: str | None = None,
        status: str | None = None,
        external_id: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> m.Entries:
        """The partner's own entries of an event (``external_id``: those of the player you gave
        that user id of yours): every one without ``limit``, else a page after ``cursor``."""
        query = {"stage": stage, "section_id": section_id, "status": status, "external_id": external_id}
        paging = {"limit": limit, "cursor": cursor}
        return self._call(r.ENTRIES, path={"event_code": event_code}, query={**query, **paging})

    def iter_entries(
        self, event_code: str, *, page_size: int = 100, **filters: str | None
    ) -> Iterator[m.EntryView]:
        """Every entry of the filter (``stage``, ``section_id``, ``status``, ``external_id``), page by page."""
        fetch = lambda cursor: self.entries(event_code, **filters, limit=page_size, cursor=cursor)  # noqa: E731
        for item in self._every(fetch, "entries"):
            yield item

    def _every(self, fetch: Any, field: str) -> Iterator[Any]:
        """The items of every page ``fetch(cursor)`` gives, following ``next_cursor``."""
        cursor: str | None = None
        while True:
            page = fetch(cursor)
            for item in getattr(page, field):
                yield item
            if page.next_cursor is None:
                return
            cursor = page.next_cursor

    def entry(self, event_code: str, entry_id: str) -> m.EntryView:
        return self._call(r.ENTRY, path={"event_code": event_code, "entry_id": entry_id})

    # ------------------------------------------------------------------ pairing

    def sections(self, event_code: str, limit: int | None = None, cursor: str | None = None) -> m.SectionList:
        query = {"limit": limit, "cursor": cursor}
        return self._call(r.SECTIONS, path={"event_code": event_code}, query=query)

    def round(self, event_code: str, section_id: str, n: int) -> m.RoundView:
        """A round's pairings (entrant ids) and results."""
        return self._call(r.ROUND, path={"event_code": event_code, "section_id": section_id, "n": n})

    def standings(self, event_code: str, section_id: str) -> m.Standings:
        return self._call(r.STANDINGS, path={"event_code": event_code, "section_id": section_id})

    # ------------------------------------------------------------------ gameplay

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
    ) -> m.GamePage:
        """One page of games (``player``: an entrant id — a partner sees its own players' games)."""
        query = {"player": player, "event": event, "section": section, "round": round, "status": status}
        return self._call(r.GAMES, query={**query, "limit": limit, "cursor": cursor})

    def iter_games(
        self,
        *,
        player: str | None = None,
        event: str | None = None,
        section: str | None = None,
        round: int | None = None,
        status: str | None = None,
        page_size: int = 200,
    ) -> Iterator[m.GameSummary]:
        """Every game of the filter, page by page (``next_cursor``), in game_id order."""
        cursor: str | None = None
        while True:
            page = self.games(
                player=player, event=event, section=section, round=round, status=status, limit=page_size, cursor=cursor
            )
            for game in page.games:
                yield game
            if page.next_cursor is None:
                return
            cursor = page.next_cursor

    def game(self, game_id: str) -> m.Game:
        """One game as of now: board, phase, whose turn, legal actions, forbidden points, clocks."""
        return self._call(r.GAME, path={"game_id": game_id})

    def round_boards(
        self, event_code: str, section_id: str, round: int, *, limit: int | None = None, cursor: str | None = None
    ) -> m.RoundBoardPage:
        """One page of a round's games as boards with their clocks (game_id order)."""
        path = {"event_code": event_code, "section_id": section_id, "round": round}
        return self._call(r.ROUND_BOARDS, path=path, query={"limit": limit, "cursor": cursor})

    def act(
        self, game_id: str, verb: str, body: m.PlayerBody, idempotency_key: str | None = None
    ) -> m.GameSummary:
        """A player action by name (``join``, ``move``, ``resign``, ``draw``…); every action is
        sent with an Idempotency-Key (``idempotency_key``, or a new one kept across retries)."""
        route = r.ACTIONS[verb]
        return self._call(route, path={"game_id": game_id}, body=body, idempotency_key=idempotency_key)

    def join(self, game_id: str, player_id: str, idempotency_key: str | None = None) -> m.GameSummary:
        return self.act(game_id, "join", m.PlayerBody(player_id=player_id), idempotency_key)

    def opening(
        self,
        game_id: str,
        player_id: str,
        stones: Sequence[str],
        n: int | None = None,
        idempotency_key: str | None = None,
    ) -> m.GameSummary:
        body = m.OpeningBody(player_id=player_id, stones=list(stones), n=n)
        return self.act(game_id, "opening", body, idempotency_key)

    def swap(self, game_id: str, player_id: str, swap: bool, idempotency_key: str | None = None) -> m.GameSummary:
        return self.act(game_id, "swap", m.SwapBody(player_id=player_id, swap=swap), idempotency_key)

    def move(self, game_id: str, player_id: str, point: str, idempotency_key: str | None = None) -> m.GameSummary:
        return self.act(game_id, "move", m.MoveBody(player_id=player_id, point=point), idempotency_key)

    def offers(
        self, game_id: str, player_id: str, points: Sequence[str], idempotency_key: str | None = None
    ) -> m.GameSummary:
        return self.act(
            game_id, "offers", m.OffersBody(player_id=player_id, points=list(points)), idempotency_key
        )

    def choose(
        self, game_id: str, player_id: str, point: str, idempotency_key: str | None = None
    ) -> m.GameSummary:
        return self.act(game_id, "choose", m.MoveBody(player_id=player_id, point=point), idempotency_key)

    def pass_(self, game_id: str, player_id: str, idempotency_key: str | None = None) -> m.GameSummary:
        return self.act(game_id, "pass", m.PlayerBody(player_id=player_id), idempotency_key)

    def resign(self, game_id: str, player_id: str, idempotency_key: str | None = None) -> m.GameSummary:
        return self.act(game_id, "resign", m.PlayerBody(player_id=player_id), idempotency_key)

    def draw(
        self, game_id: str, player_id: str, action: str, idempotency_key: str | None = None
    ) -> m.GameSummary:
        """``action``: ``offer``, ``accept`` or ``decline``."""
        body = m.DrawBody.model_validate({"player_id": player_id, "action": action})
        return self.act(game_id, "draw", body, idempotency_key)

    # ------------------------------------------------------------------ awards

    def awards(self, event_code: str, section_id: str) -> m.SectionAwards:
        """A section's published awards (404 until they are published)."""
        return self._call(r.AWARDS, path={"event_code": event_code, "section_id": section_id})

    def publications(
        self, event_code: str, section_id: str | None = None, limit: int | None = None, cursor: str | None = None
    ) -> m.PublicationHistory:
        """Every publication of an event's awards, revisions included (a page, with ``limit``)."""
        query = {"section_id": section_id, "limit": limit, "cursor": cursor}
        return self._call(r.PUBLICATIONS, path={"event_code": event_code}, query=query)

    def iter_publications(
        self, event_code: str, section_id: str | None = None, page_size: int = 50
    ) -> Iterator[m.PublicationEntry]:
        """Every publication, page by page (section, revision order)."""
        fetch = lambda cursor: self.publications(event_code, section_id, page_size, cursor)  # noqa: E731
        for item in self._every(fetch, "publications"):
            yield item

    # ------------------------------------------------------------------ the stream

    def stream(
        self,
        event_code: str,
        *,
        since: int | None = None,
        section: str | None = None,
        round: int | None = None,
        follow: bool = True,
    ) -> Iterator[m.StreamEvent]:
        """An event's NDJSON stream (games created, joined, started, moves, results), from after
        ``since`` (None: from the start). A dropped connection is resumed with ``Last-Event-ID``
        (every later event once, in order); ``follow=False`` ends after the events stored so far."""
        cursor = since
        attempts: Attempts | None = None
        while True:
            prepared = prepare(
                self.bases,
                r.STREAM,
                path={"event_code": event_code},
                query={"section": section, "round": round, "follow": follow},
                headers={"Last-Event-ID": str(cursor)} if cursor is not None else None,
            )
            attempts = attempts or Attempts(self.retry, r.STREAM, prepared)
            headers = {**prepared.headers, **authorization(self.credentials, self._token())}
            self.requests += 1
            try:
                with self.http.stream("GET", prepared.url, params=prepared.params, headers=headers) as response:
                    if response.status_code >= 400:
                        response.read()
                        delay = attempts.after_answer(response)
                        if delay is None:
                            raise refusal(prepared, response)
                        time.sleep(delay)
                        continue
                    for line in response.iter_lines():
                        if not line.strip():
                            continue  # a keep-alive
                        event = m.StreamEvent.model_validate_json(line)
                        cursor, attempts = event.id, None
                        yield event
                if not follow:
                    return
            except TRANSPORT_ERRORS as exc:
                attempts = attempts or Attempts(self.retry, r.STREAM, prepared)
                time.sleep(attempts.after_transport_error(exc))
