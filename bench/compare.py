"""Benchmarks before and after a change, in one run: a baseline revision's benches against this tree's.

    .venv/bin/python -m bench.compare                        # engine, pairing, gameplay_load vs 735e4d1
    .venv/bin/python -m bench.compare --baseline REV --bench engine pairing --repeat 4
    .venv/bin/python -m bench.compare --games 128 --seconds 4 --moves 5 --replicas 1   # a quick run

The baseline revision gets its own git worktree under ``.tools/bench-baseline/<commit>`` (reused
on the next run), installed the way the project installs itself (``make install`` in that tree:
its own ``.venv``). Each selected bench then runs as a subprocess in both trees, interleaved
(before, after, after, before, ... ``--repeat`` times each), so that the machine's load falls on
both sides alike. The key figures of each output are read back (engine: the compiled core's
rates; pairing: the median ms of each round / sections row; gameplay_load: saturation moves/s,
live moves/s, live p50 and p99, service CPU ms per move) and printed as one table: before and after (medians over the
repeats), the ratio after/before, and the verdict against a noise band: the largest spread
(max - min) / median between the repeats of either side, never below ``--band`` (default 5 %).
The 1-minute load average during each run (sampled every second: mean and max) is printed too.

Options given for a bench reach a tree only when that tree's bench knows them (an older bench may
lack a flag): a sizing option both must share is dropped, with a note, when one side lacks it; an
option that only leaves rows out (``pairing --no-big``, on by default here; ``--big`` keeps the
row) reaches each tree that knows it. A bench that fails, or whose output is not in the format
its parser knows, stops the run with its output's tail (exit 2); a regression beyond the noise
band exits 1.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from ._compare_parsers import PARSERS, BenchOutputError, Figure

DEFAULT_BASELINE = "735e4d1"  # the tip of main before the refactor of issue 13 began
BENCHES = ("engine", "pairing", "gameplay_load")
ROOT = Path(__file__).resolve().parents[1]
#: options of the benches that size their workload: passed only when both trees know them
SIZING = {"gameplay_load": ("--games", "--moves", "--replicas", "--rate", "--seconds", "--seed")}
QUICK = ("engine", "pairing")  # benches whose --quick (when both sides know it) makes a small run
#: options that only leave rows out: each tree that knows them gets them
ROWS_ONLY = {"pairing": ("--no-big",)}
_ENV_DROPPED = ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "UV_PROJECT_ENVIRONMENT", "MAKEFLAGS", "MAKELEVEL", "MFLAGS")
_OPTION = re.compile(r"""["'](--[a-z][a-z0-9-]*)["']""")


class CompareError(RuntimeError):
    """A tree could not be prepared or a bench failed: the comparison stops."""


@dataclass
class Tree:
    side: str  # "before" or "after"
    root: Path
    python: Path
    label: str


@dataclass
class Run:
    side: str
    bench: str
    figures: list[Figure]
    wall_s: float
    cpu_s: float
    load: list[float]  # the 1-minute load average, sampled every second of the run


@dataclass
class Plan:
    args: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # bench -> side -> argv
    notes: list[str] = field(default_factory=list)


def _clean_env() -> dict[str, str]:
    return {name: value for name, value in os.environ.items() if name not in _ENV_DROPPED}


def _git(*args: str, cwd: Path = ROOT) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        raise CompareError(f"git {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout.strip()


def _tail(text: str, lines: int = 25) -> str:
    return "\n".join(f"    | {line}" for line in text.strip().splitlines()[-lines:]) or "    | (no output)"


def _checked_out(path: Path, commit: str) -> bool:
    if not (path / ".git").exists():
        return False
    done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=path, capture_output=True, text=True)
    return done.returncode == 0 and done.stdout.strip() == commit


def prepare_baseline(revision: str, trees: Path) -> Tree:
    """A worktree of ``revision`` under ``trees`` (made, or reused when present) with ``make install`` run."""
    commit = _git("rev-parse", "--verify", f"{revision}^{{commit}}")
    path = trees / commit
    if not _checked_out(path, commit):
        if path.exists():  # a half-made tree of an earlier run: start it again
            subprocess.run(["git", "worktree", "remove", "--force", str(path)], cwd=ROOT, capture_output=True)
            shutil.rmtree(path, ignore_errors=True)
        _git("worktree", "prune")
        trees.mkdir(parents=True, exist_ok=True)
        print(f"baseline: git worktree of {commit[:12]} in {path}", flush=True)
        _git("worktree", "add", "--detach", str(path), commit)
    log = trees / f"{commit}.install.log"
    installed = (path / ".venv" / ".installed").exists()
    print(f"baseline: make install ({'up to date check' if installed else 'first time, a few minutes'})", flush=True)
    with log.open("w") as out:
        done = subprocess.run(["make", "install"], cwd=path, stdout=out, stderr=subprocess.STDOUT, env=_clean_env())
    if done.returncode != 0:
        raise CompareError(f"make install failed in the baseline tree (log {log}):\n{_tail(log.read_text())}")
    subject = _git("log", "-1", "--format=%h %s", commit)[:90]
    label = subject if commit.startswith(revision) else f"{revision} = {subject}"
    return Tree("before", path, path / ".venv" / "bin" / "python", label)


def current_tree() -> Tree:
    head = _git("log", "-1", "--format=%h %s")
    dirty = " (+ uncommitted changes)" if _git("status", "--porcelain", "--untracked-files=no") else ""
    return Tree("after", ROOT, Path(sys.executable), f"{head[:90]}{dirty}")


def bench_options(tree: Tree, bench: str) -> set[str]:
    """The command-line options a tree's bench mentions (its argparse flags and sys.argv checks)."""
    source = tree.root / "bench" / f"{bench}.py"
    if not source.exists():
        raise CompareError(f"the {tree.side} tree has no bench/{bench}.py ({tree.label})")
    return set(_OPTION.findall(source.read_text(encoding="utf-8")))


def plan_args(bench: str, requested: dict[str, str | None], known: dict[str, set[str]]) -> tuple[dict, list[str]]:
    """Each side's argv for ``bench``: ``requested`` maps an option to its value (None: a flag).
    Sizing options go to both sides or neither; rows-only options go to each side knowing them."""
    argv: dict[str, list[str]] = {"before": [], "after": []}
    notes = []
    for option, value in requested.items():
        sides = [side for side in ("before", "after") if option in known[side]]
        if option not in ROWS_ONLY.get(bench, ()) and len(sides) < 2:
            lacking = " and ".join(side for side in ("before", "after") if side not in sides)
            notes.append(f"bench.{bench}: {option} not passed (the {lacking} tree's bench does not know it)")
            continue
        for side in sides:
            argv[side] += [option] if value is None else [option, value]
    return argv, notes


def requested_options(bench: str, args: argparse.Namespace) -> dict[str, str | None]:
    wanted: dict[str, str | None] = {}
    for option in SIZING.get(bench, ()):
        value = getattr(args, option[2:].replace("-", "_"))
        if value is not None:
            wanted[option] = str(value)
    if args.quick and bench in QUICK:
        wanted["--quick"] = None
    if bench == "pairing" and not args.big:
        wanted["--no-big"] = None
    return wanted


def run_bench(tree: Tree, bench: str, argv: list[str], keep: Path | None = None) -> Run:
    """One run of ``bench`` in ``tree`` as a subprocess; its figures, wall and CPU time, load average.
    With ``keep``, its whole output is written there (``NN-bench-side.txt``), a failed run's too."""
    load = [os.getloadavg()[0]]
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall0 = time.perf_counter()
    with subprocess.Popen(
        [str(tree.python), "-m", f"bench.{bench}", *argv],
        cwd=tree.root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_clean_env(),
    ) as process:
        while True:
            try:
                stdout, stderr = process.communicate(timeout=1.0)
                break
            except subprocess.TimeoutExpired:
                load.append(os.getloadavg()[0])
    wall = time.perf_counter() - wall0
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    load.append(os.getloadavg()[0])
    command = f"bench.{bench} {' '.join(argv)}".strip()
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        saved = keep / f"{len(list(keep.glob('*.txt'))) + 1:02d}-{bench}-{tree.side}.txt"
        saved.write_text(f"$ {command}   # {tree.label}\n{stdout}\n--- stderr ---\n{stderr}")
    if process.returncode != 0:
        raise CompareError(
            f"{command} failed in the {tree.side} tree (rc {process.returncode}):\n{_tail(stdout + stderr)}"
        )
    try:
        figures = PARSERS[bench](stdout)
    except BenchOutputError as error:
        raise CompareError(f"{command} in the {tree.side} tree: {error}") from error
    cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    return Run(tree.side, bench, figures, wall, cpu, load)


def interleaved(repeat: int) -> list[str]:
    """before, after, after, before, before, after, ...: each side first as often as second."""
    order: list[str] = []
    for index in range(repeat):
        order += ["before", "after"] if index % 2 == 0 else ["after", "before"]
    return order


@dataclass
class Row:
    metric: str
    higher_is_better: bool
    before: list[float]
    after: list[float]


def collect(runs: list[Run]) -> list[Row]:
    """One row per metric, in the order the benches print them (a metric of one side only too)."""
    rows: dict[str, Row] = {}
    for run in sorted(runs, key=lambda run: run.side != "after"):  # the current tree's order first
        for figure in run.figures:
            row = rows.setdefault(figure.metric, Row(figure.metric, figure.higher_is_better, [], []))
            (row.before if run.side == "before" else row.after).append(figure.value)
    bench_order = {bench: index for index, bench in enumerate(dict.fromkeys(run.bench for run in runs))}
    return sorted(rows.values(), key=lambda row: bench_order.get(row.metric.split(" ", 1)[0], 0))


def spread(values: list[float]) -> float | None:
    """(max - min) / median of the repeats; None for fewer than two."""
    if len(values) < 2:
        return None
    middle = statistics.median(values)
    return (max(values) - min(values)) / middle if middle else None


def judge(row: Row, floor: float) -> tuple[float | None, float | None, str]:
    """(ratio after/before, noise band, verdict) of one metric (no band for a metric of one side)."""
    if not row.before or not row.after:
        return None, None, f"only {'after' if row.after else 'before'}"
    before, after = statistics.median(row.before), statistics.median(row.after)
    band = max([floor] + [value for value in (spread(row.before), spread(row.after)) if value is not None])
    if before == 0:
        return None, band, "n/a (before is 0)"
    ratio = after / before
    worse = ratio < 1 - band if row.higher_is_better else ratio > 1 + band
    better = ratio > 1 + band if row.higher_is_better else ratio < 1 - band
    return ratio, band, "REGRESSION" if worse else "better" if better else "no regression"


def _value(values: list[float]) -> str:
    if not values:
        return "-"
    middle = statistics.median(values)
    return f"{middle:,.0f}" if abs(middle) >= 1000 else f"{middle:,.1f}"


def report(rows: list[Row], runs: list[Run], floor: float, repeat: int) -> list[str]:
    """Prints the comparison table and the runs; returns the metrics judged a regression."""
    width = max([len("metric")] + [len(row.metric) for row in rows])
    print(f"\n{'metric':<{width}}  {'before':>10}  {'after':>10}  {'after/before':>12}  {'band':>6}  verdict")
    regressions = []
    for row in rows:
        ratio, band, verdict = judge(row, floor)
        ratio_text = "-" if ratio is None else f"{ratio:.2f}"
        band_text = "-" if band is None else f"{100 * band:.0f}%"
        print(
            f"{row.metric:<{width}}  {_value(row.before):>10}  {_value(row.after):>10}  {ratio_text:>12}  "
            f"{band_text:>6}  {verdict}"
        )
        if verdict == "REGRESSION":
            regressions.append(row.metric)
    print(
        f"(medians over {repeat} run(s) per side; direction: rates higher is better, ms lower is better; band = "
        f"largest (max - min) / median between the repeats of either side, at least {100 * floor:.0f}%)"
    )
    if repeat == 1:
        print("one run per side: no spread between repeats is known, the band is only its floor (use --repeat 2+)")
    cores = os.cpu_count() or 1
    busiest = max(max(run.load) for run in runs)
    if busiest > cores:
        print(
            f"the machine was loaded (load average up to {busiest:.1f} on {cores} cores): wall-clock figures "
            "carry other jobs' time; the CPU s column and the band show how much"
        )
    print(f"\n{'run':>3}  {'tree':<6}  {'bench':<14}  {'wall s':>7}  {'CPU s':>7}  load average (1 min) during the run")
    for index, run in enumerate(runs, 1):
        print(
            f"{index:>3}  {run.side:<6}  {run.bench:<14}  {run.wall_s:>7.1f}  {run.cpu_s:>7.1f}  "
            f"mean {statistics.mean(run.load):.2f}, max {max(run.load):.2f} (start {run.load[0]:.2f})"
        )
    return regressions


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.compare", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--baseline", default=DEFAULT_BASELINE, help="git revision to compare against")
    parser.add_argument("--bench", nargs="+", choices=BENCHES, default=list(BENCHES), help="benches to run")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each bench per side (interleaved)")
    parser.add_argument("--band", type=float, default=5.0, help="smallest noise band, percent")
    parser.add_argument("--trees", type=Path, default=ROOT / ".tools" / "bench-baseline", help="baseline trees")
    parser.add_argument("--quick", action="store_true", help="engine/pairing --quick where both sides know it")
    parser.add_argument("--big", action="store_true", help="keep pairing's 1,024-player row (no --no-big)")
    parser.add_argument("--outputs", type=Path, help="write each run's whole output into this directory")
    sizing = parser.add_argument_group("gameplay_load sizes (passed to both sides)")
    sizing.add_argument("--games", type=int)
    sizing.add_argument("--moves", type=int)
    sizing.add_argument("--replicas", type=int)
    sizing.add_argument("--rate", type=float)
    sizing.add_argument("--seconds", type=float)
    sizing.add_argument("--seed", type=int)
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    return args


