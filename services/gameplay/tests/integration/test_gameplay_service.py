"""Issue 6 service tests against PostgreSQL and RabbitMQ: games from round.paired, a professional
game and a two-game round ending with the right game.finished events, flag fall and no-show with
nobody acting, two replicas racing, idempotent retries, partner scope."""

from __future__ import annotations

import asyncio

from gameplay_kit import OP, PA, decided, eventually, idempotency_scenario, pairing, round_paired

FIVE = ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"]


async def _games(api, n: int):
    async def ready():
        games = (await api.get("/v1/games")).json()["games"]
        return games if len(games) >= n else None

    return await eventually(ready)


async def _finished(cluster, n: int):
    async def ready():
        return cluster.finished() if len(cluster.finished()) >= n else None

    return await eventually(ready)


async def test_round_paired_produces_playable_games_and_play2_play3_game_ends_with_forbidden_loss(cluster_factory):
    """PLAY-2 opening, swap, offers, choice; PLAY-3 double-three loses; game.finished on the bus."""
    c = await cluster_factory()
    await c.publish(round_paired(pairing("p1", "alice", "bob", track="professional", base_s=1800, increment_s=15)))
    [g] = await _games(c.clients[0], 1)
    gid, api = g["game_id"], c.clients[0]
    await api.join_both(gid, "alice", "bob")
    steps = [
        ("opening", "alice", {"stones": ["h8", "h9", "j10"], "n": 2}),
        ("swap", "bob", {"swap": False}),
        ("move", "bob", {"point": "a1"}),
        ("offers", "alice", {"points": ["j9", "l12"]}),
        ("choose", "bob", {"point": "j9"}),
        ("move", "bob", {"point": "a2"}),
        ("move", "alice", {"point": "i8"}),
        ("move", "bob", {"point": "a3"}),
        ("move", "alice", {"point": "j8"}),
    ]
    for what, who, body in steps:
        r = await api.act(gid, what, who, **body)
        assert r.status_code == 200, (what, r.text)
    [fin] = await _finished(c, 1)
    assert (fin.reason, fin.foul, fin.winner, fin.result) == ("forbidden", "double_three", "bob", "white")
    assert fin.moves == ["h8", "h9", "j10", "a1", "j9", "a2", "i8", "a3", "j8"]
    assert fin.outcome.second_points == 2


async def test_pair5_two_game_round_and_play6_time_forfeit_in_game_one(cluster_factory):
    """PAIR-5: game 2 swaps colours, 2 wins -> 2 points; PLAY-6: a flag in game 1 (found by the
    background sweeper, nobody acting) loses the whole round and no game 2 is played."""
    c = await cluster_factory()
    await c.publish(
        round_paired(
            pairing("p1", "alice", "bob", games=2, base_s=60), pairing("p2", "carol", "dave", games=2, base_s=60)
        )
    )
    api = c.clients[0]
    await _games(api, 2)
    g1 = "EV.main.S1.r1.p1.g1"
    await api.join_both(g1, "alice", "bob")
    for i, m in enumerate(FIVE):
        assert (await api.act(g1, "move", "alice" if i % 2 == 0 else "bob", point=m)).status_code == 200
    g2 = await api.game("EV.main.S1.r1.p1.g2")
    assert (g2["black"], g2["status"]) == ("bob", "active")
    for i, m in enumerate(FIVE[:-1] + ["b1"]):  # bob (black) fails to make five ...
        assert (await api.act(g2["game_id"], "move", "bob" if i % 2 == 0 else "alice", point=m)).status_code == 200
    assert (await api.act(g2["game_id"], "resign", "bob")).status_code == 200
    # p2: dave's flag falls in game 1 while nobody acts
    await api.join_both("EV.main.S1.r1.p2.g1", "carol", "dave")
    assert (await api.act("EV.main.S1.r1.p2.g1", "move", "carol", point="h8")).status_code == 200
    c.clock.advance(61)
    fins = await _finished(c, 3)
    by = {(f.pairing_id, f.game_no): f for f in fins}
    assert by[("p1", 2)].outcome.first_points == 2 and by[("p1", 2)].outcome.second_points == 0
    assert by[("p2", 1)].reason == "time" and by[("p2", 1)].outcome.first_points == 2
    assert by[("p2", 1)].outcome.second_points == 0
    assert [g["game_id"] for g in (await api.get("/v1/rounds/EV/S1/1/games")).json()["games"]] == [
        "EV.main.S1.r1.p1.g1",
        "EV.main.S1.r1.p1.g2",
        "EV.main.S1.r1.p2.g1",
    ]


