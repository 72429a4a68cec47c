"""Traces across HTTP and the bus (OpenTelemetry, W3C trace context).

Off unless configured, and then nearly free: every hook first asks ``enabled()``. With
``OTEL_EXPORTER_OTLP_ENDPOINT`` set (the standard OpenTelemetry variable) each process exports
its spans by OTLP/HTTP to that collector. One partner request is followed end to end:

* every HTTP request is a SERVER span, a child of the caller's ``traceparent`` header if any;
* the events a request commits carry its trace context in their bus headers (written with the
  outbox row, so the relay publishing later does not lose it);
* every consumed event is a CONSUMER span, a child of the span that emitted it.

The provider is this module's own (not the OpenTelemetry global), so tests can install an
in-memory exporter, and a library's global provider cannot interfere.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping, MutableMapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # OpenTelemetry is imported only when tracing is turned on (start-up time)
    from opentelemetry import trace
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SpanExporter
    from opentelemetry.trace import Span
    from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

ENDPOINT_VARIABLE = "OTEL_EXPORTER_OTLP_ENDPOINT"
#: the headers of the W3C trace context, in HTTP requests and in bus messages alike
TRACE_HEADERS = ("traceparent", "tracestate")

_propagator: TraceContextTextMapPropagator | None = None
_provider: TracerProvider | None = None
_tracer: trace.Tracer | None = None


def enabled() -> bool:
    return _tracer is not None


def _install(provider: TracerProvider) -> None:
    global _propagator, _provider, _tracer
    from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

    if _provider is not None:
        _provider.shutdown()
    _propagator = TraceContextTextMapPropagator()
    _provider = provider
    _tracer = provider.get_tracer("gomoku")


def configure(service: str) -> bool:
    """Export spans by OTLP when ``OTEL_EXPORTER_OTLP_ENDPOINT`` is set; True when tracing is on."""
    if not os.environ.get(ENDPOINT_VARIABLE):
        return False
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    provider = TracerProvider(resource=Resource.create({"service.name": service}))
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    _install(provider)
    return True


def use_exporter(exporter: SpanExporter, service: str = "gomoku") -> None:
    """Send every span to ``exporter`` as soon as it ends (tests, local debugging)."""
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor

    provider = TracerProvider(resource=Resource.create({"service.name": service}))
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    _install(provider)


def disable() -> None:
    global _provider, _tracer
    if _provider is not None:
        _provider.shutdown()
    _provider = _tracer = None


def inject(headers: MutableMapping[str, Any]) -> None:
    """Add the current trace context to a bus message's headers (nothing when off or outside a span)."""
    if _tracer is not None and _propagator is not None:
        _propagator.inject(headers)


@contextlib.contextmanager
def server_span(method: str, headers: Mapping[str, str], service: str) -> Iterator[Span | None]:
    """The SERVER span of one HTTP request (named by its route when it ends: see ``finish``)."""
    if _tracer is None or _propagator is None:
        yield None
        return
    from opentelemetry.trace import SpanKind

    parent = _propagator.extract({k: v for k, v in headers.items() if k in TRACE_HEADERS})
    with _tracer.start_as_current_span(
        method,
        context=parent,
        kind=SpanKind.SERVER,
        attributes={"http.request.method": method, "gomoku.service": service},
    ) as span:
        yield span


def finish_server_span(span: Span | None, method: str, route: str, status: int) -> None:
    if span is None:
        return
    span.update_name(f"{method} {route}")
    span.set_attribute("http.route", route)
    span.set_attribute("http.response.status_code", status)
    if status >= 500:
        from opentelemetry.trace import Status, StatusCode

        span.set_status(Status(StatusCode.ERROR))


@contextlib.contextmanager
def consumer_span(service: str, event_type: str, event_id: str, headers: Mapping[str, str]) -> Iterator[None]:
    """The CONSUMER span of one delivered event, a child of the span that emitted it."""
    if _tracer is None or _propagator is None:
        yield
        return
    from opentelemetry.trace import SpanKind

    parent = _propagator.extract({k: v for k, v in headers.items() if k in TRACE_HEADERS})
    with _tracer.start_as_current_span(
        f"{service} consume {event_type}",
        context=parent,
        kind=SpanKind.CONSUMER,
        attributes={
            "messaging.system": "rabbitmq",
            "messaging.destination.name": service,
            "messaging.message.id": event_id,
            "messaging.operation.type": "process",
            "gomoku.service": service,
        },
    ):
        yield
