"""Running one seed event for the end-to-end tests: embedded (one process) or distributed
(the compose commands as processes on RabbitMQ + PostgreSQL), and reading its summary."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections import defaultdict
from datetime import date, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from gomoku_sim.bots import BotPolicy
from gomoku_sim.consistency import Report, check
from gomoku_sim.driver import EventDriver, RunSpec, result_digest
from gomoku_sim.stack import distributed_stack, embedded_stack

SERVICES = ("registration", "pairing", "gameplay", "awards")

#: players who end games quickly (e2e runtime), with a few no-shows and time-outs
FAST = BotPolicy(miss_rate=0.7, miss_four_rate=0.5, no_show_rate=0.03, timeout_rate=0.03)
FAST_QUIET = BotPolicy(miss_rate=0.7, miss_four_rate=0.5, no_show_rate=0.0, timeout_rate=0.0)


def spec(
    preset: str,
    seed: int,
    sizes: dict[str, int],
    *,
    rounds: int = 3,
    policy: BotPolicy = FAST,
    shift_years: int = 0,
    code: str | None = None,
) -> RunSpec:
    return RunSpec(
        preset_id=preset,
        seed=seed,
        event_code=code,
        sizes=sizes,
        rounds=rounds,
        policy=policy,
        shift_years=shift_years,
        progress=False,
        wait_timeout_s=60,
        run_timeout_s=600,
    )


#: the consistency report of every run of this test session, by run key and mode
REPORTS: dict[tuple[str, str], Report] = {}


async def consistent(stack, driver: EventDriver, mode: str) -> Report:
    """After every seed run: the services agree on every result, the standings awards used and
    the field (gomoku_sim.consistency, read over HTTP with the operator key); fails naming the
    first disagreement."""
    await stack.quiet()
    report = await check(stack.platform, driver.code)
    REPORTS[(_key(driver.spec), mode)] = report
    print(f"consistency {driver.code} ({mode}): {dict(report.checked)}")  # shown with pytest -s / -rP
    report.assert_consistent()
    assert report.checked["pairings"] and report.checked["entries"], report.checked
    return report


#: EVT-7: every section's rounds with their scheduled and actual start, by event code
ROUND_TIMES: dict[str, dict[str, list[dict[str, Any]]]] = {}


async def round_times(platform, code: str) -> dict[str, list[dict[str, Any]]]:
    """Pairing's round times of every section of the event (read while the stack runs)."""
    sections = (await platform.get("pairing", f"/v1/events/{code}/sections"))["sections"]
    out = {}
    for section in sections:
        sid = section["section_id"]
        out[sid] = (await platform.get("pairing", f"/v1/events/{code}/sections/{sid}/round-times"))["rounds"]
    return out


async def run_embedded(tmp_path: Path, run: RunSpec) -> tuple[dict[str, Any], EventDriver]:
    async with embedded_stack(tmp_path / f"embedded-{run.preset_id}-{run.seed}") as stack:
        driver = EventDriver(stack.platform, stack.clock, stack.quiet, run)
        summary = await driver.run()
        await consistent(stack, driver, "embedded")
        ROUND_TIMES[driver.code] = await round_times(stack.platform, driver.code)
        return summary, driver


def assert_rounds_on_schedule(code: str) -> int:
    """EVT-7: every round played started at its scheduled time on the fake clock (the runs'
    rounds end before the next slot); the number of rounds checked."""
    checked = 0
    for sid, rounds in ROUND_TIMES[code].items():
        for rnd in rounds:
            if rnd["status"] in ("published", "complete") and rnd["scheduled_at"]:
                started, scheduled = (datetime.fromisoformat(rnd[k]) for k in ("starts_at", "scheduled_at"))
                assert started == scheduled, (sid, rnd)
                checked += 1
    assert checked, ROUND_TIMES[code]
    return checked


def played_days(code: str, timezone: str) -> dict[str, set[date]]:
    """EVT-7: the local days (the event's time zone) on which each section's played rounds
    started; sections that played no round are left out."""
    zone = ZoneInfo(timezone)
    days: dict[str, set[date]] = {}
    for sid, rounds in ROUND_TIMES[code].items():
        for rnd in rounds:
            if rnd["status"] in ("published", "complete") and rnd["starts_at"]:
                days.setdefault(sid, set()).add(datetime.fromisoformat(rnd["starts_at"]).astimezone(zone).date())
    return days


def assert_played_within(code: str, timezone: str, first: date, last: date) -> None:
    """EVT-7: every played round started between the regulation's first and last day."""
    days = played_days(code, timezone)
    assert days and all(first <= day <= last for played in days.values() for day in played), days


_EMBEDDED: dict[str, dict[str, Any]] = {}


def _key(run: RunSpec) -> str:
    return repr(
        (run.preset_id, run.seed, run.code, sorted((run.sizes or {}).items()), run.rounds, run.policy, run.shift_years)
    )


