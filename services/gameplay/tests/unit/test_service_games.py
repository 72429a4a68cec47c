"""Service tests on SQLite + the in-memory bus: the game flows of PLAY-1..PLAY-7, PAIR-5/PAIR-6."""

from __future__ import annotations

import json

import pytest
from gameplay_kit import ARB, OP, PA, PB, idempotency_scenario, pairing, playoff, round_paired

from gomoku_shared.contracts.common import ClockSpec

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow

FIVE_FOR_FIRST = ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"]


async def _only_game(gp, **params) -> str:
    games = (await gp.api.get("/v1/games", **params)).json()["games"]
    assert len(games) == 1, games
    return games[0]["game_id"]


async def _play(gp, gid, black, white, moves):
    for i, m in enumerate(moves):
        r = await gp.api.act(gid, "move", black if i % 2 == 0 else white, point=m)
        assert r.status_code == 200, r.text
    return r.json()


async def _events(gp, gid: str) -> list[dict]:
    """The data of the game's stream events so far."""
    text = (await gp.api.get(f"/v1/games/{gid}/events", since=0, follow="false")).text
    return [json.loads(line[6:])["data"] for line in text.splitlines() if line.startswith("data: ")]


async def test_play2_play3_professional_game_opening_swap_offers_choice_and_forbidden_loss(gp):
    """PLAY-2 opening procedure (N declared, swap, move 4, offers, choice, move 6) and PLAY-3: a
    double-three by black loses immediately; the record keeps the move and the foul."""
    await gp.publish(round_paired(pairing("p1", "alice", "bob", track="professional", base_s=1800, increment_s=15)))
    gid = await _only_game(gp)
    await gp.api.join_both(gid, "alice", "bob")
    g = await gp.api.game(gid)
    assert g["phase"] == "opening" and g["to_act"] == "alice" and g["legal_actions"][0] == "opening"
    r = await gp.api.act(gid, "swap", "bob", swap=False)
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_your_turn"
    r = await gp.api.act(gid, "opening", "alice", stones=["h8", "h9", "a1"], n=2)
    assert r.status_code == 422 and r.json()["error"]["code"] == "not_an_opening"
    assert (await gp.api.act(gid, "opening", "alice", stones=["h8", "h9", "j10"], n=2)).status_code == 200
    g = await gp.api.game(gid)
    assert g["phase"] == "swap" and g["to_act"] == "bob" and g["opening"]["name"] == "Sosei" and g["opening"]["n"] == 2
    assert (await gp.api.act(gid, "swap", "bob", swap=False)).status_code == 200
    r = await gp.api.act(gid, "swap", "bob", swap=True)
    assert r.status_code == 409
    assert (await gp.api.act(gid, "move", "bob", point="a1")).status_code == 200  # move 4 by white
    r = await gp.api.act(gid, "offers", "alice", points=["j9", "j9"])
    assert r.status_code == 422 and r.json()["error"]["code"] == "offer_duplicate"
    assert (await gp.api.act(gid, "offers", "alice", points=["j9", "l12"])).status_code == 200
    g = await gp.api.game(gid)
    assert g["phase"] == "choose" and g["to_act"] == "bob" and g["opening"]["offers"] == ["j9", "l12"]
    assert (await gp.api.act(gid, "choose", "bob", point="j9")).status_code == 200
    assert (await gp.api.act(gid, "move", "bob", point="a2")).status_code == 200  # move 6
    assert (await gp.api.act(gid, "move", "alice", point="i8")).status_code == 200
    assert (await gp.api.act(gid, "move", "bob", point="a3")).status_code == 200
    g = await gp.api.game(gid)
    assert g["to_act"] == "alice" and g["forbidden"].get("j8") == "double_three"
    assert g["moves"] == ["h8", "h9", "j10", "a1", "j9", "a2", "i8", "a3"]
    # white's move event says black's forbidden points as the view does (a spectator's page
    # follows the move without reading the game); black's move event says none
    moves = [event for event in await _events(gp, gid) if event.get("action") == "move"]
    assert moves[-1]["point"] == "a3" and moves[-1]["forbidden"] == g["forbidden"]
    assert moves[-2]["point"] == "i8" and moves[-2]["forbidden"] == {}
    assert (await gp.api.act(gid, "move", "alice", point="j8")).status_code == 200
    await gp.settle()
    [fin] = gp.finished()
    assert (fin.result, fin.reason, fin.foul, fin.winner) == ("white", "forbidden", "double_three", "bob")
    assert fin.outcome.first_points == 0 and fin.outcome.second_points == 2
    assert fin.record["opening"]["swapped"] is False and fin.record["moves"][-1]["foul"] == "double_three"
    r = await gp.api.act(gid, "move", "bob", point="c3")
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_over"


