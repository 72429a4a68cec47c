"""Every bench still runs (issue 13): the gameplay benches were once broken for a day by a change
of the games list (paged) and no test noticed. Each bench's main runs here as its own process at
its smallest size and must end with rc 0 and print its table; the tables ``bench.compare`` reads
must still parse. Nothing about speed is asserted (the machine is shared)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bench._compare_parsers import PARSERS

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
HANG_GUARD_S = 300  # a hung bench fails the test instead of blocking the run; not a timing check


def run_bench(name: str, argv: list[str], env: dict[str, str] | None = None, goal_rc: bool = False) -> str:
    """The bench's output; it must end with rc 0 (``goal_rc``: or 1, which it answers for a missed
    speed goal, checked by the caller from the table)."""
    done = subprocess.run(
        [sys.executable, "-m", f"bench.{name}", *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=HANG_GUARD_S,
    )
    assert done.returncode in ((0, 1) if goal_rc else (0,)), (
        f"bench.{name} rc {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )
    return done.stdout


IN_PROCESS = {
    "bots": (["--quick"], "metric"),
    "engine": (["--quick"], "metric"),
    "pairing": (["--quick"], "case"),
    "pages": (["--players", "4", "--rounds", "1", "--repeat", "1"], "page kind"),
    "ratings": (["--quick"], "row"),
}
SERVED = {
    "gameplay_load": (["--games", "4", "--moves", "2", "--seconds", "1", "--replicas", "1"], "req/s"),
    "spectators": (["--games", "2", "--viewers", "4", "--seconds", "1", "--rate", "10"], "phase"),
    # the gameplay table alone (its in-process tables are not what a served smoke checks), on 1 and
    # 2 replicas only: each count is a whole bench.gameplay_load run, and two show the scaling column
    "growth": (
        ["--only", "gameplay", "--games", "4", "--moves", "2", "--seconds", "1", "--replicas", "1,2"],
        "replicas",
    ),
}


PAGE_ROW = re.compile(r"^\w.*?\s+\d{3}\s+[\d.]+\s+[\d.]+\s+[\d.]+  (\S.*)$")  # kind, status, p50, p95, KB, verdict


def pages_answered_as_they_should(output: str) -> None:
    """bench.pages exits 1 when a page misses its speed goal (SLOW: the machine's load decides
    that) or answers the wrong status (FAILED): only the latter fails here, and the table is whole."""
    verdicts = [found.group(1) for line in output.splitlines() if (found := PAGE_ROW.match(line))]
    assert verdicts and "(goals:" in output, output
    assert all(set(verdict.split()) <= {"ok", "SLOW", "HEAVY"} for verdict in verdicts), output


def check(name: str, output: str, header: str) -> None:
    assert any(line.strip().startswith(header) for line in output.splitlines()), f"no table header:\n{output}"
    if name in PARSERS:  # the figures bench.compare reads are there
        assert PARSERS[name](output)


@pytest.mark.parametrize("name", sorted(IN_PROCESS))
def test_a_bench_of_the_process_alone_runs_at_its_smallest_size(name):
    argv, header = IN_PROCESS[name]
    output = run_bench(name, argv, goal_rc=name == "pages")
    check(name, output, header)
    if name == "pages":
        pages_answered_as_they_should(output)


@pytest.mark.parametrize("name", sorted(SERVED))
def test_a_bench_of_served_processes_runs_at_its_smallest_size(name, database_url, amqp_url):
    argv, header = SERVED[name]
    output = run_bench(name, argv, {"DATABASE_URL": database_url, "AMQP_URL": amqp_url})
    check(name, output, header)


# request, events, status, p50, p95, min, ratio, verdict
HISTORY_ROW = re.compile(r"^(\S.*?)\s+(\d+)\s+(\d{3})\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+  ?(.*)$")


def test_the_history_page_bench_runs_at_a_tiny_size_on_postgresql(database_url):
    """bench.history_page (issue 32) builds its federation in databases of its own, measures the
    baseline and the grown registry and prints awards' plans. It exits 1 when the page misses its
    speed goal (the machine's load decides that): only a wrong status fails here."""
    argv = ["--events", "12", "--baseline", "3", "--pool", "30", "--repeat", "1", "--explain"]
    output = run_bench("history_page", argv, {"DATABASE_URL": database_url}, goal_rc=True)
    rows = [found.groups() for line in output.splitlines() if (found := HISTORY_ROW.match(line))]
    assert {events for _, events, _, _ in rows} == {"3", "12"}, output
    assert all(status == ("404" if name == "portal 404 page" else "200") for name, _, status, _ in rows), output
    assert {verdict for name, *_, verdict in rows if name.startswith("history page")} <= {"ok", "SLOW"}, output
    assert "awards' statements for one history page" in output and "Index Scan" in output, output
