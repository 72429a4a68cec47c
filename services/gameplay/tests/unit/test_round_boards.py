"""A round's boards in one read and the ETags of the game lists (conditional reads: 304 while no
game changed; a move, a join or a result changes the tag). Rules: PLAY-1 (the board as played),
PLAY-5 (the clocks), PLAY-3 (black's forbidden points shown while black is to move)."""

from __future__ import annotations

import pytest
from gameplay_kit import OP, pairing, round_paired

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow

BOARDS = "/v1/rounds/EV/S1/1/boards"
ROUND = "/v1/rounds/EV/S1/1/games"


async def _round(gp) -> list[str]:
    await gp.publish(
        round_paired(
            pairing("p1", "alice", "bob", track="professional", base_s=600),
            pairing("p2", "carol", "dave", base_s=600),
            pairing("p3", "erin", "frank", base_s=600),
        )
    )
    games = (await gp.api.get(ROUND)).json()["games"]
    assert len(games) == 3
    return [g["game_id"] for g in games]


def _conditional(tag: str) -> dict[str, str]:
    return {**OP, "if-none-match": tag}


async def test_play1_play5_the_boards_of_a_round_are_its_games_views_in_one_read(gp):
    first, second, third = await _round(gp)
    await gp.api.join_both(second, "carol", "dave")
    for index, point in enumerate(["h8", "h9", "i9", "j10"]):
        mover = "carol" if index % 2 == 0 else "dave"
        assert (await gp.api.act(second, "move", mover, point=point)).status_code == 200
    gp.clock.advance(7)
    r = await gp.api.get(BOARDS)
    assert r.status_code == 200 and r.headers["etag"]
    boards = {b["game_id"]: b for b in r.json()["games"]}
    assert list(boards) == sorted([first, second, third]) and r.json()["next_cursor"] is None
    for game_id, board in boards.items():
        view = await gp.api.game(game_id)
        for field in ("status", "phase", "to_act", "seq", "black", "white", "moves", "board", "result", "opening"):
            assert board[field] == view[field], (game_id, field)
    played = boards[second]
    assert played["moves"] == ["h8", "h9", "i9", "j10"] and played["board"][0] == {"point": "h8", "colour": "black"}
    # PLAY-5: the clocks as of now, as in the game view
    assert played["clocks"] == (await gp.api.game(second))["clocks"] and played["clocks"]["running"] == "black"
    assert played["clocks"]["black_ms"] == 600_000 - 7000 and played["clocks"]["white_ms"] == 600_000
    assert played["clocks"]["at_ms"] == int(gp.clock.now().timestamp() * 1000)  # when they were read
    assert boards[first]["clocks"]["running"] is None and boards[first]["status"] == "waiting"


async def test_play3_a_board_shows_blacks_forbidden_points_like_the_game_view(gp):
    first, _second, _third = await _round(gp)
    await gp.api.join_both(first, "alice", "bob")
    steps = [
        ("opening", "alice", {"stones": ["h8", "h9", "j10"], "n": 2}),
        ("swap", "bob", {"swap": False}),
        ("move", "bob", {"point": "a1"}),
        ("offers", "alice", {"points": ["j9", "l12"]}),
        ("choose", "bob", {"point": "j9"}),
        ("move", "bob", {"point": "a2"}),
        ("move", "alice", {"point": "i8"}),
        ("move", "bob", {"point": "a3"}),
    ]
    for kind, player, body in steps:
        assert (await gp.api.act(first, kind, player, **body)).status_code == 200
    [board] = [b for b in (await gp.api.get(BOARDS)).json()["games"] if b["game_id"] == first]
    assert board["forbidden"].get("j8") == "double_three"
    assert board["forbidden"] == (await gp.api.game(first))["forbidden"]


