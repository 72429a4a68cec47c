"""FastAPI app pieces every service shares: errors, health, readiness, metrics, correlation ids."""
from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from starlette.exceptions import HTTPException as StarletteHTTPException

from .auth import AnyPrincipal, KeyRing, Operator
from .clock import FakeClock
from .errors import ServiceError, error_body
from .logs import correlation_id

log = logging.getLogger("gomoku.web")

ReadyCheck = Callable[[], Awaitable[bool]]


class ClockChange(BaseModel):
    advance_s: float = Field(default=0, ge=0, le=30 * 86400)
    set: datetime | None = None


def _validation_details(exc: RequestValidationError) -> list[dict[str, Any]]:
    out = []
    for err in exc.errors():
        out.append({"loc": [str(p) for p in err.get("loc", ())], "msg": err.get("msg", ""),
                    "type": err.get("type", "")})
    return out


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ServiceError)
    async def _service_error(_: Request, exc: ServiceError) -> JSONResponse:
        return JSONResponse(error_body(exc.code, exc.message, exc.details), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        details = _validation_details(exc)
        if any(d["type"] == "json_invalid" for d in details):
            return JSONResponse(error_body("malformed_json", "the request body is not valid JSON", details),
                                status_code=400)
        return JSONResponse(error_body("validation_error", "the request is not valid", details),
                            status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        codes = {404: "not_found", 405: "method_not_allowed", 401: "unauthorized", 403: "forbidden"}
        message = exc.detail if isinstance(exc.detail, str) else "request refused"
        if exc.status_code == 404 and message == "Not Found":
            message = "no such resource"
        return JSONResponse(error_body(codes.get(exc.status_code, "http_error"), message),
                            status_code=exc.status_code, headers=getattr(exc, "headers", None))

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        # never leak a stack trace; the log has it, keyed by the correlation id
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        return JSONResponse(error_body("internal_error", "unexpected server error; it has been logged",
                                       {"correlation_id": correlation_id.get()}), status_code=500)


class ObservabilityMiddleware:
    """Pure ASGI middleware (cheap on the hot path): correlation id + request metrics."""

    def __init__(self, app, registry: CollectorRegistry, service: str) -> None:
        self.app = app
        self.requests = Counter("http_requests_total", "HTTP requests", ["service", "method", "status"],
                                registry=registry)
        self.latency = Histogram("http_request_seconds", "HTTP request latency", ["service", "method"],
                                 registry=registry,
                                 buckets=(0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5))
        self.service = service

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        cid = None
        for k, v in scope.get("headers", ()):
            if k == b"x-correlation-id":
                cid = v.decode("latin-1")[:128]
                break
        token = correlation_id.set(cid or uuid.uuid4().hex[:16])
        status = {"code": 500}
        start = time.perf_counter()

        async def _send(message):
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
                message.setdefault("headers", [])
                message["headers"] = list(message["headers"]) + [
                    (b"x-correlation-id", correlation_id.get().encode("latin-1"))]
            await send(message)

        try:
            await self.app(scope, receive, _send)
        finally:
            method = scope.get("method", "GET")
            self.requests.labels(self.service, method, str(status["code"])).inc()
            self.latency.labels(self.service, method).observe(time.perf_counter() - start)
            correlation_id.reset(token)


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
    app = FastAPI(title=title, description=description, version=version, lifespan=lifespan)
    registry = CollectorRegistry()
    app.state.metrics_registry = registry
    app.state.keyring = keyring or KeyRing()
    app.state.ready_checks = dict(ready_checks or {})
    install_error_handlers(app)
    app.add_middleware(ObservabilityMiddleware, registry=registry, service=service)

    @app.get("/healthz", tags=["ops"], summary="Liveness: the process answers")
    async def healthz() -> dict[str, str]:
        return {"status": "ok", "service": service}

    @app.get("/readyz", tags=["ops"], summary="Readiness: database and bus reachable")
    async def readyz() -> JSONResponse:
        results = {}
        for name, check in app.state.ready_checks.items():
            try:
                results[name] = bool(await check())
            except Exception:
                results[name] = False
        ok = all(results.values())
        return JSONResponse({"status": "ready" if ok else "not_ready", "service": service, "checks": results},
                            status_code=200 if ok else 503)

    @app.get("/v1/whoami", tags=["ops"], summary="Which role the presented API key has")
    async def whoami(principal: AnyPrincipal) -> dict[str, str | None]:
        return {"role": principal.role, "partner_id": principal.partner_id, "service": service}

    if isinstance(clock, FakeClock):
        # simulations only (CLOCK=fake): an operator moves this service's time
        @app.get("/v1/ops/clock", tags=["ops"], summary="Simulation clock: current time")
        async def get_clock(_: Operator) -> dict[str, str]:
            return {"now": clock.now().isoformat()}

        @app.post("/v1/ops/clock", tags=["ops"], summary="Simulation clock: advance or set the time")
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

    @app.get("/metrics", tags=["ops"], summary="Prometheus metrics", response_class=PlainTextResponse)
    async def metrics() -> PlainTextResponse:
        return PlainTextResponse(generate_latest(registry).decode(), media_type=CONTENT_TYPE_LATEST)

    return app
