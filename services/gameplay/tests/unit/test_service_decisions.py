"""Arbiter decisions from pairing (result.decided) on SQLite + the in-memory bus: the game closes
with the arbiter's result, nothing played, swept or joined later changes it (PAIR-11, PLAY-4,
PLAY-7), corrections follow the latest decision (AWD-8), a double forfeit is never a draw."""

from __future__ import annotations

import pytest
from gameplay_kit import ARB, decided, pairing, round_paired

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow

FIVE_FOR_FIRST = ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"]
G1 = "EV.main.S1.r1.p1.g1"


async def test_pair11_arbiter_result_closes_a_waiting_game_and_nothing_changes_it(gp):
    """PAIR-11 / PLAY-4 arbiter decision: a game still waiting is closed with the arbiter's result
    and reason; a late join, a move and the no-show sweep all get 409 / change nothing (PLAY-7)."""
    await gp.publish(round_paired(pairing("p1", "alice", "bob")))
    await gp.publish(decided("p1", "alice", "bob", "first_wins", sequence=3, note="board dispute"))
    g = await gp.api.game(G1)
    assert (g["status"], g["result"], g["reason"], g["winner"]) == ("finished", "black", "arbiter", "alice")
    assert g["outcome"] == {"first_points": 2, "second_points": 0}
    assert g["decision"]["outcome"] == "first_wins" and g["legal_actions"] == []
    for what, who, body in (("join", "bob", {}), ("move", "alice", {"point": "h8"}), ("resign", "alice", {})):
        r = await gp.api.act(G1, what, who, **body)
        assert r.status_code == 409, (what, r.text)
        assert r.json()["error"]["code"] == "game_over" and "arbiter" in r.json()["error"]["message"]
    gp.clock.advance(16 * 60)  # past the no-show limit: the sweep finds nothing to decide
    assert (await gp.api.post("/v1/ops/sweep")).json() == {"flags": 0, "no_shows": 0, "double_forfeits": 0}
    adj = await gp.api.post(f"/v1/games/{G1}/adjudicate", {"result": "white", "reason": "late"}, headers=ARB)
    assert adj.status_code == 409
    await gp.settle()
    [fin] = gp.finished()
    assert (fin.result, fin.reason, fin.winner, fin.outcome.first_points) == ("black", "arbiter", "alice", 2)
    assert (await gp.api.game(G1))["result"] == "black"
    stream = (await gp.api.get(f"/v1/games/{G1}/events", since=0, follow="false")).text
    assert "event: finished" in stream and '"decided_by": "arbiter"' in stream.replace('":"', '": "')
    rec = (await gp.api.get(f"/v1/games/{G1}/record")).json()
    assert rec["arbiter_decision"]["outcome"] == "first_wins"


async def test_pair11_arbiter_result_ends_a_game_in_play_and_its_flag_never_falls(gp):
    """A game being played is stopped by the decision: its clock stops (PLAY-5 flag never falls)."""
    await gp.publish(round_paired(pairing("p1", "alice", "bob", base_s=60)))
    await gp.api.join_both(G1, "alice", "bob")
    assert (await gp.api.act(G1, "move", "alice", point="h8")).status_code == 200
    await gp.publish(decided("p1", "alice", "bob", "draw", sequence=2))
    gp.clock.advance(120)
    assert (await gp.api.post("/v1/ops/sweep")).json() == {"flags": 0, "no_shows": 0, "double_forfeits": 0}
    g = await gp.api.game(G1)
    assert (g["result"], g["reason"], g["winner"], g["moves"]) == ("draw", "arbiter", None, ["h8"])
    r = await gp.api.act(G1, "move", "bob", point="a1")
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_over"
    await gp.settle()
    assert [f.result for f in gp.finished()] == ["draw"]


