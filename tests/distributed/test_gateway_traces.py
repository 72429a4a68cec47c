"""One partner move followed across processes (issue 17, "a trace of one partner move shows spans
in the gateway, gameplay and the consumers of game.finished"), over real sockets.

gameplay and the consumers of ``game.finished`` (gomoku_shared.topology) run as their own
processes (the docker-compose.yml commands) on PostgreSQL + RabbitMQ, the gateway (Caddy, the
compose command on the compose Caddyfile) in front; every one of them exports its spans by
OTLP/HTTP to a small collector inside this test, as they would to an OpenTelemetry collector.
A partner plays a game through the gateway; the move that ends it carries the partner's own
W3C ``traceparent``. One trace then holds the gateway's span (a child of the partner's span),
gameplay's server span of the move as its child (the gateway propagates its own context
upstream), and one consumer span of ``game.finished`` in each consuming service, children of
the move's span (through the outbox and the bus). A move without a ``traceparent`` starts its
trace at the gateway, gameplay's span again its child.
"""

from __future__ import annotations

import asyncio
import gzip
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.trace.v1.trace_pb2 import Span as ProtoSpan

from gomoku_shared.contracts import encode, envelope_for
from gomoku_shared.messaging.rabbit import RabbitEventBus
from gomoku_shared.testing.rounds import one_game_round
from gomoku_shared.topology import CONSUMES

from .compose_commands import LocalCompose

KEYS = "op-key=operator,partner-key=partner:partner-1"
PA = {"x-api-key": "partner-key"}
FINISHED_BY = sorted(s for s, types in CONSUMES.items() if "game.finished" in types)
SERVED = ("gameplay", *FINISHED_BY)
# five in a row for black (alice) on the h..l files, bob's stones on the a file
MOVES = ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"]
#: the partner's own trace (W3C traceparent: version, trace id, parent span id, flags)
PARTNER_TRACE = "0af7651916cd43dd8448eb211c80319c"
PARTNER_SPAN = "b7ad6b7169203331"
PARTNER_TRACEPARENT = f"00-{PARTNER_TRACE}-{PARTNER_SPAN}-01"


@dataclass(frozen=True)
class Received:
    service: str
    trace_id: str
    span_id: str
    parent_id: str
    name: str
    kind: int


