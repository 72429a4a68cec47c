"""FastAPI app pieces every service shares: errors, health, readiness, metrics, correlation ids."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import time
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse
from fastapi.telemetry import TelemetryConfig
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from pydantic import BaseModel, Field
from sqlalchemy.exc import DataError
from starlette.exceptions import HTTPException as StarletteHTTPException

from . import api_docs, tracing
from .auth import Anyone, KeyRing, Operator
from .clock import FakeClock
from .errors import ServiceError, error_body
from .guard import InputGuardMiddleware
from .headers import SecurityHeaders
from .logs import correlation_id
from .text import INVALID_CHARACTERS

log = logging.getLogger("gomoku.web")

ReadyCheck = Callable[[], Awaitable[bool]]

#: FastAPI's own OpenTelemetry instrumentation stays off: the spans and metrics of a request are
#: this project's (``tracing``, ``ObservabilityMiddleware``), and FastAPI's would otherwise ask the
#: global providers (environment lookups) on every request and follow a library's global provider
FASTAPI_TELEMETRY: TelemetryConfig = {"tracing": False, "metrics": False, "logs": False}


class Health(api_docs.View):
    status: str
    service: str


class Readiness(api_docs.View):
    status: Literal["ready", "not_ready"]
    service: str
    checks: dict[str, bool]


class WhoAmI(api_docs.View):
    role: str
    partner_id: str | None
    service: str
    #: an access token's scopes (absent for an API key)
    scopes: list[str] | None = None
    client_id: str | None = None


class ClockNow(api_docs.View):
    now: datetime


class WorkInFlight(api_docs.View):
    """A service's work in flight (simulations only): all four first figures 0 is idle."""

    #: deliveries in a handler now
    handling: int
    #: background rounds of work running now (gameplay's flag-fall / no-show sweep)
    background: int
    #: outbox rows not yet published
    outbox_pending: int
    #: messages ready in the service's own queue (not yet delivered to a consumer)
    queue_ready: int
    #: deliveries settled and outbox rows published since the process started (they only grow)
    settled: int
    published: int


class ClockChange(BaseModel):
    advance_s: float = Field(default=0, ge=0, le=30 * 86400)
    set: datetime | None = None


