"""How cost grows with the event: tables of cost against size, each with its fitted exponent.

    .venv/bin/python -m bench.growth [--quick] [--only pairing,import,close,awards]

Everything runs in this process, the services on SQLite and the in-memory bus (the service
harness of the tests: each service built by its own bootstrap, its API called in-process):

* pairing: one Swiss round (round 4 of 7, after three rounds paired and played with the same
  engine) of 16 … 1,024 players, through the public ``pair_swiss_round``;
* registration, bulk import: 128 … 8,192 SZ 2022 online entries in one section, through
  ``POST /v1/events/{code}/entries/bulk`` in batches of 512 (the API takes at most 1,000 a call);
* event close: closing the SZ 2022 online stage (``POST …/stages/online/close``) with
  8 sections × 16 … 128 entries;
* awards: the eight ``section.completed`` of that stage (8 × 16 … 128 standings) until every
  ``awards.published`` is out.

Each row prints the CPU time of this process (the machine is shared; wall time beside it) and the
cost per item; each table ends with the exponent k of cost ~ n^k fitted by least squares on
log-log, beside the exponent the same fit gives for n log n over the same sizes (so a k near that
is n log n, a k near 2 is quadratic). Gameplay moves/s and p99 for 1, 2 and 3 replicas:
``python -m bench.gameplay_load --replicas N`` (real processes on PostgreSQL + RabbitMQ).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

CST = timezone(timedelta(hours=8))
OPERATOR = {"x-api-key": "bench-op"}
PARTNER = {"x-api-key": "bench-partner"}
KEYS = "bench-op=operator,bench-arb=arbiter,bench-partner=partner:partner-1"
BATCH = 512
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
    from pairing.domain.model import Outcome, Player, Tournament, record_round
    from pairing.domain.swiss import pair_swiss_round

    outcomes = [Outcome.FIRST_WINS] * 5 + [Outcome.SECOND_WINS] * 4 + [Outcome.DRAW] * 2
    rows = []
    for size in sizes:
        rng = random.Random(size)
        players = tuple(Player(i, f"P{i}", rating=2600 - (1000 * i) // size) for i in range(1, size + 1))
        tournament = Tournament(players=players, rounds_planned=7)
        for _ in range(3):
            paired = pair_swiss_round(tournament)
            results = {board: rng.choice(outcomes) for board in range(len(paired.boards))}
            tournament = record_round(tournament, paired, results)
        best = (math.inf, math.inf)
        for _ in range(3 if size <= 256 else 1):
            cpu, wall = time.process_time(), time.perf_counter()
            pair_swiss_round(tournament)
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
    for size in sizes:
        with tempfile.TemporaryDirectory(prefix="bench-growth-") as data_dir:
            async with _registration_harness(Path(data_dir)) as harness:
                await _create_event(harness, size)
                entries = [_entry(number, "men-free") for number in range(1, size + 1)]

                async def bulk_import(h: Any = harness, rows_in: list[dict[str, Any]] = entries) -> None:
                    await _import(h, rows_in)

                rows.append((size, *await measured(bulk_import)))
        print(f"  import {size}: {rows[-1][1]:.3f} s", flush=True)
    return rows


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
    for size in per_section:
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
    return rows


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
    for size in per_section:
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
    return rows


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
        exponents["awards"] = print_table(
            "awards: 8 section.completed to 8 awards.published (n = standings rows)",
            "row",
            await awards_rows(per_section),
        )
    return exponents


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.growth", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="the smaller sizes only")
    parser.add_argument("--only", default="pairing,import,close,awards", help="comma-separated tables")
    args = parser.parse_args(argv)
    import logging

    logging.disable(logging.WARNING)  # the services' info lines would bury the tables
    exponents = asyncio.run(run(set(args.only.split(",")), args.quick))
    steep = [name for name, k in exponents.items() if k > 1.2]
    print(f"\nexponents: {', '.join(f'{n} {k:.2f}' for n, k in exponents.items())}")
    print(f"above 1.2 (worse than n log n): {', '.join(steep) if steep else 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
