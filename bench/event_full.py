"""Full-size SZ 2022 online qualifier (8 sections x 128 players) with bot players.

    .venv/bin/python -m bench.event_full                     # distributed: needs AMQP_URL, DATABASE_URL
    .venv/bin/python -m bench.event_full --mode embedded --players 16

The baseline, measured in the same run and the same mode, is a scaled-down field (8 sections x
``--baseline-players``; 0: none). Printed: wall time, games, games per second, bot actions, HTTP
requests, and the ratio of each to the baseline; where the wall time goes; the peak RSS (VmHWM)
and CPU seconds of each service process; the CPU milliseconds per bot action of each process
while playing (the driver, the services, the PostgreSQL backends of the run's databases,
RabbitMQ) and the most frequent requests; with ``--py-spy PATH`` the services' sampling profile
by layer while playing. Only the online stage is played (the final is fed by it).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from gomoku_sim import thinking
from gomoku_sim.bots import BotPolicy
from gomoku_sim.client import SERVICES, all_games
from gomoku_sim.driver import FULL_FIELDS, EventDriver, RunSpec
from gomoku_sim.stack import database_urls_for, distributed_stack, embedded_stack

from ._cpu_breakdown import Profiler, cmdline, process_cpu

#: the eight sections of the SZ preset, as the sim's full-size field names them
SECTIONS = tuple(FULL_FIELDS["sz-2022"])


async def run_once(mode: str, players: int, seed: int, label: str, py_spy: str | None = None) -> dict:
    sizes = {s: players for s in SECTIONS}
    spec = RunSpec(
        preset_id="sz-2022",
        seed=seed,
        event_code=f"bench{players}",
        sizes=sizes,
        policy=BotPolicy(),
        progress=True,
        concurrency=1 if mode == "embedded" else 32,
        wait_timeout_s=300,
        run_timeout_s=7200,
    )
    tmp = Path(tempfile.mkdtemp(prefix=f"bench-{label}-"))
    rid = uuid.uuid4().hex[:6]
    prefix = f"gomoku_bench_{rid}"
    if mode == "embedded":
        ctx = embedded_stack(tmp / "data")
    else:
        ctx = distributed_stack(
            amqp_url=os.environ["AMQP_URL"],
            database_urls=database_urls_for(os.environ["DATABASE_URL"], prefix),
            log_dir=tmp / "logs",
            namespace=f"bench-{rid}",
        )
    started = time.monotonic()
    driver_cpu_from = _own_cpu()
    phases: dict[str, float] = {}
    async with ctx as stack:
        phases["start services"] = time.monotonic() - started
        driver = EventDriver(stack.platform, stack.clock, stack.quiet, spec)
        waits = _time_waits(driver)
        t = time.monotonic()
        await driver.create_event()
        await driver.create_units()
        await driver.register()
        phases["register"] = time.monotonic() - t
        t = time.monotonic()
        await driver.verify_evidence()
        phases["verify evidence"] = time.monotonic() - t
        profiler = _profiler(stack, py_spy, tmp / "profile") if py_spy else None
        if profiler is not None:
            profiler.start()
        t_play = time.monotonic()
        routes_before = collections.Counter(stack.platform.by_route)
        play_cpu_from = play_cpu(stack, prefix)
        run = await driver.check_in_and_close("online")
        phases["check in + close"] = time.monotonic() - t_play
        await driver.play("online", driver.played_sections(run))
        played = time.monotonic() - t_play
        phases["play"] = played - phases["check in + close"]
        phases["of which: waiting for quiet"] = waits["quiet"]
        phases["of which: moving the clock"] = waits["advance_stalled"]
        play_cpu_used = {name: used - play_cpu_from.get(name, 0.0) for name, used in play_cpu(stack, prefix).items()}
        profile = profiler.stop() if profiler is not None else []
        play_routes = collections.Counter(stack.platform.by_route)
        play_routes.subtract(routes_before)
        games = len(await all_games(stack.platform, {"event_code": spec.code, "status": "all"}))
        result = {
            "label": label,
            "players": players * len(SECTIONS),
            "games": games,
            "wall_s": time.monotonic() - started,
            "play_s": played,
            "games_per_s": games / played if played else 0.0,
            "actions": driver.actions,
            "requests": stack.platform.requests,
            "phases": phases,
            "peak_rss_mb": peak_rss_mb(stack),
            "cpu_s": cpu_seconds(stack, driver_cpu_from),
            "clock_moves": len(driver.clock_moves),
            "profile": profile,
            "play_routes": play_routes,
            "play_cpu_s": play_cpu_used,
        }
    if mode != "embedded":
        result["table_reads"] = await table_reads(os.environ["DATABASE_URL"], prefix)
        await _drop_databases(os.environ["DATABASE_URL"], prefix)
    return result


def _profiler(stack: Any, py_spy: str, out_dir: Path) -> Profiler | None:
    compose = (stack.extras or {}).get("compose")
    if not compose:
        return None
    return Profiler(py_spy, out_dir, [compose.procs[name].popen.pid for name in SERVICES])


def _time_waits(driver: EventDriver) -> dict[str, float]:
    """Wall seconds the driver spends waiting for the services to be quiet, and moving the clock
    for games nobody acts in (a clock move waits for quiet too): time no bot plays."""
    spent = {"quiet": 0.0, "advance_stalled": 0.0}

    def timed(name: str, step: Any) -> Any:
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            started = time.monotonic()
            try:
                return await step(*args, **kwargs)
            finally:
                spent[name] += time.monotonic() - started

        return wrapper

    driver.quiet = timed("quiet", driver.quiet)
    driver.advance_stalled = timed("advance_stalled", driver.advance_stalled)  # type: ignore[method-assign]
    return spent


def peak_rss_mb(stack: Any) -> dict[str, float]:
    """Peak resident memory (VmHWM) of each service process so far, in MB; the embedded mode is
    this process."""
    compose = (stack.extras or {}).get("compose")
    pids = {name: proc.popen.pid for name, proc in compose.procs.items()} if compose else {"embedded": os.getpid()}
    peaks = {}
    for name, pid in pids.items():
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        kilobytes = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:")), 0)
        peaks[name] = kilobytes / 1024
    return peaks


def _own_cpu() -> float:
    times = os.times()
    return times.user + times.system


def cpu_seconds(stack: Any, driver_from: float) -> dict[str, float]:
    """CPU time (user + system) each process has used so far, in seconds: the driver (this process,
    the bots and their HTTP client) and each service process. On a shared machine the wall time
    depends on the load; the CPU split says which process limits the run."""
    compose = (stack.extras or {}).get("compose")
    pids = {name: proc.popen.pid for name, proc in compose.procs.items()} if compose else {}
    used = {"driver": _own_cpu() - driver_from}
    ticks = os.sysconf("SC_CLK_TCK")
    for name, pid in pids.items():
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # fields after the command name: state is [0], utime [11], stime [12]
        used[name] = (int(fields[11]) + int(fields[12])) / ticks
    return used


def play_cpu(stack: Any, prefix: str) -> dict[str, float]:
    """CPU seconds used so far by the driver, each service process, the PostgreSQL backends of
    the run's databases (those connected now) and RabbitMQ (shared with whatever else runs)."""
    compose = (stack.extras or {}).get("compose")
    used = {"driver": _own_cpu()}
    services = {proc.popen.pid: name for name, proc in compose.procs.items()} if compose else {}
    for pid, name in services.items():
        used[name] = process_cpu(pid) or 0.0
    for entry in os.listdir("/proc") if compose else ():
        if not entry.isdigit():
            continue
        command = cmdline(int(entry))
        group = (
            "postgres"
            if command.startswith("postgres") and f" {prefix}_" in command
            else "rabbitmq"
            if "beam.smp" in command.split(" ", 1)[0]
            else None
        )
        if group is not None:
            used[group] = used.get(group, 0.0) + (process_cpu(int(entry)) or 0.0)
    return used


