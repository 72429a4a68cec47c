"""Over-the-board games on SQLite + the in-memory bus (PLAY-9, PLAY-10): an offline round is
created without a clock or a no-show deadline, nobody plays it over the API, its results come
from confirmed result slips and end the games exactly like online results (game.finished); its
records are checked by the engine and flagged; a recorder enters moves live."""

from __future__ import annotations

from gameplay_kit import ARB, OP, pairing, round_paired

G1 = "EV.main.S1.r1.p1.g1"
G2 = "EV.main.S1.r1.p2.g1"
PRO_MOVES = ["h8", "h9", "h10", "a1", "j8", "a3", "j10", "a5"]
PRO_OPENING = {"n": 1, "swapped": False, "offers": ["j8"]}


async def slip(gp, gid: str, result: str, reason: str, headers=ARB, confirms: int | None = None):
    body = {"result": result, "reason": reason, "confirms": confirms}
    return await gp.api.post(f"/v1/games/{gid}/slips", body, headers=headers)


async def test_play9_an_offline_round_entered_from_slips_mismatch_refused_confirmation_accepted(gp):
    """PLAY-9 (SZ final, NY, DA, NT at a venue): no server clock, no no-show sweep, no player moves
    over the API; a slip counts only when a second entry confirms it; a mismatch is shown and
    nothing is scored; the confirmed result goes out as game.finished like an online result."""
    await gp.publish(round_paired(pairing("p1", "alice", "bob"), pairing("p2", "carol", "dave"), mode="offline"))
    g = await gp.api.game(G1)
    assert (g["mode"], g["status"], g["clocks"]["running"]) == ("offline", "waiting", None)
    for what, who, body in (("join", "alice", {}), ("move", "alice", {"point": "h8"}), ("resign", "bob", {})):
        r = await gp.api.act(G1, what, who, **body)
        assert r.status_code == 409 and r.json()["error"]["code"] == "over_the_board", (what, r.text)
    gp.clock.advance(3600)  # far past any no-show limit: over the board nothing is swept
    assert (await gp.api.post("/v1/ops/sweep")).json() == {"flags": 0, "no_shows": 0, "double_forfeits": 0}

    first = await slip(gp, G1, "black", "five")
    assert first.status_code == 200, first.text
    assert [s["status"] for s in first.json()["slips"]] == ["pending"]
    mismatch = await slip(gp, G1, "white", "five", headers=OP, confirms=1)
    assert mismatch.status_code == 409 and mismatch.json()["error"]["code"] == "slip_mismatch", mismatch.text
    details = mismatch.json()["error"]["details"]
    assert (details["slip"]["result"], details["confirmation"]["result"]) == ("black", "white")
    listed = (await gp.api.get(f"/v1/games/{G1}/slips")).json()["slips"]
    assert [s["status"] for s in listed] == ["disputed", "mismatch"]
    assert (await gp.api.game(G1))["status"] == "waiting"
    await gp.settle()
    assert gp.finished() == []  # nothing scored

    assert (await slip(gp, G1, "black", "five")).status_code == 200
    confirmed = await slip(gp, G1, "black", "five", headers=OP, confirms=3)
    assert confirmed.status_code == 200, confirmed.text
    assert confirmed.json()["game"]["status"] == "finished"
    # issue 29: the same arbiter may not confirm their own slip (409 same_person_confirms, with
    # the words in Chinese and English); another one does: carol's game
    assert (await slip(gp, G2, "draw", "agreement")).status_code == 200
    own = await slip(gp, G2, "draw", "agreement", confirms=1)
    assert own.status_code == 409 and own.json()["error"]["code"] == "same_person_confirms", own.text
    assert set(own.json()["error"]["details"]["words"]) == {"zh", "en"}
    assert (await slip(gp, G2, "draw", "agreement", headers=OP, confirms=1)).status_code == 200
    await gp.settle()
    results = {f.game_id: (f.result, f.reason, f.winner, f.outcome.first_points) for f in gp.finished()}
    assert results == {G1: ("black", "five", "alice", 2), G2: ("draw", "agreement", None, 1)}
    again = await slip(gp, G1, "white", "five", headers=OP, confirms=4)
    assert again.status_code == 409 and again.json()["error"]["code"] == "slip_confirmed"


