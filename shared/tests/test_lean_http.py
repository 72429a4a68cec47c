"""The simulation's lean HTTP client as the typed partner client's ``httpx.AsyncClient``: plain
requests sent by ``LeanClient`` itself and those with a query through the transport give the
same ``httpx.Response`` (status, headers, body) from a real local HTTP server."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from gomoku_shared.lean_http import LeanAsyncClient, LeanClient


async def _serve(seen: list[tuple[str, dict[str, str], bytes]]) -> asyncio.Server:
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while True:
            line = await reader.readline()
            if not line:
                break
            headers: dict[str, str] = {}
            while (header := await reader.readline()) not in (b"\r\n", b""):
                name, _, value = header.decode().partition(":")
                headers[name.strip().lower()] = value.strip()
            body = await reader.readexactly(int(headers.get("content-length", "0")))
            seen.append((line.decode().split()[1], headers, body))
            out = json.dumps({"got": json.loads(body) if body else None}).encode()
            writer.write(
                b"HTTP/1.1 409 Conflict\r\ncontent-type: application/json\r\nx-correlation-id: c-1\r\n"
                + f"content-length: {len(out)}\r\n\r\n".encode()
                + out
            )
            await writer.drain()
        writer.close()

    return await asyncio.start_server(answer, "127.0.0.1", 0)


async def test_lean_async_client_answers_as_httpx_would():
    seen: list[tuple[str, dict[str, str], bytes]] = []
    server = await _serve(seen)
    port = server.sockets[0].getsockname()[1]
    client = LeanAsyncClient(LeanClient(timeout=5.0))
    try:
        url = f"http://127.0.0.1:{port}/v1/games/g-1/move"
        headers = {"X-API-Key": "k", "Idempotency-Key": "i-1"}
        plain = await client.request("POST", url, json={"point": "h8"}, headers=headers)
        queried = await client.request("POST", url, params={"limit": 2}, json={"point": "h8"}, headers=headers)
    finally:
        await client.aclose()
        server.close()
        await server.wait_closed()
    for response in (plain, queried):
        assert isinstance(response, httpx.Response)
        assert response.status_code == 409
        assert response.headers.get("X-Correlation-Id") == "c-1"
        assert response.json() == {"got": {"point": "h8"}}
    assert [path for path, _, _ in seen] == ["/v1/games/g-1/move", "/v1/games/g-1/move?limit=2"]
    for _, sent, _ in seen:
        assert sent["x-api-key"] == "k" and sent["idempotency-key"] == "i-1"


async def test_a_304_answer_has_no_body_and_its_connection_is_reused():
    """304 Not Modified carries no Content-Length and no body (RFC 9110): the client must not
    wait for one, and the keep-alive connection serves the next request."""
    connections = []

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connections.append(1)
        while await reader.readline():
            headers: dict[str, str] = {}
            while (header := await reader.readline()) not in (b"\r\n", b""):
                name, _, value = header.decode().partition(":")
                headers[name.strip().lower()] = value.strip()
            if headers.get("if-none-match") == '"v1"':
                writer.write(b'HTTP/1.1 304 Not Modified\r\netag: "v1"\r\n\r\n')
            else:
                writer.write(b'HTTP/1.1 200 OK\r\netag: "v1"\r\ncontent-length: 2\r\n\r\n{}')
            await writer.drain()
        writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0)
    url = f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/v1/games"
    client = LeanClient(timeout=5.0)
    try:
        full = await client.request("GET", url)
        unchanged = await client.request("GET", url, headers={"If-None-Match": '"v1"'})
        again = await client.request("GET", url)
    finally:
        await client.aclose()
        server.close()
        await server.wait_closed()
    assert (full.status_code, full.json()) == (200, {})
    assert (unchanged.status_code, unchanged.content) == (304, b"")
    assert (b"etag", b'"v1"') in unchanged.headers
    assert again.status_code == 200 and len(connections) == 1


class Served:
    """A real HTTP/1.1 server on a local socket whose answer to each request is ``reply``'s
    bytes (None: the connection is closed without an answer; bytes and False: closed after
    the answer, as a server whose keep-alive timeout ran out); counts connections and requests."""

    def __init__(self, reply) -> None:
        self.reply = reply
        self.connections = 0
        self.requests: list[str] = []
        self.server: asyncio.Server | None = None

    async def __aenter__(self) -> Served:
        self.server = await asyncio.start_server(self._answer, "127.0.0.1", 0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self.server is not None
        self.server.close()
        await self.server.wait_closed()
        await asyncio.sleep(0.01)  # the connections' handlers end (the client aborted them)

    @property
    def url(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}"

    async def _answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            while line := await reader.readline():
                while await reader.readline() not in (b"\r\n", b""):
                    pass
                self.requests.append(line.decode().split()[1])
                out = await self.reply(len(self.requests), self.connections)
                if out is None:
                    break
                out, keep = out if isinstance(out, tuple) else (out, True)
                writer.write(out)
                await writer.drain()
                if not keep:
                    break
        except ConnectionError:
            pass
        finally:
            writer.close()


def _json_answer(body: bytes) -> bytes:
    return b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: %d\r\n\r\n%s" % (len(body), body)


async def test_the_portal_reads_reuse_one_kept_alive_connection_and_read_chunked_answers():
    """Requests one after the other go over one connection (the last one freed); an answer sent
    in chunks is read whole, and its connection serves the next request."""

    async def reply(n: int, _conn: int) -> bytes:
        if n == 2:
            return (
                b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n"
                b'5;x=1\r\n{"n":\r\n2\r\n2}\r\n0\r\n\r\n'
            )
        return _json_answer(b'{"n":%d}' % n)

    async with Served(reply) as served:
        client = LeanAsyncClient(LeanClient(timeout=5.0, max_connections=4), served.url)
        try:
            answers = [await client.get(f"/v1/games/g-{i}", headers={"x-api-key": "k"}) for i in range(1, 4)]
        finally:
            await client.aclose()
    assert [a.json() for a in answers] == [{"n": 1}, {"n": 2}, {"n": 3}]
    assert (
        answers[1].headers.get("transfer-encoding") is None and answers[0].headers["content-type"] == "application/json"
    )
    assert served.requests == ["/v1/games/g-1", "/v1/games/g-2", "/v1/games/g-3"]
    assert served.connections == 1


async def test_reads_at_once_beyond_the_cap_wait_for_a_connection():
    async def reply(n: int, _conn: int) -> bytes:
        await asyncio.sleep(0.01)
        return _json_answer(b"{}")

    async with Served(reply) as served:
        client = LeanAsyncClient(LeanClient(timeout=5.0, max_connections=2), served.url)
        try:
            answers = await asyncio.gather(*(client.get(f"/v1/games/g-{i}") for i in range(10)))
        finally:
            await client.aclose()
    assert [a.status_code for a in answers] == [200] * 10
    assert served.connections == 2


async def test_a_kept_connection_the_server_dropped_is_replaced_and_the_read_sent_again():
    """The server closes a kept-alive connection (its keep-alive timeout) while the client holds
    it idle, or without answering the next request on it: the read goes again on a new one."""

    async def reply(n: int, _conn: int) -> bytes | None:
        return None if n == 2 else _json_answer(b'{"n":%d}' % n)

    async with Served(reply) as served:
        client = LeanAsyncClient(LeanClient(timeout=5.0), served.url)
        try:
            first = await client.get("/a")
            second = await client.get("/b")  # the kept connection closes unanswered: sent again
        finally:
            await client.aclose()
    assert (first.json(), second.json()) == ({"n": 1}, {"n": 3})
    assert served.requests == ["/a", "/b", "/b"] and served.connections == 2

    async def close_after(n: int, _conn: int) -> tuple[bytes, bool]:
        return _json_answer(b'{"n":%d}' % n), False

    async with Served(close_after) as served:
        client = LeanAsyncClient(LeanClient(timeout=5.0), served.url)
        try:
            first = await client.get("/a")
            await asyncio.sleep(0.05)  # the close reaches the client while the connection is idle
            second = await client.get("/b")
        finally:
            await client.aclose()
    assert (first.json(), second.json()) == ({"n": 1}, {"n": 2})
    assert served.requests == ["/a", "/b"] and served.connections == 2  # nothing sent on the closed one


async def test_a_new_connection_dropped_unanswered_is_a_transport_error_not_a_retry():
    async def reply(n: int, _conn: int) -> None:
        return None

    async with Served(reply) as served:
        client = LeanAsyncClient(LeanClient(timeout=5.0), served.url)
        try:
            with pytest.raises(httpx.ReadError):
                await client.get("/a")
        finally:
            await client.aclose()
    assert served.requests == ["/a"]


async def test_no_answer_in_time_is_a_read_timeout_and_a_refused_connection_a_connect_error():
    never = asyncio.Event()

    async def reply(n: int, _conn: int) -> bytes:
        await never.wait()
        return b""

    async with Served(reply) as served:
        url = served.url
        client = LeanAsyncClient(LeanClient(timeout=0.2), url)
        try:
            with pytest.raises(httpx.ReadTimeout):
                await client.get("/slow")
        finally:
            await client.aclose()
        never.set()
    closed = LeanAsyncClient(LeanClient(timeout=1.0), url)  # nothing listens there now
    with pytest.raises(httpx.ConnectError):
        await closed.get("/a")
    await closed.aclose()
