"""The synchronous client (``httpx.Client``), generated from aio.py by generate_sync.py: do not edit."""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from types import TracebackType
from typing import Any, ParamSpec, TypeVar

import httpx

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
from .endpoints import BlockingEndpoints, Call, Pages

Params = ParamSpec("Params")
Answer = TypeVar("Answer")
Item = TypeVar("Item")
#: errors a transport raises when nothing (or not all) came back
TRANSPORT_ERRORS = (httpx.TransportError, OSError)
#: refusals after which a fresh token is worth one more attempt
STALE_TOKEN = ('error="invalid_token"', "expired_token")


class Client(BlockingEndpoints):
    """The platform's partner API.

    ``base_url`` is the platform's one URL (the gateway; every service under ``/<service>``);
    ``bases`` instead gives one URL per service. ``credentials`` is a partner's
    ``ClientCredentials`` (tokens obtained and refreshed as needed) or an ``ApiKey``. Pass
    ``http`` to share an ``httpx.Client`` (it is then not closed here) or ``transport`` for
    a custom httpx transport. Its endpoint methods are those of ``endpoints.Endpoints``.
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

    def _perform(self, call: Call[Answer]) -> Answer:
        """Send an endpoint method's call (retried as its route allows) and read its answer."""
        route = call.route
        prepared = prepare(
            self.bases,
            route,
            path=call.path,
            query=call.query,
            body=call.body,
            idempotency_key=call.idempotency_key,
        )
        answer = answer_of(route, self._send(route, prepared), prepared)
        return None if call.no_answer else answer  # type: ignore[return-value]  # Call[None] drops the answer

    def _endpoint(self, build: Callable[Params, Call[Answer]]) -> Callable[Params, Answer]:
        """An endpoint method of this client (``endpoints.endpoint``): its call, sent."""

        @functools.wraps(build)
        def method(*args: Params.args, **kwargs: Params.kwargs) -> Answer:
            return self._perform(build(*args, **kwargs))

        return method

    def _pager(self, build: Callable[Params, Pages[Item]]) -> Callable[Params, Iterator[Item]]:
        """An ``iter_*`` method of this client (``endpoints.paged``): the items of every page,
        following ``next_cursor``."""

        @functools.wraps(build)
        def method(*args: Params.args, **kwargs: Params.kwargs) -> Iterator[Item]:
            pages = build(*args, **kwargs)
            cursor: str | None = None
            while True:
                page = self._perform(pages.fetch(cursor))
                for item in getattr(page, pages.field):
                    yield item
                if page.next_cursor is None:
                    return
                cursor = page.next_cursor

        return method

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
