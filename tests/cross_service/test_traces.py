"""One partner move followed across the services (issue 17, observability): the move that ends
a game is a SERVER span in gameplay, continuing the caller's ``traceparent``; the
``game.finished`` it commits carries the trace context through the outbox and the bus, and
the handling of it by each consumer (pairing, partners) is a CONSUMER span of the same trace, a child of the move's span.
Spans are caught by an in-memory exporter; with tracing off nothing is recorded."""

from __future__ import annotations

import asyncio

import httpx
from asgi_lifespan import LifespanManager
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind

from gomoku_shared import tracing
from gomoku_shared.contracts import encode, envelope_for
from gomoku_shared.embedded import EmbeddedSuite
from gomoku_shared.settings import ServiceSettings
from gomoku_shared.testing.rounds import one_game_round

OP = {"x-api-key": "op-key"}
FIVE_IN_A_ROW = ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"]
#: the partner's own trace (W3C traceparent: version, trace id, parent span id, flags)
PARTNER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736"
PARTNER_TRACEPARENT = f"00-{PARTNER_TRACE}-00f067aa0ba902b7-01"


async def _play_a_game(tmp_path, last_move_headers: dict[str, str]) -> str:
    """Play one game to its end; gameplay's /metrics text afterwards."""
    settings = ServiceSettings(DATA_DIR=str(tmp_path), DATA_KEY="k" * 32, API_KEYS="op-key=operator")
    suite = EmbeddedSuite(settings)
    async with LifespanManager(suite.app, startup_timeout=60, shutdown_timeout=60):
        transport = httpx.ASGITransport(app=suite.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://e", headers=OP) as client:
            await suite.bus.publish([encode(envelope_for(one_game_round("TR"), correlation_id="TR"))])
            game = "TR.main.S1.r1.p1.g1"
            async with asyncio.timeout(30):
                while (await client.get(f"/gameplay/v1/games/{game}")).status_code != 200:
                    await asyncio.sleep(0.05)
            for player in ("alice", "bob"):
                assert (
                    await client.post(f"/gameplay/v1/games/{game}/join", json={"player_id": player})
                ).status_code == 200
            for number, point in enumerate(FIVE_IN_A_ROW):
                last = number == len(FIVE_IN_A_ROW) - 1
                response = await client.post(
                    f"/gameplay/v1/games/{game}/move",
                    json={"player_id": "alice" if number % 2 == 0 else "bob", "point": point},
                    headers=last_move_headers if last else {},
                )
                assert response.status_code == 200, response.text
            await suite.drain()
            return (await client.get("/gameplay/metrics")).text


async def test_a_partner_move_is_followed_from_gameplay_to_the_consumers_of_game_finished(tmp_path):
    exporter = InMemorySpanExporter()
    tracing.use_exporter(exporter)
    try:
        await _play_a_game(tmp_path, {"traceparent": PARTNER_TRACEPARENT})
    finally:
        tracing.disable()
    spans = exporter.get_finished_spans()
    in_partner_trace = [s for s in spans if format(s.context.trace_id, "032x") == PARTNER_TRACE]
    moves = [s for s in in_partner_trace if s.kind == SpanKind.SERVER and s.name.endswith("/move")]
    assert len(moves) == 1, [s.name for s in in_partner_trace]
    move = moves[0]
    assert move.name == "POST /v1/games/{game_id}/move"
    assert format(move.parent.span_id, "016x") == PARTNER_TRACEPARENT.split("-")[2]  # the partner's span
    assert move.attributes["gomoku.service"] == "gameplay" and move.attributes["http.response.status_code"] == 200
    consumers = [s for s in in_partner_trace if s.kind == SpanKind.CONSUMER]
    # every consumer of game.finished (gomoku_shared.topology): pairing scores it, partners sends webhooks
    assert sorted(s.name for s in consumers) == [
        "pairing consume game.finished",
        "partners consume game.finished",
    ], [s.name for s in in_partner_trace]
    assert all(s.parent.span_id == move.context.span_id for s in consumers)  # through the outbox and the bus
    # the earlier moves started traces of their own (no traceparent): none joined the partner's
    other_moves = [s for s in spans if s.kind == SpanKind.SERVER and s.name.endswith("/move") and s not in moves]
    assert len(other_moves) == len(FIVE_IN_A_ROW) - 1


async def test_with_tracing_off_nothing_is_recorded(tmp_path):
    exporter = InMemorySpanExporter()
    tracing.use_exporter(exporter)
    tracing.disable()
    await _play_a_game(tmp_path, {"traceparent": PARTNER_TRACEPARENT})
    assert exporter.get_finished_spans() == ()
    assert not tracing.enabled()


async def test_gameplay_counts_accepted_moves_and_games_in_play(tmp_path):
    """Issue 17 business metrics: every accepted move is counted (moves per second is its rate)
    and a finished game is no longer in play."""
    text = await _play_a_game(tmp_path, {})
    assert f'gomoku_game_actions_total{{kind="move",service="gameplay"}} {float(len(FIVE_IN_A_ROW))}' in text
    assert 'gomoku_game_actions_total{kind="join",service="gameplay"} 2.0' in text
    assert 'gomoku_games{service="gameplay",status="active"} 0.0' in text