def make_plan(args: argparse.Namespace, trees: dict[str, Tree]) -> Plan:
    plan = Plan()
    for bench in args.bench:
        known = {side: bench_options(tree, bench) for side, tree in trees.items()}
        plan.args[bench], notes = plan_args(bench, requested_options(bench, args), known)
        plan.notes += notes
    return plan


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        trees = {"before": prepare_baseline(args.baseline, args.trees), "after": current_tree()}
        plan = make_plan(args, trees)
        print(f"before: {trees['before'].label}\nafter:  {trees['after'].label}")
        for bench in args.bench:
            for side in ("before", "after"):
                print(f"  {side:<6} bench.{bench} {' '.join(plan.args[bench][side])}".rstrip())
        for note in plan.notes:
            print(f"note: {note}")
        runs = []
        for bench in args.bench:
            for side in interleaved(args.repeat):
                print(f"running bench.{bench} ({side}) ...", flush=True)
                runs.append(run_bench(trees[side], bench, plan.args[bench][side], args.outputs))
    except CompareError as error:
        print(f"bench.compare: {error}", file=sys.stderr)
        return 2
    regressions = report(collect(runs), runs, args.band / 100, args.repeat)
    if regressions:
        print(f"\npossible regression beyond the noise band: {', '.join(regressions)}")
        return 1
    print("\nno regression beyond the noise band")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
