"""The stage the gameplay benches share: a fresh database migrated for gameplay, services run as
their own processes (``python -m gomoku_shared.serve``), the games of one ``round.paired``
event published on the bus with every player joined, and the teardown of all of it."""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

KEY = "bench-op"
ROOT = Path(__file__).resolve().parents[1]


class Conn:
    """One keep-alive HTTP/1.1 connection; requests on it are sequential."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, bytes]:
        data = b"" if body is None else json.dumps(body).encode()
        head = (
            f"{method} {path} HTTP/1.1\r\nhost: b\r\nx-api-key: {KEY}\r\n"
            f"content-type: application/json\r\ncontent-length: {len(data)}\r\n\r\n"
        ).encode()
        for _attempt in (1, 2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            self.writer.write(head + data)
            assert self.reader is not None
            try:
                status_line = await self.reader.readline()
            except ConnectionResetError:
                status_line = b""
            if status_line:
                break
            # the server closed an idle keep-alive connection before reading this request
            # (uvicorn's keep-alive timeout): open a new one and send it again, as clients do
            self.writer.close()
            self.writer = None
        else:
            raise ConnectionError("the server closed the connection twice")
        status = int(status_line.split()[1])
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            k, _, v = line.decode("latin-1").partition(":")
            if k.lower() == "content-length":
                length = int(v)
        payload = await self.reader.readexactly(length) if length else b""
        return status, payload

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.transport.abort()  # the run is over: no need to wait for a clean close
            self.writer = None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def fresh_database(admin_url: str, async_commit: bool = False) -> tuple[str, str]:
    import asyncpg
    from sqlalchemy.engine import make_url

    u = make_url(admin_url)
    name = f"gomoku_bench_{uuid.uuid4().hex[:8]}"
    dsn = u.set(drivername="postgresql").render_as_string(hide_password=False)
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
        if async_commit:  # diagnosis only: is the commit's WAL flush the limit?
            await conn.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')
    finally:
        await conn.close()
    return u.set(drivername="postgresql+asyncpg", database=name).render_as_string(hide_password=False), name


async def drop_database(admin_url: str, name: str) -> None:
    import asyncpg
    from sqlalchemy.engine import make_url

    dsn = make_url(admin_url).set(drivername="postgresql").render_as_string(hide_password=False)
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


async def publish_round(amqp_url: str, namespace: str, games: int, partner: str | None = None) -> None:
    """The bench event's round; ``partner``: the partner app of every player, and the event's
    chosen partner apps (``event.access_changed``, sent first: issue 29's check on every move)."""
    from gomoku_shared.contracts import encode, envelope_for
    from gomoku_shared.contracts.common import ClockSpec, Ruleset
    from gomoku_shared.contracts.events import EventAccessChanged, PairingSpec, RoundPaired
    from gomoku_shared.messaging.rabbit import RabbitEventBus

    pairings = [
        PairingSpec(
            pairing_id=f"p{i:05d}",
            first=f"b{i}",
            second=f"w{i}",
            ruleset=Ruleset(track="free"),
            clock=ClockSpec(kind="fischer", base_s=3600, increment_s=5),
            first_partner=partner,
            second_partner=partner,
        )
        for i in range(games)
    ]
    payload = RoundPaired(
        event_code="BENCH",
        stage="main",
        section_id="S",
        round=1,
        starts_at=datetime.now(UTC),
        no_show_minutes=60,
        pairings=pairings,
    )
    bus = RabbitEventBus(amqp_url, namespace=namespace)
    await bus.start()
    try:
        if partner is not None:
            chosen = EventAccessChanged(
                event_code="BENCH",
                organisation="default",
                partners=[partner, "another-app"],
                changed_at=datetime.now(UTC),
            )
            await bus.publish([encode(envelope_for(chosen, correlation_id="BENCH"))])
            await asyncio.sleep(1.0)  # stored before the first join reads it (a replica caches it 30 s)
        await bus.publish([encode(envelope_for(payload, correlation_id="BENCH"))])
    finally:
        await bus.close()


def cpu_seconds(pids: list[int]) -> float:
    """CPU seconds (user + system) used so far by the service processes (Linux /proc)."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            pass
    return total


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    k = min(len(sorted_values) - 1, max(0, int(round(q * (len(sorted_values) - 1)))))
    return sorted_values[k]


async def fresh_gameplay_database(admin_url: str, async_commit: bool = False) -> tuple[str, str, str]:
    """A new database migrated for gameplay and a new bus namespace: (url, database name, namespace)."""
    url, dbname = await fresh_database(admin_url, async_commit)
    namespace = f"bench-{uuid.uuid4().hex[:8]}"
    from gomoku_shared.migrate import upgrade_async

    await upgrade_async("gameplay", url)
    return url, dbname, namespace


def start_service(service: str, port: int, env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "gomoku_shared.serve", service, "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


async def wait_ready(port: int, path: str, timeout_s: float = 120.0) -> None:
    """Until `path` answers 200 (a service starting beside others on a busy machine can take
    half a minute)."""
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        try:
            conn = Conn(port)
            status, _ = await conn.request("GET", path)
            await conn.close()
            if status == 200:
                return
        except OSError:
            pass
        await asyncio.sleep(0.1)
    raise RuntimeError(f"the service on port {port} did not become ready")


async def publish_games(
    amqp_url: str, namespace: str, gameplay_port: int, games: int, partner: str | None = None
) -> None:
    """Publish the round and wait until gameplay has created every game of it."""
    await publish_round(amqp_url, namespace, games, partner)
    probe = Conn(gameplay_port)
    created = 0
    for _ in range(600):
        created = await count_games(probe)
        if created >= games:
            break
        await asyncio.sleep(0.1)
    else:
        raise RuntimeError(f"the games were not created from round.paired ({created} of {games} after 60 s)")
    await probe.close()


async def count_games(probe: Conn) -> int:
    """How many games of the bench event gameplay lists (the list is paged: follow next_cursor)."""
    count, cursor = 0, ""
    while True:
        status, body = await probe.request("GET", f"/v1/games?event_code=BENCH&status=all&limit=200{cursor}")
        if status != 200:
            return count
        page = json.loads(body)
        count += len(page["games"])
        if not page.get("next_cursor"):
            return count
        cursor = f"&cursor={page['next_cursor']}"


async def join_game(conn: Conn, game: int) -> None:
    """Both players of game `game` join it."""
    for player in (f"b{game}", f"w{game}"):
        status, body = await conn.request(
            "POST", f"/v1/games/BENCH.main.S.r1.p{game:05d}.g1/join", {"player_id": player}
        )
        assert status == 200, body


async def tear_down(
    conns: list[Conn],
    procs: list[subprocess.Popen],
    admin_url: str,
    dbname: str,
    amqp_url: str,
    namespace: str,
    keep: bool,
) -> None:
    """Close the connections, stop the processes, drop the database (unless kept) and the namespace."""
    for conn in conns:
        await conn.close()
    for proc in procs:
        proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
    if not keep:
        await drop_database(admin_url, dbname)
    from gomoku_shared.messaging.rabbit_cleanup import delete_namespace

    await delete_namespace(amqp_url, namespace)


async def open_loop(game: int, start: float, interval: float, end: float, seed: int) -> AsyncIterator[None]:
    """Game ``game``'s own schedule of moves (the open loop the gameplay benches offer): the first
    at a random point of the first ``interval`` after ``start``, each next one ``interval``
    (jittered 0.5-1.5x) after the previous was due, whatever the latency, until ``end``; yields
    when a move is due (at once when it is late)."""
    pace = random.Random(seed * 7919 + game)
    due = start + pace.uniform(0, interval)
    while due < end:
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        yield
        due += pace.uniform(0.5, 1.5) * interval
