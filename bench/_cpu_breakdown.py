"""Where the CPU of a bench phase went, by process (Linux /proc), and an optional sampling
profile of the service processes summarised by layer (py-spy).

The processes are grouped as: the service processes the bench started, the PostgreSQL backends
connected to the bench's own database, the other PostgreSQL processes (WAL writer, checkpointer,
other databases' backends: shared with whatever else runs on the machine), RabbitMQ (the
``beam.smp`` VM, shared too) and the load generator (this process). A shared group counts
everything the machine did there during the phase, not only the bench's part.
"""

from __future__ import annotations

import collections
import os
import re
import signal
import subprocess
from pathlib import Path

_TICK = os.sysconf("SC_CLK_TCK")

GROUPS = (
    "service",
    "PostgreSQL backends (bench database)",
    "PostgreSQL, other (shared)",
    "RabbitMQ (shared)",
    "load generator",
)


def process_cpu(pid: int) -> float | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICK
    except (OSError, IndexError, ValueError):
        return None


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        return ""


class CpuBreakdown:
    """CPU seconds per group between ``start()`` and ``stop()``; a process that starts during the
    phase counts from zero, one that ends during it is lost (its last figures are unknown)."""

    def __init__(self, service_pids: list[int], dbname: str) -> None:
        self.service_pids = set(service_pids)
        self.dbname = dbname
        self._first: dict[int, tuple[str, float]] = {}

    def _group(self, pid: int) -> str | None:
        if pid in self.service_pids:
            return "service"
        if pid == os.getpid():
            return "load generator"
        cmd = cmdline(pid)
        if cmd.startswith("postgres"):
            return "PostgreSQL backends (bench database)" if f" {self.dbname} " in cmd else "PostgreSQL, other (shared)"
        if "beam.smp" in cmd.split(" ", 1)[0]:
            return "RabbitMQ (shared)"
        return None

    def _snapshot(self) -> dict[int, tuple[str, float]]:
        out: dict[int, tuple[str, float]] = {}
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            pid = int(entry)
            group = self._group(pid)
            if group is None:
                continue
            cpu = process_cpu(pid)
            if cpu is not None:
                out[pid] = (group, cpu)
        return out

    def start(self) -> None:
        self._first = self._snapshot()

    def stop(self) -> dict[str, float]:
        spent: dict[str, float] = dict.fromkeys(GROUPS, 0.0)
        for pid, (group, cpu) in self._snapshot().items():
            before = self._first.get(pid)
            spent[group] += cpu - (before[1] if before is not None and before[0] == group else 0.0)
        return spent


def breakdown_lines(spent: dict[str, float], moves: int, wall: float) -> list[str]:
    """One line per group: ms of CPU per move and cores busy on average."""
    lines = [f"CPU per move by process (saturation phase, {moves} moves, {wall:.1f} s):"]
    total = 0.0
    for group in GROUPS:
        seconds = spent.get(group, 0.0)
        total += seconds
        lines.append(f"  {group:<40}{1000 * seconds / max(1, moves):>8.3f} ms/move{seconds / wall:>7.2f} cores")
    lines.append(f"  {'all of the above':<40}{1000 * total / max(1, moves):>8.3f} ms/move{total / wall:>7.2f} cores")
    return lines


# ---------------------------------------------------------------------- sampling profile

#: (layer, path fragments of the frames that belong to it); a sample goes to the layer of its
#: innermost frame that matches one (a JSON encoder called by the move writer is SQL)
LAYERS = (
    ("outbox", ("gomoku_shared/messaging", "aio_pika", "aiormq", "pamqp")),
    ("SQL", ("sqlalchemy/", "asyncpg/", "gameplay/adapters/")),
    ("rules", ("gameplay/engine/", "gameplay/domain/")),
    ("service layer", ("gameplay/service_layer/", "gomoku_shared/runtime.py", "gomoku_shared/idempotency")),
    (
        "HTTP",
        (
            "uvicorn/",
            "starlette/",
            "fastapi/",
            "gomoku_shared/",
            "gameplay/entrypoints/",
            "pydantic",
            "prometheus_client",
            "opentelemetry",
            "httptools",
        ),
    ),
    ("event loop", ("asyncio/", "uvloop")),
)
#: background jobs named by a frame anywhere in the stack (they take precedence)
JOBS = (
    ("sweeper", "Sweeper"),
    ("sweeper", "flag_sweeper"),
    ("outbox", "OutboxRelay"),
    ("SQL", "PgMoveWriter._flush"),
)
_LINE = re.compile(r":\d+\)$")


def layer_of(frames: list[str]) -> str:
    for name, marker in JOBS:
        if any(marker in frame for frame in frames):
            return name
    for frame in reversed(frames):
        for name, fragments in LAYERS:
            if any(fragment in frame for fragment in fragments):
                return name
    return "other"


def summarise(raw_files: list[Path]) -> tuple[dict[str, int], collections.Counter[str], int]:
    """Samples per layer, inclusive samples per function and the total, of py-spy raw files."""
    layers: dict[str, int] = collections.Counter()
    functions: collections.Counter[str] = collections.Counter()
    total = 0
    for path in raw_files:
        if not path.exists():
            continue
        for line in path.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            if not count.isdigit():
                continue
            frames = [_LINE.sub(")", frame) for frame in stack.split(";")]
            layers[layer_of(frames)] += int(count)
            for frame in set(frames):
                functions[frame] += int(count)
            total += int(count)
    return layers, functions, total


class Profiler:
    """py-spy recording the service processes during one phase (``--py-spy``)."""

    def __init__(self, py_spy: str, out_dir: Path, pids: list[int], rate: int = 100) -> None:
        self.py_spy, self.out_dir, self.pids, self.rate = py_spy, out_dir, pids, rate
        self.procs: list[subprocess.Popen] = []
        self.files = [out_dir / f"service-{i}.txt" for i in range(len(pids))]

    def start(self) -> None:
        self.out_dir.mkdir(parents=True, exist_ok=True)
        for pid, path in zip(self.pids, self.files):
            command = [self.py_spy, "record", "-p", str(pid), "--nonblocking", "--rate", str(self.rate)]
            command += ["--format", "raw", "-o", str(path)]
            self.procs.append(subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))

    def stop(self) -> list[str]:
        for proc in self.procs:
            proc.send_signal(signal.SIGINT)  # py-spy writes its file on Ctrl-C
        for proc in self.procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
        layers, functions, total = summarise(self.files)
        if not total:
            return ["service profile: no samples (is py-spy allowed to read the processes?)"]
        lines = [f"service profile by layer (saturation phase, {total} samples; raw stacks in {self.out_dir}):"]
        lines += [
            f"  {name:<16}{100 * count / total:>6.1f}%" for name, count in sorted(layers.items(), key=lambda kv: -kv[1])
        ]
        return lines
