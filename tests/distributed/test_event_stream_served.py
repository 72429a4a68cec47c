"""The per-event stream over a real socket (PLAY-8 live broadcast): the gameplay process as in
docker-compose.yml on PostgreSQL + RabbitMQ. A client reads the NDJSON stream while the moves
are played, goes away mid-game, resumes from its cursor and gets every event once, in order;
another partner's key sees none of the game."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime

import httpx

from gomoku_shared.contracts import encode, envelope_for
from gomoku_shared.contracts.common import ClockSpec, Ruleset
from gomoku_shared.contracts.events import PairingSpec, RoundPaired
from gomoku_shared.messaging.rabbit import RabbitEventBus

from .compose_commands import LocalCompose
from .stream_kit import read_until

OP = {"x-api-key": "op-key"}
#: the compose stack's partner key (partner-1)
PARTNER = {"x-api-key": "partner-key"}
MOVES = ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"]
GAME = "NS.main.S1.r1.p1.g1"


def _pairing(pid: str, first: str, second: str, partner: str) -> PairingSpec:
    return PairingSpec(
        pairing_id=pid,
        first=first,
        second=second,
        games=1,
        ruleset=Ruleset(track="free"),
        clock=ClockSpec(kind="sudden_death", base_s=1800, increment_s=0),
        first_partner=partner,
        second_partner=partner,
    )


def _round_paired() -> RoundPaired:
    # the process runs on the system clock: the round starts now, far from any no-show deadline
    return RoundPaired(
        event_code="NS",
        stage="main",
        section_id="S1",
        round=1,
        starts_at=datetime.now(UTC),
        no_show_minutes=120,
        pairings=[_pairing("p1", "alice", "bob", "partner-2"), _pairing("p2", "carol", "dave", "partner-2")],
    )


async def test_event_stream_read_live_over_a_socket_resumes_from_its_cursor_without_gaps_or_repeats(
    fresh_database, amqp_url, bus_namespace, tmp_path
):
    stack = LocalCompose(
        database_urls={"gameplay": await fresh_database()}, amqp_url=amqp_url, namespace=bus_namespace, log_dir=tmp_path
    )
    publisher = RabbitEventBus(amqp_url, namespace=bus_namespace)
    try:
        proc = await stack.serve("gameplay")
        await publisher.start()
        await publisher.publish(
            [encode(envelope_for(_round_paired(), correlation_id="NS", occurred_at=datetime.now(UTC)))]
        )
        async with httpx.AsyncClient(base_url=proc.url, headers=OP, timeout=30) as http:
            async with asyncio.timeout(30):
                while len((await http.get("/v1/games", params={"event": "NS"})).json()["games"]) < 2:
                    await asyncio.sleep(0.1)

            def move(index: int):
                player = "alice" if index % 2 == 0 else "bob"
                return http.post(f"/v1/games/{GAME}/move", json={"player_id": player, "point": MOVES[index]})

            def is_move(index: int):
                return lambda m: m["kind"] == "action" and m["data"].get("point") == MOVES[index]

            first: list[dict] = []
            headers = {"accept": "application/x-ndjson"}
            async with http.stream("GET", "/v1/events/NS/stream", headers=headers) as live:
                assert live.status_code == 200
                assert live.headers["content-type"].startswith("application/x-ndjson")
                lines = live.aiter_lines()
                for player in ("alice", "bob"):
                    assert (await http.post(f"/v1/games/{GAME}/join", json={"player_id": player})).status_code == 200
                for index in range(4):  # each move arrives on the open stream
                    assert (await move(index)).status_code == 200
                    await read_until(lines, first, is_move(index))
            cursor = first[-1]["id"]
            for index in range(4, len(MOVES)):  # played while the client is away
                assert (await move(index)).status_code == 200
            second: list[dict] = []
            async with http.stream(
                "GET", "/v1/events/NS/stream", headers={**headers, "last-event-id": str(cursor)}
            ) as live:
                await read_until(live.aiter_lines(), second, lambda m: m["kind"] == "finished")
            stored = await http.get("/v1/events/NS/stream", params={"follow": "false"})
            everything = [json.loads(line) for line in stored.text.splitlines() if line]
            mine = await http.get("/v1/events/NS/stream", params={"follow": "false"}, headers=PARTNER)
            listed = await http.get("/v1/games", headers=PARTNER, params={"player": "alice"})

        joined = first + second
        ids = [m["id"] for m in joined]
        assert ids == sorted(set(ids)) and ids == [m["id"] for m in everything if m["id"] <= ids[-1]]
        game = [m for m in joined if m["game_id"] == GAME]
        assert [m["seq"] for m in game] == list(range(1, len(game) + 1))
        assert [m["data"]["point"] for m in game if m["kind"] == "action"] == MOVES
        assert game[-1]["kind"] == "finished" and game[-1]["data"]["result"] == "black"
        assert {m["kind"] for m in joined if m["game_id"] != GAME} == {"created"}  # the other pairing
        # partner-1's key: none of partner-2's games, in the stream or the list
        assert mine.status_code == 200 and mine.text.strip() == ""
        assert listed.json() == {"games": [], "next_cursor": None}
    finally:
        await publisher.close()
        stack.stop_all()