async def test_play9_a_two_game_offline_round_continues_over_the_board(gp):
    """PAIR-5 over the board: game 2 of a two-game round is an offline game too, and the round's
    points come with the last confirmed slip."""
    await gp.publish(round_paired(pairing("p1", "alice", "bob", games=2), mode="offline"))
    await slip(gp, G1, "white", "resignation")
    assert (await slip(gp, G1, "white", "resignation", headers=OP, confirms=1)).status_code == 200
    g2 = await gp.api.game("EV.main.S1.r1.p1.g2")
    assert (g2["mode"], g2["status"], g2["black"]) == ("offline", "waiting", "bob")
    await slip(gp, "EV.main.S1.r1.p1.g2", "black", "time")
    assert (await slip(gp, "EV.main.S1.r1.p1.g2", "black", "time", headers=OP, confirms=1)).status_code == 200
    await gp.settle()
    last = [f for f in gp.finished() if f.game_no == 2][0]
    assert (last.winner, last.reason, last.outcome.first_points, last.outcome.second_points) == ("bob", "time", 0, 2)


async def test_play9_records_with_a_forbidden_move_or_an_illegal_opening_are_flagged_then_decided(gp):
    """PLAY-9 / PLAY-3, NT 十二(五): a record entered after the game is replayed by the rules
    engine; black's forbidden move and an illegal opening are flagged (stored, in the API and the
    arbiter's list), never accepted silently; the arbiter accepts or enters a correction."""
    await gp.publish(
        round_paired(
            pairing("p1", "alice", "bob", track="professional"),
            pairing("p2", "carol", "dave", track="professional"),
            mode="offline",
        )
    )
    body = {"moves": [*PRO_MOVES, "i9"], "opening": PRO_OPENING}
    r = await gp.api.post(f"/v1/games/{G1}/record-entries", body, headers=ARB)
    assert r.status_code == 201, r.text
    entry = r.json()
    assert entry["status"] == "flagged"
    assert [(f["ply"], f["code"], f["move"]) for f in entry["flags"]] == [(9, "forbidden", "i9")]
    assert "double_three" in entry["flags"][0]["reason"]
    bad = {"moves": ["h8", "h9", "l12", "a1"], "opening": {"n": 1}}
    r = await gp.api.post(f"/v1/games/{G2}/record-entries", bad, headers=ARB)
    assert r.json()["status"] == "flagged" and r.json()["flags"][0]["code"] == "illegal_opening"
    flagged = (await gp.api.get("/v1/events/EV/record-flags", headers=ARB)).json()["entries"]
    assert {(e["game_id"], e["flags"][0]["code"]) for e in flagged} == {(G1, "forbidden"), (G2, "illegal_opening")}
    # a viewer-level read shows the flags too; a partner cannot enter records
    listed = (await gp.api.get(f"/v1/games/{G1}/record-entries")).json()["entries"]
    assert listed[0]["flags"][0]["code"] == "forbidden"
    refused = await gp.api.post(f"/v1/games/{G1}/record-entries", body, headers={"x-api-key": "pa-key"})
    assert refused.status_code == 403
    # the arbiter accepts G1's record as played (the forbidden move lost the game), corrects G2's
    accepted = await gp.api.post(
        f"/v1/games/{G1}/record-entries/1/accept", {"note": "foul seen at the board"}, headers=ARB
    )
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"
    corrected = await gp.api.post(
        f"/v1/games/{G2}/record-entries", {"moves": PRO_MOVES, "opening": PRO_OPENING}, headers=ARB
    )
    assert corrected.json()["status"] == "valid" and corrected.json()["flags"] == []
    statuses = [e["status"] for e in (await gp.api.get(f"/v1/games/{G2}/record-entries")).json()["entries"]]
    assert statuses == ["superseded", "valid"]
    assert (await gp.api.get("/v1/events/EV/record-flags", headers=ARB)).json()["entries"] == []
    again = await gp.api.post(f"/v1/games/{G1}/record-entries/1/accept", {"note": "twice"}, headers=ARB)
    assert again.status_code == 409


