"""The pages' reads over HTTP (distributed mode) go over the lean keep-alive client: against a
real served socket, answers, conditional reads and the service's refusals come through as
before, and a dropped connection, no answer in time or no service at all is a 503 for the page
(``UpstreamError``), never an unhandled error."""

from __future__ import annotations

import asyncio
import json

import pytest

from portal.upstream import Upstream, UpstreamError


class Gameplay:
    """A served socket answering the reads: a tagged view (304 when asked with its tag), a 404
    with the platform's error body, a read it never answers, a read whose connection it drops."""

    def __init__(self) -> None:
        self.connections = 0
        self.seen: list[tuple[str, dict[str, str]]] = []
        self.server: asyncio.Server | None = None
        self.released = asyncio.Event()

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}"

    async def stop(self) -> None:
        assert self.server is not None
        self.released.set()
        self.server.close()
        await asyncio.sleep(0.01)  # the connections' handlers end

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            while line := await reader.readline():
                headers: dict[str, str] = {}
                while (header := await reader.readline()) not in (b"\r\n", b""):
                    name, _, value = header.decode().partition(":")
                    headers[name.strip().lower()] = value.strip()
                path = line.decode().split()[1]
                self.seen.append((path, headers))
                if path == "/v1/games/slow":
                    await self.released.wait()
                if path == "/v1/games/dropped":
                    break
                writer.write(self._answer(path, headers))
                await writer.drain()
        except ConnectionError:
            pass  # the client went (its connection aborted)
        finally:
            writer.close()

    @staticmethod
    def _answer(path: str, headers: dict[str, str]) -> bytes:
        if path == "/v1/games/g1" and headers.get("if-none-match") == '"v1"':
            return b'HTTP/1.1 304 Not Modified\r\netag: "v1"\r\n\r\n'
        if path == "/v1/games/g1":
            body = json.dumps({"game_id": "g1", "moves": ["h8"]}).encode()
            return (
                b'HTTP/1.1 200 OK\r\netag: "v1"\r\ncontent-type: application/json\r\ncontent-length: %d\r\n\r\n%s'
                % (
                    len(body),
                    body,
                )
            )
        body = json.dumps({"error": {"code": "game_not_found", "message": "no such game"}}).encode()
        return b"HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: %d\r\n\r\n%s" % (
            len(body),
            body,
        )


@pytest.fixture
async def gameplay():
    service = Gameplay()
    url = await service.start()
    upstream = Upstream.over_http({"gameplay": url}, "pages-key", timeout_s=0.5)
    yield service, upstream
    await upstream.aclose()
    await service.stop()


async def test_reads_answers_conditional_reads_and_refusals_over_one_kept_connection(gameplay):
    service, upstream = gameplay
    first = await upstream.get("gameplay", "/v1/games/g1")
    again = await upstream.get("gameplay", "/v1/games/g1")  # asked with its tag: 304, served kept
    with pytest.raises(UpstreamError) as refused:
        await upstream.get("gameplay", "/v1/games/g2")
    assert first == again == {"game_id": "g1", "moves": ["h8"]}
    assert (refused.value.status, refused.value.code) == (404, "game_not_found")
    assert [h.get("if-none-match") for _, h in service.seen] == [None, '"v1"', None]
    assert {h["x-api-key"] for _, h in service.seen} == {"pages-key"}
    assert service.connections == 1


@pytest.mark.parametrize(("path", "code"), [("/v1/games/slow", "ReadTimeout"), ("/v1/games/dropped", "ReadError")])
async def test_no_answer_or_a_dropped_connection_is_a_503(gameplay, path, code):
    _service, upstream = gameplay
    with pytest.raises(UpstreamError) as failed:
        await upstream.get("gameplay", path)
    assert (failed.value.status, failed.value.code) == (503, code)


async def test_no_service_listening_is_a_503():
    service = Gameplay()
    url = await service.start()
    await service.stop()
    upstream = Upstream.over_http({"gameplay": url}, "pages-key", timeout_s=0.5)
    try:
        with pytest.raises(UpstreamError) as failed:
            await upstream.get("gameplay", "/v1/games/g1")
    finally:
        await upstream.aclose()
    assert (failed.value.status, failed.value.code) == (503, "ConnectError")
