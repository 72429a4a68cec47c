"""What a service's composition root returns, and how a bus is chosen from settings."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator, Mapping
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any, Protocol

from fastapi import FastAPI
from sqlalchemy import MetaData

from .auth import KeyRing
from .client_address import TrustedProxies
from .clock import Clock, FakeClock
from .cursors import CursorKeyMiddleware, cursor_key
from .messaging.bus import EventBus
from .metrics import instrument
from .ratelimit import LocalBuckets
from .runtime import ServiceRuntime
from .settings import ServiceSettings
from .throttle import FailureThrottle
from .web import create_app, install_quiet_route

ENTRY_POINT_GROUP = "gomoku.services"
PAGES_ENTRY_POINT_GROUP = "gomoku.pages"


@dataclass
class Service:
    name: str
    runtime: ServiceRuntime
    app: FastAPI
    #: anything else the service wants to expose to tests and the embedded runner
    extras: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        # the app's key ring verifies access tokens with the runtime's keys, rate-limited by
        # this replica's share (every service gets this without wiring of its own)
        ring = getattr(self.app.state, "keyring", None)
        if ring is not None and ring.tokens is None:
            ring.tokens = self.runtime.tokens
            ring.limits = LocalBuckets(self.runtime.settings.rate_limit_replicas)
        if ring is not None:
            # failed sign-ins throttled by the configured policy, per client address as the
            # trusted proxies name it (auth.KeyRing.admit)
            ring.throttle = FailureThrottle(self.runtime.settings.credential_throttle())
            ring.proxies = TrustedProxies(self.runtime.settings.forwarded_allow_ips)
        # every service's /metrics carries the runtime's figures (outbox, consumer, dead letters)
        instrument(self.app, self.runtime)

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[Service]:
        await self.runtime.start()
        try:
            yield self
        finally:
            await self.runtime.stop()


class Builder(Protocol):
    def __call__(
        self, settings: ServiceSettings, *, bus: EventBus | None = None, clock: Clock | None = None
    ) -> Service: ...


def runtime_for(
    name: str, settings: ServiceSettings, metadata: MetaData, *, bus: EventBus | None = None, clock: Clock | None = None
) -> ServiceRuntime:
    """The runtime a ``Builder`` makes: on the bus it is given (shared, the embedded runner closes
    it) or on its own from the settings, with the clock it is given or the settings' clock."""
    return ServiceRuntime(
        name,
        settings,
        metadata,
        bus=bus or bus_from_settings(settings),
        clock=clock or clock_from_settings(settings),
        owns_bus=bus is None,
    )


def bus_from_settings(settings: ServiceSettings) -> EventBus:
    """RabbitMQ when AMQP_URL is set, else a private in-memory bus (single-service dev runs)."""
    if settings.amqp_url:
        from .messaging.rabbit import RabbitEventBus

        return RabbitEventBus(settings.amqp_url, namespace=settings.bus_namespace)
    from .messaging.memory import InMemoryEventBus

    return InMemoryEventBus()


def clock_from_settings(settings: ServiceSettings) -> Clock:
    """CLOCK=fake gives a simulation clock moved through /v1/ops/clock; else the system clock."""
    from .clock import FakeClock, SystemClock

    if settings.clock == "fake":
        start = settings.clock_start
        if start is not None and start.tzinfo is None:
            raise ValueError("CLOCK_START needs a timezone offset, e.g. 2022-11-05T09:00:00+08:00")
        return FakeClock(start)
    if settings.clock != "system":
        raise ValueError(f"CLOCK must be system or fake, not {settings.clock!r}")
    return SystemClock()


class InstalledServices(Mapping[str, Builder]):
    """The installed services by name; a service's modules are imported only when its builder
    is looked up, so a process that runs one service does not import the others."""

    def __init__(self) -> None:
        self._points = {point.name: point for point in entry_points(group=ENTRY_POINT_GROUP)}
        self._loaded: dict[str, Builder] = {}

    def __getitem__(self, name: str) -> Builder:
        if name not in self._loaded:
            self._loaded[name] = self._points[name].load()
        return self._loaded[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._points)

    def __len__(self) -> int:
        return len(self._points)


def builders() -> Mapping[str, Builder]:
    """Every installed service, found through the ``gomoku.services`` entry points (each
    imported when it is looked up)."""
    return InstalledServices()


def pages(kind: str) -> Any | None:
    """The web pages' entry (``gomoku.pages`` entry points: ``embedded`` mounts them on the
    embedded app, ``standalone`` builds their own process's app), or None when they are not
    installed. Looked up by name, as the services are: the shared library imports neither."""
    for point in entry_points(group=PAGES_ENTRY_POINT_GROUP):
        if point.name == kind:
            return point.load()
    return None


def lifespan_for(runtime: ServiceRuntime):
    """A FastAPI lifespan that runs the service's relay, consumers and background tasks."""

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await runtime.start()
        try:
            yield
        finally:
            await runtime.stop()

    return lifespan


def service_app(runtime: ServiceRuntime, keyring: KeyRing, *, title: str, description: str) -> FastAPI:
    """A service's HTTP app on its runtime: the common edges (``web.create_app``), the runtime's
    lifespan, its database and bus as the readiness checks, its clock; ``app.state.runtime`` set."""
    app = create_app(
        runtime.name,
        title=title,
        description=description,
        lifespan=lifespan_for(runtime),
        keyring=keyring,
        # a replica that cannot verify partners' tokens would refuse every one: not ready
        ready_checks={"database": runtime.db_ready, "bus": runtime.bus_ready, "tokens": runtime.tokens_ready},
        clock=runtime.clock,
    )
    app.state.runtime = runtime
    settings = runtime.settings
    app.add_middleware(CursorKeyMiddleware, key=cursor_key(settings.cursor_secret or settings.data_key, runtime.name))
    if isinstance(runtime.clock, FakeClock):  # simulations only, like the clock routes
        install_quiet_route(app, runtime.work_in_flight)
    return app
