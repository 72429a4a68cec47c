"""Gameplay's CPU per game view read (``GET /v1/games/{id}``), the read a spectator's page costs
gameplay when the portal does not yet follow the game (issue 33, goal 5).

    .venv/bin/python -m bench.view_reads [--games 256] [--reads 1024] [--readers 16]

Gameplay runs as its own process (``python -m gomoku_shared.serve gameplay``) on PostgreSQL +
RabbitMQ (DATABASE_URL, AMQP_URL as for bench.gameplay_load). The games come from a
``round.paired`` event; each is joined and given three moves. Then ``--readers`` keep-alive
clients read the games' views in turn, a warm-up pass and a measured pass, and as the baseline of
the same run the same number of ``/healthz`` requests (the HTTP stack alone). Printed: gameplay's
CPU per read and per ``/healthz``, their ratio, the reads per second, and how many database
connections gameplay opened during the measured pass (``pg_stat_database.sessions``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time

from . import _served_games as served
from ._served_games import Conn


def _game(i: int) -> str:
    return f"BENCH.main.S.r1.p{i:05d}.g1"


async def _prepare(conn: Conn, games: int) -> None:
    for i in range(games):
        await served.join_game(conn, i)
        for ply, point in enumerate(("h8", "h9", "i8")):
            status, body = await conn.request(
                "POST",
                f"/v1/games/{_game(i)}/move",
                {"player_id": f"b{i}" if ply % 2 == 0 else f"w{i}", "point": point},
            )
            assert status == 200, body


async def _pass(conns: list[Conn], paths: list[str]) -> None:
    async def reader(k: int) -> None:
        for path in paths[k :: len(conns)]:
            status, body = await conns[k].request("GET", path)
            assert status == 200, body

    await asyncio.gather(*(reader(k) for k in range(len(conns))))


async def _sessions(admin, dbname: str) -> int:
    await admin.execute("SELECT pg_stat_clear_snapshot()")
    return int(await admin.fetchval("SELECT sessions FROM pg_stat_database WHERE datname = $1", dbname) or 0)


async def _measured(pid: int, conns: list[Conn], paths: list[str], admin, dbname: str) -> tuple[float, float, int]:
    """CPU ms per request, requests per second, connections opened."""
    await _pass(conns, paths)  # warm: statements prepared, routes' first calls made
    await asyncio.sleep(0.6)
    opened = await _sessions(admin, dbname)
    cpu, started = served.cpu_seconds([pid]), time.perf_counter()
    await _pass(conns, paths)
    cpu, wall = served.cpu_seconds([pid]) - cpu, time.perf_counter() - started
    await asyncio.sleep(0.6)  # a backend's statistics are reported at most every 500 ms
    return 1000 * cpu / len(paths), len(paths) / wall, await _sessions(admin, dbname) - opened


async def run(games: int, reads: int, readers: int) -> int:
    import asyncpg

    admin_url = os.environ.get("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    amqp = os.environ.get("AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/")
    url, dbname, namespace = await served.fresh_gameplay_database(admin_url)
    port = served.free_port()
    env = {
        **os.environ,
        "LOG_LEVEL": "WARNING",
        "API_KEYS": f"{served.KEY}=operator",
        "DATABASE_URL": url,
        "AMQP_URL": amqp,
        "BUS_NAMESPACE": namespace,
        "GOMOKU_SERVICE": "gameplay",
    }
    proc = served.start_service("gameplay", port, env)
    conns: list[Conn] = []
    admin = await asyncpg.connect(admin_url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        await served.wait_ready(port, "/readyz")
        await served.publish_games(amqp, namespace, port, games)
        conns = [Conn(port) for _ in range(readers)]
        await _prepare(conns[0], games)
        views = [f"/v1/games/{_game(i % games)}" for i in range(reads)]
        view_ms, view_rate, opened = await _measured(proc.pid, conns, views, admin, dbname)
        health_ms, health_rate, _ = await _measured(proc.pid, conns, ["/healthz"] * reads, admin, dbname)
    finally:
        await admin.close()
        await served.tear_down(conns, [proc], admin_url, dbname, amqp, namespace, keep=False)
    print(
        f"view reads: {reads} reads of {games} games' views by {readers} clients, gameplay as a process on PostgreSQL"
    )
    print(f"  view read   {view_ms:6.2f} CPU ms each  {view_rate:6.0f}/s  connections opened: {opened}")
    print(f"  /healthz    {health_ms:6.2f} CPU ms each  {health_rate:6.0f}/s  (baseline, same run)")
    print(f"  ratio view read / healthz: {view_ms / health_ms:.1f}x" if health_ms else "  ratio: n/a")
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m bench.view_reads", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--games", type=int, default=256)
    p.add_argument("--reads", type=int, default=1024)
    p.add_argument("--readers", type=int, default=16)
    args = p.parse_args(argv)
    return asyncio.run(run(args.games, args.reads, args.readers))


if __name__ == "__main__":
    raise SystemExit(main())