async def test_play2_swap_true_gives_black_to_the_second_player(gp):
    await gp.publish(round_paired(pairing("p1", "alice", "bob", track="professional", fixed_n=2)))
    gid = await _only_game(gp)
    await gp.api.join_both(gid, "alice", "bob")
    r = await gp.api.act(gid, "opening", "alice", stones=["h8", "h9", "j10"], n=3)
    assert r.status_code == 422 and r.json()["error"]["code"] == "n_fixed"
    assert (await gp.api.act(gid, "opening", "alice", stones=["h8", "h9", "j10"])).status_code == 200
    r = await gp.api.act(gid, "swap", "bob", swap=True)
    assert r.json()["black"] == "bob" and r.json()["white"] == "alice" and r.json()["to_act"] == "alice"
    g = await gp.api.game(gid)
    assert g["clocks"]["running"] == "white"


async def test_pair5_free_two_game_round_swaps_colours_and_scores_the_pair(gp):
    """PAIR-5: game 2 swaps colours; 1W+1L gives 1 point each; the round clock carries over."""
    await gp.publish(round_paired(pairing("p1", "alice", "bob", games=2, base_s=1800, round_clock=True)))
    g1 = await _only_game(gp)
    await gp.api.join_both(g1, "alice", "bob")
    gp.clock.advance(10)
    await _play(gp, g1, "alice", "bob", FIVE_FOR_FIRST)
    await gp.settle()
    games = (await gp.api.get("/v1/rounds/EV/S1/1/games")).json()["games"]
    assert [g["game_no"] for g in games] == [1, 2]
    g2 = games[1]
    assert (g2["black"], g2["white"], g2["status"]) == ("bob", "alice", "active")
    view = await gp.api.game(g2["game_id"])
    assert view["clocks"]["white_ms"] == 1800_000 - 10_000  # alice's time carried (round clock)
    await _play(gp, g2["game_id"], "bob", "alice", FIVE_FOR_FIRST)
    await gp.settle()
    f1, f2 = gp.finished()
    assert f1.outcome is None and f2.outcome.first_points == 1 and f2.outcome.second_points == 1
    assert f2.game_no == 2 and f2.winner == "bob"
    # issue 27 finding 10: game 2 is created with both players present, so it starts at once;
    # first/second name the pairing's players whatever the colours, as game.finished does
    assert [(c.game_no, c.black) for c in gp.payloads("game.created")] == [(1, "alice"), (2, "bob")]
    s1, s2 = gp.started()
    assert (s2.game_id, s2.black, s2.white) == (g2["game_id"], "bob", "alice")
    assert (s2.first, s2.second) == (f2.first, f2.second) == ("alice", "bob")


async def test_play6_time_forfeit_in_game_one_loses_the_whole_round(gp):
    """PLAY-6: bob's flag falls in game 1 (found by the server with nobody acting): he loses the
    round, no game 2 is created, round points 2-0."""
    await gp.publish(round_paired(pairing("p1", "alice", "bob", games=2, base_s=60)))
    g1 = await _only_game(gp)
    await gp.api.join_both(g1, "alice", "bob")
    assert (await gp.api.act(g1, "move", "alice", point="h8")).status_code == 200
    gp.clock.advance(61)
    counts = (await gp.api.post("/v1/ops/sweep")).json()
    assert counts["flags"] == 1
    await gp.settle()
    [fin] = gp.finished()
    assert (fin.reason, fin.winner, fin.result) == ("time", "alice", "black")
    assert (fin.outcome.first_points, fin.outcome.second_points) == (2, 0)
    assert len((await gp.api.get("/v1/games")).json()["games"]) == 1