async def test_play7_no_show_and_double_forfeit_fire_with_nobody_acting(cluster_factory):
    c = await cluster_factory()
    await c.publish(round_paired(pairing("p1", "alice", "bob"), pairing("p2", "carol", "dave")))
    api = c.clients[0]
    await _games(api, 2)
    await api.act("EV.main.S1.r1.p1.g1", "join", "bob")
    c.clock.advance(15 * 60 + 1)
    fins = await _finished(c, 2)
    by = {f.pairing_id: f for f in fins}
    assert (by["p1"].reason, by["p1"].winner) == ("no_show", "bob")
    assert by["p2"].double_forfeit and by["p2"].outcome.first_points == 0


async def test_two_replicas_race_on_one_game_without_lost_or_doubled_moves(cluster_factory):
    """Optimistic concurrency: both replicas take the same moves at once; each ply is applied once."""
    c = await cluster_factory(replicas=2)
    await c.publish(round_paired(pairing("p1", "alice", "bob")))
    a, b = c.clients
    [g] = await _games(a, 1)
    gid = g["game_id"]
    await a.join_both(gid, "alice", "bob")
    points = ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4"]
    for i, p in enumerate(points):
        player = "alice" if i % 2 == 0 else "bob"
        # the same ply sent to both replicas, and a conflicting one too
        results = await asyncio.gather(
            a.act(gid, "move", player, point=p),
            b.act(gid, "move", player, point=p),
            b.act(gid, "move", player, point=f"o{15 - i}"),
        )
        assert sorted(r.status_code for r in results).count(200) == 1, [r.text for r in results]
        loser_codes = {r.json()["error"]["code"] for r in results if r.status_code != 200}
        assert loser_codes <= {"not_your_turn", "occupied"}
    view_a, view_b = await a.game(gid), await b.game(gid)
    assert len(view_a["moves"]) == len(points) and view_a["moves"] == view_b["moves"]
    assert view_a["seq"] == view_b["seq"]


async def test_retried_move_applied_once_and_partner_scope(cluster_factory):
    c = await cluster_factory(replicas=2)
    await c.publish(round_paired(pairing("p1", "alice", "bob")))
    a, b = c.clients
    [g] = await _games(a, 1)
    gid = g["game_id"]
    r = await a.act(gid, "join", "bob", headers=PA)
    assert r.status_code == 403
    await a.join_both(gid, "alice", "bob")
    h = {**OP, "Idempotency-Key": "retry-1"}
    body = {"player_id": "alice", "point": "h8"}
    r1, r2 = await asyncio.gather(
        a.post(f"/v1/games/{gid}/move", body, headers=h), b.post(f"/v1/games/{gid}/move", body, headers=h)
    )
    r3 = await b.post(f"/v1/games/{gid}/move", body, headers=h)
    assert r1.status_code == r2.status_code == r3.status_code == 200, (r1.text, r2.text)
    assert r1.json() == r2.json() == r3.json()
    assert (await a.game(gid))["moves"] == ["h8"]


