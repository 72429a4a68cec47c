"""Spectator benchmark: many SSE spectators on many live games, through the web front.

    .venv/bin/python -m bench.spectators --games 256 --viewers 5000 [--rate 100] [--seconds 10]

The gameplay service and the web front run as their own processes (``python -m
gomoku_shared.serve gameplay|portal``) on PostgreSQL + RabbitMQ (DATABASE_URL, AMQP_URL as for
bench.gameplay_load). The games come from a ``round.paired`` event; every player joins. Then
three phases of the same live load (every game moves on its own jittered schedule, the games
together offering ``--rate`` moves/s for ``--seconds``):

* 0 spectators: the gameplay service's CPU per move without any viewer;
* 1 spectator per game: the portal then follows every game (by default through the round's one
  stream; ``PORTAL_ROUND_STREAMS=false`` in the environment: one stream per game);
* all ``--viewers`` spectators, spread evenly over the games.

A spectator is a plain HTTP/1.1 client reading ``/games/{id}/events`` from the portal. The
time from sending a move to a spectator reading it is the move-to-viewer latency (p50/p99 over
every spectator and move of the last phase). Gameplay's CPU per move in the last two phases
differs by what a viewer costs gameplay beyond a followed game: with the fan-out, nothing.
Goal (issue 15): 5,000 spectators on 256 live games, p99 < 1 s, gameplay CPU per move the same
within noise as with 0 spectators.

``--pages`` (issue 33): each spectator does what a browser on the live game page does. It loads
the game's page (HTML) and the round's board wall, opens the game's stream, and after each event
of its game loads the board again (``/games/{id}/board``, as ``live.js`` does: one load at a
time, a newer event while loading asks for one more). The spectators arrive spread over
``--arrive-s`` seconds. Registration and pairing then run too (empty: the bench's games come
from a ``round.paired`` event, so their reads of the event and the section are answered 404, and
the wall's answer is its "not found" page). Printed: the page, wall and board latencies and the
stream's first byte (p50 / p99, beside the goals: page p99 < 1 s, first byte p99 < 500 ms).
    .venv/bin/python -m bench.spectators --games 256 --viewers 1000 --rate 100 --pages
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import subprocess
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from . import _served_games as served
from ._served_games import Conn
from ._viewers import PageSpectator, Spectator, page_lines

VIEWER_KEY = "bench-viewer"
GOAL_VIEWERS, GOAL_GAMES, GOAL_P99_S = 5000, 256, 1.0


class Moves:
    """Each game's random move order; when each move was sent (by game and point)."""

    def __init__(self, games: int, seed: int) -> None:
        points = [f"{'abcdefghijklmno'[x]}{y + 1}" for x in range(15) for y in range(15)]
        self.order = []
        for i in range(games):
            mine = list(points)
            random.Random(seed * 100003 + i).shuffle(mine)
            self.order.append(mine)
        self.ply = [0] * games
        self.over: set[int] = set()
        self.sent: dict[tuple[int, str], float] = {}
        self.answered: list[tuple[float, float]] = []  # (sent, seconds to gameplay's answer)
        self.count = 0

    async def play(self, conn: Conn, i: int) -> None:
        if i in self.over or self.ply[i] >= 200:
            return
        ply = self.ply[i]
        point = self.order[i][ply]
        self.sent[(i, point)] = time.perf_counter()
        status, body = await conn.request(
            "POST",
            f"/v1/games/BENCH.main.S.r1.p{i:05d}.g1/move",
            {"player_id": f"b{i}" if ply % 2 == 0 else f"w{i}", "point": point},
        )
        self.answered.append((self.sent[(i, point)], time.perf_counter() - self.sent[(i, point)]))
        self.ply[i] += 1
        self.count += 1
        if status != 200 or b'"finished"' in body:
            self.over.add(i)


async def live(conns: list[Conn], moves: Moves, rate: float, seconds: float, seed: int) -> int:
    """Every game moves on its own schedule (mean interval games/rate, jittered 0.5-1.5x)."""
    games = len(conns)
    interval = games / rate
    start = time.perf_counter()
    end = start + seconds
    made = moves.count

    async def game(i: int) -> None:
        async for _due in served.open_loop(i, start, interval, end, seed):
            await moves.play(conns[i], i)

    await asyncio.gather(*(game(i) for i in range(games)))
    return moves.count - made