async def test_play5_flag_seen_when_the_late_player_acts(gp):
    """PLAY-5: the server, not the client, decides: a move after the flag fell is refused and the
    game ends on time."""
    await gp.publish(round_paired(pairing("p1", "alice", "bob", base_s=60)))
    gid = await _only_game(gp)
    await gp.api.join_both(gid, "alice", "bob")
    gp.clock.advance(60.5)
    r = await gp.api.act(gid, "move", "alice", point="h8")
    assert r.status_code == 409 and r.json()["error"]["code"] == "flagged"
    g = await gp.api.game(gid)
    assert (g["status"], g["reason"], g["result"]) == ("finished", "time", "white")


async def test_play5_fischer_increment_added_after_each_move(gp):
    await gp.publish(round_paired(pairing("p1", "alice", "bob", base_s=300, increment_s=30)))
    gid = await _only_game(gp)
    await gp.api.join_both(gid, "alice", "bob")
    gp.clock.advance(10)
    await gp.api.act(gid, "move", "alice", point="h8")
    gp.clock.advance(5)
    c = (await gp.api.game(gid))["clocks"]
    now_ms = int(gp.clock.now().timestamp() * 1000)
    assert c == {"black_ms": 320_000, "white_ms": 295_000, "running": "white", "at_ms": now_ms}


async def test_play7_no_show_and_double_forfeit(gp):
    """PLAY-7 / PAIR-6: 15 minutes after the round start a player who never joined forfeits; both
    absent is a double forfeit."""
    await gp.publish(round_paired(pairing("p1", "alice", "bob"), pairing("p2", "carol", "dave")))
    await gp.api.act("EV.main.S1.r1.p1.g1", "join", "alice")
    gp.clock.advance(14 * 60)
    assert (await gp.api.post("/v1/ops/sweep")).json() == {"flags": 0, "no_shows": 0, "double_forfeits": 0}
    gp.clock.advance(61)
    assert (await gp.api.post("/v1/ops/sweep")).json() == {"flags": 0, "no_shows": 1, "double_forfeits": 1}
    await gp.settle()
    by_pairing = {f.pairing_id: f for f in gp.finished()}
    assert (by_pairing["p1"].reason, by_pairing["p1"].winner) == ("no_show", "alice")
    assert by_pairing["p2"].double_forfeit and by_pairing["p2"].winner is None
    assert (by_pairing["p2"].outcome.first_points, by_pairing["p2"].outcome.second_points) == (0, 0)


async def test_partner_may_act_only_for_its_own_players(gp):
    await gp.publish(round_paired(pairing("p1", "alice", "bob")))
    gid = await _only_game(gp)
    r = await gp.api.act(gid, "join", "bob", headers=PA)
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_your_player"
    assert (await gp.api.act(gid, "join", "alice", headers=PA)).status_code == 200
    assert (await gp.api.act(gid, "join", "bob", headers=PB)).status_code == 200
    r = await gp.api.act(gid, "join", "mallory", headers=PA)
    assert r.status_code == 422


async def test_retried_move_with_the_same_idempotency_key_is_applied_once(gp):
    await gp.publish(round_paired(pairing("p1", "alice", "bob")))
    gid = await _only_game(gp)
    await gp.api.join_both(gid, "alice", "bob")
    h = {**OP, "Idempotency-Key": "k-1"}
    r1 = await gp.api.post(f"/v1/games/{gid}/move", {"player_id": "alice", "point": "h8"}, headers=h)
    r2 = await gp.api.post(f"/v1/games/{gid}/move", {"player_id": "alice", "point": "h8"}, headers=h)
    assert r1.status_code == r2.status_code == 200 and r1.json() == r2.json()
    assert (await gp.api.game(gid))["moves"] == ["h8"]


@pytest.mark.parametrize(
    "what,body,status,code",
    [
        ("move", {"player_id": "bob", "point": "h8"}, 409, "not_your_turn"),
        ("move", {"player_id": "alice", "point": "z99"}, 422, "validation_error"),
        ("swap", {"player_id": "bob", "swap": True}, 409, "not_your_turn"),
        ("pass", {"player_id": "bob"}, 409, "not_your_turn"),
        ("draw", {"player_id": "bob", "action": "accept"}, 409, "no_draw_offer"),
    ],
)
async def test_refused_actions_are_4xx_with_the_reason(gp, what, body, status, code):
    await gp.publish(round_paired(pairing("p1", "alice", "bob")))
    gid = await _only_game(gp)
    await gp.api.join_both(gid, "alice", "bob")
    r = await gp.api.post(f"/v1/games/{gid}/{what}", body)
    assert r.status_code == status and r.json()["error"]["code"] == code, r.text


