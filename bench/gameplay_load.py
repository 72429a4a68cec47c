"""Gameplay load benchmark: N concurrent games driven through the HTTP API of the gameplay
service run as a real process (``python -m gomoku_shared.serve gameplay``, uvicorn) on
PostgreSQL + RabbitMQ.

    .venv/bin/python -m bench.gameplay_load --games 1024 [--moves 30] [--replicas 1]

Environment: DATABASE_URL (a PostgreSQL server where a fresh database can be created; default
postgresql://postgres@127.0.0.1:5432/postgres) and AMQP_URL (default guest@127.0.0.1).
The games come from a ``round.paired`` event published on the bus, as in production; every
player joins. Two phases follow:

* saturation (``--moves`` per game): every game sends its next move as soon as the last one is answered (closed
  loop): the most moves/s the service sustains; latency here is queueing (games / rate).
* live (``--seconds``): each game moves on its own schedule, every games/rate seconds on
  average (jittered 0.5-1.5x), so the games together offer ``--rate`` moves/s as 1,024 live
  games do; latency is what a player sees. The first interval is warm-up, not counted.

Prints moves/s and p50/p95/p99 move latency of both, and as the baseline the same concurrency
against ``GET /healthz`` (the cost of an HTTP round trip on this machine, no database).
Goal (issue 6): >= 2,000 moves/s with p99 < 50 ms at 1,024 live games. With every one of
1,024 games sending without pause, p99 < 50 ms would need > 20,000 moves/s (Little's law),
so the goal is read as the live phase: 1,024 games offering 2,000 moves/s.

The client is a minimal HTTP/1.1 keep-alive client on asyncio streams (one connection per
game) so that the load generator costs as little CPU as possible on this 2-core machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

GOAL_MOVES_S = 2000
GOAL_P99_MS = 50
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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def _fresh_database(admin_url: str, async_commit: bool = False) -> tuple[str, str]:
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


async def _drop_database(admin_url: str, name: str) -> None:
    import asyncpg
    from sqlalchemy.engine import make_url

    dsn = make_url(admin_url).set(drivername="postgresql").render_as_string(hide_password=False)
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


async def _publish_round(amqp_url: str, namespace: str, games: int) -> None:
    from gomoku_shared.contracts import encode, envelope_for
    from gomoku_shared.contracts.common import ClockSpec, Ruleset
    from gomoku_shared.contracts.events import PairingSpec, RoundPaired
    from gomoku_shared.messaging.rabbit import RabbitEventBus

    pairings = [
        PairingSpec(
            pairing_id=f"p{i:05d}",
            first=f"b{i}",
            second=f"w{i}",
            ruleset=Ruleset(track="free"),
            clock=ClockSpec(kind="fischer", base_s=3600, increment_s=5),
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
        await bus.publish([encode(envelope_for(payload, correlation_id="BENCH"))])
    finally:
        await bus.close()


def _cpu_s(pids: list[int]) -> float:
    """CPU seconds (user + system) used so far by the service processes (Linux /proc)."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            pass
    return total


async def _metrics_text(port: int) -> str:
    conn = Conn(port)
    try:
        _, body = await conn.request("GET", "/metrics")
    finally:
        await conn.close()
    return body.decode()


async def _metric_lines(port: int, metric: str) -> list[str]:
    """A metric's sample lines as the service shows them (diagnosis)."""
    return [line for line in (await _metrics_text(port)).splitlines() if line.startswith(metric)]


async def _server_buckets(port: int) -> dict[float, float]:
    """The service's own latency histogram of POST requests (cumulative counts per bucket)."""
    out: dict[float, float] = {}
    for line in (await _metrics_text(port)).splitlines():
        if line.startswith("http_request_seconds_bucket") and 'method="POST"' in line:
            le = line.split('le="', 1)[1].split('"', 1)[0]
            out[float("inf") if le == "+Inf" else float(le)] = float(line.rsplit(" ", 1)[1])
    return out


def _server_share(before: list[dict], after: list[dict]) -> str:
    """Share of live-phase POSTs the service itself answered within each bucket bound."""
    total: dict[float, float] = {}
    for b, a in zip(before, after):
        for le, n in a.items():
            total[le] = total.get(le, 0) + n - b.get(le, 0)
    n = total.get(float("inf"), 0)
    if not n:
        return "n/a"
    return ", ".join(
        f"{100 * total[le] / n:.1f}% <= {1000 * le:g} ms"
        for le in sorted(total)
        if le in (0.005, 0.01, 0.025, 0.05, 0.1)
    )


def _percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    k = min(len(sorted_values) - 1, max(0, int(round(q * (len(sorted_values) - 1)))))
    return sorted_values[k]


