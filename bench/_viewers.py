"""The spectators of ``bench.spectators``: a stream reader, and with ``--pages`` a browser on the
live game page (the page, the wall, the stream, the board after every event of its game)."""

from __future__ import annotations

import asyncio
import json
import time

from . import _served_games as served
from ._served_games import Conn

#: issue 33 (1,000 spectators loading pages on 256 games): page p99 < 1 s, stream first byte < 0.5 s
PAGE_P99_S, FIRST_BYTE_P99_S = 1.0, 0.5


class Spectator:
    """One SSE reader; notes when each move of its game arrived."""

    def __init__(self, port: int, game: int) -> None:
        self.port, self.game = port, game
        self.arrived: dict[str, float] = {}
        self.task: asyncio.Task[None] | None = None
        self.failed = ""  # why the last connection ended early, if it did
        self.reconnects = 0

    async def run(self) -> None:
        """Read the stream; when it fails or ends, connect again after a moment (as a browser's
        EventSource does), until cancelled."""
        while True:
            await self._once()
            self.reconnects += 1
            await asyncio.sleep(0.5)

    def on_event(self) -> None:
        """An event of the game arrived (a browser draws the board again: see PageSpectator)."""

    def on_first_byte(self, seconds: float) -> None:
        """The stream's first byte came ``seconds`` after the request was sent."""

    async def _once(self) -> None:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        except OSError as exc:
            self.failed = type(exc).__name__
            return
        writer.write(
            f"GET /games/BENCH.main.S.r1.p{self.game:05d}.g1/events HTTP/1.1\r\nhost: b\r\n"
            "accept: text/event-stream\r\n\r\n".encode()
        )
        sent = time.perf_counter()
        buffer = b""
        try:
            while chunk := await reader.read(65536):
                now = time.perf_counter()
                if not buffer and sent:
                    self.on_first_byte(now - sent)
                    sent = 0.0
                buffer += chunk
                if buffer.startswith(b"HTTP/1.1 ") and not buffer.startswith(b"HTTP/1.1 200"):
                    self.failed = buffer[9:12].decode("latin-1")
                    return
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    if b"\nevent: " in b"\n" + block and b"event: clock" not in block:
                        self.on_event()
                    if b"event: action" not in block:
                        continue
                    data = block.split(b"data: ", 1)[1].split(b"\r\n", 1)[0]
                    point = json.loads(data).get("data", {}).get("point")
                    if point:
                        self.arrived.setdefault(point, now)
        except (OSError, ValueError, IndexError) as exc:
            self.failed = type(exc).__name__
        finally:
            writer.transport.abort()


GAME_PATH = "/games/BENCH.main.S.r1.p{:05d}.g1"
WALL_PATH = "/events/BENCH/sections/S/rounds/1/wall"


class PageSpectator(Spectator):
    """A browser on the live game page: the page, the wall, the stream, the board after each event."""

    #: every spectator's timings: (when sent, seconds, status) per kind of load
    loads: dict[str, list[tuple[float, float, int]]] = {"page": [], "wall": [], "board": [], "first byte": []}

    def __init__(self, port: int, game: int) -> None:
        super().__init__(port, game)
        self.conn = Conn(port)
        self.loading = False
        self.again = False

    async def _load(self, kind: str, path: str) -> None:
        sent = time.perf_counter()
        try:
            status, _ = await self.conn.request("GET", path)
        except (OSError, ValueError, asyncio.IncompleteReadError):
            status = 0
            await self.conn.close()
        self.loads[kind].append((sent, time.perf_counter() - sent, status))

    async def run(self) -> None:
        await self._load("page", GAME_PATH.format(self.game))
        await self._load("wall", WALL_PATH)
        await super().run()

    def on_first_byte(self, seconds: float) -> None:
        self.loads["first byte"].append((time.perf_counter() - seconds, seconds, 200))

    def on_event(self) -> None:
        if self.loading:
            self.again = True
            return
        self.loading = True
        asyncio.get_running_loop().create_task(self._redraw())

    async def _redraw(self) -> None:
        try:
            while True:
                self.again = False
                await self._load("board", GAME_PATH.format(self.game) + "/board")
                if not self.again:
                    return
        finally:
            self.loading = False


def page_lines() -> list[str]:
    """The page loads of every PageSpectator: p50 / p99 per kind, beside the goals."""
    lines = []
    for kind, loads in PageSpectator.loads.items():
        if not loads:
            continue
        seconds = sorted(x for _, x, _ in loads)
        statuses: dict[int, int] = {}
        for _, _, status in loads:
            statuses[status] = statuses.get(status, 0) + 1
        goal = {"page": PAGE_P99_S, "wall": PAGE_P99_S, "first byte": FIRST_BYTE_P99_S}.get(kind)
        p99 = served.percentile(seconds, 0.99)
        verdict = f"  goal p99 < {1000 * goal:.0f} ms: {'MET' if p99 < goal else 'NOT MET'}" if goal else ""
        lines.append(
            f"{kind:<12}{len(loads):>7} loads  p50 {1000 * served.percentile(seconds, 0.5):7.0f} ms  p99 "
            f"{1000 * p99:7.0f} ms  max {1000 * seconds[-1]:7.0f} ms  statuses {statuses}{verdict}"
        )
    return lines
