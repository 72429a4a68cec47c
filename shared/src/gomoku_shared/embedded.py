"""Embedded mode: the six services (five and the portal's web pages) in one process, on one in-memory bus, SQLite each.

``python -m gomoku_shared.embedded [--port 8000]`` serves them under /registration,
/pairing, /gameplay, /awards and /partners, and the public web pages (package ``portal``, when installed) at /. The same ``EmbeddedSuite`` drives tests and the demo.
Mounted sub-apps' lifespans do not run, so the suite starts each service runtime itself.
"""

from __future__ import annotations

import argparse
import contextlib
import gc

if __name__ == "__main__":
    # a fresh server process: no collections while start-up allocates (main tunes and enables
    # the collector once the suite is built, as gomoku_shared.serve does)
    gc.disable()
from collections.abc import AsyncIterator
from typing import Protocol

from fastapi import FastAPI
from prometheus_client import CollectorRegistry

from . import logs, tracing
from .clock import Clock
from .guard import InputGuardMiddleware
from .headers import SecurityHeaders
from .messaging.memory import InMemoryEventBus, settle
from .migrate import upgrade_async
from .service import Service, builders, clock_from_settings, pages
from .settings import ServiceSettings
from .web import FASTAPI_TELEMETRY, ObservabilityMiddleware, install_error_handlers


class _ClosableUpstream(Protocol):
    """The portal's upstream as the suite sees it (shared does not import the portal's types)."""

    async def aclose(self) -> None: ...


class EmbeddedSuite:
    def __init__(
        self, settings: ServiceSettings | None = None, *, clock: Clock | None = None, only: list[str] | None = None
    ) -> None:
        self.settings = settings or ServiceSettings()
        self.bus = InMemoryEventBus()
        # one time source for the whole process (a FakeClock with CLOCK=fake)
        self.clock = clock or clock_from_settings(self.settings)
        self.services: dict[str, Service] = {}
        for name, build in sorted(builders().items()):
            if only and name not in only:
                continue
            # embedded mode never uses a broker or a shared database URL: one SQLite file each
            service_settings = self.settings.model_copy(update={"amqp_url": None, "database_url": "", "service": name})
            self.services[name] = build(service_settings, bus=self.bus, clock=self.clock)
        partners = self.services.get("partners")
        if partners is not None and partners.extras:
            # every service verifies partners' access tokens with the partners service's keys,
            # read in-process (no HTTP in one process); revocations come over the shared bus
            for name, svc in self.services.items():
                if name != "partners":
                    svc.runtime.tokens.use_fetch(partners.extras["key_source"])
        self.app = FastAPI(title="Gomoku platform (embedded)", lifespan=self._lifespan, telemetry=FASTAPI_TELEMETRY)
        # paths outside the services' mounts get the common error shape, the input checks and a
        # correlation id too (a path a mount cannot match, e.g. one with a newline, ends here)
        install_error_handlers(self.app)
        self.app.add_middleware(InputGuardMiddleware)
        self.app.add_middleware(ObservabilityMiddleware, registry=CollectorRegistry(), service="embedded")
        self.app.add_middleware(SecurityHeaders)
        for name, svc in self.services.items():
            self.app.mount(f"/{name}", svc.app)

        @self.app.get("/healthz")
        async def healthz() -> dict:
            return {"status": "ok", "services": sorted(self.services)}

        self.portal: _ClosableUpstream | None = None
        mount = pages("embedded") if not only else None
        if mount is not None:
            # the web pages at / (package ``portal``, found by its entry point): they read the
            # mounted apps in-process with a read-only key added to every service's keyring
            self.portal = mount(
                self.app,
                {n: s.app for n, s in self.services.items()},
                [s.app.state.keyring for s in self.services.values()],
                clock=self.clock,  # the live pages' clocks on the services' time
            )

    @contextlib.asynccontextmanager
    async def _lifespan(self, _app: FastAPI) -> AsyncIterator[None]:
        await self.start()
        try:
            yield
        finally:
            await self.stop()

    async def start(self) -> None:
        for name, svc in self.services.items():
            await upgrade_async(name, svc.runtime.database_url)
        await self.bus.start()
        for svc in self.services.values():
            await svc.runtime.start()

    async def stop(self) -> None:
        if self.portal is not None:
            await self.portal.aclose()
        for svc in self.services.values():
            await svc.runtime.stop()
        await self.bus.close()

    async def drain(self, rounds: int = 1000) -> None:
        """Wait until no outbox row is pending and no message is queued or in a handler."""
        await settle(self.bus, [svc.runtime.relay for svc in self.services.values()], rounds)


def main(argv: list[str] | None = None) -> int:
    import uvicorn

    from . import read_timeouts
    from .serve import WEBSOCKETS, StreamsEndingServer, tune_gc

    parser = argparse.ArgumentParser(prog="python -m gomoku_shared.embedded", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    settings = ServiceSettings()
    logs.configure(settings.log_level, json_lines=settings.log_json)
    tracing.configure("gomoku-embedded")  # OTLP export when OTEL_EXPORTER_OTLP_ENDPOINT is set
    suite = EmbeddedSuite(settings)
    tune_gc()
    config = uvicorn.Config(
        suite.app,
        host=args.host,
        port=args.port,
        log_config=None,
        access_log=False,
        ws=WEBSOCKETS,
        http=read_timeouts.timed(settings.http_header_timeout_s, settings.http_body_timeout_s),
        timeout_graceful_shutdown=10,
    )
    StreamsEndingServer(config, getattr(suite.app.state, "end_streams", None)).run()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
