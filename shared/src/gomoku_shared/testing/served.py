"""The embedded runner (``python -m gomoku_shared.embedded``) as a process of its own, for the
tests that talk to it over a real socket."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

import httpx

#: how long the runner may take to answer /healthz (the machine may be loaded)
READY_WITHIN_S = 120.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def embedded_server(env: Mapping[str, str], log: Path) -> Iterator[int]:
    """The runner on a free port with environment `env` (its output appended to `log`), once
    /healthz answers 200: its port. Stopped on leaving (SIGTERM, then SIGKILL after 20 s)."""
    port = free_port()
    with open(log, "ab") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "gomoku_shared.embedded", "--port", str(port)],
            env=dict(env),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        _wait_healthy(proc, f"http://127.0.0.1:{port}/healthz", log)
        yield port
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


def _wait_healthy(proc: subprocess.Popen, url: str, log: Path) -> None:
    deadline = time.monotonic() + READY_WITHIN_S
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"embedded exited {proc.returncode}:\n{log.read_text()[-3000:]}")
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"embedded not healthy within {READY_WITHIN_S} s:\n{log.read_text()[-3000:]}")
        time.sleep(0.2)
