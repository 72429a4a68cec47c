"""A player's history page with 1,000 events in the registry (issue 32: < 100 ms server side).

    .venv/bin/python -m bench.history_page                 # 1,000 events; baseline 30 events
    .venv/bin/python -m bench.history_page --events 30 --baseline 3 --pool 40 --repeat 3  # a quick look
    .venv/bin/python -m bench.history_page --explain       # and the plans of awards' statements

Needs PostgreSQL (DATABASE_URL, an account that may create databases): the run creates databases
of its own and drops them. One organisation's season is stored as awards' consumer stores it
(bench._history_seed): events of one section, 16 people each from a pool, 4 rated rounds, the top
quarter titled, the lists of every month computed; one person plays in every third event. The
services and the portal run in this process; every request goes through httpx's ASGI transport
(no socket: server-side time, the portal's own calls to the services included).

First the baseline is measured with ``--baseline`` events stored (30 by default: the person
played 10 of them, a full page, so both measures draw as many sections), then the registry grows to
``--events`` and the same requests are measured again. Printed per request: p50 and p95 over
``--repeat`` requests and the ratio of the p50 to the baseline's: a ratio near 1 says the cost
does not grow with the stored data. Rows: awards' three reads of the person (the events: the
page's window of sections), the history page (zh: its latest sections, ``SHOWN`` of them), the
portal's 404 page (what answering at all costs on this machine now), the public rating list
searched by a name's first character, and the staff's registry search by name. Goal (issue 32):
the history page's p95 < 100 ms. Exit 1 when missed (a loaded machine misses it: compare with
the 404 page).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import event

from bench._history_seed import ORG, PERSON, Federation, federation, grow
from portal.history_paging import SHOWN

GOAL_MS = 100.0
PAGE = "history page (zh)"
#: the cost of the portal answering at all on this machine now (as in bench.pages)
NOT_FOUND = "portal 404 page"


def requests(fed: Federation, period: str) -> dict[str, tuple[str, str, dict[str, str]]]:
    """What is timed: the row's name → (app, path, headers)."""
    base = f"/v1/organisations/{ORG}/people/{PERSON}"
    staff = {"X-API-Key": fed.operator_key}
    return {
        "awards: titles": ("awards", f"{base}/titles", {}),
        "awards: rating": ("awards", f"{base}/rating", {}),
        "awards: events (page)": ("awards", f"{base}/events?latest={SHOWN}", {}),
        PAGE: ("portal", f"/people/{ORG}/{PERSON}", {"Accept-Language": "zh"}),
        NOT_FOUND: ("portal", "/events/no-such-event", {"Accept-Language": "zh"}),
        "rating list ?q=陈 (zh)": ("portal", f"/ratings/{ORG}/{period}?q=陈", {"Accept-Language": "zh"}),
        "registry search q=陈": ("registration", f"/v1/organisations/{ORG}/people?q=陈&limit=50", staff),
    }


def portal_app(fed: Federation) -> Any:
    from fastapi import FastAPI

    from portal.embedding import mount

    host = FastAPI()
    upstream = mount(host, fed.apps, [svc.app.state.keyring for svc in fed.services.values()])
    return host, upstream


async def measure(clients: dict[str, httpx.AsyncClient], fed: Federation, repeat: int) -> dict[str, tuple]:
    """name → (status, p50 ms, p95 ms, min ms)."""
    rows: dict[str, tuple] = {}
    period = await latest_period(clients["awards"])
    for name, (app, path, headers) in requests(fed, period).items():
        answer = await clients[app].get(path, headers=headers)  # warm: the first carries imports and caches
        times = []
        for _ in range(repeat):
            t = time.perf_counter()
            answer = await clients[app].get(path, headers=headers)
            times.append((time.perf_counter() - t) * 1000)
        times.sort()
        p95 = times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))]
        rows[name] = (answer.status_code, statistics.median(times), p95, times[0])
    return rows


async def latest_period(awards: httpx.AsyncClient) -> str:
    listed = (await awards.get(f"/v1/organisations/{ORG}/ratings/2000-01")).json()
    return str(listed["periods"][-1])