async def test_unknown_game_is_404_and_moves_before_joining_are_409(gp):
    assert (await gp.api.get("/v1/games/nope")).status_code == 404
    assert (await gp.api.act("nope", "move", "alice", point="h8")).status_code == 404
    await gp.publish(round_paired(pairing("p1", "alice", "bob")))
    gid = await _only_game(gp)
    r = await gp.api.act(gid, "move", "alice", point="h8")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_started"
    r = await gp.api.act(gid, "move", "alice", point="h8")
    assert (await gp.api.act(gid, "move", "alice", point="h8")).status_code == 409


async def test_play4_occupied_point_draw_by_agreement_and_by_passes(gp):
    await gp.publish(round_paired(pairing("p1", "alice", "bob"), pairing("p2", "carol", "dave")))
    g1, g2 = [g["game_id"] for g in (await gp.api.get("/v1/games")).json()["games"]]
    await gp.api.join_both(g1, "alice", "bob")
    await gp.api.act(g1, "move", "alice", point="h8")
    r = await gp.api.act(g1, "move", "bob", point="h8")
    assert r.status_code == 409 and r.json()["error"]["code"] == "occupied"
    assert (await gp.api.act(g1, "draw", "alice", action="offer")).status_code == 200
    assert (await gp.api.game(g1))["draw_offer_by"] == "alice"
    assert (await gp.api.act(g1, "draw", "bob", action="accept")).json()["reason"] == "agreement"
    await gp.api.join_both(g2, "carol", "dave")
    await gp.api.act(g2, "pass", "carol")
    r = await gp.api.act(g2, "pass", "dave")
    assert (r.json()["result"], r.json()["reason"]) == ("draw", "passes")
    await gp.settle()
    assert sorted(f.reason for f in gp.finished()) == ["agreement", "passes"]
    assert all(f.outcome.first_points == 1 for f in gp.finished())


async def test_resignation_adjudication_and_added_time(gp):
    await gp.publish(round_paired(pairing("p1", "alice", "bob", base_s=600), pairing("p2", "carol", "dave")))
    g1, g2 = [g["game_id"] for g in (await gp.api.get("/v1/games")).json()["games"]]
    await gp.api.join_both(g1, "alice", "bob")
    r = await gp.api.post(f"/v1/games/{g1}/add-time", {"player_id": "bob", "seconds": 30}, headers=ARB)
    assert r.status_code == 200
    assert (await gp.api.game(g1))["clocks"]["white_ms"] == 630_000
    r = await gp.api.post(f"/v1/games/{g1}/add-time", {"player_id": "bob", "seconds": 30}, headers=PA)
    assert r.status_code == 403
    assert (await gp.api.act(g1, "resign", "alice")).json()["result"] == "white"
    r = await gp.api.post(f"/v1/games/{g2}/adjudicate", {"result": "draw", "reason": "power cut"}, headers=ARB)
    assert r.status_code == 200 and r.json()["reason"] == "arbiter"
    await gp.settle()
    fin = {f.pairing_id: f for f in gp.finished()}
    assert fin["p1"].reason == "resignation" and fin["p1"].winner == "bob"
    assert fin["p2"].record["result"]["note"] == "power cut"


async def test_play8_records_json_notation_psq(gp):
    await gp.publish(round_paired(pairing("p1", "alice", "bob")))
    gid = await _only_game(gp)
    await gp.api.join_both(gid, "alice", "bob")
    await _play(gp, gid, "alice", "bob", FIVE_FOR_FIRST)
    rec = (await gp.api.get(f"/v1/games/{gid}/record")).json()
    assert rec["result"]["winner_player"] == "alice" and len(rec["moves"]) == 9
    assert rec["moves"][0]["player"] == "alice" and rec["moves"][0]["at"].startswith("2026-05-01T09:00")
    assert (await gp.api.get(f"/v1/games/{gid}/record", format="notation")).text.strip() == " ".join(FIVE_FOR_FIRST)
    psq = (await gp.api.get(f"/v1/games/{gid}/record", format="psq")).text.splitlines()
    assert psq[0].startswith("Piskvorky 15x15") and psq[1] == "8,8,0" and len(psq) == 10


