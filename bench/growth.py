"""How cost grows with the event: tables of cost against size, each with its fitted exponent.

    .venv/bin/python -m bench.growth [--quick] [--only pairing,import,close,awards,gameplay]
    .venv/bin/python -m bench.growth --only gameplay [--games 512] [--seconds 8] [--replicas 1,2,3]

The first four tables run in this process, the services on SQLite and the in-memory bus (the
service harness of the tests: each service built by its own bootstrap, its API called in-process):

* pairing: one Swiss round (round 4 of 7, after three rounds paired and played with the same
  engine) of 16 … 1,024 players, through the public ``pair_swiss_round``;
* registration, bulk import: 128 … 8,192 SZ 2022 online entries in one section, through
  ``POST /v1/events/{code}/entries/bulk`` in batches of 512 (the API takes at most 1,000 a call);
* event close: closing the SZ 2022 online stage (``POST …/stages/online/close``) with
  8 sections × 16 … 128 entries;
* awards: the eight ``section.completed`` of that stage (8 × 16 … 1,024 standings) until every
  ``awards.published`` is out. Its sizes go past the other tables': each section costs a fixed
  share (its configuration and plan read again), which at 8 × 128 still outweighs the rows, so
  the exponent over 8 × 16 … 128 alone says nothing about how the rows cost.

The registration and awards tables start with one run at their smallest size that is not shown:
the first run in a process pays one-off costs (imports, compiled statement caches) that would
otherwise inflate the smallest row and pull the exponent down.

Each row prints the CPU time of this process (the machine is shared; wall time beside it) and the
cost per item; each table ends with the exponent k of cost ~ n^k fitted by least squares on
log-log, beside the exponent the same fit gives for n log n over the same sizes (so a k near that
is n log n, a k near 2 is quadratic).

The gameplay table (issue 18) grows the other way: the same games on 1, 2 and 3 service
replicas. Each row is one run of ``python -m bench.gameplay_load --replicas N`` as a subprocess
(real gameplay processes on PostgreSQL + RabbitMQ from DATABASE_URL and AMQP_URL, as that bench
documents) at ``--games`` / ``--moves`` / ``--seconds`` (512 games, 20 moves, 8 s by default;
``--quick``: 64 games, 5 moves, 3 s). Its output is read with the parser ``bench.compare`` uses
(a format it does not know stops the run); the row shows the saturation moves/s and its factor
against the fewest replicas, the live phase's moves/s offered (the games' schedule) and answered
(the answers that arrived in its window) with p50 and p99, and the service CPU ms per move at
saturation (CPU, not wall: the figure least moved by other load). Answered below offered means the
service fell behind the schedule: a note under the table says so. The 1-minute load average
is printed with the table: on a shared machine the wall-clock rates carry other jobs' time.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

CST = timezone(timedelta(hours=8))
OPERATOR = {"x-api-key": "bench-op"}
PARTNER = {"x-api-key": "bench-partner"}
KEYS = "bench-op=operator,bench-arb=arbiter,bench-partner=partner:partner-1"
BATCH = 512
TABLES = ("pairing", "import", "close", "awards", "gameplay")
#: the SZ 2022 online stage: section -> (gender, birth date) of an eligible entrant
SZ_SECTIONS = {
    "men-free": ("male", "1990-05-05"),
    "women-free": ("female", "1991-06-06"),
    "junior-boys-free": ("male", "2011-03-03"),
    "junior-girls-free": ("female", "2011-04-04"),
    "men-pro": ("male", "1988-01-01"),
    "women-pro": ("female", "1992-02-02"),
    "junior-boys-pro": ("male", "2012-03-03"),
    "junior-girls-pro": ("female", "2012-04-04"),
}


def fitted_exponent(sizes: list[int], costs: list[float]) -> float:
    """Slope of log(cost) against log(size), least squares."""
    xs, ys = [math.log(n) for n in sizes], [math.log(max(c, 1e-9)) for c in costs]
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / sum((x - mean_x) ** 2 for x in xs)


def print_table(title: str, unit: str, rows: list[tuple[int, float, float]]) -> float:
    """rows: (size, CPU seconds, wall seconds). Returns the fitted exponent of the CPU time."""
    print(f"\n{title}")
    print(f"{'n':>7} {'cpu s':>9} {'wall s':>9} {'cpu ms per ' + unit:>18}")
    for size, cpu, wall in rows:
        print(f"{size:>7} {cpu:>9.3f} {wall:>9.3f} {cpu * 1000 / size:>18.3f}")
    sizes = [size for size, _, _ in rows]
    exponent = fitted_exponent(sizes, [cpu for _, cpu, _ in rows])
    reference = fitted_exponent(sizes, [n * math.log(n) for n in sizes])
    print(f"fitted exponent k (cost ~ n^k): {exponent:.2f}   (n log n over these sizes: {reference:.2f})", flush=True)
    return exponent


async def measured(step: Callable[[], Awaitable[Any]]) -> tuple[float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    await step()
    return time.process_time() - cpu, time.perf_counter() - wall


# ---------------------------------------------------------------------- pairing
def pairing_rows(sizes: list[int]) -> list[tuple[int, float, float]]:
    from pairing.adapters.dutch.fast import FastGacruxDutch
    from pairing.domain.model import Outcome, Player, Tournament, record_round
    from pairing.domain.swiss import pair_swiss_round

    outcomes = [Outcome.FIRST_WINS] * 5 + [Outcome.SECOND_WINS] * 4 + [Outcome.DRAW] * 2
    engine = FastGacruxDutch()  # the service's Dutch engine
    rows = []
    for size in sizes:
        rng = random.Random(size)
        players = tuple(Player(i, f"P{i}", rating=2600 - (1000 * i) // size) for i in range(1, size + 1))
        tournament = Tournament(players=players, rounds_planned=7)
        for _ in range(3):
            paired = pair_swiss_round(tournament, engine=engine)
            results = {board: rng.choice(outcomes) for board in range(len(paired.boards))}
            tournament = record_round(tournament, paired, results)
        best = (math.inf, math.inf)
        for _ in range(3 if size <= 256 else 1):
            cpu, wall = time.process_time(), time.perf_counter()
            pair_swiss_round(tournament, engine=engine)
            best = min(best, (time.process_time() - cpu, time.perf_counter() - wall))
        rows.append((size, *best))
        print(f"  pairing {size}: {best[0]:.3f} s", flush=True)
    return rows


# ---------------------------------------------------------------------- registration
def _entry(number: int, section: str) -> dict[str, Any]:
    gender, born = SZ_SECTIONS[section]
    return {
        "stage": "online",
        "section_id": section,
        "player": {
            "name": f"Player {number:05d}",
            "gender": gender,
            "birth_date": born,
            "id_number": f"44{number:08d}{born.replace('-', '')}"[:18],
        },
        "evidence": [{"kind": "household_registration", "document_ref": f"HK-{number:06d}", "region": "Shenzhen"}],
        "insurance": {"confirmed": True, "document_ref": f"POL-{number:06d}"},
    }


def _registration_harness(data_dir: Path) -> Any:
    from gomoku_shared.clock import FakeClock
    from gomoku_shared.settings import ServiceSettings
    from gomoku_shared.testing.harness import ServiceHarness
    from registration.bootstrap import build

    settings = ServiceSettings(
        DATABASE_URL=f"sqlite+aiosqlite:///{data_dir}/registration.sqlite",
        AMQP_URL=None,
        API_KEYS=KEYS,
        DATA_KEY="bench-growth-data-key-0123456789",
        LOG_LEVEL="WARNING",
    )
    clock = FakeClock(datetime(2022, 10, 26, 10, 0, tzinfo=CST))
    return ServiceHarness(build, settings, clock=clock, observe=["section.closed"])


async def _create_event(harness: Any, caps: int) -> None:
    sections = {section: {"cap": caps} for section in SZ_SECTIONS}
    body = {"preset_id": "sz-2022", "event_code": "grow", "overrides": {"stages": {"online": {"sections": sections}}}}
    response = await harness.client.post("/v1/events", headers=OPERATOR, json=body)
    if response.status_code != 201:
        raise RuntimeError(f"event not created: {response.text[:500]}")


async def _import(harness: Any, entries: list[dict[str, Any]]) -> None:
    for start in range(0, len(entries), BATCH):
        batch = {"entries": entries[start : start + BATCH]}
        response = await harness.client.post("/v1/events/grow/entries/bulk", headers=PARTNER, json=batch)
        if response.status_code != 201:
            raise RuntimeError(f"bulk import refused: {response.text[:500]}")


async def import_rows(sizes: list[int]) -> list[tuple[int, float, float]]:
    rows = []
    for size in [sizes[0], *sizes]:  # the first run warms up (module docstring) and is dropped
        with tempfile.TemporaryDirectory(prefix="bench-growth-") as data_dir:
            async with _registration_harness(Path(data_dir)) as harness:
                await _create_event(harness, size)
                entries = [_entry(number, "men-free") for number in range(1, size + 1)]

                async def bulk_import(h: Any = harness, rows_in: list[dict[str, Any]] = entries) -> None:
                    await _import(h, rows_in)

                rows.append((size, *await measured(bulk_import)))
        print(f"  import {size}: {rows[-1][1]:.3f} s", flush=True)
    return rows[1:]


async def _close(harness: Any) -> None:
    url = "/v1/events/grow/stages/online/close"
    response = await harness.client.post(url, headers=OPERATOR, json={})
    if response.status_code == 422 and response.json()["error"]["code"] == "format_choice_required":
        choices = {item["section_id"]: {"kind": "swiss"} for item in response.json()["error"]["details"]}
        response = await harness.client.post(url, headers=OPERATOR, json={"format_choices": choices})
    if response.status_code != 200:
        raise RuntimeError(f"close refused: {response.text[:500]}")
    await harness.settle()


async def close_rows(per_section: list[int]) -> list[tuple[int, float, float]]:
    rows = []
    for size in [per_section[0], *per_section]:  # the first run warms up and is dropped
        with tempfile.TemporaryDirectory(prefix="bench-growth-") as data_dir:
            async with _registration_harness(Path(data_dir)) as harness:
                await _create_event(harness, size)
                entries = [
                    _entry(index * 1000 + number, section)
                    for index, section in enumerate(SZ_SECTIONS)
                    for number in range(1, size + 1)
                ]
                await _import(harness, entries)
                harness.clock.set(datetime(2022, 11, 4, 9, 0, tzinfo=CST))

                async def close(h: Any = harness) -> None:
                    await _close(h)

                rows.append((8 * size, *await measured(close)))
        print(f"  close 8 x {size}: {rows[-1][1]:.3f} s", flush=True)
    return rows[1:]


# ---------------------------------------------------------------------- awards
def _section_completed(section: str, size: int) -> Any:
    from gomoku_shared.contracts.common import ClockSpec, Ruleset, SectionRules
    from gomoku_shared.contracts.events import SectionCompleted, StandingRow

    gender: Any = SZ_SECTIONS[section][0]
    standings = [
        StandingRow(
            place=place,
            entrant_id=f"{section}-{place}",
            name=f"Player {place}",
            gender=gender,
            points=max(0.0, 7 - place * 7 / size),
            tiebreaks={"buchholz": size - place, "median_buchholz": size - place, "wins": max(0, 7 - place)},
            wins=max(0, 7 - place),
            games_played=7,
        )
        for place in range(1, size + 1)
    ]
    rules = SectionRules(
        kind="individual",
        rounds=7,
        boards=1,
        ruleset=Ruleset(track="professional" if section.endswith("pro") else "free"),
        clock=ClockSpec(kind="fischer", base_s=3600, increment_s=30),
        tiebreaks=["points", "buchholz", "median_buchholz", "wins"],
    )
    return SectionCompleted(
        event_code="grow",
        stage="online",
        section_id=section,
        name=section,
        revision=1,
        rules=rules,
        standings=standings,
        entrants=[],
        board_stats=[],
        rounds_played=7,
    )


async def awards_rows(per_section: list[int]) -> list[tuple[int, float, float]]:
    from awards.bootstrap import build
    from gomoku_shared.clock import FakeClock
    from gomoku_shared.contracts.events import EventConfigured
    from gomoku_shared.settings import ServiceSettings
    from gomoku_shared.testing.harness import ServiceHarness
    from registration import presets

    config = presets.load("sz-2022")
    configured = EventConfigured(
        event_code="grow", name=config.name, preset_id="sz-2022", config=config.model_dump(mode="json")
    )
    rows = []
    for size in [per_section[0], *per_section]:  # the first run warms up and is dropped
        with tempfile.TemporaryDirectory(prefix="bench-growth-") as data_dir:
            settings = ServiceSettings(
                DATABASE_URL=f"sqlite+aiosqlite:///{data_dir}/awards.sqlite", AMQP_URL=None, LOG_LEVEL="WARNING"
            )
            harness = ServiceHarness(build, settings, clock=FakeClock(), observe=["awards.published"])
            async with harness:
                await harness.publish(configured)
                events = [_section_completed(section, size) for section in SZ_SECTIONS]

                async def close_sections(h: Any = harness, completed: list[Any] = events) -> None:
                    await h.send_all(completed)
                    await h.settle()

                rows.append((8 * size, *await measured(close_sections)))
                published = len(harness.events("awards.published"))
                if published != len(SZ_SECTIONS):
                    raise RuntimeError(f"{published} of {len(SZ_SECTIONS)} sections published awards")
        print(f"  awards 8 x {size}: {rows[-1][1]:.3f} s", flush=True)
    return rows[1:]


# ---------------------------------------------------------------------- gameplay replicas
ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class GameplayRun:
    """The figures of one ``bench.gameplay_load`` run, read by the parser ``bench.compare`` uses."""

    replicas: int
    saturation: float  # moves/s
    offered: float  # moves/s due in the live window (the games' schedule)
    live: float  # moves/s answered in the live window
    live_p50: float  # ms
    live_p99: float  # ms
    cpu_per_move: float  # service CPU ms per move at saturation

    @classmethod
    def from_output(cls, replicas: int, output: str) -> GameplayRun:
        from ._compare_parsers import BenchOutputError, parse_gameplay_load

        figures = {figure.metric.removeprefix("gameplay_load "): figure.value for figure in parse_gameplay_load(output)}
        if "live offered moves/s" not in figures:
            raise BenchOutputError(
                "bench.gameplay_load: output not recognised: no 'live phase: N moves/s offered' line"
            )
        return cls(
            replicas,
            figures["saturation moves/s"],
            figures["live offered moves/s"],
            figures["live moves/s"],
            figures["live p50 ms"],
            figures["live p99 ms"],
            figures["service CPU ms per move"],
        )


def gameplay_argv(replicas: int, sizes: dict[str, str]) -> list[str]:
    argv = [sys.executable, "-m", "bench.gameplay_load", "--replicas", str(replicas)]
    for option, value in sizes.items():
        argv += [option, value]
    return argv


def gameplay_run(replicas: int, sizes: dict[str, str]) -> GameplayRun:
    """One run of bench.gameplay_load; its failure (rc != 0: it also answers 1 for a refused
    move) or an output the parser does not know stops the bench with the output's tail."""
    done = subprocess.run(gameplay_argv(replicas, sizes), cwd=ROOT, capture_output=True, text=True)
    tail = "\n".join(f"    | {line}" for line in (done.stdout + done.stderr).strip().splitlines()[-25:])
    if done.returncode != 0:
        raise RuntimeError(f"bench.gameplay_load --replicas {replicas} failed (rc {done.returncode}):\n{tail}")
    return GameplayRun.from_output(replicas, done.stdout)


