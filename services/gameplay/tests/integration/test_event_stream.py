"""The games list by player with cursor pagination and the per-event stream (NDJSON and SSE),
on PostgreSQL and RabbitMQ: resuming by cursor on another replica gives every event once, in
order; a partner sees only its own players' games (PLAY-8 live broadcast, partner isolation)."""

from __future__ import annotations

import json

from gameplay_kit import OP, PA, PB, eventually, pairing, round_paired

from gomoku_shared.contracts.events import PairingSpec

FIVE = ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"]
#: a partner key the service knows of no game of
NOBODY = {"x-api-key": "pn-key"}


def _of(partner: str, pid: str, first: str, second: str) -> PairingSpec:
    """A pairing whose two players are both the partner's."""
    return pairing(pid, first, second).model_copy(update={"first_partner": partner, "second_partner": partner})


async def _paired_round(c) -> list[str]:
    await c.publish(
        round_paired(_of("pa", "p1", "alice", "bob"), _of("pa", "p2", "carol", "dave"), _of("pb", "p3", "erin", "fay"))
    )

    async def created():
        games = (await c.clients[0].get("/v1/games")).json()["games"]
        return [g["game_id"] for g in games] if len(games) == 3 else None

    return await eventually(created)


def _lines(response) -> list[dict]:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/x-ndjson")
    return [json.loads(line) for line in response.text.splitlines() if line]


async def _stream(api, code: str = "EV", headers=OP, **params) -> list[dict]:
    return _lines(await api.get(f"/v1/events/{code}/stream", headers=headers, follow="false", **params))


async def _play_five(api, gid: str, black: str, white: str) -> None:
    await api.join_both(gid, black, white)
    for i, point in enumerate(FIVE):
        r = await api.act(gid, "move", black if i % 2 == 0 else white, point=point)
        assert r.status_code == 200, r.text


async def test_games_list_by_player_and_status_with_cursor_pages_and_partner_isolation(cluster_factory):
    c = await cluster_factory()
    api = c.clients[0]
    g1, g2, g3 = await _paired_round(c)
    assert [g["game_id"] for g in (await api.get("/v1/games", player="carol")).json()["games"]] == [g2]
    assert [g["game_id"] for g in (await api.get("/v1/games", event="EV", section="S1", round=1)).json()["games"]] == [
        g1,
        g2,
        g3,
    ]
    # pages of one in game_id order, each continuing after the last: every game once
    seen, cursor = [], None
    while True:
        params = {"limit": 1, **({"cursor": cursor} if cursor else {})}
        page = (await api.get("/v1/games", **params)).json()
        seen += [g["game_id"] for g in page["games"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == [g1, g2, g3]
    await _play_five(api, g1, "alice", "bob")
    finished = (await api.get("/v1/games", status="finished")).json()
    assert [g["game_id"] for g in finished["games"]] == [g1] and finished["next_cursor"] is None
    assert [g["game_id"] for g in (await api.get("/v1/games", status="waiting")).json()["games"]] == [g2, g3]
    # partners: their own players' games only, whatever the filter; a stranger none
    assert [g["game_id"] for g in (await api.get("/v1/games", headers=PA)).json()["games"]] == [g1, g2]
    assert [g["game_id"] for g in (await api.get("/v1/games", headers=PB)).json()["games"]] == [g3]
    assert (await api.get("/v1/games", headers=PB, player="alice")).json()["games"] == []
    assert (await api.get("/v1/games", headers=NOBODY)).json() == {"games": [], "next_cursor": None}
    bad = await api.get("/v1/games", cursor="AA")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_cursor"
    assert (await api.get("/v1/games", limit=201)).status_code == 422


async def test_event_stream_carries_pairings_moves_and_results_and_resumes_on_another_replica(cluster_factory):
    """PLAY-8: the event's stream has each game's creation (its pairing), the moves and the
    result; read up to a cursor on one replica and resumed on the other, every event comes once."""
    c = await cluster_factory(replicas=2)
    first, second = c.clients
    g1, g2, g3 = await _paired_round(c)
    await _play_five(first, g1, "alice", "bob")
    await _play_five(first, g3, "erin", "fay")
    everything = await _stream(first)
    assert [m["kind"] for m in everything if m["game_id"] == g2] == ["created"]
    for gid in (g1, g3):
        mine = [m for m in everything if m["game_id"] == gid]
        assert [m["seq"] for m in mine] == list(range(1, len(mine) + 1))
        assert [m["data"]["point"] for m in mine if m["kind"] == "action"] == FIVE
        assert mine[0]["kind"] == "created" and mine[-1]["kind"] == "finished"
        assert mine[-1]["data"]["result"] == "black"
    ids = [m["id"] for m in everything]
    assert ids == sorted(set(ids))
    cut = ids[len(ids) // 2]
    resumed = await _stream(second, since=cut)
    assert [m["id"] for m in resumed] == [i for i in ids if i > cut]
    # the same as Server-Sent Events, resumed by Last-Event-ID
    sse = await second.get(
        "/v1/events/EV/stream", headers={**OP, "accept": "text/event-stream", "last-event-id": str(cut)}, follow="false"
    )
    assert sse.headers["content-type"].startswith("text/event-stream")
    frames = [frame for frame in sse.text.split("\n\n") if frame.startswith("id:")]
    assert [int(frame.split("\n")[0].removeprefix("id: ")) for frame in frames] == [i for i in ids if i > cut]
    assert await _stream(first, code="OTHER") == []
    bad = await first.get("/v1/events/EV/stream", headers={**OP, "last-event-id": "x1"}, follow="false")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_last_event_id"


async def test_event_stream_shows_a_partner_only_its_own_players_games(cluster_factory):
    c = await cluster_factory()
    api = c.clients[0]
    g1, g2, g3 = await _paired_round(c)
    await _play_five(api, g1, "alice", "bob")
    await _play_five(api, g3, "erin", "fay")
    assert {m["game_id"] for m in await _stream(api, headers=PA)} == {g1, g2}
    assert {m["game_id"] for m in await _stream(api, headers=PB)} == {g3}
    assert await _stream(api, headers=NOBODY) == []
