"""Pairing with the compiled blossom matching (issue 33): in process and as a whole ``pairing-engine``
process, each beside networkx's matching in the same run.

    .venv/bin/python -m bench.pairing_engine [--bbp PATH] [--before PATH] [--no-big] [--quick] [--players N]

Rows (best and median of the runs; the machine is shared, so in-process rows are CPU ms of this
process):
- 128 players, round 7 of 9, ``pair_swiss_round`` in process: the compiled matching, then
  networkx's (``matching.networkx_min_weight_matching`` put in its place), interleaved;
- 1,024 players, round 6, in process, the same two (its set-up pairs five rounds of 1,024 first,
  not timed; ``--no-big`` leaves it out);
- ``pairing-engine LATE.trf -p``, the whole process, on the 128-player round written as TRF
  (wall ms, and CPU ms: user + system time of the child, less sensitive to the host's load);
  beside it the process as it was before the compiled matching (networkx and pydantic imported,
  networkx's matching), emulated by ``python -c``;
- ``--bbp PATH``: bbpPairings (FIDE's reference Dutch engine, C++; not part of this project,
  build it yourself) run as ``PATH --dutch LATE.trf -p OUT`` on the same file, timed the same
  way, and whether its pairs are ours;
- ``--before PATH``: another ``pairing-engine`` (an earlier version's install) run as
  ``PATH LATE.trf -p`` beside ours, timed the same way, and whether its pairs are ours;
- Python's own start-up, the floor under any Python process: ``python -c pass`` and
  ``python -I -S -c pass`` (no site: what a console script cannot ask for).
The processes run interleaved, so the machine's load falls on each alike. The ratio columns
are each row over its networkx row and over its bbpPairings row (below 1: faster). Every
run's pairs are checked equal between the two matchings.
Goals (issue 33): the process no slower than bbpPairings on the 128-player round; in process a
1,024-player round <= 1 s.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from pairing.adapters.dutch import fast, matching
from pairing.domain import swiss
from pairing.domain.model import Outcome, Player, RoundPairing, Tournament, record_round
from pairing.domain.trf import export_trf

LATE_PLAYERS, LATE_ROUNDS, LATE_PLAYED = 128, 9, 6
BIG_PLAYERS, BIG_ROUNDS, BIG_PLAYED = 1024, 7, 5
REPEAT = 9
PROCESS_REPEAT = 11
GOAL_BIG_MS = 1000
_FAST = fast.FastGacruxDutch()


def pair_swiss_round(t: Tournament) -> RoundPairing:
    """The service's path: the domain's pairing with the fast adapter."""
    return swiss.pair_swiss_round(t, engine=_FAST)


_OUTCOMES = [Outcome.FIRST_WINS] * 5 + [Outcome.SECOND_WINS] * 4 + [Outcome.DRAW] * 2 + [Outcome.FIRST_FORFEIT_WIN]

# the pairing-engine process before the compiled matching: networkx and pydantic imported,
# networkx's matching in the engine
_NETWORKX_PROCESS = (
    "import sys, networkx, gomoku_shared.text\n"
    "from pairing.adapters.dutch import fast, matching\n"
    "fast.min_weight_matching = matching.networkx_min_weight_matching\n"
    "from pairing.cli import main\n"
    "sys.exit(main([sys.argv[1], '-p']))\n"
)


def section(seed: int, size: int, rounds: int, played: int) -> Tournament:
    rng = random.Random(seed)
    players = tuple(Player(i, f"P{i}", rating=max(1000, 2600 - 7 * i)) for i in range(1, size + 1))
    t = Tournament(players=players, rounds_planned=rounds)
    for _ in range(played):
        rp = pair_swiss_round(t)
        t = record_round(t, rp, {i: rng.choice(_OUTCOMES) for i in range(len(rp.boards))})
    return t


@contextmanager
def _networkx_matching() -> Iterator[None]:
    """The fast engine runs networkx's matching (the baseline) inside the block."""
    fast.min_weight_matching = matching.networkx_min_weight_matching
    try:
        yield
    finally:
        fast.min_weight_matching = matching.min_weight_matching


def _in_process(t: Tournament, repeat: int) -> tuple[list[float], list[float]]:
    """CPU ms per round, compiled and networkx, interleaved; the pairings must be equal."""
    compiled: list[float] = []
    reference: list[float] = []
    for _ in range(repeat):
        t0 = time.process_time()
        ours = pair_swiss_round(t)
        compiled.append((time.process_time() - t0) * 1000)
        with _networkx_matching():
            t0 = time.process_time()
            theirs = pair_swiss_round(t)
            reference.append((time.process_time() - t0) * 1000)
        assert ours == theirs, "the compiled matching must pair as networkx's"
    return compiled, reference


def _children_cpu_ms() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (usage.ru_utime + usage.ru_stime) * 1000


def _run(command: list[str]) -> tuple[float, float, str]:
    """Wall ms and CPU ms (user + system) of one run of ``command``, and its output."""
    c0 = _children_cpu_ms()
    t0 = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return (time.perf_counter() - t0) * 1000, _children_cpu_ms() - c0, done.stdout


def _pairs(text: str) -> set[tuple[str, ...]]:
    """The pairs of a JaVaFo-convention output (count line, then ``first second`` lines)."""
    return {tuple(line.split()) for line in text.strip().splitlines()[1:]}


