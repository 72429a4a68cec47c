"""HTTP access to the four competition services (registration, pairing, gameplay, awards), as a partner app, an arbiter and an operator would have it.

``Platform`` hides only *where* a service lives: in the embedded mode one ASGI app serves all
four under /registration, /pairing, /gameplay and /awards; in the distributed mode each has its
own base URL. Transport failures (a service being restarted) are retried for a bounded time;
4xx answers are raised as ``ApiError`` (the typed client's) with the platform's error body.

The partner app's game calls — reading a game, and the player actions (join, opening, swap,
move, offers, choose, pass, resign, draw) — go through the typed partner client
(``gomoku_client.AsyncClient``, ``Platform.partner``), so every simulation proves it against the
served API; operator, arbiter and registration calls stay plain requests.
"""

from __future__ import annotations

import asyncio
import collections
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import httpx

from gomoku_client import ApiError, ApiKey, AsyncClient, RetryPolicy
from gomoku_client import models as gm
from gomoku_client.errors import error_class
from gomoku_client.routes import ACTIONS

SERVICES = ("registration", "pairing", "gameplay", "awards")


@dataclass(frozen=True)
class Keys:
    operator: str = "op-key"
    arbiter: str = "arb-key"
    partner: str = "partner-key"
    partner_id: str = "partner-1"

    @property
    def api_keys_setting(self) -> str:
        """The API_KEYS value the services need for these keys."""
        return f"{self.operator}=operator,{self.arbiter}=arbiter,{self.partner}=partner:{self.partner_id}"


#: the bodies of the player actions, by verb
ACTION_BODIES: dict[str, type[gm.PlayerBody]] = {
    verb: route.body
    for verb, route in ACTIONS.items()
    if route.body is not None and issubclass(route.body, gm.PlayerBody)
}
_ID_SEGMENT = re.compile(r"/(?!v1(?:/|$))[^/]*[0-9][^/]*")
_GAME_PATH = re.compile(r"^/v1/games/([^/?]+)(?:/([a-z]+))?$")
__all__ = ["ApiError", "GamePages", "Keys", "Platform", "SERVICES", "all_games", "all_items"]


class Platform:
    """The four competition services' HTTP APIs."""

    def __init__(
        self,
        client: Any,
        bases: Mapping[str, str],
        keys: Keys = Keys(),
        *,
        retry_for_s: float = 60.0,
        partner_http: httpx.AsyncClient | None = None,
    ) -> None:
        self.client = client
        self.bases = dict(bases)
        self.keys = keys
        self.retry_for_s = retry_for_s
        self.requests = 0
        #: requests by route ("GET gameplay /v1/games/{}": a path segment with a digit is {})
        self.by_route: collections.Counter[str] = collections.Counter()
        #: gameplay's game lists, read conditionally (the driver's sweeps)
        self.game_pages = GamePages(self)
        http = partner_http if partner_http is not None else client
        #: the partner app's typed client (its game calls: see the module's docstring)
        self.partner = AsyncClient(
            bases=self.bases,
            credentials=ApiKey(keys.partner),
            http=http,
            retry=RetryPolicy(give_up_after_s=retry_for_s, backoff_max_s=1.0),
        )

    @classmethod
    def embedded(cls, app, keys: Keys = Keys()) -> Platform:
        client = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app, raise_app_exceptions=False), base_url="http://embedded", timeout=60.0
        )
        return cls(client, {s: f"/{s}" for s in SERVICES}, keys)

    @classmethod
    def distributed(cls, urls: Mapping[str, str], keys: Keys = Keys(), retry_for_s: float = 90.0) -> Platform:
        from gomoku_shared.lean_http import LeanAsyncClient, LeanClient

        lean = LeanClient(timeout=30.0)
        partner_http = LeanAsyncClient(lean)
        bases = {s: urls[s].rstrip("/") for s in SERVICES}
        return cls(lean, bases, keys, retry_for_s=retry_for_s, partner_http=partner_http)

    async def aclose(self) -> None:
        if self.partner.http is not self.client:
            await self.partner.http.aclose()
        await self.client.aclose()

    async def _as_partner_app(
        self,
        method: str,
        path: str,
        role: str,
        json: Any,
        params: Mapping[str, Any] | None,
        idempotency_key: str | None,
    ) -> dict[str, Any] | None:
        """A game read, or a partner's player action, through the typed client (None: not one
        of those). Its answer is the model as JSON-ready data, unknown fields included."""
        found = _GAME_PATH.match(path)
        if found is None or params:
            return None
        game_id, verb = found.groups()
        if method == "GET" and verb is None:
            self._count(method, "gameplay", path)
            return (await self.partner.game(game_id)).model_dump()
        if method == "POST" and role == "partner" and verb in ACTION_BODIES:
            self._count(method, "gameplay", path)
            body = ACTION_BODIES[verb].model_validate(json)
            return (await self.partner.act(game_id, verb, body, idempotency_key)).model_dump()
        return None

    def _count(self, method: str, service: str, path: str) -> None:
        self.requests += 1
        self.by_route[f"{method} {service} {_ID_SEGMENT.sub('/{}', path)}"] += 1

    def url(self, service: str, path: str) -> str:
        return self.bases[service] + path

    def _key(self, role: str) -> str:
        return {"operator": self.keys.operator, "arbiter": self.keys.arbiter, "partner": self.keys.partner}[role]

    async def request(
        self,
        method: str,
        service: str,
        path: str,
        *,
        role: str | None = "operator",
        json: Any = None,
        params: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
        raw: bool = False,
        headers: Mapping[str, str] | None = None,
    ) -> Any:
        """``role``: the API key sent; None sends none (a route with a credential of its own,
        given in ``headers``, e.g. a game's recorder secret)."""
        if service == "gameplay" and not raw and role is not None:
            answer = await self._as_partner_app(method, path, role, json, params, idempotency_key)
            if answer is not None:
                return answer
        response = await self._send(method, service, path, role, json, params, idempotency_key, headers)
        if raw:
            return response.text
        return _body(response)

    async def get_if_changed(
        self, service: str, path: str, etag: str | None, *, params: Mapping[str, Any] | None = None
    ) -> tuple[str | None, Any]:
        """A conditional read (operator key): (the answer's ETag, its body), or (``etag``, None)
        when the service answers 304 Not Modified to ``If-None-Match: etag``."""
        headers = {"If-None-Match": etag} if etag else None
        response = await self._send("GET", service, path, "operator", None, params, None, headers)
        if response.status_code == 304:
            return etag, None
        return _header(response, "etag"), _body(response)

    async def _send(
        self,
        method: str,
        service: str,
        path: str,
        role: str | None,
        json: Any,
        params: Mapping[str, Any] | None,
        idempotency_key: str | None,
        headers: Mapping[str, str] | None,
    ) -> Any:
        """The response (status < 400) of a plain request, retried while the service is away
        (transport errors, 5xx) for ``retry_for_s``; a 4xx raises ``ApiError``."""
        headers = {**({"X-API-Key": self._key(role)} if role else {}), **(headers or {})}
        if idempotency_key:
            headers["Idempotency-Key"] = idempotency_key
        url = self.url(service, path)
        deadline = time.monotonic() + self.retry_for_s
        delay = 0.05
        while True:
            try:
                self._count(method, service, path)
                response = await self.client.request(method, url, json=json, params=params, headers=headers)
            except (httpx.TransportError, OSError) as exc:
                # a service being restarted: retry (POSTs carry an Idempotency-Key where it matters)
                if time.monotonic() > deadline:
                    raise TimeoutError(
                        f"{service} unreachable for {self.retry_for_s:.0f}s ({method} {path}): {exc!r}"
                    ) from exc
                await asyncio.sleep(delay)
                delay = min(delay * 2, 1.0)
                continue
            if response.status_code >= 500 or response.status_code == 503:
                if time.monotonic() > deadline:
                    raise error_class(response.status_code)(method, url, response.status_code, _body(response))
                await asyncio.sleep(delay)
                delay = min(delay * 2, 1.0)
                continue
            if response.status_code >= 400:
                raise error_class(response.status_code)(method, url, response.status_code, _body(response))
            return response

    async def get(self, service: str, path: str, **kw: Any) -> Any:
        return await self.request("GET", service, path, **kw)

    async def post(self, service: str, path: str, json: Any = None, **kw: Any) -> Any:
        return await self.request("POST", service, path, json=json if json is not None else {}, **kw)