async def _get_json(port: int, path: str) -> dict:
    conn = Conn(port)
    try:
        status, body = await conn.request("GET", path)
        return json.loads(body) if status == 200 else {}
    finally:
        await conn.close()


async def _wait_viewers(portal_port: int, n: int, timeout_s: float = 120.0) -> dict:
    end = time.monotonic() + timeout_s
    stats: dict = {}
    while time.monotonic() < end:
        stats = await _get_json(portal_port, "/live/stats")
        if stats.get("viewers", 0) >= n:
            return stats
        await asyncio.sleep(0.25)
    raise RuntimeError(f"only {stats.get('viewers')} of {n} spectators attached: {stats}")


@dataclass
class _Run:
    """What the phases measured, for the report."""

    moves: Moves
    spectators: list[Spectator]
    phases: list[tuple[str, int, int, float, float]]  # name, viewers, moves, gameplay CPU s, portal CPU s
    stats: dict  # the portal's /live/stats when the last phase began
    final_stats: dict  # and at the end
    first_sent: float  # when the last phase began (0.0 without a phase of all viewers)


def _start_services(
    url: str, amqp: str, namespace: str, others: dict[str, str] | None = None
) -> tuple[int, int, subprocess.Popen, subprocess.Popen, list[tuple[int, subprocess.Popen]]]:
    """Gameplay on the bench database and the portal in front of it: their ports and processes;
    ``others``: more services (name -> database URL) the portal reads, started first."""
    gp_port, portal_port = served.free_port(), served.free_port()
    base_env = {**os.environ, "LOG_LEVEL": "WARNING", "API_KEYS": f"{served.KEY}=operator,{VIEWER_KEY}=viewer"}
    more: list[tuple[int, subprocess.Popen]] = []
    urls: dict[str, str] = {}
    for name, db_url in (others or {}).items():
        port = served.free_port()
        env = {**base_env, "DATABASE_URL": db_url, "AMQP_URL": amqp, "BUS_NAMESPACE": namespace, "GOMOKU_SERVICE": name}
        env.setdefault("DATA_KEY", "bench-data-key")  # registration's key for personal data (none here)
        more.append((port, served.start_service(name, port, env)))
        urls[f"{name.upper()}_URL"] = f"http://127.0.0.1:{port}"
    gameplay = served.start_service(
        "gameplay",
        gp_port,
        {**base_env, "DATABASE_URL": url, "AMQP_URL": amqp, "BUS_NAMESPACE": namespace, "GOMOKU_SERVICE": "gameplay"},
    )
    portal = served.start_service(
        "portal",
        portal_port,
        {**base_env, **urls, "PORTAL_API_KEY": VIEWER_KEY, "GAMEPLAY_URL": f"http://127.0.0.1:{gp_port}"},
    )
    return gp_port, portal_port, gameplay, portal, more


async def _phases(
    conns: list[Conn],
    spectators: list[Spectator],
    portal_port: int,
    pids: tuple[int, int],
    viewers: int,
    rate: float,
    seconds: float,
    seed: int,
    arrive_s: float | None = None,
) -> _Run:
    """The three phases of live load: no spectator, one per game, all of them (spectators are
    added to `spectators` as they attach, so that the caller can cancel them)."""
    games = len(conns)
    moves = Moves(games, seed)
    phases: list[tuple[str, int, int, float, float]] = []
    gameplay_pid, portal_pid = pids

    async def phase(name: str, watching: int) -> None:
        cpu0 = served.cpu_seconds([gameplay_pid])
        portal0 = served.cpu_seconds([portal_pid])
        made = await live(conns, moves, rate, seconds, seed + len(phases))
        phases.append(
            (
                name,
                watching,
                made,
                served.cpu_seconds([gameplay_pid]) - cpu0,
                served.cpu_seconds([portal_pid]) - portal0,
            )
        )

    await phase("0 spectators", 0)
    if arrive_s is not None:
        return await _page_phases(conns, spectators, portal_port, viewers, arrive_s, moves, phase, phases)
    for i in range(max(viewers, games) if viewers else 0):
        spectator = Spectator(portal_port, i % games)
        spectator.task = asyncio.create_task(spectator.run())
        spectators.append(spectator)
        if i + 1 == games:  # one per game first
            await _wait_viewers(portal_port, games)
            await asyncio.sleep(1.0)  # the feeds have read their history
            await phase(f"1 spectator per game ({games})", games)
        if i % 200 == 199:
            await asyncio.sleep(0.05)  # let connections be accepted
    if viewers > games:
        stats = await _wait_viewers(portal_port, len(spectators))
        await asyncio.sleep(1.0)
        first_sent = time.perf_counter()
        await phase(f"{len(spectators)} spectators", len(spectators))
    else:
        stats = await _get_json(portal_port, "/live/stats")
        first_sent = 0.0
    await asyncio.sleep(2.0)  # the last moves reach the spectators
    final_stats = await _get_json(portal_port, "/live/stats")
    return _Run(moves, spectators, phases, stats, final_stats, first_sent)