async def embedded_once(tmp_path: Path, run: RunSpec) -> dict[str, Any]:
    """The embedded run's summary, computed once per test session for a given spec (the seed
    tests and the distributed comparisons share it)."""
    key = _key(run)
    if key not in _EMBEDDED:
        _EMBEDDED[key], _ = await run_embedded(tmp_path, run)
    return _EMBEDDED[key]


async def run_distributed(
    tmp_path: Path, run: RunSpec, *, amqp_url: str, databases: dict[str, str], namespace: str, chaos=None
) -> tuple[dict[str, Any], EventDriver]:
    async with distributed_stack(
        amqp_url=amqp_url,
        database_urls=databases,
        log_dir=tmp_path / "logs",
        namespace=namespace,
    ) as stack:
        driver = EventDriver(stack.platform, stack.clock, stack.quiet, run)
        if chaos is None:
            summary = await driver.run()
        else:
            async with chaos(stack, driver):
                summary = await driver.run()
        report = await consistent(stack, driver, "distributed")
        await asyncio.to_thread(operators_tool_agrees, stack, driver.code, report, databases, amqp_url, namespace)
        return summary, driver


def operators_tool_agrees(stack, event_code: str, report: Report, databases, amqp_url: str, namespace: str) -> None:
    """Issue 17 (repair tools): after a finished run, `gomoku-ops` — run as an operator runs it,
    against the live processes — finds the services agreeing exactly as the in-process check
    did, no dead letter on any queue and nothing left in any outbox."""
    env = {
        **os.environ,
        "AMQP_URL": amqp_url,
        "BUS_NAMESPACE": namespace,
        "GOMOKU_OPERATOR_KEY": stack.platform.keys.operator,
    }

    def ops(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "gomoku_ops", "--json", *args], capture_output=True, text=True, env=env, timeout=300
        )

    urls = [f"--service-url={s}={base}" for s, base in stack.platform.bases.items()]
    checked = ops("check", event_code, *urls)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert json.loads(checked.stdout)[0]["checked"] == dict(report.checked)
    dead = ops("dlq", "list")
    assert dead.returncode == 0 and all(q["dead"] == 0 for q in json.loads(dead.stdout)), dead.stdout + dead.stderr
    backlog = ops("outbox", "backlog", *(f"--db={s}={url}" for s, url in databases.items()))
    assert backlog.returncode == 0, backlog.stderr
    assert {b["service"]: b["pending"] for b in json.loads(backlog.stdout)} == dict.fromkeys(databases, 0)


def publication(summary: dict[str, Any], section_id: str) -> dict[str, Any]:
    """The current awards.published payload of a section."""
    found = [p["payload"] for p in summary["publications"] if p["payload"]["section_id"] == section_id]
    assert found, f"no publication for {section_id}: {[p['payload']['section_id'] for p in summary['publications']]}"
    return max(found, key=lambda p: p["revision"])


def games_of(summary: dict[str, Any], section_id: str, *, playoffs: bool = False) -> dict[str, dict[str, Any]]:
    out = {}
    for gid, g in summary["games"].items():
        parts = gid.split(".")
        if parts[2] == section_id and (playoffs or parts[3] != "po"):
            out[gid] = g
    return out


def modes_by_stage(summary: dict[str, Any]) -> dict[str, set[str]]:
    """PLAY-9: how each stage's games were played (``online`` / ``offline``), from the game ids
    (``<code>.<stage>.<section>...``) and gameplay's view of each game."""
    out: dict[str, set[str]] = defaultdict(set)
    for gid, game in summary["games"].items():
        out[gid.split(".")[1]].add(game["mode"])
    return dict(out)


def assert_records_checked(venue: Any, summary: dict[str, Any]) -> None:
    """PLAY-9 (NT 十二(五)): every over-the-board game that was played has its record entered after
    the game, valid on the engine; the one written with black's stone on a forbidden point (PLAY-3)
    came back flagged, was listed for the arbiter with the foul, and the corrected record is valid."""
    played = [g for g in summary["games"].values() if g["mode"] == "offline" and g["moves"]]
    assert played and venue.records == len(played), (venue.records, len(played))
    assert venue.corrected == 1 and len(venue.flagged) >= 1, venue.flagged
    for entry in venue.flagged:
        assert entry["status"] == "flagged" and entry["source"] == "entered", entry
        assert [flag["code"] for flag in entry["flags"]] == ["forbidden"], entry
        assert entry["flags"][0]["move"] == entry["moves"][-1], entry


def by_pairing(games: dict[str, dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Games grouped by round + pairing (``<code>.<stage>.<section>.r<n>.<pairing...>.g<k>``)."""
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for gid in sorted(games):
        out[gid.rsplit(".", 1)[0]].append({**games[gid], "game_id": gid})
    return out


def digest(summary: dict[str, Any]) -> str:
    return result_digest(summary)
