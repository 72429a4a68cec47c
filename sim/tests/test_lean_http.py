"""The simulation's lean HTTP client as the typed partner client's ``httpx.AsyncClient``: plain
requests sent by ``LeanClient`` itself and those with a query through the transport give the
same ``httpx.Response`` (status, headers, body) from a real local HTTP server."""

from __future__ import annotations

import asyncio
import json

import httpx

from gomoku_sim.lean_http import LeanAsyncClient, LeanClient


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