async def all_items(
    reader: Any, service: str, path: str, field: str, params: Mapping[str, Any] | None = None, **kw: Any
) -> list[dict[str, Any]]:
    """Every item of the cursor-paged list ``field`` at ``path``, page by page (``next_cursor``);
    ``reader`` is anything with ``get(service, path, params=..., **kw)`` answering the JSON body."""
    items: list[dict[str, Any]] = []
    cursor = None
    while True:
        query = {**(params or {}), "limit": 200, **({"cursor": cursor} if cursor else {})}
        page = await reader.get(service, path, params=query, **kw)
        items += page.get(field, [])
        cursor = page.get("next_cursor")
        if not cursor:
            return items


async def all_games(reader: Any, params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every game of gameplay's list for ``params``, page by page (``next_cursor``)."""
    return await all_items(reader, "gameplay", "/v1/games", "games", params)


class GamePages:
    """Gameplay's game list read page by page with ``If-None-Match``: a page none of whose
    games changed is answered 304 after one narrow read of their versions (no rows loaded, no
    boards built, nothing sent), and the page kept from the last full answer stands for it."""

    def __init__(self, platform: Platform) -> None:
        self.platform = platform
        #: (filters, cursor) -> (ETag, page)
        self._pages: dict[tuple[Any, ...], tuple[str | None, dict[str, Any]]] = {}

    async def pages(self, params: Mapping[str, Any]) -> list[tuple[str | None, dict[str, Any]]]:
        """(ETag, page) of every page of the list for ``params``, in order."""
        filters = tuple(sorted(params.items()))
        out = []
        cursor = None
        while True:
            key = (filters, cursor)
            known = self._pages.get(key)
            query = {**params, "limit": 200, **({"cursor": cursor} if cursor else {})}
            etag, page = await self.platform.get_if_changed(
                "gameplay", "/v1/games", known[0] if known else None, params=query
            )
            if page is not None or known is None:
                known = (etag, page or {})
                self._pages[key] = known
            out.append(known)
            cursor = known[1].get("next_cursor")
            if not cursor:
                return out

    async def games(self, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Every game of the list for ``params`` (as ``all_games`` reads them)."""
        return [game for _, page in await self.pages(params) for game in page.get("games", [])]


def _header(response: Any, name: str) -> str | None:
    """A response header (httpx's, or LeanClient's list of lower-case byte pairs)."""
    if isinstance(response, httpx.Response):
        return response.headers.get(name)
    wanted = name.lower().encode()
    return next((value.decode("latin-1") for key, value in response.headers if key == wanted), None)


def _body(response: Any) -> Any:
    try:
        return response.json()
    except ValueError:
        return {"text": response.text}
