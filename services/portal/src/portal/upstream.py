"""How the pages reach the services: over HTTP to their base URLs (distributed mode) or
in-process to the mounted service apps (embedded mode, see docs/adr/0001-portal-reads-apis.md).

Either way the request is the services' public HTTP API with the portal's read-only key, so a
page shows exactly what any API client would see.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any

import httpx
from starlette.types import ASGIApp
from websockets.asyncio.client import connect as ws_connect

from gomoku_shared.lean_http import LeanAsyncClient, LeanClient
from gomoku_shared.tokens import looks_like_jwt

from . import read_cache
from .read_cache import Kept

#: connections per service for the pages' reads (one process; more reads wait for one)
READ_CONNECTIONS = 32
#: where a shared answer keeps its decoded JSON (``Upstream.get_shared``)
_DECODED = "_portal_decoded"
#: where a shared answer keeps its digest as an input of the pages (``Upstream._get``)
_DIGEST = "_portal_digest"
#: the address the services see the embedded pages' own reads come from
PAGES_ADDRESS = "127.0.0.2"


class UpstreamError(Exception):
    """A service answered with an error or could not be reached."""

    def __init__(self, service: str, status: int, code: str = "") -> None:
        super().__init__(f"{service}: {status} {code}")
        self.service = service
        self.status = status
        self.code = code


def error_code(response: httpx.Response) -> str:
    """The ``error.code`` of the platform's common error body, or ""."""
    try:
        body = response.json()
    except ValueError:
        return ""
    error = body.get("error") if isinstance(body, dict) else None
    return str(error.get("code", "")) if isinstance(error, dict) else ""


class Flights:
    """Identical reads at once share one request, and stay exact: a read joins only a request
    that begins after it arrived. One request per key is in flight; the reads arriving meanwhile
    wait for the next one, begun when it lands, which answers all of them (at most two requests per
    key, whatever the number of readers). With 1,000 spectators loading pages, each page's reads of
    the same section, event and round boards became one request per round trip instead of one per
    page, which had kept gameplay and the portal's connection pool busy (issue 33)."""

    def __init__(self) -> None:
        #: key -> [the request in flight, the future of the next one (None: nobody waits)]
        self._flying: dict[Any, list[Any]] = {}

    async def read(self, key: Any, fetch: Callable[[], Awaitable[Any]]) -> Any:
        flight = self._flying.get(key)
        if flight is None:
            task = self._launch(key, fetch)
            self._flying[key] = [task, None]
            return await asyncio.shield(task)
        if flight[1] is None:
            flight[1] = asyncio.get_running_loop().create_future()
            flight.append(fetch)
        return await asyncio.shield(flight[1])

    def _launch(self, key: Any, fetch: Callable[[], Awaitable[Any]]) -> asyncio.Future[Any]:
        task = asyncio.ensure_future(fetch())
        task.add_done_callback(functools.partial(self._landed, key))
        return task

    def _landed(self, key: Any, task: asyncio.Future[Any]) -> None:
        if not task.cancelled():
            task.exception()  # retrieved: a reader that left does not leave it unheard
        flight = self._flying.get(key)
        if flight is None or flight[0] is not task:
            return
        waiting = flight[1]
        if waiting is None:
            del self._flying[key]
            return
        follow = self._launch(key, flight[2])
        self._flying[key] = [follow, None]
        follow.add_done_callback(functools.partial(_settle, waiting))


def _settle(waiting: asyncio.Future[Any], task: asyncio.Future[Any]) -> None:
    if waiting.done():
        return
    if task.cancelled():
        waiting.cancel()
    elif task.exception() is not None:
        waiting.set_exception(task.exception())  # type: ignore[arg-type]
    else:
        waiting.set_result(task.result())
    if waiting.done() and not waiting.cancelled():
        waiting.exception()  # retrieved (every reader may have left)