async def _page_phases(
    conns: list[Conn],
    spectators: list[Spectator],
    portal_port: int,
    viewers: int,
    arrive_s: float,
    moves: Moves,
    phase: Callable[[str, int], Awaitable[None]],
    phases: list[tuple[str, int, int, float, float]],
) -> _Run:
    """--pages: the spectators arrive (page, wall, stream) spread over ``arrive_s`` while the games
    play (a phase), then a phase with all of them watching (a board load after every event)."""
    games = len(conns)

    async def arrive() -> None:
        for i in range(viewers):
            spectator = PageSpectator(portal_port, i % games)
            spectator.task = asyncio.create_task(spectator.run())
            spectators.append(spectator)
            await asyncio.sleep(arrive_s / viewers)

    arriving = asyncio.create_task(arrive())
    await phase(f"{viewers} arriving over {arrive_s:.0f} s", viewers)
    await arriving
    stats = await _wait_viewers(portal_port, len(spectators))
    first_sent = time.perf_counter()
    await phase(f"{len(spectators)} spectators", len(spectators))
    await asyncio.sleep(2.0)  # the last moves reach the spectators
    final_stats = await _get_json(portal_port, "/live/stats")
    return _Run(moves, spectators, phases, stats, final_stats, first_sent)


def _report(result: _Run, games: int, rate: float, seconds: float) -> None:
    moves, spectators, phases, first_sent = result.moves, result.spectators, result.phases, result.first_sent
    latencies = sorted(
        arrived - moves.sent[(s.game, point)]
        for s in spectators
        for point, arrived in s.arrived.items()
        if (s.game, point) in moves.sent and moves.sent[(s.game, point)] >= first_sent
    )
    expected = sum(
        1
        for s in spectators
        for (game, _point), sent in moves.sent.items()
        if game == s.game and sent >= first_sent and first_sent
    )
    answers = sorted(seconds for sent, seconds in moves.answered if sent >= first_sent and first_sent)
    failed = sum(1 for s in spectators if s.failed)
    reconnects = sum(s.reconnects for s in spectators)
    print(
        f"spectators: {games} live games offering {rate:.0f} moves/s for {seconds:.0f} s per phase; "
        f"gameplay and portal as processes on PostgreSQL + RabbitMQ; {os.cpu_count()} cores"
    )
    print(f"{'phase':<32}{'viewers':>9}{'moves':>8}{'gameplay CPU ms/move':>22}{'portal CPU ms/move':>20}")
    for name, watching, made, cpu, portal_cpu in phases:
        per = 1000 * cpu / made if made else float("nan")
        portal_per = 1000 * portal_cpu / made if made else float("nan")
        print(f"{name:<32}{watching:>9}{made:>8}{per:>22.2f}{portal_per:>20.2f}")
    p50, p99 = served.percentile(latencies, 0.5), served.percentile(latencies, 0.99)
    print(
        f"move-to-viewer latency (last phase, {len(latencies)} deliveries of {expected} expected): "
        f"p50 {1000 * p50:.0f} ms, p99 {1000 * p99:.0f} ms, max {1000 * (latencies[-1] if latencies else 0):.0f} ms"
    )
    print(
        f"move answered by gameplay (last phase): p50 {1000 * served.percentile(answers, 0.5):.0f} ms, "
        f"p99 {1000 * served.percentile(answers, 0.99):.0f} ms"
    )
    print(
        f"portal: {result.stats}; at the end {result.final_stats}; spectators refused once or more: {failed}, "
        f"reconnections: {reconnects}"
    )
    if len(phases) >= 2:
        base = phases[0][3] / max(1, phases[0][2])
        last = phases[-1][3] / max(1, phases[-1][2])
        print(f"gameplay CPU per move, last phase vs 0 spectators: {100 * (last / base - 1) if base else 0:+.0f}%")
    met = (
        len(spectators) >= GOAL_VIEWERS
        and games >= GOAL_GAMES
        and latencies
        and p99 < GOAL_P99_S
        and expected == len(latencies)
    )
    print(
        f"goal: {GOAL_VIEWERS} spectators on {GOAL_GAMES} games, p99 < {GOAL_P99_S:.0f} s: "
        f"{'MET' if met else 'NOT MET at this size' if len(spectators) < GOAL_VIEWERS else 'NOT MET'}"
    )