class Collector:
    """An OTLP/HTTP trace receiver (POST /v1/traces, protobuf), as an OpenTelemetry collector is."""

    def __init__(self) -> None:
        self.spans: list[Received] = []
        self.requests = 0
        self._lock = threading.Lock()
        collector = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                if self.headers.get("content-encoding") == "gzip":
                    body = gzip.decompress(body)
                if self.path != "/v1/traces" or "protobuf" not in (self.headers.get("content-type") or ""):
                    self.send_response(415)
                    self.end_headers()
                    return
                collector.add(ExportTraceServiceRequest.FromString(body))
                answer = ExportTraceServiceResponse().SerializeToString()
                self.send_response(200)
                self.send_header("content-type", "application/x-protobuf")
                self.send_header("content-length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def add(self, request: ExportTraceServiceRequest) -> None:
        found = []
        for resource_spans in request.resource_spans:
            attributes = {a.key: a.value.string_value for a in resource_spans.resource.attributes}
            for scope_spans in resource_spans.scope_spans:
                for span in scope_spans.spans:
                    found.append(
                        Received(
                            service=attributes.get("service.name", ""),
                            trace_id=span.trace_id.hex(),
                            span_id=span.span_id.hex(),
                            parent_id=span.parent_span_id.hex(),
                            name=span.name,
                            kind=span.kind,
                        )
                    )
        with self._lock:
            self.requests += 1
            self.spans += found

    def trace(self, trace_id: str) -> list[Received]:
        with self._lock:
            return [s for s in self.spans if s.trace_id == trace_id]

    def snapshot(self) -> list[Received]:
        with self._lock:
            return list(self.spans)


@pytest.fixture
def collector() -> Iterator[Collector]:
    c = Collector()
    c.thread.start()
    yield c
    c.server.shutdown()
    c.server.server_close()


@pytest.fixture
async def databases(fresh_database):
    return {s: await fresh_database() for s in SERVED}


def _move_spans(spans: list[Received]) -> list[Received]:
    return [s for s in spans if s.service == "gameplay" and s.name == "POST /v1/games/{game_id}/move"]


def _complete(collector: Collector, trace_id: str) -> bool:
    spans = collector.trace(trace_id)
    consumers = {s.service for s in spans if s.kind == ProtoSpan.SPAN_KIND_CONSUMER and "game.finished" in s.name}
    return bool(_move_spans(spans)) and consumers >= set(FINISHED_BY) and any(s.service == "gateway" for s in spans)


async def test_one_partner_move_is_one_trace_from_the_gateway_to_the_consumers_of_game_finished(
    databases, amqp_url, bus_namespace, tmp_path, collector
):
    env = {
        "API_KEYS": KEYS,
        # the services and the gateway alike: the standard variables, spans sent within 0.2 s
        "OTEL_EXPORTER_OTLP_ENDPOINT": collector.endpoint,
        "OTEL_BSP_SCHEDULE_DELAY": "200",
        "RELAY_POLL_S": "0.2",
    }
    stack = LocalCompose(
        database_urls=databases, amqp_url=amqp_url, namespace=bus_namespace, log_dir=tmp_path, extra_env=env
    )
    publisher = RabbitEventBus(amqp_url, namespace=bus_namespace)
    try:
        # the migrations side by side, then the services (their start-up is most of this test's time)
        await asyncio.gather(*(asyncio.to_thread(stack.migrate, s) for s in SERVED))
        for s in SERVED:
            stack.start(s)
        for s in SERVED:
            await asyncio.to_thread(stack.wait_ready, s)
        gateway = stack.start_gateway()
        stack.wait_gateway()
        await publisher.start()
        await publisher.publish([encode(envelope_for(one_game_round("GT", partner="partner-1"), correlation_id="GT"))])
        game = "GT.main.S1.r1.p1.g1"
        async with httpx.AsyncClient(base_url=gateway.url, timeout=10, headers=PA) as gw:
            async with asyncio.timeout(30):
                while (await gw.get(f"/gameplay/v1/games/{game}")).status_code != 200:
                    await asyncio.sleep(0.1)
            for player in ("alice", "bob"):
                r = await gw.post(f"/gameplay/v1/games/{game}/join", json={"player_id": player})
                assert r.status_code == 200, r.text
            for number, point in enumerate(MOVES):
                last = number == len(MOVES) - 1
                r = await gw.post(
                    f"/gameplay/v1/games/{game}/move",
                    json={"player_id": "alice" if number % 2 == 0 else "bob", "point": point},
                    headers={"traceparent": PARTNER_TRACEPARENT} if last else {},
                )
                assert r.status_code == 200, r.text
            assert r.json()["status"] == "finished", r.text

        try:
            async with asyncio.timeout(30):
                while not _complete(collector, PARTNER_TRACE):
                    await asyncio.sleep(0.1)
        except TimeoutError:
            got = [(s.service, s.name, s.parent_id) for s in collector.trace(PARTNER_TRACE)]
            raise AssertionError(
                f"the partner's trace is incomplete after 30 s: {got}\n"
                f"{collector.requests} OTLP requests; gateway log:\n{gateway.log.read_text()[-3000:]}"
            ) from None
        await asyncio.sleep(0.5)  # a span sent twice, or one more, would show now

        trace = collector.trace(PARTNER_TRACE)
        # the gateway: one server span, a child of the partner's own span
        (front,) = [s for s in trace if s.service == "gateway"]
        assert front.kind == ProtoSpan.SPAN_KIND_SERVER and front.parent_id == PARTNER_SPAN, front
        # gameplay's span of the move is the gateway's child: the gateway sent its own context upstream
        (move,) = _move_spans(trace)
        assert move.kind == ProtoSpan.SPAN_KIND_SERVER
        assert move.parent_id == front.span_id, (move, front)
        # every consumer of game.finished handled it once, a child of the move (outbox, bus)
        consumers = [s for s in trace if s.kind == ProtoSpan.SPAN_KIND_CONSUMER]
        assert sorted((s.service, s.name) for s in consumers) == [
            (s, f"{s} consume game.finished") for s in FINISHED_BY
        ], trace
        assert all(s.parent_id == move.span_id for s in consumers), trace

        # a move without a traceparent: its trace starts at the gateway, gameplay's span its child
        everything = collector.snapshot()
        earlier = [s for s in _move_spans(everything) if s.trace_id != PARTNER_TRACE]
        assert len(earlier) == len(MOVES) - 1
        for m in earlier:
            (root,) = [s for s in everything if s.trace_id == m.trace_id and s.service == "gateway"]
            assert root.parent_id == "" and m.parent_id == root.span_id, (root, m)
    finally:
        await publisher.close()
        stack.stop_all()
