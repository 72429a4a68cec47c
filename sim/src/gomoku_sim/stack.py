"""Where the services run for a simulation: one process (embedded) or four (distributed).

Both give a ``Stack``: the HTTP ``Platform``, the simulation clock (CLOCK=fake) and ``quiet()``,
which returns once nothing is in flight between the services. The embedded mode knows that
exactly (``EmbeddedSuite.drain``); the distributed mode asks every service for its work in
flight (see ``ServicesQuiet``).
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
    """Every service in this process on the in-memory bus, SQLite files in ``data_dir``,
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


class ServicesQuiet:
    """Distributed quiet, known from every service's work in flight (``GET /v1/ops/quiet``, a
    route the services have only under CLOCK=fake; ``ServiceRuntime.work_in_flight``).

    A *look* asks every service at once. It is idle when each answers with no delivery in a
    handler, no background round running (gameplay's flag-fall / no-show sweep), no outbox row
    pending and no message ready in its queue. Quiet is two idle looks in a row, at least
    ``gap_s`` apart, in which every service reports the same two counters (deliveries settled,
    outbox rows published), which only grow while a process lives.

    Why two looks. Work moves one way along a chain, and every link but one is counted by some
    service: an outbox row is pending until the relay marks it published, which it does only
    after the broker confirmed the message, and a confirmed message is in every queue bound to
    it; there it is ready until the broker delivers it to a consumer; the consumer counts it from
    the moment its handler starts until it returns, and the handler's transaction (its effect,
    its inbox row and the outbox rows of the events it causes) commits before it returns. The
    uncounted link is a message the broker has delivered (no longer ready) that the consumer's
    process has not yet handed to a handler: in the socket, in the AMQP client's buffers, a task
    not yet started. A single look can also miss work moving between services, as they answer
    one after the other. The second look closes both: work that happened between the two looks
    moved a counter (a delivery settled, a row published) or is still in flight at the second
    look; a message in the delivery link at the first look has reached its handler (counted)
    or been settled (a counter moved) by the second, unless it stayed in the consumer's buffers
    for ``gap_s`` while that same process answered the second look — an event loop reads every
    ready socket in each iteration and starts the handler's task in the next, so it does not
    stay there while the loop answers requests. A message being acknowledged after its handler
    returned has its effects committed already (a lost acknowledgement is redelivered, and the
    inbox skips it). Time itself makes nothing due without the driver: when it moves the clock
    it asks gameplay to sweep (``POST /v1/ops/sweep``) and waits for the answer before it asks
    for quiet; the background sweeper's round is counted from the moment it claimed games until
    it committed (a round that claimed none changes nothing).

    The idle look that ended the last wait counts as the first look of the next one, when it is
    ``gap_s`` old or more and the counters are unchanged (the driver only read in between, or did
    what moved no counter): such a wait costs one look.

    A service that does not answer (killed, restarting) is not quiet: the platform retries it,
    and the look is repeated until ``timeout_s``, then a TimeoutError names the services still
    busy or away. A restarted service starts its counters at zero: a change, so another look."""

    def __init__(
        self,
        platform: Platform,
        services: tuple[str, ...] = SERVICES,
        *,
        gap_s: float = 0.05,
        poll_s: float = 0.02,
        timeout_s: float = 120.0,
    ) -> None:
        self.p = platform
        self.services = services
        self.gap_s = gap_s
        self.poll_s = poll_s
        self.timeout_s = timeout_s
        #: (when, answers) of the idle look that ended the last wait
        self.last: tuple[float, dict[str, Any]] | None = None
        #: looks taken (all waits together): what the quiet checks cost
        self.looks = 0

    async def look(self) -> dict[str, Any]:
        """Every service's work in flight, or the error it answered with."""
        self.looks += 1

        async def ask(service: str) -> Any:
            try:
                return await self.p.get(service, "/v1/ops/quiet")
            except Exception as exc:  # noqa: BLE001 - away or restarting: not quiet
                return repr(exc)

        answers = await asyncio.gather(*(ask(service) for service in self.services))
        return dict(zip(self.services, answers, strict=True))

    @staticmethod
    def busy(answers: dict[str, Any]) -> dict[str, Any]:
        """The services that are not idle, with what they answered."""
        return {
            service: answer
            for service, answer in answers.items()
            if not isinstance(answer, dict)
            or any(answer.get(key) for key in ("handling", "background", "outbox_pending", "queue_ready"))
        }

    async def __call__(self) -> None:
        end = time.monotonic() + self.timeout_s
        previous = self.last
        delay = self.poll_s
        while True:
            answers = await self.look()
            now = time.monotonic()
            busy = self.busy(answers)
            if now > end:
                raise TimeoutError(
                    f"the services did not become quiet within {self.timeout_s:.0f}s: "
                    f"{busy or 'idle, but their counters kept moving'} (last answers {answers})"
                )
            if not busy:
                if previous is not None and previous[1] == answers and now - previous[0] >= self.gap_s:
                    self.last = (now, answers)
                    return
                if previous is None or previous[1] != answers:
                    previous = (now, answers)
                await asyncio.sleep(max(0.0, self.gap_s - (now - previous[0])))
                continue
            previous = None
            await asyncio.sleep(delay)
            delay = min(delay * 1.5, 0.2)


@contextlib.asynccontextmanager
async def distributed_stack(
    *,
    amqp_url: str,
    database_urls: dict[str, str],
    log_dir: str | Path,
    namespace: str | None = None,
    keys: Keys = Keys(),
    extra_env: dict[str, str] | None = None,
    gateway: bool = False,
) -> AsyncIterator[Stack]:
    """The four competition services as separate processes (the compose commands) on RabbitMQ + PostgreSQL,
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
        quiet = ServicesQuiet(platform)
        try:
            yield Stack(platform, clock, quiet, "distributed", urls, extras={"compose": stack, "quiet": quiet})
        finally:
            await platform.aclose()
    finally:
        stack.stop_all()
        from gomoku_shared.messaging.rabbit_cleanup import delete_namespace

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
