"""A small HTTP/1.1 keep-alive client: the distributed simulation's and the portal's reads.

The simulated partner apps send a few hundred thousand requests in a full-size event, from one
process that also thinks for every bot; the portal reads the services for every page of 1,000
arriving spectators. httpx spent more CPU per request on its connection pool's bookkeeping (the
pool looks over every connection it holds for each request it places) than the bots spent
thinking, and a third of the portal's. This client does only what they need: JSON in, JSON out,
keep-alive connections reused last-in first-out, Content-Length or chunked bodies, a timeout, an
optional cap on connections per server. Transport failures surface as ``ConnectionError`` (an
``OSError``), which the simulation's ``Platform`` retries; no answer in time as ``NoAnswer``.
"""

from __future__ import annotations

import asyncio
import json as jsonlib
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode, urlsplit

import httpx


class LeanResponse:
    __slots__ = ("status_code", "content", "headers")

    def __init__(self, status_code: int, content: bytes, headers: list[tuple[bytes, bytes]] | None = None) -> None:
        self.status_code = status_code
        self.content = content
        self.headers = headers or []

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", "replace")

    def json(self) -> Any:
        return jsonlib.loads(self.content)


class NoAnswer(ConnectionError):
    """No answer within the client's timeout (waiting for a connection included)."""


class _Conn:
    __slots__ = ("reader", "writer")

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    def close(self) -> None:
        self.writer.transport.abort()


class LeanClient:
    """``max_connections``: per server (host, port); a request beyond them waits for one to be
    free, within its timeout. None: a new connection whenever none is idle."""

    def __init__(self, timeout: float = 30.0, max_connections: int | None = None) -> None:
        self.timeout = timeout
        self.max_connections = max_connections
        self._idle: dict[tuple[str, int], list[_Conn]] = {}
        self._free: dict[tuple[str, int], asyncio.Semaphore] = {}

    async def request(
        self,
        method: str,
        url: str,
        *,
        json: Any = None,
        params: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
        content: bytes | None = None,
    ) -> LeanResponse:
        parts = urlsplit(url)
        host, port = parts.hostname or "127.0.0.1", parts.port or 80
        target = parts.path or "/"
        query = parts.query
        if params:
            query = (query + "&" if query else "") + urlencode({k: v for k, v in params.items() if v is not None})
        if query:
            target += "?" + query
        if content is not None:
            body = content
        else:
            body = b"" if json is None else jsonlib.dumps(json, separators=(",", ":")).encode()
        head = [f"{method} {target} HTTP/1.1", f"host: {host}:{port}", f"content-length: {len(body)}"]
        if json is not None:
            head.append("content-type: application/json")
        for k, v in (headers or {}).items():
            head.append(f"{k}: {v}")
        data = ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body
        addr = (host, port)
        try:
            async with asyncio.timeout(self.timeout):
                if self.max_connections is None:
                    return await self._exchange(addr, data, method)
                free = self._free.get(addr)
                if free is None:
                    free = self._free[addr] = asyncio.Semaphore(self.max_connections)
                async with free:
                    return await self._exchange(addr, data, method)
        except TimeoutError as exc:
            raise NoAnswer(f"no answer from {host}:{port} in {self.timeout:g}s") from exc

    async def _exchange(self, addr: tuple[str, int], data: bytes, method: str = "GET") -> LeanResponse:
        idle = self._idle.setdefault(addr, [])
        while idle and idle[-1].reader.at_eof():
            idle.pop().close()  # closed by the server while idle (its keep-alive timeout)
        reused = bool(idle)
        conn = idle.pop() if idle else await self._open(addr)
        try:
            conn.writer.write(data)
            try:
                status_line = await conn.reader.readline()
            except ConnectionResetError:
                if not reused or method not in ("GET", "HEAD"):
                    raise
                status_line = b""  # a read reset on a reused connection: as if closed unread
            if not status_line and reused:
                # the server closed this idle keep-alive connection before reading the request:
                # send it once more on a new connection (nothing was processed)
                conn.close()
                conn = await self._open(addr)
                conn.writer.write(data)
                status_line = await conn.reader.readline()
            if not status_line:
                raise ConnectionError(f"{addr[0]}:{addr[1]} closed the connection")
            status = int(status_line.split(None, 2)[1])
            length, chunked, close = None, False, False
            received: list[tuple[bytes, bytes]] = []
            while True:
                line = await conn.reader.readline()
                if line in (b"\r\n", b"\n"):
                    break
                if not line:
                    raise ConnectionError("connection closed in the response headers")
                name, _, value = line.partition(b":")
                name = name.strip().lower()
                received.append((name, value.strip()))
                if name == b"content-length":
                    length = int(value)
                elif name == b"transfer-encoding" and b"chunked" in value.lower():
                    chunked = True
                elif name == b"connection" and b"close" in value.lower():
                    close = True
            if status in (204, 304) or status < 200 or method == "HEAD":
                content = b""  # no body, whatever the headers say (RFC 9110 6.4.1)
            elif chunked:
                content = await self._chunks(conn.reader)
            elif length is not None:
                content = await conn.reader.readexactly(length)
            else:
                content, close = await conn.reader.read(), True
        except (OSError, asyncio.IncompleteReadError, ValueError, IndexError) as exc:
            conn.close()
            if isinstance(exc, ConnectionError):
                raise
            raise ConnectionError(f"HTTP exchange with {addr[0]}:{addr[1]} failed: {exc!r}") from exc
        except BaseException:
            conn.close()  # cancelled or timed out mid-exchange: the connection's state is unknown
            raise
        if close:
            conn.close()
        else:
            idle.append(conn)
        return LeanResponse(status, content, received)

    @staticmethod
    async def _chunks(reader: asyncio.StreamReader) -> bytes:
        out = bytearray()
        while True:
            size = int((await reader.readline()).split(b";")[0].strip(), 16)
            if size == 0:
                await reader.readline()
                return bytes(out)
            out += await reader.readexactly(size)
            await reader.readline()

    async def _open(self, addr: tuple[str, int]) -> _Conn:
        reader, writer = await asyncio.open_connection(*addr, limit=2**22)
        return _Conn(reader, writer)

    async def aclose(self) -> None:
        for conns in self._idle.values():
            for conn in conns:
                conn.close()
        self._idle.clear()