async def test_awd8_correction_after_the_fact_changes_the_finished_game_and_old_decisions_lose(gp):
    """AWD-8 correction: a played game is corrected to the arbiter's later result; a decision older
    than one already applied (redelivered out of order) changes nothing; no second game.finished."""
    await gp.publish(round_paired(pairing("p1", "alice", "bob")))
    await gp.api.join_both(G1, "alice", "bob")
    for i, m in enumerate(FIVE_FOR_FIRST):
        assert (await gp.api.act(G1, "move", "alice" if i % 2 == 0 else "bob", point=m)).status_code == 200
    assert (await gp.api.game(G1))["winner"] == "alice"
    await gp.publish(decided("p1", "alice", "bob", "second_wins", sequence=7))
    g = await gp.api.game(G1)
    assert (g["result"], g["reason"], g["winner"]) == ("white", "arbiter", "bob")
    assert g["outcome"] == {"first_points": 0, "second_points": 2}
    await gp.publish(decided("p1", "alice", "bob", "first_wins", sequence=5))  # older: ignored
    assert (await gp.api.game(G1))["winner"] == "bob"
    await gp.publish(decided("p1", "alice", "bob", "first_wins", sequence=9))  # newer: applied
    g = await gp.api.game(G1)
    assert (g["result"], g["winner"], g["outcome"]["first_points"]) == ("black", "alice", 2)
    listed = (await gp.api.get("/v1/games")).json()["games"]
    assert [(x["winner"], x["outcome"]) for x in listed] == [("alice", {"first_points": 2, "second_points": 0})]
    stream = (await gp.api.get(f"/v1/games/{G1}/events", since=0, follow="false")).text
    assert stream.count("event: finished") == 1 and stream.count("event: corrected") == 2
    await gp.settle()
    assert len(gp.finished()) == 1  # the game ended once; corrections are the arbiter's (pairing holds them)


async def test_play7_decision_before_the_round_arrives_creates_the_game_closed(gp):
    """Events of different types are not ordered: a decision that arrives before round.paired is
    kept, and the game starts closed with it (a double forfeit: 0:0, never a draw)."""
    await gp.publish(decided("p1", "alice", "bob", "double_forfeit", sequence=4))
    await gp.publish(round_paired(pairing("p1", "alice", "bob")))
    g = await gp.api.game(G1)
    assert (g["status"], g["result"], g["winner"], g["double_forfeit"]) == ("finished", "double_forfeit", None, True)
    assert g["outcome"] == {"first_points": 0, "second_points": 0}
    await gp.settle()
    [fin] = gp.finished()
    assert fin.double_forfeit and fin.result == "double_forfeit" and fin.reason == "no_show"


async def test_pair5_decision_on_a_two_game_round_closes_game_one_and_no_game_two_follows(gp):
    """PAIR-5 / PAIR-6: the arbiter's forfeit on a two-game pairing ends the pairing: game 1 is
    closed as a forfeit with the round points, no game 2 is created."""
    await gp.publish(round_paired(pairing("p1", "alice", "bob", games=2)))
    await gp.api.act(G1, "join", "alice")
    await gp.publish(decided("p1", "alice", "bob", "first_forfeit_win", sequence=2))
    games = (await gp.api.get("/v1/games")).json()["games"]
    assert [(x["game_id"], x["result"], x["reason"], x["winner"]) for x in games] == [(G1, "black", "no_show", "alice")]
    assert games[0]["outcome"] == {"first_points": 2, "second_points": 0}


async def test_play7_double_forfeit_from_the_sweep_is_its_own_result(gp):
    """PLAY-7 both absent: result double_forfeit (0:0) in the game, the list and game.finished."""
    await gp.publish(round_paired(pairing("p1", "alice", "bob")))
    gp.clock.advance(16 * 60)
    assert (await gp.api.post("/v1/ops/sweep")).json()["double_forfeits"] == 1
    g = await gp.api.game(G1)
    assert (g["result"], g["reason"], g["winner"], g["double_forfeit"]) == ("double_forfeit", "no_show", None, True)
    await gp.settle()
    [fin] = gp.finished()
    assert fin.result == "double_forfeit" and fin.double_forfeit


async def test_pair5_decision_equal_to_what_the_two_games_give_changes_no_game(gp):
    """PAIR-5: 1W+1L is a drawn round; the arbiter's "draw" for it leaves both played games as they are."""
    await gp.publish(round_paired(pairing("p1", "alice", "bob", games=2)))
    await gp.api.join_both(G1, "alice", "bob")
    for i, m in enumerate(FIVE_FOR_FIRST):
        assert (await gp.api.act(G1, "move", "alice" if i % 2 == 0 else "bob", point=m)).status_code == 200
    g2 = "EV.main.S1.r1.p1.g2"
    for i, m in enumerate(FIVE_FOR_FIRST):
        assert (await gp.api.act(g2, "move", "bob" if i % 2 == 0 else "alice", point=m)).status_code == 200
    before = (await gp.api.get("/v1/games")).json()["games"]
    assert before[1]["outcome"] == {"first_points": 1, "second_points": 1}
    await gp.publish(decided("p1", "alice", "bob", "draw", sequence=3))
    after = (await gp.api.get("/v1/games")).json()["games"]
    assert [(g["winner"], g["reason"], g["seq"]) for g in after] == [
        (g["winner"], g["reason"], g["seq"]) for g in before
    ]
    assert [g["reason"] for g in after] == ["five", "five"]