class Upstream:
    def __init__(
        self,
        clients: Mapping[str, httpx.AsyncClient],
        api_key: str,
        apps: Mapping[str, ASGIApp] | None = None,
        read_clients: Mapping[str, httpx.AsyncClient] | None = None,
    ) -> None:
        self.clients = dict(clients)
        #: the pages' reads (``get``): a pool of their own, bounded (see ``over_http``)
        self.read_clients = dict(read_clients or clients)
        self.api_key = api_key
        #: embedded mode: the service apps themselves, for streams (httpx's ASGI transport
        #: buffers a whole response, so a never-ending event stream is passed through as ASGI)
        self.apps = dict(apps or {})
        #: called before the clients close (the live feeds reading streams through them)
        self.on_close: list[Callable[[], Awaitable[None]]] = []
        #: answers that came with an ETag, asked for again with If-None-Match (read_cache.py)
        self.answers = read_cache.Lru(read_cache.MAX_ANSWERS)
        #: identical reads in flight at once share one request
        self.flights = Flights()

    @classmethod
    def over_http(cls, base_urls: Mapping[str, str], api_key: str, timeout_s: float) -> Upstream:
        # no cap on connections: each followed game holds one open for its stream
        limits = httpx.Limits(max_connections=None, max_keepalive_connections=64)
        clients = {
            name: httpx.AsyncClient(base_url=url.rstrip("/"), timeout=timeout_s, limits=limits)
            for name, url in base_urls.items()
        }
        # the reads in a pool of their own, capped, over the lean client: httpx's connection pool
        # looks over every connection it holds for each request it places and each answer it
        # closes, a third of the portal's CPU while 1,000 spectators arrive; the lean client
        # reuses the last connection freed. Beyond the cap a read waits for a connection (issue 33)
        read_clients: dict[str, httpx.AsyncClient] = {
            name: LeanAsyncClient(LeanClient(timeout=timeout_s, max_connections=READ_CONNECTIONS), url.rstrip("/"))
            for name, url in base_urls.items()
        }
        return cls(clients, api_key, read_clients=read_clients)

    @classmethod
    def in_process(cls, apps: Mapping[str, ASGIApp], api_key: str, timeout_s: float) -> Upstream:
        clients = {
            name: httpx.AsyncClient(
                transport=httpx.ASGITransport(app=app),
                base_url=f"http://{name}",
                timeout=timeout_s,
                # the pages' own reads as an address of their own: the in-process peer is 127.0.0.1,
                # which every local client shares, and wrong keys from it must not lock the pages
                # out (a person's call through the console names its own address instead)
                headers={"x-forwarded-for": PAGES_ADDRESS},
            )
            for name, app in apps.items()
        }
        return cls(clients, api_key, apps)

    async def aclose(self) -> None:
        for hook in self.on_close:
            await hook()
        for c in self.clients.values():
            await c.aclose()
        for c in self.read_clients.values():
            if c not in self.clients.values():
                await c.aclose()

    async def _get(
        self, service: str, path: str, params: Mapping[str, Any] | None, noted: bool = True
    ) -> httpx.Response:
        """A read; an answer kept with its ETag is asked for again conditionally and a 304 is
        served from it (read_cache.py). Concurrent identical reads share one request (``Flights``).
        The answer is noted as an input of the current page (unless ``noted`` is False: a read
        made for every viewer, such as a feed's view, which the pages note by its own digest)."""
        key = (service, path, tuple(sorted((params or {}).items())))
        r = await self.flights.read(key, functools.partial(self._read, service, path, params, key))
        if noted:
            # made once per answer, whatever the readers that shared it (Flights)
            digest = getattr(r, _DIGEST, None)
            if digest is None:
                digest = read_cache.answer_digest(service, repr(key[1:]), r.content)
                setattr(r, _DIGEST, digest)
            read_cache.note_digest(digest)
        return r

    async def _read(
        self, service: str, path: str, params: Mapping[str, Any] | None, key: tuple[Any, ...]
    ) -> httpx.Response:
        kept: Kept | None = self.answers.get(key)
        headers = {"x-api-key": self.api_key}
        if kept is not None:
            headers["if-none-match"] = kept.etag
        try:
            r = await self.read_clients[service].get(path, params=params, headers=headers)
        except httpx.HTTPError as exc:
            raise UpstreamError(service, 503, type(exc).__name__) from exc
        if r.status_code == 304 and kept is not None:
            r = httpx.Response(kept.status, headers=kept.headers, content=kept.content)
        elif r.status_code >= 400:
            raise UpstreamError(service, r.status_code, error_code(r))
        elif r.status_code == 200 and r.headers.get("etag"):
            content_type = {"content-type": r.headers.get("content-type", "application/json")}
            self.answers.put(key, Kept(r.headers["etag"], 200, content_type, r.content))
        return r

    async def get(self, service: str, path: str, params: Mapping[str, Any] | None = None, *, noted: bool = True) -> Any:
        return (await self._get(service, path, params, noted)).json()

    async def get_shared(self, service: str, path: str, params: Mapping[str, Any] | None = None) -> Any:
        """As ``get``, but decoded once for every reader that shared the request (``Flights``):
        the same object for all of them, which none may change (a round's boards, read by every
        spectator loading the wall: decoding them per reader was the portal's largest cost)."""
        r = await self._get(service, path, params)
        decoded = getattr(r, _DECODED, None)
        if decoded is None:
            decoded = r.json()
            setattr(r, _DECODED, decoded)
        return decoded

    async def get_text(self, service: str, path: str, params: Mapping[str, Any] | None = None) -> str:
        return (await self._get(service, path, params)).text

    async def optional(self, service: str, path: str, params: Mapping[str, Any] | None = None) -> Any:
        """The answer, or None when the service says 404 (not published yet, not paired yet)."""
        try:
            return await self.get(service, path, params)
        except UpstreamError as exc:
            if exc.status == 404:
                return None
            raise

    async def as_person(
        self,
        service: str,
        method: str,
        path: str,
        api_key: str,
        body: Any = None,
        params: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
        client: str | None = None,
    ) -> tuple[int, Any]:
        """A call with a signed-in person's own key or access token (the staff console): the status and the JSON
        answer, refusals included (the page shows them in words). ``client``: the person's
        address, so the service throttles a wrong key per person, not per portal."""
        read_cache.note_unkeyed()  # a page drawn with a person's own answers is never kept
        headers: dict[str, str] = {}
        if looks_like_jwt(api_key):  # a person's access token (issue 29)
            headers["authorization"] = f"Bearer {api_key}"
        elif api_key:  # an API key; none: a call before signing in (the identity API's sign-in)
            headers["x-api-key"] = api_key
        if client:
            headers["x-forwarded-for"] = client
        if idempotency_key:
            headers["idempotency-key"] = idempotency_key
        if service not in self.clients:  # a portal without that service (e.g. no partners)
            return 503, {"error": {"code": "unavailable", "message": service}}
        try:
            r = await self.clients[service].request(method, path, json=body, params=params, headers=headers)
        except httpx.HTTPError as exc:
            return 503, {"error": {"code": "unavailable", "message": type(exc).__name__}}
        try:
            return r.status_code, r.json()
        except ValueError:
            return r.status_code, {"error": {"code": "", "message": r.text[:200]}}

    async def file_as_person(self, service: str, path: str, api_key: str) -> tuple[int, str, bytes]:
        """A file (a registrant's document, issue 34) read with a signed-in person's own
        credential: its status, media type and bytes; never kept in any cache."""
        read_cache.note_unkeyed()
        headers = {"authorization": f"Bearer {api_key}"} if looks_like_jwt(api_key) else {"x-api-key": api_key}
        if service not in self.clients:
            return 503, "", b""
        try:
            r = await self.clients[service].get(path, headers=headers)
        except httpx.HTTPError:
            return 503, "", b""
        return r.status_code, r.headers.get("content-type", ""), r.content

    @contextlib.asynccontextmanager
    async def open_socket(self, service: str, path: str, query: str) -> AsyncIterator[AsyncIterator[str]]:
        """A WebSocket of the service (a round's event stream) as its text messages."""
        headers = {"x-api-key": self.api_key}
        if service in self.apps:
            async with _asgi_socket(self.apps[service], path, query, headers) as in_process:
                yield in_process
            return
        base = str(self.clients[service].base_url).rstrip("/")
        url = "ws" + base[len("http") :] + path + ("?" + query if query else "")
        async with ws_connect(url, additional_headers=headers, open_timeout=5, max_size=2**22) as socket:

            async def received() -> AsyncIterator[str]:
                async for message in socket:
                    yield message if isinstance(message, str) else message.decode()

            yield received()

    @contextlib.asynccontextmanager
    async def open_stream(self, service: str, path: str, query: str) -> AsyncIterator[AsyncIterator[bytes]]:
        """The service's never-ending answer at ``path`` as byte chunks (a game's event stream)."""
        headers = {"x-api-key": self.api_key, "accept": "text/event-stream"}
        if service in self.apps:
            async with _asgi_stream(self.apps[service], path, query, headers) as chunks:
                yield chunks
            return
        client = self.clients[service]
        request = client.build_request(
            "GET", path + ("?" + query if query else ""), headers=headers, timeout=httpx.Timeout(None, connect=5.0)
        )
        response = await client.send(request, stream=True)
        try:
            if response.status_code != 200:
                raise UpstreamError(service, response.status_code)
            yield response.aiter_raw()
        finally:
            await response.aclose()