def print_gameplay_table(runs: list[GameplayRun], sizes: dict[str, str], load: tuple[float, float]) -> None:
    """moves/s per replica count, the factor against the fewest replicas, the live phase's moves/s
    offered and answered with p50/p99, CPU per move."""
    first = runs[0]
    counts = ", ".join(str(run.replicas) for run in runs)
    options = " ".join(f"{option} {value}" for option, value in sizes.items())
    print(f"\ngameplay: the same games on {counts} service replicas (bench.gameplay_load {options})")
    print(
        f"{'replicas':>8} {'sat. moves/s':>13} {'x ' + str(first.replicas):>6} {'live offered':>13} "
        f"{'live answered':>14} {'live p50 ms':>12} {'live p99 ms':>12} {'CPU ms/move':>12}"
    )
    for run in runs:
        factor = run.saturation / first.saturation if first.saturation else math.nan
        print(
            f"{run.replicas:>8} {run.saturation:>13.0f} {factor:>6.2f} {run.offered:>13.0f} {run.live:>14.0f} "
            f"{run.live_p50:>12.1f} {run.live_p99:>12.1f} {run.cpu_per_move:>12.2f}"
        )
    behind = [str(run.replicas) for run in runs if run.live < 0.9 * run.offered]
    if behind:
        print(
            f"live moves/s answered below those offered ({', '.join(behind)} replica(s)): the service fell behind "
            "the games' schedule (moves/s, answers that arrived in the live window)"
        )
    print(
        f"load average (1 min) {load[0]:.2f} before, {load[1]:.2f} after, on {os.cpu_count()} cores (a shared "
        "machine: wall-clock rates and latencies carry other jobs' time; CPU ms per move least)",
        flush=True,
    )


