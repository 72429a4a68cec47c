"""Run one service as its own process: ``python -m gomoku_shared.serve <service>``.

This is the command of every service container in docker-compose.yml (distributed mode):
settings come from the environment (DATABASE_URL, AMQP_URL, API_KEYS, …). It binds 127.0.0.1
unless ``--host`` says otherwise (the compose and Kubernetes commands say ``--host 0.0.0.0``).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import math
import socket
from collections.abc import Callable
from types import FrameType

if __name__ == "__main__":
    # a fresh server process: no collections while start-up allocates its long-lived objects
    # (modules, models, routes, tables); tune_gc freezes them without collecting, then enables it
    gc.disable()

import uvicorn

from . import logs, read_timeouts, tracing
from .service import builders, pages
from .settings import ServiceSettings, SettingsError

#: uvicorn's WebSocket protocol, named rather than "auto": a missing library then fails at start-up
#: instead of every /ws route quietly answering 404
WEBSOCKETS = "websockets-sansio"
#: the portal's event loop: asyncio's own, named (uvicorn's "auto" takes uvloop wherever it is
#: installed, e.g. beside gameplay). uvloop (its libuv) accepts one new connection per turn of its
#: loop, and a portal busy with pages turns it every 10-90 ms: with 1,000 spectators arriving (two
#: new connections each) up to 540 connections waited 1-2 s in the listen queue while requests on
#: open connections were answered in milliseconds. asyncio's loop accepts every waiting connection
#: when the socket is ready, for a few per cent more CPU here (ADR 0010). The services keep uvloop:
#: their callers (the portal, the gateway) keep their connections open.
PORTAL_LOOP = "asyncio"


class ForwardedPrefix:
    """Behind the gateway a service is reached under ``/<service>`` (the gateway strips it and
    says so in ``X-Forwarded-Prefix``), as in the embedded mode's mounts. The prefix becomes the
    ASGI ``root_path``, so ``/docs`` loads ``/<service>/openapi.json`` and the document's
    ``servers`` name ``/<service>``. Only that one value is taken: a client cannot move the
    service anywhere else by sending the header."""

    def __init__(self, app, service: str) -> None:
        self.app = app
        self.prefix = f"/{service}"
        self.header = self.prefix.encode("latin-1")

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket") and not scope.get("root_path"):
            for key, value in scope.get("headers", ()):
                if key == b"x-forwarded-prefix":
                    if value == self.header:
                        # as uvicorn's own --root-path does: the path carries the prefix too
                        scope = dict(
                            scope,
                            root_path=self.prefix,
                            path=self.prefix + scope["path"],
                            raw_path=self.header + (scope.get("raw_path") or scope["path"].encode()),
                        )
                    break
        return await self.app(scope, receive, send)


def tune_gc() -> None:
    """Collector settings for a long-running server. A request allocates thousands of short-lived
    objects; with the default gen-0 threshold (700) the collector runs every few requests and,
    every few hundred runs, walks the whole long-lived heap (modules, ORM metadata, the game
    cache), which stalls every request in flight. Objects built at start-up are frozen (never
    scanned) and collections are rarer: the gameplay load benchmark moved from 2,600 to 3,900
    moves/s and lost most of its latency tail with this.

    The entry points pause the collector during start-up (a full collection every few thousand
    allocations of a growing heap cost about 0.15 s of CPU before the service was built), and
    they freeze the heap without collecting it first: a full collection of the ~200,000 objects
    built then costs 0.05-0.1 s and finds ~1,300 (start-up garbage that stays, a few hundred kB)."""
    gc.freeze()
    gc.set_threshold(50_000, 20, 1000)
    gc.enable()


class StreamsEndingServer(uvicorn.Server):
    """uvicorn's server that, told to stop, first ends the app's open streams: it calls
    ``app.state.end_streams`` on the server's loop. Without it a stop waited the whole grace
    period for the spectators' event streams (they never end on their own), then cancelled each
    one with an error in the log, a thousand on a busy portal."""

    def __init__(self, config: uvicorn.Config, end_streams: Callable[[], None] | None) -> None:
        super().__init__(config)
        self._end_streams = end_streams
        self._loop: asyncio.AbstractEventLoop | None = None

    async def serve(self, sockets: list[socket.socket] | None = None) -> None:
        self._loop = asyncio.get_running_loop()
        await super().serve(sockets)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self._end_streams is not None and self._loop is not None and not self.should_exit:
            self._loop.call_soon_threadsafe(self._end_streams)
        super().handle_exit(sig, frame)


def serve_portal(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """The web front (package ``portal``): no runtime of its own, it reads the services over HTTP
    at REGISTRATION_URL, PAIRING_URL, GAMEPLAY_URL and AWARDS_URL with PORTAL_API_KEY."""
    standalone_app = pages("standalone")
    if standalone_app is None:
        parser.exit(2, f"{parser.prog} portal: the web pages (package gomoku-portal) are not installed\n")
    settings = ServiceSettings(GOMOKU_SERVICE="portal")
    logs.configure(settings.log_level, json_lines=settings.log_json)
    try:
        app = standalone_app()
    except SettingsError as exc:
        parser.exit(2, f"{parser.prog} portal: cannot start: {exc}\n")
    tune_gc()
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_config=None,
        access_log=False,
        proxy_headers=False,
        http=read_timeouts.timed(settings.http_header_timeout_s, settings.http_body_timeout_s),
        timeout_graceful_shutdown=10,
        loop=PORTAL_LOOP,
    )
    StreamsEndingServer(config, getattr(app.state, "end_streams", None)).run()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gomoku_shared.serve", description=__doc__)
    parser.add_argument("service")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (0.0.0.0 in a container)")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    if args.service == "portal":
        return serve_portal(parser, args)
    found = builders()
    if args.service not in found:
        parser.error(f"unknown service {args.service!r}; installed: {sorted(found)}")
    settings = ServiceSettings(GOMOKU_SERVICE=args.service)
    logs.configure(settings.log_level, json_lines=settings.log_json)
    tracing.configure(args.service)  # OTLP export when OTEL_EXPORTER_OTLP_ENDPOINT is set
    try:
        service = found[args.service](settings)
    except SettingsError as exc:
        parser.exit(2, f"{parser.prog} {args.service}: cannot start: {exc}\n")
    tune_gc()
    # no proxy-header rewriting: nothing here reads the client address
    uvicorn.run(
        ForwardedPrefix(service.app, args.service),
        host=args.host,
        port=args.port,
        log_config=None,
        access_log=False,
        proxy_headers=False,
        ws=WEBSOCKETS,
        # slow clients (headers or body a byte at a time) are cut off (read_timeouts.py)
        http=read_timeouts.timed(settings.http_header_timeout_s, settings.http_body_timeout_s),
        # on SIGTERM: stop accepting, let requests in flight finish, then the lifespan stops
        # the runtime (consumers, then the outbox flush)
        timeout_graceful_shutdown=math.ceil(settings.shutdown_grace_s),
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