def _validation_details(exc: RequestValidationError) -> list[dict[str, Any]]:
    out = []
    for err in exc.errors():
        out.append(
            {"loc": [str(p) for p in err.get("loc", ())], "msg": err.get("msg", ""), "type": err.get("type", "")}
        )
    return out


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ServiceError)
    async def _service_error(_: Request, exc: ServiceError) -> JSONResponse:
        return JSONResponse(error_body(exc.code, exc.message, exc.details), status_code=exc.status, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        details = _validation_details(exc)
        if any(d["type"] == "json_invalid" for d in details):
            return JSONResponse(
                error_body("malformed_json", "the request body is not valid JSON", details), status_code=400
            )
        refused = [d for d in details if d["type"] == INVALID_CHARACTERS]
        if refused:  # a control character, line break or direction override in typed text
            return JSONResponse(
                error_body(
                    INVALID_CHARACTERS,
                    "a text contains control characters, line breaks or direction overrides",
                    {"where": (refused[0]["loc"] or ["body"])[0], "loc": refused[0]["loc"], "msg": refused[0]["msg"]},
                ),
                status_code=400,
            )
        return JSONResponse(error_body("validation_error", "the request is not valid", details), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        codes = {404: "not_found", 405: "method_not_allowed", 401: "unauthorized", 403: "forbidden"}
        message = exc.detail if isinstance(exc.detail, str) else "request refused"
        if exc.status_code == 404 and message == "Not Found":
            message = "no such resource"
        return JSONResponse(
            error_body(codes.get(exc.status_code, "http_error"), message),
            status_code=exc.status_code,
            headers=getattr(exc, "headers", None),
        )

    # sqlalchemy wraps the driver's data errors; here they still slip through a route's own
    # checks (a value the column cannot hold): the client's fault, never a 500
    @app.exception_handler(DataError)
    async def _data_error(_: Request, exc: DataError) -> JSONResponse:
        return _unstorable(exc)


def is_data_error(exc: BaseException) -> bool:
    """A value the database refused to store or compare (out of range, not encodable, ...)."""
    if isinstance(exc, DataError):
        return True
    try:
        import asyncpg
        from asyncpg.exceptions import _base as asyncpg_base
    except ImportError:  # pragma: no cover - asyncpg is a dependency of every service
        return isinstance(exc, UnicodeEncodeError)
    return isinstance(exc, (asyncpg.DataError, asyncpg_base.DataError, UnicodeEncodeError))


def _unstorable(exc: BaseException) -> JSONResponse:
    # the message of a driver error may quote the value (personal data): only its class is logged
    log.warning("refused a value the database cannot store (%s)", type(exc).__name__)
    return JSONResponse(
        error_body(
            "unstorable_input", "a value in the request cannot be stored; check lengths, number ranges and characters"
        ),
        status_code=422,
    )


def _internal_error() -> JSONResponse:
    return JSONResponse(
        error_body(
            "internal_error", "unexpected server error; it has been logged", {"correlation_id": correlation_id.get()}
        ),
        status_code=500,
    )


class ObservabilityMiddleware:
    """Pure ASGI middleware (cheap on the hot path): correlation id + request metrics, and the
    last line of defence: an exception that escapes the app is answered here, inside the
    correlation id (body, header and log line carry it) and without dropping the connection
    (beyond this layer the server would close it)."""

    def __init__(self, app, registry: CollectorRegistry, service: str) -> None:
        self.app = app
        self.requests = Counter(
            "http_requests_total", "HTTP requests", ["service", "method", "route", "status"], registry=registry
        )
        self.latency = Histogram(
            "http_request_seconds",
            "HTTP request latency",
            ["service", "method", "route"],
            registry=registry,
            buckets=(0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
        )
        self.service = service
        #: the metrics' children by label values (``labels()`` costs a lookup under a lock each time)
        self._counted: dict[tuple[str, str, int], Any] = {}
        self._timed: dict[tuple[str, str], Any] = {}

    def observe(self, method: str, route: str, code: int, seconds: float) -> None:
        counted = self._counted.get((method, route, code))
        if counted is None:
            counted = self._counted[(method, route, code)] = self.requests.labels(
                self.service, method, route, str(code)
            )
        timed = self._timed.get((method, route))
        if timed is None:
            timed = self._timed[(method, route)] = self.latency.labels(self.service, method, route)
        counted.inc()
        timed.observe(seconds)

    def enter(self, scope):
        """The request's correlation id (a client's, an enclosing app's, or a new one) set in the
        context; the token resets it."""
        cid = None
        for header, value in scope.get("headers", ()):
            if header == b"x-correlation-id":
                cid = _CID.sub("", value.decode("latin-1"))[:128]
                break
        outer = correlation_id.get()  # set by an enclosing app (the embedded root): keep it
        return correlation_id.set(cid or (outer if outer != "-" else os.urandom(8).hex()))

    @staticmethod
    def answer_headers(scope, headers) -> list:
        """An answer's headers with the correlation id and an access token's rate-limit headers."""
        headers = list(headers)
        if not any(k.lower() == b"x-correlation-id" for k, _ in headers):  # once when nested
            headers.append((b"x-correlation-id", correlation_id.get().encode("latin-1")))
        # an access token's rate-limit headers (auth.require leaves them in the state)
        state = scope.get("state")
        rate = state.get("rate_headers") if state else None
        if rate and not any(k.lower() == b"ratelimit" for k, _ in headers):
            headers += [(k.lower().encode(), v.encode("latin-1")) for k, v in rate.items()]
        return headers

    @staticmethod
    def failure(scope, exc: Exception, started: bool) -> JSONResponse | None:
        """The answer to an exception that escaped the app (None once the answer is on its way)."""
        if is_data_error(exc):
            response = _unstorable(exc)
        else:
            # the route's template, never the path: a page's path may hold a secret link's token
            log.exception("unhandled error on %s %s", scope.get("method"), route_template(scope))
            response = _internal_error()
        if started:
            # the answer is already on its way (a stream): the server ends the connection,
            # which is how the client learns the body is incomplete
            if is_data_error(exc):
                log.error("stream ended by a database error on %s %s", scope.get("method"), route_template(scope))
            return None
        return response

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        token = self.enter(scope)
        status = {"code": 500, "started": False}
        start = time.perf_counter()

        async def _send(message):
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
                status["started"] = True
                message["headers"] = self.answer_headers(scope, message.get("headers", ()))
            await send(message)

        # tracing off (the default): no span, no context manager on the hot path
        span_scope = None
        span = None
        if tracing.enabled() and not scope.get(SPAN_SCOPE_KEY):
            span_scope = tracing.server_span(scope.get("method", "GET"), _trace_headers(scope), self.service)
            span = span_scope.__enter__()
            if span is not None:
                scope[SPAN_SCOPE_KEY] = span  # a mounted app's middleware does not open a second span
        elif scope.get(SPAN_SCOPE_KEY) is not None:
            scope[SPAN_SCOPE_KEY].set_attribute("gomoku.service", self.service)  # the mount that serves it
        try:
            await self.app(scope, receive, _send)
        except Exception as exc:  # noqa: BLE001 - answered here, see the class docstring
            response = self.failure(scope, exc, status["started"])
            if response is not None:
                await response(scope, receive, _send)
        finally:
            method = scope.get("method", "GET")
            route = route_template(scope)
            self.observe(method, route, status["code"], time.perf_counter() - start)
            if span_scope is not None:
                tracing.finish_server_span(span, method, route, status["code"])
                span_scope.__exit__(None, None, None)
            correlation_id.reset(token)


#: the route label of requests no route matched: a bounded label, whatever paths are probed
UNMATCHED_ROUTE = "<unmatched>"
#: scope key a pure ASGI lane sets to the template of the route it served
ROUTE_SCOPE_KEY = "gomoku.route"


#: scope key set by the middleware that opened the request's span
SPAN_SCOPE_KEY = "gomoku.span"


def _trace_headers(scope) -> dict[str, str]:
    return {
        key.decode("latin-1"): value.decode("latin-1")
        for key, value in scope.get("headers", ())
        if key in (b"traceparent", b"tracestate")
    }


def route_template(scope) -> str:
    """The matched route's template (``/v1/games/{game_id}``), never the raw path: one series
    per route, not per game."""
    route = scope.get("route")
    template = getattr(route, "path", None) or scope.get(ROUTE_SCOPE_KEY)
    return template if isinstance(template, str) else UNMATCHED_ROUTE


#: what a client-chosen correlation id may contain (it is echoed in headers and logs)
_CID = re.compile(r"[^A-Za-z0-9._:-]")


#: how long a scrape waits for the figures that need a query
METRIC_SAMPLE_TIMEOUT_S = 2.0


class ServiceApp(FastAPI):
    """A service's FastAPI app; ``add_front`` puts pure ASGI layers in front of its whole
    middleware stack (built on the first request), as gameplay's lean lane for player actions.
    The security headers (``headers.SecurityHeaders``) wrap all of it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fronts: list[Callable[[Any, ObservabilityMiddleware], Any]] = []

    def build_middleware_stack(self) -> Any:
        stack = super().build_middleware_stack()
        observability = find_layer(stack, ObservabilityMiddleware)
        for front in self.fronts if observability is not None else ():
            stack = front(stack, observability)
        # outside the fronts too: a lean lane's answers get the same headers
        return SecurityHeaders(stack)


def add_front(app: FastAPI, front: Callable[[Any, ObservabilityMiddleware], Any]) -> None:
    """``front(stack, observability)`` -> the ASGI app that answers first: it hands what it does not
    serve to ``stack`` (ServerErrorMiddleware, ObservabilityMiddleware, ..., the routes) and
    records what it serves with the stack's ``observability`` (the same metrics)."""
    if not isinstance(app, ServiceApp):
        raise TypeError("add_front needs the app of web.create_app")
    app.fronts.append(front)


def find_layer(app: Any, kind: type) -> Any:
    """The first layer of type ``kind`` down a middleware chain (each layer's ``.app``), or None."""
    while app is not None:
        if isinstance(app, kind):
            return app
        app = getattr(app, "app", None)
    return None


def create_app(
    service: str,
    *,
    title: str,
    description: str = "",
    lifespan=None,
    keyring: KeyRing | None = None,
    ready_checks: dict[str, ReadyCheck] | None = None,
    version: str = "0.1.0",
    clock: Any = None,
) -> FastAPI:
    """A FastAPI app with the common edges; the service adds its routers."""
    app = ServiceApp(
        title=title, description=description, version=version, lifespan=lifespan, telemetry=FASTAPI_TELEMETRY
    )
    registry = CollectorRegistry()
    app.state.metrics_registry = registry
    #: which service answers (the scope a partner's token needs depends on it)
    app.state.service = service
    app.state.keyring = keyring or KeyRing()
    app.state.ready_checks = dict(ready_checks or {})
    install_error_handlers(app)
    api_docs.install(app)
    # outermost first: correlation id, metrics and the error boundary; then the input checks
    app.add_middleware(InputGuardMiddleware)
    app.add_middleware(ObservabilityMiddleware, registry=registry, service=service)

    _install_health_routes(app, service)
    if isinstance(clock, FakeClock):
        _install_clock_routes(app, clock)
    _install_metrics_route(app, registry)
    return app


def _install_health_routes(app: FastAPI, service: str) -> None:
    @app.get("/healthz", tags=["ops"], summary="Liveness: the process answers", response_model=Health)
    async def healthz() -> dict[str, str]:
        return {"status": "ok", "service": service}

    @app.get(
        "/readyz",
        tags=["ops"],
        summary="Readiness: database and bus reachable, partners' tokens verifiable",
        response_model=None,
        responses={200: {"model": Readiness}, 503: {"model": Readiness, "description": "not ready"}},
    )
    async def readyz() -> JSONResponse:
        results = {}
        for name, check in app.state.ready_checks.items():
            try:
                results[name] = bool(await check())
            except Exception:
                results[name] = False
        ok = all(results.values())
        return JSONResponse(
            {"status": "ready" if ok else "not_ready", "service": service, "checks": results},
            status_code=200 if ok else 503,
        )

    @app.get(
        "/v1/whoami",
        tags=["ops"],
        summary="Which role (and, for an access token, which scopes) the credential has",
        response_model=WhoAmI,
    )
    async def whoami(principal: Anyone) -> dict[str, Any]:
        out: dict[str, Any] = {"role": principal.role, "partner_id": principal.partner_id, "service": service}
        if principal.scopes is not None:
            out["scopes"] = sorted(principal.scopes)
            out["client_id"] = principal.client_id
        return out


def _install_clock_routes(app: FastAPI, clock: FakeClock) -> None:
    """Simulations only (CLOCK=fake): an operator moves this service's time."""

    @app.get("/v1/ops/clock", tags=["ops"], summary="Simulation clock: current time", response_model=ClockNow)
    async def get_clock(_: Operator) -> dict[str, str]:
        return {"now": clock.now().isoformat()}

    @app.post(
        "/v1/ops/clock", tags=["ops"], summary="Simulation clock: advance or set the time", response_model=ClockNow
    )
    async def move_clock(change: ClockChange, _: Operator) -> dict[str, str]:
        if change.set is not None:
            if change.set.tzinfo is None:
                raise ServiceError("naive_time", "give the time with a timezone", status=422)
            if change.set < clock.now():
                raise ServiceError("clock_backwards", "the simulation clock never goes back", status=409)
            clock.set(change.set)
        if change.advance_s:
            clock.advance(change.advance_s)
        return {"now": clock.now().isoformat()}


def install_quiet_route(app: FastAPI, report: Callable[[], Awaitable[dict[str, int]]]) -> None:
    """Simulations only (CLOCK=fake, like the clock routes): an operator reads the service's
    work in flight (``ServiceRuntime.work_in_flight``), from which a simulation knows when every
    service is quiet (``gomoku_sim.stack.ServicesQuiet``)."""

    @app.get(
        "/v1/ops/quiet",
        tags=["ops"],
        summary="Simulation: this service's work in flight (handlers, sweeps, outbox, queue)",
        response_model=WorkInFlight,
    )
    async def work_in_flight(_: Operator) -> dict[str, int]:
        return await report()


def _install_metrics_route(app: FastAPI, registry: CollectorRegistry) -> None:
    @app.get("/metrics", tags=["ops"], summary="Prometheus metrics", response_class=PlainTextResponse)
    async def metrics() -> PlainTextResponse:
        for sampler in getattr(app.state, "metric_samplers", ()):
            try:
                async with asyncio.timeout(METRIC_SAMPLE_TIMEOUT_S):
                    await sampler()
            except TimeoutError:
                log.warning("a metrics sampler took longer than %.1fs; scraping without it", METRIC_SAMPLE_TIMEOUT_S)
            except Exception as exc:  # noqa: BLE001 - a scrape answers with what it has (the database may be away)
                log.warning("a metrics sampler failed (%s); scraping without it", type(exc).__name__)
        return PlainTextResponse(generate_latest(registry).decode(), media_type=CONTENT_TYPE_LATEST)
