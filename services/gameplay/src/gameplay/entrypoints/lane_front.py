"""The lean lane in front of the whole middleware stack: player actions in one pass.

A player action used to pass, before the lane answered it, through FastAPI's and Starlette's
outer layers (ServerErrorMiddleware, exception telemetry, body limit), ObservabilityMiddleware
(correlation id, metrics, the error boundary) and InputGuardMiddleware (the raw input checks),
each its own coroutine with its own wrapped ``send`` or ``receive``. ``LaneFront`` does for a
player action what those layers did, in their order and with their answers: the correlation id
(``x-correlation-id``), the input checks and their refusals (route label ``<unmatched>``, as the
lane never saw them), the lane's answer, the same metric samples and the same 500 / 422 answer
to an escaped exception. Every other request, and every request while tracing is on (the span
is ObservabilityMiddleware's), goes through the stack, where the lane still sits innermost.
"""

from __future__ import annotations

import time

from gomoku_shared import stall_trace, tracing
from gomoku_shared.guard import check_head, check_json_body, read_body
from gomoku_shared.logs import correlation_id
from gomoku_shared.web import ROUTE_SCOPE_KEY, SPAN_SCOPE_KEY, ObservabilityMiddleware, route_template

from .fast_actions import PlayerActionLane

_JSON = (b"content-type", b"application/json")


class LaneFront:
    def __init__(self, stack, lane: PlayerActionLane, observability: ObservabilityMiddleware) -> None:
        self.stack = stack
        self.lane = lane
        self.observability = observability

    async def __call__(self, scope, receive, send):
        matched = self.lane.match(scope)
        if matched is None or tracing.enabled() or scope.get(SPAN_SCOPE_KEY) is not None:
            return await self.stack(scope, receive, send)
        observability = self.observability
        token = observability.enter(scope)
        start = time.perf_counter()
        status = {"code": 500, "started": False}
        raw = b""
        try:
            refusal = check_head(scope)
            if refusal is None:
                raw, other, refusal = await read_body(receive)
                if refusal is None and other is None:
                    refusal = check_json_body(raw)
            if refusal is not None:
                code, data = refusal
                headers = [_JSON, (b"content-length", str(len(data)).encode())]
            else:
                route, action, game_id = matched
                scope[ROUTE_SCOPE_KEY] = self.lane.labels[action]
                code, headers, data = await self.lane.answer(scope, route, action, game_id, raw)
            status["code"], status["started"] = code, True
            headers = observability.answer_headers(scope, headers)
            await send({"type": "http.response.start", "status": code, "headers": headers})
            await send({"type": "http.response.body", "body": data})
        except Exception as exc:  # noqa: BLE001 - answered as ObservabilityMiddleware answers it
            response = observability.failure(scope, exc, status["started"])
            if response is not None:

                async def _send(message):
                    if message["type"] == "http.response.start":
                        status["code"], status["started"] = message["status"], True
                        message["headers"] = observability.answer_headers(scope, message.get("headers", ()))
                    await send(message)

                await response(scope, receive, _send)
        finally:
            seconds = time.perf_counter() - start
            observability.observe("POST", route_template(scope), status["code"], seconds)
            stall_trace.note("req", seconds)
            correlation_id.reset(token)