async def test_play_playoff_pair_then_single_games_until_decided(gp):
    """PLAY-PLAYOFF: two games (each moves first once) at the pair clock; level → single games at
    the decider clock, alternating the first mover, until one is won."""
    spec = pairing("pp", "alice", "bob", base_s=300, increment_s=3)
    await gp.publish(playoff(spec, decider=ClockSpec(kind="fischer", base_s=180, increment_s=2)))
    gid = await _only_game(gp)
    assert gid == "EV.main.S1.po.po1.pp.g1"
    await gp.api.join_both(gid, "alice", "bob")
    await _play(gp, gid, "alice", "bob", FIVE_FOR_FIRST)  # alice wins game 1
    await gp.settle()
    g2 = "EV.main.S1.po.po1.pp.g2"
    assert (await gp.api.game(g2))["black"] == "bob"
    await _play(gp, g2, "bob", "alice", FIVE_FOR_FIRST)  # bob wins game 2: level
    await gp.settle()
    g3 = await gp.api.game("EV.main.S1.po.po1.pp.g3")
    assert g3["black"] == "alice" and g3["clocks"]["black_ms"] == 180_000 and g3["status"] == "active"
    await gp.api.act(g3["game_id"], "draw", "alice", action="offer")
    await gp.api.act(g3["game_id"], "draw", "bob", action="accept")
    await gp.settle()
    g4 = await gp.api.game("EV.main.S1.po.po1.pp.g4")
    assert g4["black"] == "bob"
    await gp.api.act(g4["game_id"], "resign", "alice")
    await gp.settle()
    fins = gp.finished()
    assert [f.outcome for f in fins[:3]] == [None, None, None]
    assert (fins[3].outcome.first_points, fins[3].outcome.second_points) == (0, 2) and fins[3].playoff_id == "po1"


async def test_stream_events_in_order_and_resume_from_since(gp):
    await gp.publish(round_paired(pairing("p1", "alice", "bob")))
    gid = await _only_game(gp)
    await gp.api.join_both(gid, "alice", "bob")
    await _play(gp, gid, "alice", "bob", FIVE_FOR_FIRST)
    text = (await gp.api.get(f"/v1/games/{gid}/events", since=0, follow="false")).text
    ids = [int(line[4:]) for line in text.splitlines() if line.startswith("id: ")]
    assert ids == list(range(1, len(ids) + 1)) and "event: finished" in text
    resumed = (await gp.api.get(f"/v1/games/{gid}/events", since=ids[-3], follow="false")).text
    assert [int(line[4:]) for line in resumed.splitlines() if line.startswith("id: ")] == ids[-2:]


async def test_game_created_then_started_when_both_are_present_with_deterministic_ids(gp):
    """issue 27 finding 10: a new game is announced with game.created; game.started comes only
    when both players are present (PLAY-7), once, with the moment its clock started."""
    await gp.publish(round_paired(pairing("p1", "alice", "bob"), rnd=3))
    await gp.publish(round_paired(pairing("p1", "alice", "bob"), rnd=3))  # a second delivery of the same pairing
    [created] = gp.payloads("game.created")
    assert created.game_id == "EV.main.S1.r3.p1.g1" and created.black == "alice" and created.round == 3
    assert gp.started() == []
    assert (await gp.api.act(created.game_id, "join", "alice")).status_code == 200
    await gp.settle()
    assert gp.started() == []
    assert (await gp.api.act(created.game_id, "join", "bob")).status_code == 200
    await gp.settle()
    [started] = gp.started()
    assert started.game_id == created.game_id and started.black == "alice" and started.white == "bob"
    assert started.started_at == gp.clock.now()  # the round's start had come: the clock runs from now
    await gp.api.act(created.game_id, "join", "bob")  # present again: nothing new
    await gp.settle()
    assert len(gp.started()) == 1


async def test_an_idempotency_key_is_bound_to_its_request_replayed_with_a_header_and_expires(gp):
    """A move for game b4 sent with the key of a move in b3 is refused (409), not answered with
    b3's summary; a replay says so (Idempotent-Replayed); an expired key is free again."""

    async def wait_games(n: int) -> None:
        assert len((await gp.api.get("/v1/games")).json()["games"]) == n

    await idempotency_scenario(gp.api, gp.publish, gp.clock, wait_games)