@contextmanager
def statements_of(engine: Any) -> Iterator[list[tuple[str, Any]]]:
    """The statements the driver runs on ``engine`` meanwhile (with their parameters)."""
    seen: list[tuple[str, Any]] = []

    def record(_conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, _many: bool) -> None:
        seen.append((statement, parameters))

    event.listen(engine.sync_engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", record)


async def explain(fed: Federation, page: httpx.AsyncClient, path: str, what: str) -> None:
    """EXPLAIN (ANALYZE, BUFFERS) of every statement awards runs for the history page: the time,
    the buffers, the rows read and filtered out, and each scan (a sequential scan, or an index
    scan filtering many rows, grows with the stored data)."""
    engine = fed.runtime("awards").engine
    with statements_of(engine) as seen:
        await page.get(path)
    print(f"\nawards' statements for {what} (EXPLAIN ANALYZE, BUFFERS):")
    async with engine.connect() as conn:
        for statement, parameters in dict.fromkeys((s, tuple(p or ())) for s, p in seen if "outbox" not in s):
            plan = [
                r[0] for r in (await conn.exec_driver_sql(f"EXPLAIN (ANALYZE, BUFFERS) {statement}", parameters)).all()
            ]
            took = next((line.split(":")[1].strip() for line in plan if line.startswith("Execution Time")), "?")
            hits = next((line.split("Buffers:")[1].strip() for line in plan if "Buffers:" in line), "")
            # rows an index scan reads and throws away grow with the data as a sequential scan does
            removed = sum(int(line.split(":")[1]) for line in plan if "Rows Removed by Filter" in line)
            print(f"  {took:>10}  {hits:<18} {removed:>7} rows filtered out  {' '.join(statement.split())[:70]}")
            for line in plan:
                if "Scan" in line:
                    print(f"  {'':>10}  {line.strip().split('  (')[0]}")


def show(base: dict[str, tuple], full: dict[str, tuple], sizes: tuple[int, int], people: int, repeat: int) -> bool:
    print(
        f"\nhistory page of one person: {sizes[0]} events (baseline) then {sizes[1]} events, {people} people; {repeat} requests each"
    )
    head = f"{'request':<24} {'events':>6} {'status':>6} {'p50 ms':>8} {'p95 ms':>8} {'min ms':>8} {'x base':>7}  goal"
    print(head)
    print("-" * len(head))
    met = True
    for name in full:
        for events, rows in zip(sizes, (base, full), strict=True):
            status, p50, p95, least = rows[name]
            ratio = p50 / base[name][1] if base[name][1] else 0.0
            verdict = ""
            if status != (404 if name == NOT_FOUND else 200):
                verdict, met = f"FAILED (answered {status})", False
            elif name == PAGE:
                verdict = "ok" if p95 < GOAL_MS else "SLOW"
                met = met and p95 < GOAL_MS
            print(f"{name:<24} {events:>6} {status:>6} {p50:>8.1f} {p95:>8.1f} {least:>8.1f} {ratio:>7.2f}  {verdict}")
    print(f"(goal: the history page's p95 < {GOAL_MS:.0f} ms; x base: p50 / the baseline's p50; min: the quickest,")
    print(" what the page costs when the machine's other load leaves it alone)")
    return met


async def run(args: argparse.Namespace) -> int:
    database_url = os.environ.get("DATABASE_URL", "")
    if not database_url.startswith("postgresql"):
        print(
            "bench.history_page needs DATABASE_URL=postgresql+asyncpg://… (it creates its own databases)",
            file=sys.stderr,
        )
        return 2
    async with federation(database_url, Path(tempfile.mkdtemp(prefix="bench-history-"))) as fed:
        host, upstream = portal_app(fed)
        clients = {
            name: httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=f"http://{name}", timeout=120)
            for name, app in {**fed.apps, "portal": host}.items()
        }
        try:
            results = []
            for events in (args.baseline, args.events):
                t0 = time.monotonic()
                await grow(fed, events, args.pool, args.players, args.rounds, args.seed)
                print(f"  {events} events stored in {time.monotonic() - t0:.0f} s", flush=True)
                results.append(await measure(clients, fed, args.repeat))
            if args.explain:
                period = await latest_period(clients["awards"])
                await explain(fed, clients["portal"], f"/people/{ORG}/{PERSON}", "one history page")
                await explain(fed, clients["portal"], f"/ratings/{ORG}/{period}?q=陈", "one search of the rating list")
        finally:
            for client in clients.values():
                await client.aclose()
            await upstream.aclose()
    return 0 if show(results[0], results[1], (args.baseline, args.events), fed.people, args.repeat) else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.history_page", description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=1000, help="events in the registry when measured")
    parser.add_argument(
        "--baseline", type=int, default=30, help="events in the registry for the baseline (30: the page is full)"
    )
    parser.add_argument("--pool", type=int, default=1500, help="people in the registry")
    parser.add_argument("--players", type=int, default=16, help="people per event")
    parser.add_argument("--rounds", type=int, default=4, help="rated rounds per event")
    parser.add_argument("--repeat", type=int, default=30, help="requests per row")
    parser.add_argument("--explain", action="store_true", help="print the plans of awards' statements")
    parser.add_argument("--seed", type=int, default=32)
    args = parser.parse_args(argv)
    return asyncio.run(run(args))


if __name__ == "__main__":
    raise SystemExit(main())
