"""A small HTTP/1.1 keep-alive client for the distributed simulation.

The simulated partner apps send a few hundred thousand requests in a full-size event, from one
process that also thinks for every bot. httpx spent more CPU per request on its connection
pool's bookkeeping (every pooled connection is polled on every request) than the bots spent
thinking. This client does only what the driver needs: JSON in, JSON out, keep-alive
connections reused last-in first-out, Content-Length or chunked bodies, a timeout. Transport
failures surface as ``ConnectionError`` (an ``OSError``), which ``Platform`` retries.
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


class _Conn:
    __slots__ = ("reader", "writer")

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    def close(self) -> None:
        self.writer.transport.abort()


class LeanClient:
    def __init__(self, timeout: float = 30.0) -> None:
        self.timeout = timeout
        self._idle: dict[tuple[str, int], list[_Conn]] = {}

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
        try:
            async with asyncio.timeout(self.timeout):
                return await self._exchange((host, port), data, method)
        except TimeoutError as exc:
            raise ConnectionError(f"no answer from {host}:{port} in {self.timeout:.0f}s") from exc

    async def _exchange(self, addr: tuple[str, int], data: bytes, method: str = "GET") -> LeanResponse:
        idle = self._idle.setdefault(addr, [])
        reused = bool(idle)
        conn = idle.pop() if idle else await self._open(addr)
        try:
            conn.writer.write(data)
            status_line = await conn.reader.readline()
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
    client's — sends over it. Transport failures surface as ``httpx.ConnectError``."""

    def __init__(self, lean: LeanClient) -> None:
        self.lean = lean

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        headers = {k: v for k, v in request.headers.items() if k.lower() not in _OWN_HEADERS}
        try:
            answer = await self.lean.request(
                request.method, str(request.url), headers=headers, content=await request.aread()
            )
        except ConnectionRefusedError as exc:  # nothing was sent
            raise httpx.ConnectError(str(exc), request=request) from exc
        except ConnectionError as exc:
            raise httpx.ReadError(str(exc), request=request) from exc
        kept = [
            (k, v) for k, v in answer.headers if k not in (b"content-length", b"transfer-encoding", b"content-encoding")
        ]
        return httpx.Response(answer.status_code, headers=kept, content=answer.content, request=request)

    async def aclose(self) -> None:
        await self.lean.aclose()


class LeanAsyncClient(httpx.AsyncClient):
    """An ``httpx.AsyncClient`` for the typed partner client whose plain requests (a game read,
    a player action: method, URL, JSON body, headers; no query) go straight to ``LeanClient``,
    without httpx's request building, cookie jar, auth and redirect steps (as much CPU per
    request as the bots' thinking). Anything else (streams, forms) goes through ``LeanTransport``
    the usual way. The answer is an ``httpx.Response`` as the transport would have given."""

    def __init__(self, lean: LeanClient) -> None:
        super().__init__(transport=LeanTransport(lean), timeout=lean.timeout)
        self.lean = lean

    async def request(self, method: str, url: Any, **kwargs: Any) -> httpx.Response:
        if not isinstance(url, str) or not _PLAIN.issuperset(kwargs) or kwargs.get("params"):
            return await super().request(method, url, **kwargs)
        headers = kwargs.get("headers") or {}
        try:
            answer = await self.lean.request(
                method,
                url,
                json=kwargs.get("json"),
                params=kwargs.get("params"),
                headers={k: v for k, v in headers.items() if k.lower() not in _OWN_HEADERS},
            )
        except ConnectionRefusedError as exc:  # nothing was sent
            raise httpx.ConnectError(str(exc)) from exc
        except ConnectionError as exc:
            raise httpx.ReadError(str(exc)) from exc
        kept = [
            (k, v) for k, v in answer.headers if k not in (b"content-length", b"transfer-encoding", b"content-encoding")
        ]
        return httpx.Response(answer.status_code, headers=kept, content=answer.content)


#: the keyword arguments of a request LeanAsyncClient sends itself
_PLAIN = frozenset({"params", "json", "headers"})
