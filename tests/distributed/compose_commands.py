"""Run the commands docker-compose.yml names, as plain local processes (no Docker here).

Host names of the compose network are replaced by the local servers, database names by
fresh per-test databases, the service port by a free local port; everything else —
the command lines and the environment — is taken from docker-compose.yml unchanged.
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
import yaml

ROOT = Path(__file__).resolve().parents[2]
SERVICES = ("registration", "pairing", "gameplay", "awards")


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _argv(command: list[str], port: int | None = None) -> list[str]:
    argv = list(command)
    assert argv[0] == "python", f"compose commands start with python: {argv}"
    argv[0] = sys.executable
    if port is not None and "--port" in argv:
        argv[argv.index("--port") + 1] = str(port)
    return argv


@dataclass
class Proc:
    name: str
    port: int
    popen: subprocess.Popen
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


class LocalCompose:
    """Start migrate steps and services of docker-compose.yml against local servers."""

    def __init__(self, *, database_urls: dict[str, str], amqp_url: str, namespace: str, log_dir: Path,
                 extra_env: dict[str, str] | None = None) -> None:
        self.spec = compose()["services"]
        self.database_urls = database_urls
        self.amqp_url = amqp_url
        self.namespace = namespace
        self.log_dir = log_dir
        self.extra_env = extra_env or {}
        self.procs: dict[str, Proc] = {}

    def _env(self, name: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "AMQP_URL")}
        for key, value in (self.spec[name].get("environment") or {}).items():
            value = str(value)
            if value.startswith("${"):  # required variables of compose: the test provides them
                continue
            env[key] = value
        service = name.removesuffix("-migrate")
        env["DATABASE_URL"] = self.database_urls[service]
        if "AMQP_URL" in env or not name.endswith("-migrate"):
            env["AMQP_URL"] = self.amqp_url
            env["BUS_NAMESPACE"] = self.namespace
        env.setdefault("API_KEYS", "op-key=operator,arb-key=arbiter,partner-key=partner:partner-1")
        env.setdefault("DATA_KEY", "local-test-data-key")
        env["LOG_JSON"] = "true"
        env.update(self.extra_env)
        return env

    def migrate(self, service: str) -> None:
        name = f"{service}-migrate"
        argv = _argv(self.spec[name]["command"])
        done = subprocess.run(argv, env=self._env(name), capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{name} failed ({done.returncode}):\n{done.stderr[-3000:]}")

    def start(self, service: str, port: int | None = None) -> Proc:
        port = port or (self.procs[service].port if service in self.procs else free_port())
        argv = _argv(self.spec[service]["command"], port)
        log = self.log_dir / f"{service}.log"
        fh = open(log, "ab")
        popen = subprocess.Popen(argv, env=self._env(service), stdout=fh, stderr=subprocess.STDOUT,
                                 start_new_session=True)
        proc = Proc(service, port, popen, log)
        self.procs[service] = proc
        return proc

    def wait_ready(self, service: str, timeout: float = 60.0) -> None:
        proc = self.procs[service]
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            if proc.popen.poll() is not None:
                raise RuntimeError(f"{service} exited with {proc.popen.returncode}:\n{proc.log.read_text()[-3000:]}")
            try:
                r = httpx.get(proc.url + "/readyz", timeout=2)
                if r.status_code == 200:
                    return
                last = r.text
            except httpx.HTTPError as exc:
                last = repr(exc)
            time.sleep(0.2)
        raise TimeoutError(f"{service} not ready after {timeout}s: {last}\n{proc.log.read_text()[-3000:]}")

    def kill(self, service: str) -> None:
        """SIGKILL, as a crash would."""
        proc = self.procs[service]
        os.killpg(proc.popen.pid, signal.SIGKILL)
        proc.popen.wait(timeout=10)

    def stop(self, service: str, timeout: float = 20.0) -> int:
        proc = self.procs[service]
        if proc.popen.poll() is None:
            proc.popen.send_signal(signal.SIGTERM)
            try:
                proc.popen.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(proc.popen.pid, signal.SIGKILL)
                proc.popen.wait(timeout=10)
                raise
        return proc.popen.returncode

    def stop_all(self) -> None:
        for name in list(self.procs):
            try:
                self.stop(name)
            except Exception:
                pass


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