@contextlib.asynccontextmanager
async def _asgi_socket(
    app: ASGIApp, path: str, query: str, headers: Mapping[str, str]
) -> AsyncIterator[AsyncIterator[str]]:
    """A WebSocket opened on a mounted app in-process: its text messages as they are sent."""
    messages: asyncio.Queue[str | None] = asyncio.Queue()
    connected = asyncio.Event()
    gone = asyncio.Event()
    outcome: list[str] = []
    sent_connect = False

    async def receive() -> dict[str, Any]:
        nonlocal sent_connect
        if not sent_connect:
            sent_connect = True
            return {"type": "websocket.connect"}
        await gone.wait()
        return {"type": "websocket.disconnect", "code": 1000}

    async def send(message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "websocket.accept":
            outcome.append("accepted")
            connected.set()
        elif kind == "websocket.send":
            await messages.put(message.get("text") or (message.get("bytes") or b"").decode())
        elif kind == "websocket.close":
            outcome.append(f"closed {message.get('code', 1000)}")
            connected.set()
            await messages.put(None)

    async def ended() -> None:
        connected.set()
        await messages.put(None)

    scope = _scope("websocket", "ws", path, query, headers, subprotocols=[])
    async with _serving(app, scope, receive, send, ended, gone):
        await connected.wait()
        if not outcome or outcome[0] != "accepted":
            raise UpstreamError("gameplay", 403, outcome[0] if outcome else "refused")

        async def texts() -> AsyncIterator[str]:
            while (text := await messages.get()) is not None:
                yield text

        yield texts()


@contextlib.asynccontextmanager
async def _asgi_stream(
    app: ASGIApp, path: str, query: str, headers: Mapping[str, str]
) -> AsyncIterator[AsyncIterator[bytes]]:
    """A GET handed to a mounted app in-process, its body read chunk by chunk as it is sent
    (httpx's ASGI transport would wait for the end of a stream that does not end)."""
    chunks: asyncio.Queue[bytes | None] = asyncio.Queue()
    gone = asyncio.Event()
    status: list[int] = []
    started = asyncio.Event()

    async def receive() -> dict[str, Any]:
        await gone.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            status.append(message["status"])
            started.set()
        elif message["type"] == "http.response.body":
            if message.get("body"):
                await chunks.put(message["body"])
            if not message.get("more_body"):
                await chunks.put(None)

    async def ended() -> None:
        started.set()
        await chunks.put(None)

    scope = _scope("http", "http", path, query, headers, method="GET")
    async with _serving(app, scope, receive, send, ended, gone):
        await started.wait()
        if not status or status[0] != 200:
            raise UpstreamError("gameplay", status[0] if status else 503)

        async def body() -> AsyncIterator[bytes]:
            while (chunk := await chunks.get()) is not None:
                yield chunk

        yield body()


def _scope(kind: str, scheme: str, path: str, query: str, headers: Mapping[str, str], **more: Any) -> dict[str, Any]:
    """The ASGI scope of a request (``http``) or a WebSocket handed to a mounted app in-process."""
    return {
        "type": kind,
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "scheme": scheme,
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": query.encode("latin-1"),
        "headers": [(k.encode(), v.encode("latin-1")) for k, v in headers.items()],
        "client": ("127.0.0.1", 0),
        "server": ("portal", 80),
        **more,
    }


@contextlib.asynccontextmanager
async def _serving(
    app: ASGIApp,
    scope: dict[str, Any],
    receive: Callable[[], Awaitable[dict[str, Any]]],
    send: Callable[[dict[str, Any]], Awaitable[None]],
    ended: Callable[[], Awaitable[None]],
    gone: asyncio.Event,
) -> AsyncIterator[None]:
    """`app` serving `scope` in a task of its own (`ended` runs when it is done); on leaving, the
    client is gone (`gone` set) and the task cancelled and awaited."""

    async def run() -> None:
        try:
            await app(scope, receive, send)  # type: ignore[arg-type]
        finally:
            await ended()

    task = asyncio.create_task(run())
    try:
        yield
    finally:
        gone.set()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