async def test_play10_the_recorder_enters_moves_live_and_a_forbidden_move_is_flagged(gp):
    """PLAY-10 (NT 十二(五) live broadcast): a per-game recorder secret; the recorder's moves are
    the game's moves (stream, view); black's forbidden point is flagged, not put on the board; a
    five does not end the game before the confirmed slip (PLAY-9)."""
    await gp.publish(round_paired(pairing("p1", "alice", "bob", track="professional"), mode="offline"))
    issued = await gp.api.post(f"/v1/games/{G1}/recorder", {}, headers=ARB)
    assert issued.status_code == 201, issued.text
    secret = {"X-Recorder-Secret": issued.json()["recorder_secret"]}
    step = {"kind": "opening", "stones": ["h8", "h9", "h10"], "n": 1}
    assert (await gp.api.post(f"/v1/games/{G1}/recorded", step, headers={})).status_code == 403
    assert (
        await gp.api.post(f"/v1/games/{G1}/recorded", step, headers={"X-Recorder-Secret": "guess"})
    ).status_code == 403
    steps = [
        step,
        {"kind": "swap", "swap": False},
        {"kind": "move", "point": "a1"},
        {"kind": "offers", "points": ["j8"]},
        {"kind": "choose", "point": "j8"},
        {"kind": "move", "point": "a3"},
        {"kind": "move", "point": "j10"},
        {"kind": "move", "point": "a5"},
    ]
    for body in steps:
        r = await gp.api.post(f"/v1/games/{G1}/recorded", body, headers=secret)
        assert r.status_code == 200 and r.json()["flag"] is None, (body, r.text)
    g = await gp.api.game(G1)
    assert g["moves"] == PRO_MOVES and g["status"] == "active"
    r = await gp.api.post(f"/v1/games/{G1}/recorded", {"kind": "move", "point": "i9"}, headers=secret)
    assert r.status_code == 200 and r.json()["flag"]["code"] == "forbidden", r.text
    assert (await gp.api.game(G1))["moves"] == PRO_MOVES  # not on the board
    stream = (await gp.api.get(f"/v1/games/{G1}/events", since=0, follow="false")).text
    assert "event: flagged" in stream and stream.count('"action"') >= 8
    flagged = (await gp.api.get("/v1/events/EV/record-flags", headers=ARB)).json()["entries"]
    assert flagged[0]["source"] == "recorder" and flagged[0]["moves"][-1] == "i9"
    # the recorder corrects: black played k11 (a legal point), then white wins with five later
    assert (await gp.api.post(f"/v1/games/{G1}/recorded", {"kind": "move", "point": "k11"}, headers=secret)).json()[
        "flag"
    ] is None
    # a slip ends it; the recorder can enter nothing after that
    await slip(gp, G1, "white", "resignation")
    assert (await slip(gp, G1, "white", "resignation", headers=OP, confirms=1)).status_code == 200
    late = await gp.api.post(f"/v1/games/{G1}/recorded", {"kind": "move", "point": "b2"}, headers=secret)
    assert late.status_code == 409
    await gp.settle()
    [fin] = gp.finished()
    assert (fin.result, fin.reason, fin.moves[:9]) == ("white", "resignation", [*PRO_MOVES, "k11"])


async def test_play9_online_games_have_no_slips_or_recorder(gp):
    await gp.publish(round_paired(pairing("p1", "alice", "bob")))
    r = await slip(gp, G1, "black", "five")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_over_the_board"
    assert (await gp.api.post(f"/v1/games/{G1}/recorder", {}, headers=ARB)).status_code == 409


async def test_play9_the_flagged_records_of_an_event_page_by_cursor(gp):
    """PLAY-9, the arbiter's queue of flagged records (issue 14: every list pages by cursor): in
    game_id then entry order, ``limit`` per page, ``next_cursor`` to the next page; a cursor it
    did not give out is a 400 in the common error shape."""
    await gp.publish(
        round_paired(
            pairing("p1", "alice", "bob", track="professional"),
            pairing("p2", "carol", "dave", track="professional"),
            mode="offline",
        )
    )
    bad = {"moves": ["h8", "h9", "l12", "a1"], "opening": {"n": 1}}
    for game_id in (G2, G1, G2):
        r = await gp.api.post(f"/v1/games/{game_id}/record-entries", bad, headers=ARB)
        assert r.status_code == 201 and r.json()["status"] == "flagged", r.text
    path = "/v1/events/EV/record-flags"
    whole = (await gp.api.get(path, headers=ARB)).json()
    # a record entered again supersedes the earlier entry of its game: one flagged entry per game
    assert [(e["game_id"], e["entry"]) for e in whole["entries"]] == [(G1, 1), (G2, 2)]
    assert whole["next_cursor"] is None
    first = (await gp.api.get(path, headers=ARB, limit=1)).json()
    assert [e["game_id"] for e in first["entries"]] == [G1] and first["next_cursor"]
    assert {"section_id", "round", "pairing_id", "game_no", "entered_by"} <= first["entries"][0].keys()
    second = (await gp.api.get(path, headers=ARB, limit=1, cursor=first["next_cursor"])).json()
    assert [(e["game_id"], e["entry"]) for e in second["entries"]] == [(G2, 2)] and second["next_cursor"] is None
    refused = await gp.api.get(path, headers=ARB, limit=1, cursor="bm9uc2Vuc2U")
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_cursor"