def gameplay_rows(replica_counts: list[int], sizes: dict[str, str]) -> list[GameplayRun]:
    load_before = os.getloadavg()[0]
    runs = []
    for replicas in replica_counts:
        runs.append(gameplay_run(replicas, sizes))
        print(f"  gameplay {replicas} replica(s): {runs[-1].saturation:.0f} moves/s at saturation", flush=True)
    print_gameplay_table(runs, sizes, (load_before, os.getloadavg()[0]))
    return runs


async def run(only: set[str], quick: bool) -> dict[str, float]:
    exponents = {}
    if "pairing" in only:
        sizes = [16, 32, 64, 128] if quick else [16, 32, 64, 128, 256, 512, 1024]
        exponents["pairing"] = print_table("pairing: one Swiss round (round 4 of 7)", "player", pairing_rows(sizes))
    if "import" in only:
        sizes = [128, 512] if quick else [128, 512, 2048, 8192]
        exponents["import"] = print_table("registration: bulk import of n entries", "entry", await import_rows(sizes))
    per_section = [16, 32] if quick else [16, 32, 64, 128]
    if "close" in only:
        exponents["close"] = print_table(
            "registration: closing the online stage, 8 sections (n = entries)", "entry", await close_rows(per_section)
        )
    if "awards" in only:
        awards_sizes = per_section if quick else [*per_section, 256, 512, 1024]  # past the fixed cost (docstring)
        exponents["awards"] = print_table(
            "awards: 8 section.completed to 8 awards.published (n = standings rows)",
            "row",
            await awards_rows(awards_sizes),
        )
    return exponents


