"""Gameplay load benchmark: N concurrent games driven through the HTTP API of the gameplay
service run as a real process (``python -m gomoku_shared.serve gameplay``, uvicorn) on
PostgreSQL + RabbitMQ.

    .venv/bin/python -m bench.gameplay_load --games 1024 [--moves 30] [--replicas 1]

Environment: DATABASE_URL (a PostgreSQL server where a fresh database can be created; default
postgresql://postgres@127.0.0.1:5432/postgres) and AMQP_URL (default guest@127.0.0.1).
The games come from a ``round.paired`` event published on the bus, as in production; every
player joins, then each game plays ``--moves`` moves (each game one request at a time, all
games at once). Prints moves/s and p50/p95/p99 move latency, and as the baseline the same
concurrency against ``GET /healthz`` (the cost of an HTTP round trip on this machine, no
database). Goal (issue 6): >= 2,000 moves/s with p99 < 50 ms at 1,024 live games.

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
import statistics
import subprocess
import sys
import time
import uuid
from datetime import datetime, timezone
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
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        data = b"" if body is None else json.dumps(body).encode()
        head = (f"{method} {path} HTTP/1.1\r\nhost: b\r\nx-api-key: {KEY}\r\n"
                f"content-type: application/json\r\ncontent-length: {len(data)}\r\n\r\n").encode()
        self.writer.write(head + data)
        assert self.reader is not None
        status_line = await self.reader.readline()
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
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except Exception:  # noqa: BLE001
                pass


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

    pairings = [PairingSpec(pairing_id=f"p{i:05d}", first=f"b{i}", second=f"w{i}",
                            ruleset=Ruleset(track="free"), clock=ClockSpec(kind="fischer", base_s=3600, increment_s=5))
                for i in range(games)]
    payload = RoundPaired(event_code="BENCH", stage="main", section_id="S", round=1,
                          starts_at=datetime.now(timezone.utc), no_show_minutes=60, pairings=pairings)
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


async def _play(conns: list[Conn], moves: int, seed: int) -> tuple[float, list[float], int, int]:
    lat: list[float] = []
    errors = 0
    finished = 0
    samples = _samples

    async def game(i: int, c: Conn) -> None:
        nonlocal errors, finished
        rng = random.Random(seed * 100003 + i)
        points = [f"{'abcdefghijklmno'[x]}{y + 1}" for x in range(15) for y in range(15)]
        rng.shuffle(points)
        gid = f"BENCH.main.S.r1.p{i:05d}.g1"
        for ply in range(moves):
            player = f"b{i}" if ply % 2 == 0 else f"w{i}"
            t0 = time.perf_counter()
            status, body = await c.request("POST", f"/v1/games/{gid}/move", {"player_id": player, "point": points[ply]})
            lat.append(time.perf_counter() - t0)
            if status != 200:
                errors += 1
                if len(samples) < 3:
                    samples.append(f"{status} {body[:200]!r}")
                return
            if b'"finished"' in body:
                finished += 1
                return

    t0 = time.perf_counter()
    await asyncio.gather(*(game(i, c) for i, c in enumerate(conns)))
    return len(lat) / (time.perf_counter() - t0), sorted(lat), errors, finished


async def run(games: int, moves: int, replicas: int, seed: int, keep: bool, async_commit: bool = False) -> int:
    admin = os.environ.get("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    amqp = os.environ.get("AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/")
    url, dbname = await _fresh_database(admin, async_commit)
    namespace = f"bench-{uuid.uuid4().hex[:8]}"
    from gomoku_shared.migrate import upgrade_async

    await upgrade_async("gameplay", url)
    ports = [_free_port() for _ in range(replicas)]
    env = {**os.environ, "DATABASE_URL": url, "AMQP_URL": amqp, "BUS_NAMESPACE": namespace,
           "API_KEYS": f"{KEY}=operator", "LOG_LEVEL": "WARNING", "GOMOKU_SERVICE": "gameplay"}
    procs = [subprocess.Popen([sys.executable, "-m", "gomoku_shared.serve", "gameplay", "--host", "127.0.0.1",
                               "--port", str(port)], env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL) for port in ports]
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
        cpu0, wall0 = _cpu_s([p.pid for p in procs]), time.perf_counter()
        rate, lat, errors, finished = await _play(conns, moves, seed)
        cpu_used, wall = _cpu_s([p.pid for p in procs]) - cpu0, time.perf_counter() - wall0
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

    def row(name: str, rps: float, values: list[float], ratio: float) -> str:
        p = [1000 * _percentile(values, q) for q in (0.5, 0.95, 0.99)]
        return f"{name:<28}{rps:>12.0f}{p[0]:>10.1f}{p[1]:>10.1f}{p[2]:>10.1f}{ratio:>10.2f}"

    print(f"gameplay load: {games} live games, {moves} moves each, service processes={replicas}, "
          f"PostgreSQL + RabbitMQ, {os.cpu_count()} cores"
          + (", synchronous_commit=off (diagnosis)" if async_commit else ""))
    print(f"{'':<28}{'req/s':>12}{'p50 ms':>10}{'p95 ms':>10}{'p99 ms':>10}{'ratio':>10}")
    print(row("baseline GET /healthz", base_rps, base_lat, 1.0))
    print(row("POST move (judged+stored)", rate, lat, rate / base_rps if base_rps else float("nan")))
    p99 = 1000 * _percentile(lat, 0.99)
    print(f"moves: {len(lat)}  refused: {errors}  games ended by five: {finished}")
    for sample in _samples:
        print(f"  refused: {sample}")
    print(f"service CPU: {1000 * cpu_used / max(1, len(lat)):.2f} ms per move, "
          f"{cpu_used / wall:.2f} cores busy on average while playing")
    print(f"goal >= {GOAL_MOVES_S} moves/s with p99 < {GOAL_P99_MS} ms: "
          f"{'MET' if rate >= GOAL_MOVES_S and p99 < GOAL_P99_MS else 'NOT MET'}")
    return 0 if errors == 0 else 1


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.gameplay_load", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=1024)
    p.add_argument("--moves", type=int, default=30, help="moves per game (random points; few games end early)")
    p.add_argument("--replicas", type=int, default=1, help="service processes on one database (games spread over them)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--keep-db", action="store_true")
    p.add_argument("--async-commit", action="store_true",
                   help="diagnosis: synchronous_commit=off on the bench database (not durable; not the default)")
    args = p.parse_args(argv)
    return asyncio.run(run(args.games, args.moves, args.replicas, args.seed, args.keep_db, args.async_commit))


if __name__ == "__main__":
    raise SystemExit(main())
