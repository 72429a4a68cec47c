"""Page speed: every public page kind of a full-size SZ 2022 online qualifier, rendered server-side.

    .venv/bin/python -m bench.pages                        # 8 sections x 128 players, 3 rounds
    .venv/bin/python -m bench.pages --players 16 --rounds 2 --repeat 10   # a quick look

The event is built the sim's way (sim's EventDriver: the preset, units, registrations, evidence,
check-in and the stage's closing, all through the services' APIs) in the embedded runner. Instead
of playing every game with bots, the arbiter enters the results of each round through pairing's
API (the quick way to a field with standings, a cross table and a next round; the games of the
current round are live). Then each page kind is requested ``--repeat`` times in-process (the
portal's handler with its API calls, no socket: server-side time). Printed per page kind: p50 and
p95 render time, the page's weight with its assets (stylesheets, scripts, images, fetched once),
and, as the baseline measured in the same run, the 404 page. Goals (issue 15): p95 < 100 ms,
weight < 300 KB. Nothing is asserted: the figures are printed.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import random
import re
import statistics
import tempfile
import time
from pathlib import Path

import httpx

from gomoku_sim.bots import BotPolicy
from gomoku_sim.client import ApiError
from gomoku_sim.driver import FULL_FIELDS, EventDriver, RunSpec
from gomoku_sim.stack import embedded_stack

SECTIONS = tuple(FULL_FIELDS["sz-2022"])
ASSET = re.compile(r'<(?:link[^>]+href|script[^>]+src|img[^>]+src)="(/[^"]+)"')
GOAL_MS, GOAL_KB = 100.0, 300.0
#: the first row: an unknown page (the cost of the portal answering at all)
BASELINE_KIND = "404 (baseline)"
RESULTS = ("first_wins", "second_wins", "draw")


async def build(stack, players: int, rounds: int, seed: int) -> tuple[EventDriver, list[str]]:
    spec = RunSpec(
        preset_id="sz-2022",
        seed=seed,
        event_code="pages",
        sizes={s: players for s in SECTIONS},
        policy=BotPolicy(),
        progress=False,
        wait_timeout_s=900,
        run_timeout_s=7200,
    )
    driver = EventDriver(stack.platform, stack.clock, stack.quiet, spec)
    t0 = time.monotonic()
    await driver.create_event()
    await driver.create_units()
    await driver.register()
    await driver.verify_evidence()
    stage = await driver.check_in_and_close(driver.config.stages[0].id)
    sections = driver.played_sections(stage)
    print(f"  field of {len(SECTIONS)} x {players} registered and closed in {time.monotonic() - t0:.0f} s", flush=True)
    rng = random.Random(seed)
    p = stack.platform
    gate = asyncio.Semaphore(1)  # one result at a time, as an arbiter at a desk enters them
    for n in range(1, rounds + 1):
        t1 = time.monotonic()
        for sid in sections:
            base = f"/v1/events/{driver.code}/sections/{sid}"
            await driver.wait_for(f"{sid} round {n}", functools.partial(_paired, p, base, n))
            rnd = await p.get("pairing", f"{base}/rounds/{n}")

            async def enter(pairing: dict, base: str = base, n: int = n) -> None:
                async with gate:
                    # the revision the arbiter saw: a result that came in meanwhile is never overwritten
                    body = {
                        "pairing_id": pairing["pairing_id"],
                        "result": rng.choice(RESULTS),
                        "expected_revision": pairing["revision"],
                    }
                    await p.post("pairing", f"{base}/rounds/{n}/results", body, role="arbiter")

            await asyncio.gather(*(enter(x) for x in rnd["pairings"] if x.get("second") and not x.get("result")))
        await stack.quiet()
        print(f"  round {n}: every result entered in {time.monotonic() - t1:.0f} s", flush=True)
    return driver, sections


async def _paired(p, base: str, n: int) -> bool:
    try:
        section = await p.get("pairing", base)
    except ApiError as exc:  # the stage's closing has not reached pairing yet
        if exc.status != 404:
            raise
        return False
    return int(section.get("current_round") or 0) >= n


async def pages_of(p, code: str, rounds: int, sections: list[str]) -> dict[str, str]:
    # men-pro when it is played: professional rules (openings, forbidden points on the boards)
    sid = "men-pro" if "men-pro" in sections else sections[0]
    base = f"/events/{code}/sections/{sid}"
    section = await p.get("pairing", f"/v1/events/{code}/sections/{sid}")
    current = int(section["current_round"])
    live = await p.get("gameplay", "/v1/games", params={"event": code, "section": sid, "status": "active"})
    first = await p.get("gameplay", "/v1/games", params={"event": code, "section": sid})
    game = (live.get("games") or first["games"])[0]["game_id"]
    old = next((g["game_id"] for g in first["games"] if g.get("round") == 1), game)
    entrant = section["entrants"][0]["entrant_id"]
    return {
        BASELINE_KIND: "/events/no-such-event",
        "start page": "/",
        "event home": f"/events/{code}",
        "pairings and results": base,
        "standings": f"{base}/standings",
        "cross table": f"{base}/crosstable",
        "player": f"{base}/players/{entrant}",
        "board wall": f"{base}/rounds/{current}/wall",
        "live board": f"/games/{game}",
        "replay": f"/games/{old}/replay",
        "awards": f"/events/{code}/awards",
        "pairing sheet (PDF)": f"{base}/rounds/{min(current, rounds)}/pairings.pdf",
        "standings (PDF)": f"{base}/standings.pdf",
        "cross table (PDF)": f"{base}/crosstable.pdf",
    }


async def measure(app, pages: dict[str, str], repeat: int) -> list[tuple[str, int, float, float, float]]:
    rows = []
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://bench", timeout=120) as client:
        for kind, path in pages.items():
            first = await client.get(path)
            assets = sorted(set(ASSET.findall(first.text))) if "html" in first.headers.get("content-type", "") else []
            weight = len(first.content) + sum([len((await client.get(a)).content) for a in assets])
            times = []
            for _ in range(repeat):
                t = time.perf_counter()
                answer = await client.get(path)
                times.append((time.perf_counter() - t) * 1000)
            times.sort()
            p95 = times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))]
            rows.append((kind, answer.status_code, statistics.median(times), p95, weight / 1024))
    return rows


def show(rows, players: int, rounds: int, repeat: int) -> None:
    print(
        f"\nSZ 2022 online qualifier, {len(SECTIONS)} x {players} players, {rounds} rounds entered; {repeat} requests each"
    )
    head = f"{'page kind':<24} {'status':>6} {'p50 ms':>8} {'p95 ms':>8} {'KB+assets':>10}  goals"
    print(head)
    print("-" * len(head))
    for kind, status, p50, p95, kb in rows:
        print(f"{kind:<24} {status:>6} {p50:>8.1f} {p95:>8.1f} {kb:>10.1f}  {verdict(kind, status, p95, kb)}")
    print(f"(goals: p95 < {GOAL_MS:.0f} ms, weight < {GOAL_KB:.0f} KB; the 404 page is the baseline)")


def verdict(kind: str, status: int, p95: float, kb: float) -> str:
    """A page that did not answer as it should (a PDF without its font answers 503) fails whatever its speed."""
    expected = 404 if kind == BASELINE_KIND else 200
    if status != expected:
        return f"FAILED (answered {status}, expected {expected})"
    if p95 < GOAL_MS and kb < GOAL_KB:
        return "ok"
    return " ".join(word for word, missed in (("SLOW", p95 >= GOAL_MS), ("HEAVY", kb >= GOAL_KB)) if missed)


async def run(players: int, rounds: int, repeat: int, seed: int) -> int:
    tmp = Path(tempfile.mkdtemp(prefix="bench-pages-"))
    async with embedded_stack(tmp / "data") as stack:
        driver, sections = await build(stack, players, rounds, seed)
        pages = await pages_of(stack.platform, driver.code, rounds, sections)
        rows = await measure(stack.extras["suite"].app, pages, repeat)
    show(rows, players, rounds, repeat)
    return 0 if all(verdict(*row[:2], row[3], row[4]) == "ok" for row in rows) else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.pages", description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=128, help="players per section (8 sections)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds whose results are entered")
    parser.add_argument("--repeat", type=int, default=30, help="requests per page kind")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    return asyncio.run(run(args.players, args.rounds, args.repeat, args.seed))


if __name__ == "__main__":
    raise SystemExit(main())
