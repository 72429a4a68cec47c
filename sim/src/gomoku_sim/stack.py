"""Where the services run for a simulation: one process (embedded) or four (distributed).

Both give a ``Stack``: the HTTP ``Platform``, the simulation clock (CLOCK=fake) and ``quiet()``,
which returns once nothing is in flight between the services. The embedded mode knows that
exactly (``EmbeddedSuite.drain``); the distributed mode infers it from the services' public
state not changing for a settle period (see ``StateQuiet``).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import os
import sys
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .client import SERVICES, Keys, Platform
from .driver import SimClock

#: every simulation starts its fake clock here (before any seed event's registration window)
EPOCH = datetime(2020, 1, 1, tzinfo=UTC)
ROOT = Path(__file__).resolve().parents[3]


@dataclass
class Stack:
    platform: Platform
    clock: SimClock
    quiet: Callable[[], Awaitable[None]]
    mode: str
    urls: dict[str, str] = field(default_factory=dict)
    extras: dict[str, Any] = field(default_factory=dict)


@contextlib.asynccontextmanager
async def embedded_stack(
    data_dir: str | Path, keys: Keys = Keys(), *, log_level: str = "WARNING", configure_logs: bool = False
) -> AsyncIterator[Stack]:
    """The four services in this process on the in-memory bus, SQLite files in ``data_dir``,
    one FakeClock for all of them."""
    from gomoku_shared import logs
    from gomoku_shared.clock import FakeClock
    from gomoku_shared.embedded import EmbeddedSuite
    from gomoku_shared.settings import ServiceSettings

    Path(data_dir).mkdir(parents=True, exist_ok=True)
    if configure_logs:  # the demo; tests keep pytest's log capture
        logs.configure(log_level, json_lines=False)
    # no DATA_KEY: registration keeps a random key of its own in data_dir (or DATA_KEY from the environment)
    settings = ServiceSettings(
        DATA_DIR=str(data_dir),
        API_KEYS=keys.api_keys_setting,
        CLOCK="fake",
        LOG_LEVEL=log_level,
        LOG_JSON=False,
        RELAY_POLL_S=1.0,
    )
    suite = EmbeddedSuite(settings, clock=FakeClock(EPOCH))
    await suite.start()
    platform = Platform.embedded(suite.app, keys)
    try:
        yield Stack(platform, SimClock(platform, ("gameplay",)), suite.drain, "embedded", extras={"suite": suite})
    finally:
        await platform.aclose()
        await suite.stop()


def load_compose_commands():
    """tests/distributed/compose_commands.py: the docker-compose.yml commands as local processes."""
    path = ROOT / "tests" / "distributed" / "compose_commands.py"
    spec = importlib.util.spec_from_file_location("gomoku_compose_commands", path)
    if spec is None or spec.loader is None:
        raise RuntimeError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


class StateQuiet:
    """Distributed quiet: the services' observable state (games, sections, publications,
    stage statuses) unchanged for ``settle_s`` of wall time."""

    def __init__(
        self, platform: Platform, code_of: Callable[[], str | None], settle_s: float = 0.6, timeout_s: float = 120.0
    ) -> None:
        self.p = platform
        self.code_of = code_of
        self.settle_s = settle_s
        self.timeout_s = timeout_s

    async def fingerprint(self) -> Any:
        code = self.code_of()
        if not code:
            return None
        parts: list[Any] = []
        try:
            # games not finished: any change of one (a move, a join, a result), one appearing
            # (paired) or leaving (finished) changes its page's ETag; an unchanged page is a 304
            # (listing every game of a full-size event would cost more than the work waited for)
            pages = await self.p.game_pages.pages({"event_code": code, "status": "active"})
            parts.append(
                [etag or [(x["game_id"], x.get("status"), x.get("seq")) for x in page["games"]] for etag, page in pages]
            )
        except Exception as exc:  # noqa: BLE001 - not there yet / restarting: part of the state
            parts.append(repr(type(exc)))
        for service, path in (
            ("pairing", f"/v1/events/{code}/sections"),
            ("awards", f"/v1/events/{code}"),
            ("registration", f"/v1/events/{code}"),
        ):
            try:
                parts.append(await self.p.get(service, path))
            except Exception as exc:  # noqa: BLE001
                parts.append(repr(type(exc)))
        return parts

    async def __call__(self) -> None:
        end = time.monotonic() + self.timeout_s
        last = await self.fingerprint()
        stable_since = time.monotonic()
        while time.monotonic() - stable_since < self.settle_s:
            if time.monotonic() > end:
                raise TimeoutError(f"the services did not become quiet within {self.timeout_s:.0f}s")
            await asyncio.sleep(0.1)
            now = await self.fingerprint()
            if now != last:
                last = now
                stable_since = time.monotonic()


@contextlib.asynccontextmanager
async def distributed_stack(
    *,
    amqp_url: str,
    database_urls: dict[str, str],
    log_dir: str | Path,
    namespace: str | None = None,
    keys: Keys = Keys(),
    code_of: Callable[[], str | None] = lambda: None,
    extra_env: dict[str, str] | None = None,
    settle_s: float = 0.6,
    gateway: bool = False,
) -> AsyncIterator[Stack]:
    """The four services as separate processes (the compose commands) on RabbitMQ + PostgreSQL,
    with CLOCK=fake; every service's clock is moved together. With ``gateway`` the platform is
    reached through the compose gateway (Caddy), at one base URL, as a partner would."""
    cc = load_compose_commands()
    env = {
        "CLOCK": "fake",
        "API_KEYS": keys.api_keys_setting,
        "LOG_LEVEL": "WARNING",
        "RELAY_POLL_S": "0.5",
        # the services' fake clocks start at the simulation's epoch
        "CLOCK_START": EPOCH.isoformat(),
    }
    env.update(extra_env or {})
    Path(log_dir).mkdir(parents=True, exist_ok=True)
    stack = cc.LocalCompose(
        database_urls=database_urls,
        amqp_url=amqp_url,
        namespace=namespace or f"sim-{uuid.uuid4().hex[:8]}",
        log_dir=Path(log_dir),
        extra_env=env,
    )
    try:
        for s in SERVICES:
            await asyncio.to_thread(stack.migrate, s)
        for s in SERVICES:
            stack.start(s)
        for s in SERVICES:
            await asyncio.to_thread(stack.wait_ready, s)
        urls = {s: stack.procs[s].url for s in SERVICES}
        if gateway:
            front = stack.start_gateway()
            await asyncio.to_thread(stack.wait_gateway)
            urls = {s: f"{front.url}/{s}" for s in SERVICES}
        platform = Platform.distributed(urls, keys)
        clock = SimClock(platform, SERVICES)
        now = await clock.now()
        if now != EPOCH:
            raise RuntimeError(f"the services' fake clock starts at {now}, not {EPOCH}: CLOCK_START was not applied")
        clock.current = now
        quiet = StateQuiet(platform, code_of, settle_s=settle_s)
        try:
            yield Stack(platform, clock, quiet, "distributed", urls, extras={"compose": stack, "quiet": quiet})
        finally:
            await platform.aclose()
    finally:
        stack.stop_all()
        from gomoku_shared.messaging.rabbit import delete_namespace

        with contextlib.suppress(Exception):  # the broker may be what failed
            await delete_namespace(amqp_url, stack.namespace)


def database_urls_for(admin_url: str, prefix: str) -> dict[str, str]:
    """One database per service on the server of ``admin_url`` (created by the migrate step)."""
    from sqlalchemy.engine import make_url

    u = make_url(admin_url)
    return {s: u.set(database=f"{prefix}_{s}").render_as_string(hide_password=False) for s in SERVICES}


def env_or_fail(name: str) -> str:
    v = os.environ.get(name)
    if not v:
        raise SystemExit(f"--mode distributed needs {name} in the environment (see README: make test)")
    return v
