"""An over-the-board game over a real socket (PLAY-9, PLAY-10, NT 十二(五): records and live
broadcast at the venue): the gameplay process as in docker-compose.yml on PostgreSQL + RabbitMQ.
A spectator reads the event's NDJSON stream while the recorder enters the moves with the game's
recorder secret; a forbidden move is flagged on the stream and not put on the board; the
confirmed result slip finishes the game on the stream and sends game.finished on the broker."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import httpx

from gomoku_shared.contracts import decode, encode, envelope_for
from gomoku_shared.contracts.common import ClockSpec, Ruleset
from gomoku_shared.contracts.events import PairingSpec, RoundPaired
from gomoku_shared.messaging.rabbit import RabbitEventBus

from .compose_commands import LocalCompose
from .stream_kit import read_until

OP = {"x-api-key": "op-key"}
ARB = {"x-api-key": "arb-key"}
GAME = "OT.final.S1.r1.p1.g1"
#: D1 opening, N=1, then play up to black's turn where i9 is a double three (PLAY-3)
STEPS = [
    {"kind": "opening", "stones": ["h8", "h9", "h10"], "n": 1},
    {"kind": "swap", "swap": False},
    {"kind": "move", "point": "a1"},
    {"kind": "offers", "points": ["j8"]},
    {"kind": "choose", "point": "j8"},
    {"kind": "move", "point": "a3"},
    {"kind": "move", "point": "j10"},
    {"kind": "move", "point": "a5"},
]
MOVES = ["h8", "h9", "h10", "a1", "j8", "a3", "j10", "a5"]


def _round_paired() -> RoundPaired:
    spec = PairingSpec(
        pairing_id="p1",
        first="alice",
        second="bob",
        ruleset=Ruleset(track="professional"),
        clock=ClockSpec(kind="fischer", base_s=2700, increment_s=30),
    )
    return RoundPaired(
        event_code="OT",
        stage="final",
        section_id="S1",
        round=1,
        starts_at=datetime.now(UTC),
        no_show_minutes=15,
        pairings=[spec],
        mode="offline",
    )


async def test_play10_recorded_moves_reach_a_stream_client_and_the_slip_finishes_the_game(
    fresh_database, amqp_url, bus_namespace, tmp_path
):
    stack = LocalCompose(
        database_urls={"gameplay": await fresh_database()}, amqp_url=amqp_url, namespace=bus_namespace, log_dir=tmp_path
    )
    publisher = RabbitEventBus(amqp_url, namespace=bus_namespace)
    finished: list = []

    async def observe(message) -> None:
        finished.append(decode(message).payload)

    try:
        proc = await stack.serve("gameplay")
        await publisher.start()
        await publisher.subscribe("observer", ["game.finished"], observe)
        await publisher.publish(
            [encode(envelope_for(_round_paired(), correlation_id="OT", occurred_at=datetime.now(UTC)))]
        )
        async with httpx.AsyncClient(base_url=proc.url, headers=OP, timeout=30) as http:
            async with asyncio.timeout(30):
                while not (await http.get("/v1/games", params={"event": "OT"})).json()["games"]:
                    await asyncio.sleep(0.1)
            game = (await http.get(f"/v1/games/{GAME}")).json()
            assert (game["mode"], game["status"], game["clocks"]["running"]) == ("offline", "waiting", None)
            refused = await http.post(f"/v1/games/{GAME}/join", json={"player_id": "alice"})
            assert refused.status_code == 409 and refused.json()["error"]["code"] == "over_the_board"
            issued = await http.post(f"/v1/games/{GAME}/recorder", headers=ARB)
            assert issued.status_code == 201, issued.text
            # the recorder presents the game's secret only, no API key
            recorder = {"X-Recorder-Secret": issued.json()["recorder_secret"]}
            venue = httpx.AsyncClient(base_url=proc.url, timeout=30)

            seen: list[dict] = []
            async with http.stream("GET", "/v1/events/OT/stream", headers={"accept": "application/x-ndjson"}) as live:
                assert live.status_code == 200
                lines = live.aiter_lines()
                for number, step in enumerate(STEPS, start=1):
                    answer = await venue.post(
                        f"/v1/games/{GAME}/recorded", json={**step, "step": number}, headers=recorder
                    )
                    assert answer.status_code == 200 and answer.json()["flag"] is None, answer.text
                    await read_until(
                        lines, seen, lambda m: m["kind"] == "action" and m["data"]["action"] == step["kind"]
                    )
                # a retried step (the same number) changes nothing
                again = await venue.post(f"/v1/games/{GAME}/recorded", json={**STEPS[-1], "step": 8}, headers=recorder)
                assert again.json().get("repeated") is True
                foul = await venue.post(
                    f"/v1/games/{GAME}/recorded", json={"kind": "move", "point": "i9", "step": 9}, headers=recorder
                )
                assert foul.json()["flag"]["code"] == "forbidden", foul.text
                await read_until(lines, seen, lambda m: m["kind"] == "flagged")
                for headers, confirms in ((ARB, None), (OP, 1)):
                    body = {"result": "white", "reason": "forbidden", "confirms": confirms}
                    assert (await http.post(f"/v1/games/{GAME}/slips", json=body, headers=headers)).status_code == 200
                await read_until(lines, seen, lambda m: m["kind"] == "finished")
            await venue.aclose()
            flags = (await http.get("/v1/events/OT/record-flags", headers=ARB)).json()["entries"]
            view = (await http.get(f"/v1/games/{GAME}")).json()
        async with asyncio.timeout(30):
            while not finished:
                await asyncio.sleep(0.1)

        game_events = [m for m in seen if m["game_id"] == GAME]
        points = []
        for message in game_events:
            data = message["data"]
            if message["kind"] == "action":
                points += data.get("stones") or ([data["point"]] if data.get("point") else [])
        assert points == MOVES
        assert view["moves"] == MOVES and view["status"] == "finished"
        assert [m["data"]["flag"]["move"] for m in game_events if m["kind"] == "flagged"] == ["i9"]
        assert game_events[-1]["data"]["result"] == "white"
        assert flags[0]["flags"][0]["code"] == "forbidden" and flags[0]["source"] == "recorder"
        [result] = finished
        assert (result.game_id, result.result, result.reason, result.winner) == (GAME, "white", "forbidden", "bob")
        assert result.moves == MOVES
    finally:
        await publisher.close()
        stack.stop_all()