async def run(games: int, viewers: int, rate: float, seconds: float, seed: int, arrive_s: float | None = None) -> int:
    """``arrive_s``: --pages (the spectators load pages, arriving over that many seconds)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # one socket per spectator, both ends
    admin = os.environ.get("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    amqp = os.environ.get("AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/")
    url, dbname, namespace = await served.fresh_gameplay_database(admin)
    others: dict[str, str] = {}
    if arrive_s is not None:  # the pages read registration and pairing too
        from gomoku_shared.migrate import upgrade_async

        for name in ("registration", "pairing"):
            others[name], _ = await served.fresh_database(admin)
            await upgrade_async(name, others[name])
    gp_port, portal_port, gameplay, portal, more = _start_services(url, amqp, namespace, others)
    conns: list[Conn] = []
    spectators: list[Spectator] = []
    try:
        await served.wait_ready(gp_port, "/readyz")
        await served.wait_ready(portal_port, "/live/stats")
        for port, _proc in more:
            await served.wait_ready(port, "/readyz")
        await served.publish_games(amqp, namespace, gp_port, games)
        conns = [Conn(gp_port) for _ in range(games)]
        for i, conn in enumerate(conns):
            await served.join_game(conn, i)
        result = await _phases(
            conns, spectators, portal_port, (gameplay.pid, portal.pid), viewers, rate, seconds, seed, arrive_s
        )
    finally:
        for spectator in spectators:
            if spectator.task is not None:
                spectator.task.cancel()
        await served.tear_down(
            conns, [portal, gameplay, *(proc for _, proc in more)], admin, dbname, amqp, namespace, keep=False
        )
        for other in others.values():
            from sqlalchemy.engine import make_url

            await served.drop_database(admin, str(make_url(other).database))
    _report(result, games, rate, seconds)
    if arrive_s is not None:
        print(f"page loads ({viewers} spectators on {games} games; issue 33's goals are for 1,000 on 256):")
        print("\n".join(page_lines()))
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m bench.spectators", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--games", type=int, default=64)
    p.add_argument("--viewers", type=int, default=1000)
    p.add_argument("--rate", type=float, default=50.0, help="moves/s offered by all games together")
    p.add_argument("--seconds", type=float, default=8.0, help="length of each phase")
    p.add_argument("--seed", type=int, default=15)
    p.add_argument(
        "--pages",
        action="store_true",
        help="issue 33: each spectator loads the game page and the wall, opens the stream and loads the board "
        "after each event, as a browser does (registration and pairing run too)",
    )
    p.add_argument("--arrive-s", type=float, default=5.0, help="--pages: the spectators arrive over this many seconds")
    a = p.parse_args(argv)
    return asyncio.run(run(a.games, a.viewers, a.rate, a.seconds, a.seed, a.arrive_s if a.pages else None))


if __name__ == "__main__":
    raise SystemExit(main())