def replica_counts(parser: argparse.ArgumentParser, text: str) -> list[int]:
    counts = [int(count) for count in text.split(",") if count.strip().isdigit()]
    if not counts or len(counts) != len(text.split(",")) or min(counts) < 1:
        parser.error(f"--replicas: comma-separated counts of at least 1, such as 1,2,3 (not {text!r})")
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.growth", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="the smaller sizes only")
    parser.add_argument("--only", default=",".join(TABLES), help="comma-separated tables")
    gameplay = parser.add_argument_group("the gameplay table (bench.gameplay_load per replica count)")
    gameplay.add_argument("--replicas", default="1,2,3", help="comma-separated replica counts")
    gameplay.add_argument("--games", type=int, help="live games (default 512; --quick 64)")
    gameplay.add_argument("--moves", type=int, help="moves per game at saturation (default 20; --quick 5)")
    gameplay.add_argument("--seconds", type=float, help="duration of the live phase (default 8; --quick 3)")
    gameplay.add_argument(
        "--rate", type=float, help="moves/s offered in the live phase (bench.gameplay_load's default)"
    )
    args = parser.parse_args(argv)
    only = set(args.only.split(","))
    if only - set(TABLES):
        parser.error(f"unknown table(s) {', '.join(sorted(only - set(TABLES)))}; known: {', '.join(TABLES)}")
    counts = replica_counts(parser, args.replicas)  # refused before any table runs
    import logging

    logging.disable(logging.WARNING)  # the services' info lines would bury the tables
    exponents = asyncio.run(run(only, args.quick)) if only - {"gameplay"} else {}
    scaling = ""
    if "gameplay" in only:
        defaults = (64, 5, 3.0) if args.quick else (512, 20, 8.0)
        sizes = {
            "--games": str(args.games or defaults[0]),
            "--moves": str(args.moves or defaults[1]),
            "--seconds": f"{args.seconds or defaults[2]:g}",
        }
        if args.rate is not None:
            sizes["--rate"] = f"{args.rate:g}"
        runs = gameplay_rows(counts, sizes)
        factors = (
            ", ".join(f"{run.saturation / runs[0].saturation:.2f}" for run in runs) if runs[0].saturation else "n/a"
        )
        scaling = f"gameplay saturation moves/s against {runs[0].replicas} replica(s): {factors}"
    if exponents:
        steep = [name for name, k in exponents.items() if k > 1.2]
        print(f"\nexponents: {', '.join(f'{n} {k:.2f}' for n, k in exponents.items())}")
        print(f"above 1.2 (worse than n log n): {', '.join(steep) if steep else 'none'}")
    if scaling:
        print(("\n" if not exponents else "") + scaling)
    return 0


if __name__ == "__main__":
    sys.exit(main())
