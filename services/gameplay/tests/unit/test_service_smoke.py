"""Smoke: a round.paired event produces playable games (issue 6)."""

from __future__ import annotations

from gameplay_kit import pairing, round_paired


async def test_round_paired_creates_a_playable_free_game(gp):
    await gp.publish(round_paired(pairing("p1", "alice", "bob")))
    r = await gp.api.get("/v1/games")
    games = r.json()["games"]
    assert [g["game_id"] for g in games] == ["EV.main.S1.r1.p1.g1"]
    gid = games[0]["game_id"]
    assert games[0]["status"] == "waiting"
    await gp.api.join_both(gid, "alice", "bob")
    moves = ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"]
    for i, m in enumerate(moves):
        r = await gp.api.act(gid, "move", "alice" if i % 2 == 0 else "bob", point=m)
        assert r.status_code == 200, r.text
    g = await gp.api.game(gid)
    assert g["status"] == "finished" and g["result"] == "black" and g["reason"] == "five"
    await gp.settle()
    fin = gp.finished()
    assert len(fin) == 1 and fin[0].winner == "alice" and fin[0].outcome.first_points == 2
    assert fin[0].moves == moves