#: per table of the run's databases: rows stored, sequential scans, rows they read, index scans
TABLE_READS = """
SELECT relname, n_live_tup, seq_scan, seq_tup_read, coalesce(idx_scan, 0) FROM pg_stat_user_tables
"""


async def table_reads(admin_url: str, prefix: str) -> dict[str, tuple[int, int, int, int]]:
    """``service.table`` -> (rows stored, sequential scans, rows read by them, index scans) over
    the whole run, from PostgreSQL's own statistics. A statement that reads a table whole on every
    call shows as sequential reads per bot action that grow with the field (the baseline beside
    it): the cost that grows with the data stored, which issue 33 asks to find in every service."""
    import asyncpg
    from sqlalchemy.engine import make_url

    found: dict[str, tuple[int, int, int, int]] = {}
    url = make_url(admin_url).set(drivername="postgresql")
    for name in database_urls_for(admin_url, prefix):
        conn = await asyncpg.connect(url.set(database=f"{prefix}_{name}").render_as_string(hide_password=False))
        try:
            for row in await conn.fetch(TABLE_READS):
                found[f"{name}.{row[0]}"] = (row[1], row[2], row[3], row[4])
        finally:
            await conn.close()
    return found


def print_table_reads(base: dict, full: dict, top: int = 12) -> None:
    """The tables most read by sequential scans in the full run, per bot action beside the
    baseline's: a ratio near 1 is a cost per action that does not grow with the field."""
    reads, base_reads = full.get("table_reads") or {}, base.get("table_reads") or {}
    if not reads:
        return
    actions, base_actions = max(1, full["actions"]), max(1, base["actions"])
    print("\nsequential reads (PostgreSQL's pg_stat_user_tables), the most read tables of the full run:")
    print(f"  {'table':36} {'rows':>8} {'seq scans':>10} {'rows read':>12} {'per action':>11} {'baseline':>9} {'x':>6}")
    for table, (rows, scans, read, _index) in sorted(reads.items(), key=lambda item: -item[1][2])[:top]:
        per_action = read / actions
        before = base_reads.get(table, (0, 0, 0, 0))[2] / base_actions
        ratio = f"{per_action / before:6.2f}" if before else "     -"
        print(f"  {table:36} {rows:8d} {scans:10d} {read:12d} {per_action:11.2f} {before:9.2f} {ratio}")