async def test_the_boards_read_answers_304_until_a_move_then_a_new_tag(gp):
    _first, second, third = await _round(gp)
    tag = (await gp.api.get(BOARDS)).headers["etag"]
    unchanged = await gp.api.get(BOARDS, headers=_conditional(tag))
    assert unchanged.status_code == 304 and unchanged.headers["etag"] == tag and unchanged.content == b""
    gp.clock.advance(30)  # no clock runs yet (nobody joined): time alone changes no board
    assert (await gp.api.get(BOARDS, headers=_conditional(tag))).status_code == 304
    await gp.api.join_both(second, "carol", "dave")
    joined = await gp.api.get(BOARDS, headers=_conditional(tag))
    assert joined.status_code == 200 and joined.headers["etag"] != tag
    # PLAY-5: a running clock changes its board with time alone: the round is read in full
    gp.clock.advance(2)
    ticked = await gp.api.get(BOARDS, headers=_conditional(joined.headers["etag"]))
    assert ticked.status_code == 200 and ticked.headers["etag"] != joined.headers["etag"]
    [clocks] = [b["clocks"] for b in ticked.json()["games"] if b["game_id"] == second]
    assert clocks["running"] == "black" and clocks["black_ms"] == 600_000 - 2000
    assert (await gp.api.act(second, "move", "carol", point="h8")).status_code == 200
    moved = await gp.api.get(BOARDS, headers=_conditional(ticked.headers["etag"]))
    assert moved.status_code == 200 and moved.headers["etag"] != ticked.headers["etag"]
    assert [b["moves"] for b in moved.json()["games"] if b["game_id"] == second] == [["h8"]]
    # once no clock runs (the game ended) the round's answer holds again: 304
    r = await gp.api.post(f"/v1/games/{second}/adjudicate", {"result": "black", "reason": "arbiter"})
    assert r.status_code == 200, r.text
    ended = await gp.api.get(BOARDS)
    assert [b["result"] for b in ended.json()["games"] if b["game_id"] == second] == ["black"]
    assert (await gp.api.get(BOARDS, headers=_conditional(ended.headers["etag"]))).status_code == 304
    assert third in [b["game_id"] for b in ended.json()["games"]]


async def test_the_boards_read_pages_by_cursor_and_each_page_has_its_tag(gp):
    ids = await _round(gp)
    first_page = await gp.api.get(BOARDS, limit=2)
    assert [b["game_id"] for b in first_page.json()["games"]] == sorted(ids)[:2]
    rest = await gp.api.get(BOARDS, limit=2, cursor=first_page.json()["next_cursor"])
    assert [b["game_id"] for b in rest.json()["games"]] == sorted(ids)[2:] and rest.json()["next_cursor"] is None
    assert first_page.headers["etag"] != rest.headers["etag"]
    assert (await gp.api.get(BOARDS, headers=_conditional(rest.headers["etag"]))).status_code == 200


async def test_the_game_lists_answer_304_until_a_move_or_a_result_changes_a_game(gp):
    _first, second, third = await _round(gp)
    await gp.api.join_both(second, "carol", "dave")
    for path, params in ((ROUND, {}), ("/v1/games", {"event": "EV", "section": "S1", "round": 1})):
        tag = (await gp.api.get(path, **params)).headers["etag"]
        assert (await gp.api.get(path, headers=_conditional(tag), **params)).status_code == 304
        assert (await gp.api.get(path, headers=_conditional(f'W/{tag}, "other"'), **params)).status_code == 304
        # another page of the same list is another answer: its own tag
        assert (await gp.api.get(path, headers=_conditional(tag), limit=1, **params)).status_code == 200
    round_tag = (await gp.api.get(ROUND)).headers["etag"]
    list_tag = (await gp.api.get("/v1/games", event="EV", section="S1", round=1)).headers["etag"]
    assert (await gp.api.act(second, "move", "carol", point="h8")).status_code == 200
    moved = await gp.api.get(ROUND, headers=_conditional(round_tag))
    assert moved.status_code == 200 and moved.headers["etag"] != round_tag
    listed = await gp.api.get("/v1/games", headers=_conditional(list_tag), event="EV", section="S1", round=1)
    assert listed.status_code == 200 and listed.headers["etag"] != list_tag
    # a result (the arbiter's adjudication) changes the tag too
    await gp.api.join_both(third, "erin", "frank")
    round_tag = (await gp.api.get(ROUND)).headers["etag"]
    r = await gp.api.post(f"/v1/games/{third}/adjudicate", {"result": "draw", "reason": "agreed at the board"})
    assert r.status_code == 200, r.text
    decided = await gp.api.get(ROUND, headers=_conditional(round_tag))
    assert decided.status_code == 200 and decided.headers["etag"] != round_tag
    assert [g["result"] for g in decided.json()["games"] if g["game_id"] == third] == ["draw"]
