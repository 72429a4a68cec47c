"""Recovery and live streams: clocks resume from the stored state after a restart; WebSocket
streams per game and per round push events in order and resume from ``since``."""

from __future__ import annotations

import httpx
import pytest
from gameplay_kit import KEYS, OP, Api, message, pairing, round_paired
from starlette.testclient import TestClient, WebSocketDenialResponse

from gameplay.bootstrap import build
from gomoku_shared.settings import ServiceSettings


async def test_play5_clock_resumes_after_a_restart_from_the_stored_state(gp, tmp_path):
    """A new process on the same database reads the same clocks: nothing of the clock is kept
    only in memory."""
    await gp.publish(round_paired(pairing("p1", "alice", "bob", base_s=600, increment_s=10)))
    gid = "EV.main.S1.r1.p1.g1"
    await gp.api.join_both(gid, "alice", "bob")
    gp.clock.advance(20)
    await gp.api.act(gid, "move", "alice", point="h8")
    gp.clock.advance(30)
    before = (await gp.api.game(gid))["clocks"]
    settings = ServiceSettings(DATABASE_URL=str(gp.service.runtime.database_url), API_KEYS=KEYS)
    other = build(settings, bus=gp.bus, clock=gp.clock)  # a second process image (no shared cache)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=other.app), base_url="http://t") as c:
        api = Api(c)
        # read as of the service clock's now, and saying so (at_ms): a reader counts on from there
        now_ms = int(gp.clock.now().timestamp() * 1000)
        expected = {"black_ms": 590_000, "white_ms": 570_000, "running": "white", "at_ms": now_ms}
        assert (await api.game(gid))["clocks"] == before == expected
        gp.clock.advance(5)
        assert (await api.act(gid, "move", "bob", point="a1")).status_code == 200
        assert (await api.game(gid))["clocks"]["white_ms"] == 575_000
    await other.runtime.engine.dispose()
    # the first process sees the other's move (its cached state is stale and is reloaded)
    assert (await gp.api.act(gid, "move", "alice", point="i8")).status_code == 200
    assert (await gp.api.game(gid))["moves"] == ["h8", "a1", "i8"]


def test_websocket_streams_per_game_and_round_in_order_with_resume(tmp_path):
    from gameplay_kit import START

    from gomoku_shared.clock import FakeClock
    from gomoku_shared.migrate import upgrade

    url = f"sqlite+aiosqlite:///{tmp_path}/ws.sqlite"
    upgrade("gameplay", url)
    clock = FakeClock(START)
    svc = build(ServiceSettings(DATABASE_URL=url, AMQP_URL=None, API_KEYS=KEYS), clock=clock)  # in-memory bus
    with TestClient(svc.app) as client:
        client.portal.call(svc.runtime.bus.publish, [message(round_paired(pairing("p1", "alice", "bob")), clock)])
        gid = "EV.main.S1.r1.p1.g1"
        for _ in range(200):
            if client.get(f"/v1/games/{gid}", headers=OP).status_code == 200:
                break
            client.portal.call(svc.runtime.bus.drain)
        for body in ({"player_id": "alice"}, {"player_id": "bob"}):
            assert client.post(f"/v1/games/{gid}/join", json=body, headers=OP).status_code == 200
        for i, p in enumerate(["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"]):
            body = {"player_id": "alice" if i % 2 == 0 else "bob", "point": p}
            assert client.post(f"/v1/games/{gid}/move", json=body, headers=OP).status_code == 200
        with client.websocket_connect(f"/v1/games/{gid}/ws?since=0", headers=OP) as ws:
            seen = []
            while True:
                m = ws.receive_json()
                if m["kind"] == "clock":
                    continue
                seen.append(m)
                if m["kind"] == "finished":
                    break
        assert [m["seq"] for m in seen] == list(range(1, len(seen) + 1))
        assert seen[-1]["data"]["result"] == "black"
        with client.websocket_connect(f"/v1/games/{gid}/ws?since={seen[-3]['seq']}", headers=OP) as ws:
            assert [ws.receive_json()["seq"] for _ in range(2)] == [seen[-2]["seq"], seen[-1]["seq"]]
        with client.websocket_connect("/v1/rounds/EV/S1/1/ws?since=0", headers=OP) as ws:
            first = [ws.receive_json() for _ in range(3)]
        assert [m["kind"] for m in first] == ["created", "action", "joined"] or first[0]["kind"] == "created"
        assert all(m["game_id"] == gid for m in first) and first[0]["id"] < first[1]["id"] < first[2]["id"]
        # refused handshakes answer HTTP with the common error shape
        for url, headers, status, code in [
            (f"/v1/games/{gid}/ws", {}, 401, "invalid_api_key"),
            ("/v1/games/nope/ws", OP, 404, "game_not_found"),
            ("/v1/rounds/EV/S1/1/ws", {"x-api-key": "bad"}, 401, "invalid_api_key"),
        ]:
            with pytest.raises(WebSocketDenialResponse) as refused:
                with client.websocket_connect(url, headers=headers) as ws:
                    ws.receive_json()
            assert refused.value.status_code == status
            assert refused.value.json()["error"]["code"] == code
