"""The lean lane in front of the middleware stack (lane_front.py) answers every player action as
the stack with the lane innermost does (PLAY-2: the same judging, refusals and error shape), and
records the same request metrics: correlation ids, the input guard's refusals, the lane's own
limits, escaped exceptions (500 with the correlation id, 422 for a value the database refused)."""

from __future__ import annotations

import json

from gameplay_kit import KEYS, pairing, round_paired
from sqlalchemy.exc import DataError

from gameplay.entrypoints.api import create_api
from gameplay.entrypoints.lane_front import LaneFront
from gomoku_shared.auth import KeyRing
from gomoku_shared.web import find_layer

GAMES = {"front": "EV.main.S1.r1.p1.g1", "stack": "EV.main.S1.r1.p2.g1"}
#: names of equal lengths: the answers, content-length too, equal once the names are swapped
PLAYERS = {"front": ("alice", "bob"), "stack": ("carol", "dan")}
KEY = [(b"x-api-key", b"op-key")]


async def _call(app, path: bytes, body, headers, messages=None) -> tuple[int, dict[bytes, bytes], bytes]:
    """One request straight through the ASGI app (headers and bodies no HTTP client would send)."""
    if messages is None:
        messages = [{"type": "http.request", "body": body, "more_body": False}]
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "server": ("t", 80),
        "client": ("c", 1),
        "root_path": "",
        "path": path.decode("latin-1"),
        "raw_path": path,
        "query_string": b"",
        "headers": [(b"content-type", b"application/json"), *headers],
        "state": {},
    }
    sent = []

    async def receive():
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    await app(scope, receive, send)
    return sent[0]["status"], dict(sent[0]["headers"]), b"".join(m.get("body", b"") for m in sent[1:])


def _steps(side: str):
    gid = GAMES[side]
    black, white = PLAYERS[side]
    path = f"/v1/games/{gid}".encode()
    return [
        (path + b"/join", {"player_id": black}, [*KEY, (b"x-correlation-id", b"cid.1")]),
        (path + b"/join", {"player_id": white}, KEY),
        (path + b"/move", {"player_id": black, "point": "h8"}, [*KEY, (b"x-correlation-id", b"bad id!")]),
        (path + b"/move", {"player_id": white, "point": "a1"}, [*KEY, (b"x-note", b"tab\tok\x01no")]),
        (path + b"/mo%00ve", {"player_id": white, "point": "a1"}, KEY),
        (path + b"/move", b'{"player_id": "x\\u0000", "point": "a1"}', KEY),
        (path + b"/move", b"[" * 40 + b"]" * 40, KEY),
        (path + b"/move", json.dumps({"player_id": white, "point": "a1", "pad": "x" * 70_000}).encode(), KEY),
        (path + b"/move", b"{" + b" " * (4 * 1024 * 1024 + 1) + b"}", KEY),
        (path + b"/move", None, KEY),  # the client went away before its body
        (path + b"/move", {"player_id": white, "point": "a1"}, [(b"x-api-key", b"nope")]),
        (path + b"/move", {"player_id": white, "point": "a1"}, KEY),
    ]


async def _run(app, side: str) -> list:
    out = []
    for path, body, headers in _steps(side):
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        messages = [{"type": "http.disconnect"}] if body is None else None
        status, answer_headers, data = await _call(app, path, raw, headers, messages)
        text = data.decode()
        for theirs, ours in zip(PLAYERS["stack"], PLAYERS["front"]):
            text = text.replace(theirs, ours)
        text = text.replace(GAMES["stack"], GAMES["front"]).replace('"p2"', '"p1"')
        cid = answer_headers.pop(b"x-correlation-id")
        assert len(cid) == 16 or cid in (b"cid.1", b"badid"), cid
        out.append((status, json.loads(text), answer_headers, cid if len(cid) != 16 else "new"))
    return out


def _requests(app) -> dict[tuple, float]:
    return {
        (s.labels["method"], s.labels["route"], s.labels["status"]): s.value
        for metric in app.state.metrics_registry.collect()
        if metric.name == "http_requests"
        for s in metric.samples
        if s.name == "http_requests_total"
    }


async def test_play2_the_front_answers_and_counts_player_actions_as_the_stack_does(gp, monkeypatch):
    await gp.publish(round_paired(pairing("p1", "alice", "bob"), pairing("p2", "carol", "dan")))
    games = gp.service.extras["games"]
    front = gp.service.app
    stack = create_api(gp.service.runtime, KeyRing(KEYS), games, front=False)
    ahead = await _run(front, "front")
    inner = await _run(stack, "stack")
    assert find_layer(front.middleware_stack, LaneFront) is not None
    assert find_layer(stack.middleware_stack, LaneFront) is None
    assert [step[0] for step in ahead] == [200, 200, 200, 400, 400, 400, 400, 413, 413, 422, 401, 200]
    assert ahead == inner
    assert ahead[8][1]["error"]["message"] != ahead[7][1]["error"]["message"]  # the guard's limit, the lane's

    async def broken(*_args, **_kwargs):
        raise RuntimeError("boom")

    async def unstorable(*_args, **_kwargs):
        raise DataError("INSERT", {}, ValueError("value too long"))

    for failure, status, code in ((broken, 500, "internal_error"), (unstorable, 422, "unstorable_input")):
        monkeypatch.setattr(games, "handle", failure)
        answers = []
        for app, side in ((front, "front"), (stack, "stack")):
            path = f"/v1/games/{GAMES[side]}/move".encode()
            body = json.dumps({"player_id": PLAYERS[side][1], "point": "b2"}).encode()
            answers.append(await _call(app, path, body, [*KEY, (b"x-correlation-id", b"c-9")]))
        assert answers[0] == answers[1]
        assert answers[0][0] == status and json.loads(answers[0][2])["error"]["code"] == code
        assert answers[0][1][b"x-correlation-id"] == b"c-9"
    counted = _requests(front)
    assert counted == _requests(stack)
    assert counted[("POST", "<unmatched>", "400")] == 4
    assert counted[("POST", "/v1/games/{game_id}/move", "500")] == 1