async def test_plain_moves_are_group_committed_once_each_and_stale_ones_judged_again(cluster_factory):
    """PostgreSQL: concurrent moves of many games share statements (group commit), each move is
    stored once and in order; a move judged on a replica's stale cache fails the version check
    inside the statement, is judged again on the database's state and refused (PLAY-1)."""
    c = await cluster_factory(replicas=2)
    n = 24
    await c.publish(round_paired(*[pairing(f"p{i:02d}", f"a{i}", f"b{i}") for i in range(n)]))
    a, b = c.clients
    games = await _games(a, n)
    for i, g in enumerate(games):
        await a.join_both(g["game_id"], f"a{i}", f"b{i}")
    writer = c.replicas[0].extras["games"].writer
    assert writer is not None
    plies = ["h8", "a1", "i8", "a2", "j8"]
    for k, point in enumerate(plies):
        rs = await asyncio.gather(
            *(a.act(g["game_id"], "move", f"a{i}" if k % 2 == 0 else f"b{i}", point=point) for i, g in enumerate(games))
        )
        assert [r.status_code for r in rs] == [200] * n, [r.text for r in rs if r.status_code != 200]
    assert writer.moves == n * len(plies) and writer.batches < writer.moves
    for g in games:
        view = await b.game(g["game_id"])
        assert view["moves"] == plies and view["seq"] == 4 + len(plies)  # created, 2 joins, started, moves
    # replica a caches game 0 after its move; replica b plays the reply; a's cache is now stale
    gid = games[0]["game_id"]
    assert (await b.act(gid, "move", "b0", point="a3")).status_code == 200
    stale_before = writer.stale
    r = await a.act(gid, "move", "b0", point="a4")  # judged as bob's turn on the stale cache
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_your_turn"
    assert writer.stale == stale_before + 1
    assert (await a.game(gid))["moves"] == plies + ["a3"]
    assert (await a.act(gid, "move", "a0", point="k8")).status_code == 200
    assert (await b.game(gid))["moves"] == plies + ["a3", "k8"]


async def test_idempotency_keys_on_the_group_committed_path(cluster_factory):
    """PostgreSQL: plain moves are stored by the move writer's statement, keys included; the
    same rules hold there (bound to the request, replayed with a header, expiring)."""
    c = await cluster_factory(replicas=1)
    api = c.clients[0]
    writer = c.replicas[0].extras["games"].writer
    assert writer is not None

    async def wait_games(n: int) -> None:
        await _games(api, n)

    await idempotency_scenario(api, c.publish, c.clock, wait_games)
    assert writer.moves >= 2  # the keyed moves went through the group commit


async def test_pair11_arbiter_decision_stops_a_game_being_played_on_two_replicas(cluster_factory):
    """PAIR-11 / PLAY-4 on PostgreSQL + RabbitMQ: result.decided closes a game in play; a move
    judged on a replica's cached (now stale) state is refused by the group-commit version check
    and answered 409 game_over, as on the other replica; the flag never falls afterwards (PLAY-5)."""
    c = await cluster_factory(replicas=2)
    await c.publish(round_paired(pairing("p1", "alice", "bob", base_s=60)))
    a, b = c.clients
    [g] = await _games(a, 1)
    gid = g["game_id"]
    await a.join_both(gid, "alice", "bob")
    for i, point in enumerate(["h8", "a1", "i8"]):
        assert (await a.act(gid, "move", "alice" if i % 2 == 0 else "bob", point=point)).status_code == 200
    await c.publish(decided("p1", "alice", "bob", "second_wins", sequence=6, note="fair play"))

    async def closed():
        view = await b.game(gid)
        return view if view["status"] == "finished" else None

    view = await eventually(closed)
    assert (view["result"], view["reason"], view["winner"]) == ("white", "arbiter", "bob")
    for api in (a, b):  # a's cache still holds the game in play
        r = await api.act(gid, "move", "bob", point="a2")
        assert r.status_code == 409 and r.json()["error"]["code"] == "game_over", r.text
    c.clock.advance(120)
    [fin] = await _finished(c, 1)
    assert (fin.result, fin.reason, fin.winner, fin.outcome.second_points) == ("white", "arbiter", "bob", 2)
    assert (await a.game(gid))["moves"] == ["h8", "a1", "i8"]
    assert len(c.finished()) == 1