async def _baseline(conns: list[Conn], seconds: float) -> tuple[float, list[float]]:
    lat: list[float] = []
    end = time.perf_counter() + seconds

    async def loop(c: Conn) -> None:
        while time.perf_counter() < end:
            t0 = time.perf_counter()
            status, _ = await c.request("GET", "/healthz")
            lat.append(time.perf_counter() - t0)
            assert status == 200

    t0 = time.perf_counter()
    await asyncio.gather(*(loop(c) for c in conns))
    return len(lat) / (time.perf_counter() - t0), sorted(lat)


_samples: list[str] = []


def _points(seed: int, i: int) -> list[str]:
    rng = random.Random(seed * 100003 + i)
    points = [f"{'abcdefghijklmno'[x]}{y + 1}" for x in range(15) for y in range(15)]
    rng.shuffle(points)
    return points


class _Games:
    """Per game: its random move order and how far it got; games ended (five / refusal) stop."""

    def __init__(self, conns: list[Conn], seed: int) -> None:
        self.conns = conns
        self.points = [_points(seed, i) for i in range(len(conns))]
        self.ply = [0] * len(conns)
        self.ended: set[int] = set()
        self.errors = 0
        self.finished = 0

    async def move(self, i: int) -> float | None:
        """Play game i's next move; its latency in seconds, or None if the game is over."""
        if i in self.ended or self.ply[i] >= 200:
            return None
        ply = self.ply[i]
        player = f"b{i}" if ply % 2 == 0 else f"w{i}"
        t0 = time.perf_counter()
        status, body = await self.conns[i].request(
            "POST", f"/v1/games/BENCH.main.S.r1.p{i:05d}.g1/move", {"player_id": player, "point": self.points[i][ply]}
        )
        latency = time.perf_counter() - t0
        self.ply[i] += 1
        if status != 200:
            self.ended.add(i)
            self.errors += 1
            if len(_samples) < 3:
                _samples.append(f"{status} {body[:200]!r}")
        elif b'"finished"' in body:
            self.ended.add(i)
            self.finished += 1
        return latency


async def _saturation(g: _Games, moves: int) -> tuple[float, list[float]]:
    """Closed loop: every game sends its next move as soon as the last one is answered."""
    lat: list[float] = []

    async def game(i: int) -> None:
        for _ in range(moves):
            x = await g.move(i)
            if x is None:
                return
            lat.append(x)

    t0 = time.perf_counter()
    await asyncio.gather(*(game(i) for i in range(len(g.conns))))
    return len(lat) / (time.perf_counter() - t0), sorted(lat)


async def _live(g: _Games, rate: float, seconds: float, seed: int) -> tuple[float, list[float]]:
    """Open loop per game: game i moves at its own schedule (mean interval games/rate, jittered
    0.5-1.5x), whatever the latency (a late answer delays only that game's next send). Moves
    sent in the window after the first interval (warm-up) to the end are counted."""
    n = len(g.conns)
    interval = n / rate
    lat: list[float] = []
    start = time.perf_counter()
    window0, end = start + interval, start + seconds

    async def game(i: int) -> None:
        pace = random.Random(seed * 7919 + i)
        due = start + pace.uniform(0, interval)
        while due < end:
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            sent = time.perf_counter()
            x = await g.move(i)
            if x is None:
                return
            if sent >= window0:
                lat.append(x)
            due += pace.uniform(0.5, 1.5) * interval

    await asyncio.gather(*(game(i) for i in range(n)))
    return len(lat) / (end - window0), sorted(lat)


