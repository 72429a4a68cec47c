"""The main job: run a seed event with bot players and print its results.

    .venv/bin/python -m gomoku_sim.demo                       # SZ 2022, scaled down, embedded
    .venv/bin/python -m gomoku_sim.demo --preset nt-2023 --seed 7 --players-per-section 8
    .venv/bin/python -m gomoku_sim.demo --full --mode distributed   # needs AMQP_URL, DATABASE_URL
    .venv/bin/python -m gomoku_sim.demo --season    # the four seed events as one rated season

Embedded: every service in this process (in-memory bus, SQLite in a temporary DATA_DIR,
one fake clock). Distributed: the four competition services as processes started with the commands of
docker-compose.yml, on RabbitMQ (AMQP_URL) and PostgreSQL (DATABASE_URL: a server where a
database per service may be created), reached through the compose gateway (Caddy) at one base
URL, as in the embedded mode.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
import uuid
from pathlib import Path

from registration import presets

from .bots import BotPolicy
from .demo_staff import create_demo_staff, print_demo_staff
from .driver import EventDriver, RunSpec, result_digest, scaled_sizes
from .report import (
    print_awards,
    print_qualifiers,
    print_schedule,
    print_standings,
    print_venue,
    round_times,
    where_to_find,
    write_csvs,
)
from .season import ORGANISATION, play_season, print_season, season_specs, season_summary
from .stack import database_urls_for, distributed_stack, embedded_stack, env_or_fail


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m gomoku_sim.demo", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    # every preset registration ships: a new preset file is a new choice, with no edit here
    parser.add_argument("--preset", choices=presets.list_presets(), default="sz-2022")
    parser.add_argument("--seed", type=int, default=2022)
    parser.add_argument(
        "--players-per-section", type=int, default=None, help="entries in each played section of the scaled-down field"
    )
    parser.add_argument(
        "--season",
        action="store_true",
        help="embedded: the four seed events in date order, one organisation's rated season, players shared",
    )
    parser.add_argument("--full", action="store_true", help="the full-size field (SZ: 8 sections x 128)")
    parser.add_argument(
        "--rounds",
        type=int,
        default=None,
        help="Swiss rounds (default: 3 for the scaled-down field, the preset's with --full)",
    )
    parser.add_argument("--mode", choices=("embedded", "distributed"), default="embedded")
    parser.add_argument("--out", type=Path, default=None, help="directory for CSV files and summary.json")
    parser.add_argument("--no-show-rate", type=float, default=0.02)
    parser.add_argument("--timeout-rate", type=float, default=0.02)
    parser.add_argument("--quiet", action="store_true", help="no progress output")
    parser.add_argument(
        "--port", type=int, default=8000, help="embedded: port of the live web pages while the event runs (0: any free)"
    )
    parser.add_argument(
        "--serve", action="store_true", help="embedded: keep serving the web pages after the event ends (Ctrl-C stops)"
    )
    return parser.parse_args(argv)


async def run(args: argparse.Namespace) -> int:
    if args.season:
        return await run_season(args)
    sizes = scaled_sizes(args.preset, args.players_per_section, full=args.full)
    policy = BotPolicy(no_show_rate=args.no_show_rate, timeout_rate=args.timeout_rate)
    rounds = args.rounds if args.rounds is not None else (None if args.full else 3)
    spec = RunSpec(
        preset_id=args.preset,
        seed=args.seed,
        sizes=sizes,
        rounds=rounds,
        policy=policy,
        progress=not args.quiet,
        concurrency=1 if args.mode == "embedded" else 16,
    )
    out_dir = args.out or Path(tempfile.mkdtemp(prefix=f"gomoku-{spec.code}-")) / "results"
    started = time.monotonic()
    if args.mode == "embedded":
        data_dir = Path(tempfile.mkdtemp(prefix=f"gomoku-{spec.code}-data-"))
        ctx = embedded_stack(data_dir, configure_logs=True)
    else:
        amqp = env_or_fail("AMQP_URL")
        admin = env_or_fail("DATABASE_URL")
        run_id = uuid.uuid4().hex[:6]
        ctx = distributed_stack(
            amqp_url=amqp,
            database_urls=database_urls_for(admin, f"gomoku_demo_{run_id}"),
            log_dir=out_dir.parent / "logs",
            namespace=f"demo-{run_id}",
            gateway=True,
        )
    async with ctx as stack:
        pages = await _serve_pages(stack, args.port) if args.mode == "embedded" else None
        if pages is not None:
            print(f"live pages: {pages.url}/events/{spec.code}  (staff console: {pages.url}/staff)", flush=True)
        await _staff_accounts(stack, args.mode, pages)
        driver = EventDriver(stack.platform, stack.clock, stack.quiet, spec)
        summary = await driver.run()
        wall = time.monotonic() - started
        out = sys.stdout
        out.write(f"\n{driver.config.name} ({spec.preset_id}, seed {spec.seed}, {stack.mode})\n")
        games = summary.get("games", {})
        out.write(
            f"{len(driver.field)} applications, {len(games)} games, {wall:.1f}s wall, {len(games) / wall:.1f} games/s\n"
        )
        print_schedule(await round_times(stack.platform, spec.code), driver.config.timezone, out)
        print_venue(summary, driver.venue, out)
        print_standings(summary, out)
        print_awards(summary, out)
        print_qualifiers(summary, out)
        written = await write_csvs(stack.platform, spec.code, summary, out_dir)
        where_to_find(spec.code, stack.mode, stack.urls, out_dir, out)
        out.write(f"  ({len(written)} files written)\n")
        out.write(f"result digest: {result_digest(summary)}\n")
        if pages is not None:
            if args.serve:
                out.write(f"serving the event's pages at {pages.url}/events/{spec.code} — Ctrl-C stops\n")
                out.flush()
                await pages.until_stopped()
            await pages.stop()
    return 0


async def run_season(args: argparse.Namespace) -> int:
    """Issue 32: the season (season.py) in one embedded platform, then its titles and rating list."""
    policy = BotPolicy(no_show_rate=args.no_show_rate, timeout_rate=args.timeout_rate)
    specs = season_specs(args.seed, args.rounds or 3, policy, not args.quiet)
    started = time.monotonic()
    async with embedded_stack(Path(tempfile.mkdtemp(prefix="gomoku-season-data-")), configure_logs=True) as stack:
        pages = await _serve_pages(stack, args.port)
        base = pages.url if pages is not None else "http://127.0.0.1:8000"
        await play_season(stack, specs, sys.stdout)
        print(f"\n{len(specs)} events ({', '.join(s.code for s in specs)}) in {time.monotonic() - started:.1f}s wall")
        print_season(await season_summary(stack.platform, ORGANISATION), base, sys.stdout)
        if pages is not None:
            if args.serve:
                print(f"serving the season's pages at {base} — Ctrl-C stops", flush=True)
                await pages.until_stopped()
            await pages.stop()
    return 0


async def _staff_accounts(stack, mode: str, pages: _Pages | None) -> None:
    """One staff account per role, created through the partners API (an operator's invitation,
    then its acceptance), and their table. The distributed demo runs no partners service."""
    if mode != "embedded":
        return
    accounts = await create_demo_staff(stack.platform.client, "/partners", stack.platform.keys.operator)
    where = f"{pages.url}/staff" if pages is not None else "the staff console (/staff)"
    print_demo_staff(accounts, where, sys.stdout)


class _Pages:
    """The embedded process's web pages served on a socket (uvicorn in this event loop)."""

    def __init__(self, server, task: asyncio.Task, url: str) -> None:
        self.server, self.task, self.url = server, task, url

    async def until_stopped(self) -> None:
        try:
            await self.task
        except asyncio.CancelledError:
            pass

    async def stop(self) -> None:
        self.server.should_exit = True
        if not self.task.done():
            await self.task


async def _serve_pages(stack, port: int) -> _Pages | None:
    """The live pages of the running event (the embedded app, portal at /) on 127.0.0.1:port;
    None when the port is taken (the event still runs, without pages)."""
    import socket

    import uvicorn

    if port == 0:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
    suite = stack.extras["suite"]
    config = uvicorn.Config(suite.app, host="127.0.0.1", port=port, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    for _ in range(200):  # uvicorn says when it listens (or fails to) within a few seconds
        if server.started or task.done():
            break
        await asyncio.sleep(0.05)
    if task.done() or not server.started:
        sys.stderr.write(f"the web pages could not listen on port {port} (in use?); --port chooses another\n")
        return None
    return _Pages(server, task, f"http://127.0.0.1:{port}")


def main(argv: list[str] | None = None) -> int:
    return asyncio.run(run(parse_args(argv)))


if __name__ == "__main__":
    raise SystemExit(main())