def _late_trf(t: Tournament) -> str:
    """TRF of ``t`` with the records bbpPairings reads (XXR rounds, BBW/BBD points)."""
    points = t.points
    return export_trf(t) + f"XXR {t.rounds_planned}\nBBW {points.win:4.1f}\nBBD {points.draw:4.1f}\n"


def _processes(
    t: Tournament, repeat: int, bbp: str | None, before: str | None = None
) -> list[tuple[str, list[float], str]]:
    engine = str(Path(sys.executable).with_name("pairing-engine"))
    with tempfile.TemporaryDirectory() as folder:
        trf = os.path.join(folder, "late.trf")
        Path(trf).write_text(_late_trf(t), encoding="latin-1")
        plans: list[tuple[str, Callable[[], tuple[float, float, str]]]] = [
            ("pairing-engine process", lambda: _run([engine, trf, "-p"])),
            ("  networkx process (before)", lambda: _run([sys.executable, "-c", _NETWORKX_PROCESS, trf])),
            ("  python -c pass (floor)", lambda: _run([sys.executable, "-c", "pass"])),
            ("  python -I -S -c pass", lambda: _run([sys.executable, "-I", "-S", "-c", "pass"])),
        ]
        if before:
            plans.append(("  pairing-engine before", lambda: _run([before, trf, "-p"])))
        if bbp:
            out = os.path.join(folder, "bbp.out")

            def run_bbp() -> tuple[float, float, str]:
                wall, cpu, _ = _run([bbp, "--dutch", trf, "-p", out])
                return wall, cpu, Path(out).read_text()

            plans.append(("  bbpPairings process", run_bbp))
        walls: dict[str, list[float]] = {name: [] for name, _ in plans}
        cpus: dict[str, list[float]] = {name: [] for name, _ in plans}
        outputs: dict[str, str] = {}
        for _ in range(repeat):  # interleaved, so the machine's load falls on each alike
            for name, plan in plans:
                wall, cpu, outputs[name] = plan()
                walls[name].append(wall)
                cpus[name].append(cpu)
        ours = _pairs(outputs["pairing-engine process"])
        assert _pairs(outputs["  networkx process (before)"]) == ours, "both processes must pair alike"
        rows = []
        for name, _ in plans:
            same = "" if "pass" in name else "same pairs" if _pairs(outputs[name]) == ours else "DIFFERENT pairs"
            rows.append((name + ", wall", walls[name], same))
            rows.append((name + ", CPU", cpus[name], ""))
        return rows


def _row(
    name: str, times: list[float], base: list[float] | None, note: str = "", bbp: list[float] | None = None
) -> None:
    med = statistics.median(times)
    ratio = f"{med / statistics.median(base):8.2f}" if base else f"{'':8}"
    over_bbp = f"{med / statistics.median(bbp):8.2f}" if bbp else f"{'':8}"
    print(f"{name:36} {min(times):9.1f} {med:10.1f} {ratio} {over_bbp} {note}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.pairing_engine", description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--bbp", metavar="PATH", help="a bbpPairings executable to time beside ours")
    parser.add_argument("--before", metavar="PATH", help="another pairing-engine (an earlier install) to time beside")
    parser.add_argument("--no-big", action="store_true", help="leave out the 1,024-player round")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 32 players, 3 runs, no 1,024 round")
    parser.add_argument(
        "--players", type=int, metavar="N", help=f"players of the late round (default {LATE_PLAYERS}; --quick: 32)"
    )
    args = parser.parse_args(argv)
    players = args.players or (32 if args.quick else LATE_PLAYERS)
    repeat, process_repeat = (3, 3) if args.quick else (REPEAT, PROCESS_REPEAT)
    t0 = time.perf_counter()
    late = section(33, players, LATE_ROUNDS, LATE_PLAYED)
    print(
        f"setup: {players} players, rounds 1-{LATE_PLAYED} of {LATE_ROUNDS} paired ({time.perf_counter() - t0:.1f} s)"
    )
    print(f"load average {os.getloadavg()[0]:.2f}")
    print(f"{'case':36} {'best ms':>9} {'median ms':>10} {'x nx':>8} {'x bbp':>8}")
    compiled, reference = _in_process(late, repeat)
    _row(f"{players} players, round {LATE_PLAYED + 1}, in process", compiled, reference)
    _row("  networkx matching", reference, reference)
    rows = _processes(late, process_repeat, args.bbp, args.before)
    bbp_rows = [times for name, times, _ in rows if name.startswith("  bbpPairings")]
    for index, (name, times, same) in enumerate(rows):
        # over the networkx process's wall / CPU row, and bbpPairings' (when timed)
        _row(name, times, rows[2 + index % 2][1], same, bbp_rows[index % 2] if bbp_rows else None)
    if not (args.quick or args.no_big):
        t0 = time.perf_counter()
        big = section(2000, BIG_PLAYERS, BIG_ROUNDS, BIG_PLAYED)
        print(f"setup: {BIG_PLAYERS} players, rounds 1-{BIG_PLAYED} paired ({time.perf_counter() - t0:.1f} s)")
        compiled, reference = _in_process(big, 3)
        goal = "meets" if statistics.median(compiled) <= GOAL_BIG_MS else "MISSES"
        _row(
            f"{BIG_PLAYERS} players, round {BIG_PLAYED + 1}, in process",
            compiled,
            reference,
            f"{goal} <= {GOAL_BIG_MS} ms",
        )
        _row("  networkx matching", reference, reference)


if __name__ == "__main__":
    main()