async def run(
    games: int,
    moves: int,
    replicas: int,
    seed: int,
    keep: bool,
    async_commit: bool = False,
    rate: float = GOAL_MOVES_S,
    seconds: float = 12.0,
) -> int:
    admin = os.environ.get("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    amqp = os.environ.get("AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/")
    url, dbname = await _fresh_database(admin, async_commit)
    namespace = f"bench-{uuid.uuid4().hex[:8]}"
    from gomoku_shared.migrate import upgrade_async

    await upgrade_async("gameplay", url)
    ports = [_free_port() for _ in range(replicas)]
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "AMQP_URL": amqp,
        "BUS_NAMESPACE": namespace,
        "API_KEYS": f"{KEY}=operator",
        "LOG_LEVEL": "WARNING",
        "GOMOKU_SERVICE": "gameplay",
    }
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "gomoku_shared.serve", "gameplay", "--host", "127.0.0.1", "--port", str(port)],
            env=env,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for port in ports
    ]
    conns: list[Conn] = []
    try:
        for port in ports:
            probe = Conn(port)
            for _ in range(300):
                try:
                    if (await probe.request("GET", "/readyz"))[0] == 200:
                        break
                except OSError:
                    probe = Conn(port)
                await asyncio.sleep(0.1)
            else:
                raise RuntimeError("the gameplay service did not become ready")
        await _publish_round(amqp, namespace, games)
        for _ in range(600):
            status, body = await probe.request("GET", "/v1/games?event_code=BENCH&status=all")
            if status == 200 and len(json.loads(body)["games"]) >= games:
                break
            await asyncio.sleep(0.1)
        else:
            raise RuntimeError("the games were not created from round.paired")
        await probe.close()
        conns = [Conn(ports[i % replicas]) for i in range(games)]

        async def join(i: int, c: Conn) -> None:
            for p in (f"b{i}", f"w{i}"):
                status, body = await c.request("POST", f"/v1/games/BENCH.main.S.r1.p{i:05d}.g1/join", {"player_id": p})
                assert status == 200, body

        await asyncio.gather(*(join(i, c) for i, c in enumerate(conns)))
        base_rps, base_lat = await _baseline(conns, 3.0)
        g = _Games(conns, seed)
        cpu0, wall0 = _cpu_s([p.pid for p in procs]), time.perf_counter()
        sat_rate, sat_lat = await _saturation(g, moves)
        cpu_used, wall = _cpu_s([p.pid for p in procs]) - cpu0, time.perf_counter() - wall0
        before = [await _server_buckets(port) for port in ports]
        live_rate, live_lat = await _live(g, rate, seconds, seed)
        after = [await _server_buckets(port) for port in ports]
        writer_stats = [await _metric_lines(port, "gameplay_move_batch") for port in ports]
        errors, finished = g.errors, g.finished
    finally:
        for c in conns:
            await c.close()
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
        if not keep:
            await _drop_database(admin, dbname)
        from gomoku_shared.messaging.rabbit import delete_namespace

        await delete_namespace(amqp, namespace)

    def row(name: str, rps: float, values: list[float], ratio: float) -> str:
        p = [1000 * _percentile(values, q) for q in (0.5, 0.95, 0.99)]
        return f"{name:<28}{rps:>12.0f}{p[0]:>10.1f}{p[1]:>10.1f}{p[2]:>10.1f}{ratio:>10.2f}"

    print(
        f"gameplay load: {games} live games, {moves} moves each, service processes={replicas}, "
        f"PostgreSQL + RabbitMQ, {os.cpu_count()} cores"
        + (", synchronous_commit=off (diagnosis)" if async_commit else "")
    )
    print(f"{'':<28}{'req/s':>12}{'p50 ms':>10}{'p95 ms':>10}{'p99 ms':>10}{'ratio':>10}")
    print(row("baseline GET /healthz", base_rps, base_lat, 1.0))
    print(row("POST move, saturation", sat_rate, sat_lat, sat_rate / base_rps if base_rps else float("nan")))
    print(row(f"POST move, live {rate:.0f}/s", live_rate, live_lat, live_rate / base_rps if base_rps else float("nan")))
    p99 = 1000 * _percentile(live_lat, 0.99)
    print(f"live phase as the service measured it (request in to answer out): {_server_share(before, after)}")
    if os.environ.get("BENCH_VERBOSE"):
        for lines in writer_stats:
            print("\n".join(lines))
    print(f"moves: {len(sat_lat) + len(live_lat)}  refused: {errors}  games ended by five: {finished}")
    for sample in _samples:
        print(f"  refused: {sample}")
    print(
        f"service CPU at saturation: {1000 * cpu_used / max(1, len(sat_lat)):.2f} ms per move, "
        f"{cpu_used / wall:.2f} cores busy on average"
    )
    met = live_rate >= 0.97 * GOAL_MOVES_S and p99 < GOAL_P99_MS and rate >= GOAL_MOVES_S
    print(
        f"goal: {GOAL_MOVES_S} moves/s offered by {games} live games (think time {games / rate:.3f} s), "
        f"p99 < {GOAL_P99_MS} ms: {'MET' if met else 'NOT MET'}"
    )
    return 0 if errors == 0 else 1


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m bench.gameplay_load", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--games", type=int, default=1024)
    p.add_argument("--moves", type=int, default=20, help="moves per game in the saturation phase")
    p.add_argument("--replicas", type=int, default=2, help="service processes on one database (games spread over them)")
    p.add_argument(
        "--rate",
        type=float,
        default=GOAL_MOVES_S,
        help="moves/s offered by all games together in the live phase (sets the think time)",
    )
    p.add_argument("--seconds", type=float, default=12.0, help="duration of the live phase")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--keep-db", action="store_true")
    p.add_argument(
        "--async-commit",
        action="store_true",
        help="diagnosis: synchronous_commit=off on the bench database (not durable; not the default)",
    )
    args = p.parse_args(argv)
    try:  # the load generator shares the 2 cores: the cheaper its event loop, the better
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    return asyncio.run(
        run(args.games, args.moves, args.replicas, args.seed, args.keep_db, args.async_commit, args.rate, args.seconds)
    )


if __name__ == "__main__":
    raise SystemExit(main())
