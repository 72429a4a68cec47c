"""Live streams over a real socket (PLAY-8 live broadcast): the served processes speak WebSocket.

The in-process test client needs no WebSocket library; a served process does. These tests start
the processes as docker-compose.yml and the embedded runner do and connect with a real client.
"""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus
from websockets.protocol import State

from gomoku_shared.contracts import encode, envelope_for
from gomoku_shared.messaging.rabbit import RabbitEventBus
from gomoku_shared.testing.rounds import one_game_round
from gomoku_shared.testing.served import embedded_server

from .compose_commands import LocalCompose

OP = {"x-api-key": "op-key"}
# five in a row for black (alice) on the h..l files, bob's stones on the a file
MOVES = ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"]


async def _receive_until_finished(ws) -> list[dict]:
    seen = []
    async with asyncio.timeout(60):
        async for text in ws:
            m = json.loads(text)
            if m["kind"] == "clock":
                continue
            seen.append(m)
    return seen


async def test_play8_game_and_round_streams_over_a_real_websocket_on_postgres_and_rabbitmq(
    fresh_database, amqp_url, bus_namespace, tmp_path
):
    """The gameplay process (as in docker-compose.yml) on PostgreSQL + RabbitMQ: a client connected
    to /ws before the first move receives every move in order, then the end of the game, and the
    server closes the stream normally; the round stream carries the same game."""
    stack = LocalCompose(
        database_urls={"gameplay": await fresh_database()}, amqp_url=amqp_url, namespace=bus_namespace, log_dir=tmp_path
    )
    publisher = RabbitEventBus(amqp_url, namespace=bus_namespace)
    try:
        proc = await stack.serve("gameplay")
        await publisher.start()
        await publisher.publish(
            [encode(envelope_for(one_game_round("WS"), correlation_id="WS", occurred_at=datetime.now(UTC)))]
        )
        gid = "WS.main.S1.r1.p1.g1"
        ws_url = f"ws://127.0.0.1:{proc.port}"
        async with httpx.AsyncClient(base_url=proc.url, headers=OP, timeout=10) as http:
            async with asyncio.timeout(30):
                while (await http.get(f"/v1/games/{gid}")).status_code != 200:
                    await asyncio.sleep(0.1)
            async with (
                connect(f"{ws_url}/v1/games/{gid}/ws?since=0", additional_headers=OP, proxy=None) as game_ws,
                connect(f"{ws_url}/v1/rounds/WS/S1/1/ws?since=0", additional_headers=OP, proxy=None) as round_ws,
            ):
                for player in ("alice", "bob"):
                    r = await http.post(f"/v1/games/{gid}/join", json={"player_id": player})
                    assert r.status_code == 200, r.text
                for i, point in enumerate(MOVES):
                    r = await http.post(
                        f"/v1/games/{gid}/move", json={"player_id": "alice" if i % 2 == 0 else "bob", "point": point}
                    )
                    assert r.status_code == 200, r.text
                seen = await _receive_until_finished(game_ws)
                assert game_ws.close_code == 1000
                round_seen = []
                async with asyncio.timeout(60):
                    while not round_seen or round_seen[-1]["kind"] != "finished":
                        round_seen.append(json.loads(await round_ws.recv()))
        assert [m["seq"] for m in seen] == list(range(1, len(seen) + 1))
        moves = [m["data"]["point"] for m in seen if m["kind"] == "action" and m["data"]["action"] == "move"]
        assert moves == MOVES, seen
        assert seen[-1]["kind"] == "finished" and seen[-1]["data"]["result"] == "black", seen[-1]
        assert [m["seq"] for m in round_seen] == [m["seq"] for m in seen]
        assert {m["game_id"] for m in round_seen} == {gid}
    finally:
        await publisher.close()
        stack.stop_all()


@pytest.fixture
def embedded_process(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "DATA_DIR": str(tmp_path), "API_KEYS": "op-key=operator", "LOG_JSON": "true"}
    with embedded_server(env, tmp_path / "embedded.log") as port:
        yield port


async def test_the_embedded_runner_serves_websockets_and_refuses_with_the_common_error(embedded_process):
    """The embedded runner's socket upgrades /gameplay/…/ws (no 404 from a server without a
    WebSocket library); refusals answer the handshake with the common error shape."""
    base = f"ws://127.0.0.1:{embedded_process}/gameplay/v1"
    for url, headers, status, code in [
        (f"{base}/games/nope/ws", OP, 404, "game_not_found"),
        (f"{base}/games/nope/ws", {}, 401, "invalid_api_key"),
    ]:
        with pytest.raises(InvalidStatus) as refused:
            async with connect(url, additional_headers=headers, proxy=None):
                pass
        assert refused.value.response.status_code == status
        assert json.loads(refused.value.response.body)["error"]["code"] == code
    # a round stream may open before its games exist: the handshake succeeds (101) and stays open
    async with connect(f"{base}/rounds/EV/S1/1/ws?api_key=op-key", proxy=None) as ws:
        assert ws.response.status_code == 101 and ws.state is State.OPEN
        await ws.close()
    assert ws.close_code == 1000