async def _drop_databases(admin_url: str, prefix: str) -> None:
    """The run's four databases are scratch: the figures are printed, nothing reads them again."""
    import asyncpg
    from sqlalchemy.engine import make_url

    conn = await asyncpg.connect(make_url(admin_url).set(drivername="postgresql").render_as_string(hide_password=False))
    try:
        for name in database_urls_for(admin_url, prefix):
            await conn.execute(f'DROP DATABASE IF EXISTS "{prefix}_{name}" WITH (FORCE)')
    finally:
        await conn.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m bench.event_full", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--mode", choices=("distributed", "embedded"), default="distributed")
    p.add_argument("--players", type=int, default=128, help="players per section (full size: 128)")
    # 8 players in a 7-round section play a round robin (PAIR-1: the sim arbiter's choice), 16 a Swiss
    p.add_argument("--baseline-players", type=int, default=16, help="0: no baseline run")
    p.add_argument("--seed", type=int, default=2022)
    p.add_argument(
        "--py-spy", metavar="PATH", help="py-spy executable: profile the services during the full run's play"
    )
    args = p.parse_args(argv if argv is not None else sys.argv[1:] if __name__ == "__main__" else [])
    if args.mode == "distributed" and not (os.environ.get("AMQP_URL") and os.environ.get("DATABASE_URL")):
        print("bench.event_full: distributed mode needs AMQP_URL and DATABASE_URL", file=sys.stderr)
        return 2
    base = (
        asyncio.run(run_once(args.mode, args.baseline_players, args.seed, "baseline"))
        if args.baseline_players
        else None
    )
    full = asyncio.run(run_once(args.mode, args.players, args.seed, "full", args.py_spy))
    base = base or full
    print(f"\nSZ 2022 online qualifier, {args.mode}; the bots think with the {thinking.NAME} strategy core")
    print(
        f"{'run':10} {'players':>8} {'games':>7} {'wall s':>9} {'play s':>9} {'games/s':>8} {'actions':>9} "
        f"{'requests':>9} {'x wall':>8}"
    )
    for r in (base, full):
        print(
            f"{r['label']:10} {r['players']:8d} {r['games']:7d} {r['wall_s']:9.1f} {r['play_s']:9.1f} "
            f"{r['games_per_s']:8.2f} {r['actions']:9d} {r['requests']:9d} {r['wall_s'] / base['wall_s']:8.2f}"
        )
    print(
        "\nwhere the wall time goes (s): "
        + "; ".join(f"{name} {base['phases'][name]:.1f} -> {full['phases'][name]:.1f}" for name in full["phases"])
    )
    print(
        "peak RSS per process, MB (goal <= 250): "
        + "; ".join(
            f"{name} {base['peak_rss_mb'].get(name, 0):.0f} -> {peak:.0f}" for name, peak in full["peak_rss_mb"].items()
        )
    )
    print(f"clock moves (games nobody acts in): {base['clock_moves']} -> {full['clock_moves']}")
    print(
        "CPU s per process (user + system): "
        + "; ".join(f"{name} {base['cpu_s'].get(name, 0):.0f} -> {used:.0f}" for name, used in full["cpu_s"].items())
    )
    print(
        "CPU ms per bot action while playing: "
        + "; ".join(f"{name} {1000 * used / max(1, full['actions']):.2f}" for name, used in full["play_cpu_s"].items())
    )
    print(f"requests while playing ({sum(full['play_routes'].values())}), the most frequent:")
    for route, count in full["play_routes"].most_common(12):
        print(f"  {count:8d}  {route}")
    print("\n".join(full["profile"]))
    print_table_reads(base, full)
    at_full_size = args.players == 128 and args.mode == "distributed"
    verdict = ("MET" if full["wall_s"] < 300 else "NOT MET") if at_full_size else "judged at 8 x 128, distributed only"
    print(
        f"{full['players']} players: {full['actions'] / full['phases']['play']:.0f} bot actions/s while playing, "
        f"goal: the whole qualifier in under 300 s: {verdict}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
