"""Start-up benchmark: how long each service takes from exec to ready, and a migration step
that finds nothing to do.

    .venv/bin/python -m bench.startup [--repeat 3] [--sqlite]

Each figure is one fresh OS process, as an orchestrator starts it (the compose/Kubernetes
commands), timed from ``exec`` until it answers:

* baselines, in the same run: ``python -c pass`` (the interpreter), and a bare uvicorn app
  answering ``200`` (the HTTP server alone, no framework, no database);
* ``python -m gomoku_shared.migrate <service>`` on a database already at head (the no-op
  migration step every start of the compose file and the Kubernetes Jobs runs), until it exits;
* ``python -m gomoku_shared.serve <service>`` until ``/readyz`` answers 200 (database and bus
  reached; the portal, which has neither, until its first answer);
* ``python -m gomoku_shared.embedded`` (all services in one process on SQLite) until
  ``/gameplay/readyz`` answers 200, on a data directory it already migrated (a restart) and,
  for the record, on an empty one.

Every row prints the wall time and the CPU time the process itself used until then (user +
system, from ``/proc``): the machine is shared, and the CPU time is what another job's load
does not inflate. Best and median of ``--repeat`` starts. Environment: DATABASE_URL (a
PostgreSQL server where fresh databases can be created; default
postgresql://postgres@127.0.0.1:5432/postgres) and AMQP_URL (default guest@127.0.0.1); with
``--sqlite`` (or no PostgreSQL) every service uses an SQLite file and the in-memory bus. The run's
databases and its bus namespace (queues and exchanges) are deleted when it ends.
Goals (issue 18): ready in < 1.5 s, no-op migration < 1 s, embedded < 2 s.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SERVICES = ("registration", "pairing", "gameplay", "awards", "partners")
GOAL_READY_S = 1.5
GOAL_MIGRATE_S = 1.0
GOAL_EMBEDDED_S = 2.0
TICKS = os.sysconf("SC_CLK_TCK")
HELLO_APP = """
import sys, uvicorn
async def app(scope, receive, send):
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _cpu_s(pid: int) -> float:
    """User + system CPU seconds of a live process (fields 14 and 15 of /proc/<pid>/stat)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / TICKS


def _answers(port: int, path: str, any_status: bool) -> bool:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    try:
        conn.request("GET", path)
        return any_status or conn.getresponse().status == 200
    except OSError:
        return False
    finally:
        conn.close()


def time_until_ready(
    argv: list[str], env: dict[str, str], port: int, path: str, any_status: bool = False
) -> tuple[float, float]:
    """Wall and CPU seconds from exec until ``GET path`` answers 200 (any answer with ``any_status``)."""
    log = tempfile.TemporaryFile()  # a file, not a pipe: a chatty process never blocks on it
    started = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log)
    try:
        deadline = started + 60
        while time.perf_counter() < deadline:
            if proc.poll() is not None:
                log.seek(0)
                raise RuntimeError(f"{argv[2:4]} exited {proc.returncode}: {log.read().decode()[-2000:]}")
            if _answers(port, path, any_status):
                return time.perf_counter() - started, _cpu_s(proc.pid)
            time.sleep(0.005)
        raise RuntimeError(f"{argv[2:4]} not ready within 60 s")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def time_until_exit(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of a process that runs to completion (CPU from wait4's rusage)."""
    started = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        error = proc.stderr.read().decode() if proc.stderr else ""
        raise RuntimeError(f"{argv[2:4]} exited {proc.returncode}: {error[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime


class Table:
    def __init__(self) -> None:
        print(f"{'what':<44} {'wall best':>10} {'wall med':>9} {'cpu best':>9} {'goal':>6}", flush=True)

    def row(self, what: str, runs: list[tuple[float, float]], goal: float | None = None) -> tuple[float, float]:
        """Prints the row; returns the best wall and the best CPU time."""
        walls, cpus = [w for w, _ in runs], [c for _, c in runs]
        verdict = ""
        if goal is not None:
            verdict = f"{goal:>4.1f}s wall {'ok' if min(walls) < goal else 'MISSED'}, cpu {'ok' if min(cpus) < goal else 'MISSED'}"
        print(
            f"{what:<44} {min(walls):>9.3f}s {statistics.median(walls):>8.3f}s {min(cpus):>8.3f}s  {verdict}",
            flush=True,
        )
        return min(walls), min(cpus)


def _repeat(times: int, run: Callable[[], tuple[float, float]]) -> list[tuple[float, float]]:
    return [run() for _ in range(times)]


async def _create_databases(admin: str, names: list[str]) -> None:
    import asyncpg

    conn = await asyncpg.connect(admin.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        for name in names:
            await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()


async def _drop_databases(admin: str, names: list[str]) -> None:
    import asyncpg

    conn = await asyncpg.connect(admin.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        for name in names:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


def _database_urls(admin: str | None, data_dir: Path) -> dict[str, str]:
    if admin is None:
        return {s: f"sqlite+aiosqlite:///{data_dir}/{s}.sqlite" for s in SERVICES}
    base = admin.replace("postgresql://", "postgresql+asyncpg://").rsplit("/", 1)[0]
    tag = uuid.uuid4().hex[:8]
    return {s: f"{base}/bench_startup_{s}_{tag}" for s in SERVICES}


def _base_env(amqp: str | None, namespace: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "AMQP_URL", "OTEL_EXPORTER_OTLP_ENDPOINT")}
    env.update(
        API_KEYS="bench-op=operator,bench-view=viewer",
        DATA_KEY="bench-startup-data-key",
        PARTNERS_KEY="bench-startup-partners-key",
        PORTAL_API_KEY="bench-view",
        LOG_LEVEL="WARNING",
        BUS_NAMESPACE=namespace,
    )
    if amqp:
        env["AMQP_URL"] = amqp
    return env


def run_baselines(table: Table, repeat: int) -> None:
    table.row("baseline: python -c pass", _repeat(repeat, lambda: time_until_exit([sys.executable, "-c", "pass"], {})))

    def hello() -> tuple[float, float]:
        port = _free_port()
        return time_until_ready([sys.executable, "-c", HELLO_APP, str(port)], dict(os.environ), port, "/")

    table.row("baseline: bare uvicorn app, exec -> 200", _repeat(repeat, hello))


def run_services(
    table: Table, repeat: int, urls: dict[str, str], env: dict[str, str]
) -> dict[str, tuple[float, float]]:
    best: dict[str, tuple[float, float]] = {}
    for service, url in urls.items():
        service_env = dict(env, DATABASE_URL=url)
        migrate = [sys.executable, "-m", "gomoku_shared.migrate", service]
        table.row(f"{service}: migrate from empty", [time_until_exit(migrate, service_env)])

        def no_op(argv: list[str] = migrate, variables: dict[str, str] = service_env) -> tuple[float, float]:
            return time_until_exit(argv, variables)

        best[f"{service} migrate"] = table.row(
            f"{service}: migrate, nothing to do", _repeat(repeat, no_op), GOAL_MIGRATE_S
        )

        def serve(name: str = service, variables: dict[str, str] = service_env) -> tuple[float, float]:
            port = _free_port()
            argv = [sys.executable, "-m", "gomoku_shared.serve", name, "--port", str(port)]
            return time_until_ready(argv, variables, port, "/readyz")

        best[f"{service} ready"] = table.row(f"{service}: exec -> /readyz 200", _repeat(repeat, serve), GOAL_READY_S)

    def portal() -> tuple[float, float]:
        port = _free_port()
        argv = [sys.executable, "-m", "gomoku_shared.serve", "portal", "--port", str(port)]
        return time_until_ready(argv, env, port, "/healthz", any_status=True)

    best["portal ready"] = table.row("portal: exec -> first answer", _repeat(repeat, portal), GOAL_READY_S)
    return best


def run_embedded(table: Table, repeat: int, env: dict[str, str]) -> tuple[float, float]:
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as data_dir:
        embedded_env = {k: v for k, v in env.items() if k not in ("AMQP_URL", "PORTAL_API_KEY")}
        embedded_env["DATA_DIR"] = data_dir

        def start() -> tuple[float, float]:
            port = _free_port()
            argv = [sys.executable, "-m", "gomoku_shared.embedded", "--port", str(port)]
            return time_until_ready(argv, embedded_env, port, "/gameplay/readyz")

        table.row("embedded: empty data dir (migrates)", [start()])
        return table.row("embedded: restart, exec -> /gameplay/readyz", _repeat(repeat, start), GOAL_EMBEDDED_S)


def _goal(name: str) -> float:
    return GOAL_MIGRATE_S if "migrate" in name else GOAL_EMBEDDED_S if name == "embedded" else GOAL_READY_S


def bytecode_state() -> str:
    """Whether the libraries' and the services' bytecode was compiled ahead (``make install``)."""
    import importlib.util

    missing = []
    for package in ("sqlalchemy", "fastapi", "gomoku_shared", "pairing"):
        spec = importlib.util.find_spec(package)
        if spec is None or spec.origin is None or not Path(importlib.util.cache_from_source(spec.origin)).exists():
            missing.append(package)
    if not missing:
        return "compiled ahead of time"
    return f"NOT compiled for {', '.join(missing)}: every start compiles them (run make install)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.startup", description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="starts per row (best and median printed)")
    parser.add_argument("--sqlite", action="store_true", help="SQLite files and the in-memory bus, no servers")
    args = parser.parse_args(argv)
    admin = None if args.sqlite else os.environ.get("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    amqp = None if args.sqlite else os.environ.get("AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/")
    namespace = f"bench-startup-{uuid.uuid4().hex[:8]}"
    with tempfile.TemporaryDirectory(prefix="bench-startup-db-") as data_dir:
        urls = _database_urls(admin, Path(data_dir))
        names = [url.rsplit("/", 1)[1] for url in urls.values()]
        if admin is not None:
            asyncio.run(_create_databases(admin, names))
        print(f"databases: {'PostgreSQL' if admin else 'SQLite'}; bus: {'RabbitMQ' if amqp else 'in-memory'}")
        print(f"bytecode: {bytecode_state()}")
        table = Table()
        try:
            run_baselines(table, args.repeat)
            env = _base_env(amqp, namespace)
            best = run_services(table, args.repeat, urls, env)
            best["embedded"] = run_embedded(table, args.repeat, env)
        finally:
            if admin is not None:
                asyncio.run(_drop_databases(admin, names))
            if amqp is not None:
                # the services declared the whole topology in the run's namespace: none of it
                # may stay behind on the broker (quorum queues pile up on a shared one)
                from gomoku_shared.messaging.rabbit_cleanup import delete_namespace

                asyncio.run(delete_namespace(amqp, namespace))
    for index, clock in enumerate(("wall", "cpu")):
        missed = [name for name, figures in best.items() if figures[index] >= _goal(name)]
        print(f"missed by best {clock} time: {', '.join(missed) if missed else 'none'}")
    print(f"goals: ready < {GOAL_READY_S} s, no-op migration < {GOAL_MIGRATE_S} s, embedded < {GOAL_EMBEDDED_S} s")
    print("(on a loaded machine the CPU time stands for a quiet machine's wall time: see the baselines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