#: request headers LeanClient writes itself (or that would ask for a compressed answer)
_OWN_HEADERS = frozenset({"host", "content-length", "transfer-encoding", "connection", "accept-encoding"})


class LeanTransport(httpx.AsyncBaseTransport):
    """``LeanClient`` as an httpx transport, so an ``httpx.AsyncClient`` — the typed partner
    client's, the portal's reads — sends over it. Transport failures surface as httpx's
    (``ConnectError``: nothing was sent; ``ReadTimeout``: no answer in time; else ``ReadError``)."""

    def __init__(self, lean: LeanClient) -> None:
        self.lean = lean

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        headers = {k: v for k, v in request.headers.items() if k.lower() not in _OWN_HEADERS}
        return await _as_httpx(
            self.lean, request.method, str(request.url), request, headers=headers, content=await request.aread()
        )

    async def aclose(self) -> None:
        await self.lean.aclose()


class LeanAsyncClient(httpx.AsyncClient):
    """An ``httpx.AsyncClient`` whose plain requests (method, URL, JSON body, headers; no query)
    go straight to ``LeanClient``, without httpx's request building, cookie jar, auth and
    redirect steps (for the typed partner client: as much CPU per request as the bots'
    thinking). Anything else (a query, streams, forms) goes through ``LeanTransport`` the usual
    way. The answer is an ``httpx.Response`` as the transport would have given, but for a plain
    request's, which has no ``request``. ``base_url``: as httpx's, for a path given alone."""

    def __init__(self, lean: LeanClient, base_url: str = "") -> None:
        super().__init__(transport=LeanTransport(lean), timeout=lean.timeout, base_url=base_url)
        self.lean = lean
        self._base = base_url.rstrip("/")

    async def request(self, method: str, url: Any, **kwargs: Any) -> httpx.Response:
        if not isinstance(url, str) or kwargs.get("params") or not _plain(kwargs):
            return await super().request(method, url, **kwargs)
        headers = kwargs.get("headers") or {}
        own = {k: v for k, v in headers.items() if k.lower() not in _OWN_HEADERS}
        if url.startswith("/"):
            url = self._base + url
        return await _as_httpx(self.lean, method, url, None, json=kwargs.get("json"), headers=own)


def _plain(kwargs: Mapping[str, Any]) -> bool:
    """Only a JSON body and headers, the other arguments left as they come (``get`` passes them all)."""
    return all(name in _PLAIN or value is None or value is httpx.USE_CLIENT_DEFAULT for name, value in kwargs.items())


async def _as_httpx(
    lean: LeanClient, method: str, url: str, request: httpx.Request | None, **kwargs: Any
) -> httpx.Response:
    """``lean``'s answer as the ``httpx.Response`` an httpx transport gives, its failures as httpx's."""
    try:
        answer = await lean.request(method, url, **kwargs)
    except ConnectionRefusedError as exc:  # nothing was sent
        raise httpx.ConnectError(str(exc), request=request) from exc
    except NoAnswer as exc:
        raise httpx.ReadTimeout(str(exc), request=request) from exc
    except ConnectionError as exc:
        raise httpx.ReadError(str(exc), request=request) from exc
    kept = [(k, v) for k, v in answer.headers if k not in _BODY_HEADERS]
    return httpx.Response(answer.status_code, headers=kept, content=answer.content, request=request)


#: answer headers about the body as sent, which the decoded ``content`` no longer has
_BODY_HEADERS = (b"content-length", b"transfer-encoding", b"content-encoding")
#: the keyword arguments of a request LeanAsyncClient sends itself
_PLAIN = frozenset({"params", "json", "headers"})
