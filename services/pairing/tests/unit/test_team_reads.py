"""The public reads of a team section (issue 28): who plays which board, and each round as its
matches with game points and match points (PAIR-9), so that pages name the players and teams."""

from __future__ import annotations

import pytest
from pairing_kit import ARB, EV, Harness, closed, players, rules, sqlite_settings, team_entrants


@pytest.fixture
async def svc(tmp_path):
    h = Harness(sqlite_settings(tmp_path))
    await h.start()
    yield h
    await h.stop()


async def test_reg9_team_section_names_each_teams_players_by_board_and_nothing_more(svc):
    """REG-9: a team's members in board order with their names; no gender, birth year or unit
    of a member in the public answer (docs/privacy.md: what an individual entrant shows)."""
    await svc.send(closed("team", team_entrants(4), rules(kind="team", rounds=3, boards=3)))
    await svc.settle()
    section = (await svc.client.get(f"/v1/events/{EV}/sections/team")).json()
    first = next(e for e in section["entrants"] if e["entrant_id"] == "t01")
    assert first["members"] == [
        {"player_id": "t01m1", "name": "T1 board 1", "board": 1},
        {"player_id": "t01m2", "name": "T1 board 2", "board": 2},
        {"player_id": "t01m3", "name": "T1 board 3", "board": 3},
    ]


async def test_individual_section_entrants_have_no_members_key(svc):
    """The individual section's answer is as before: no ``members``, no ``matches``."""
    await svc.send(closed("open", players(4), rules(rounds=3)))
    await svc.settle()
    section = (await svc.client.get(f"/v1/events/{EV}/sections/open")).json()
    assert section["entrants"] and all("members" not in e for e in section["entrants"])
    rnd = (await svc.client.get(f"/v1/events/{EV}/sections/open/rounds/1")).json()
    assert "matches" not in rnd


async def test_issue32_individual_entrants_name_their_registry_person(svc):
    """Issue 32: each individual entrant of the public section read names its registry person
    (the history page's key; null when registration sent none), and nothing else about them."""
    entrants = [
        e.model_copy(update={"registry_id": f"R-{e.entrant_id}"} if i % 2 else {}) for i, e in enumerate(players(4))
    ]
    await svc.send(closed("open", entrants, rules(rounds=3)))
    await svc.settle()
    section = (await svc.client.get(f"/v1/events/{EV}/sections/open")).json()
    named = {e["entrant_id"]: e["registry_id"] for e in section["entrants"]}
    assert named == {e.entrant_id: (f"R-{e.entrant_id}" if i % 2 else None) for i, e in enumerate(players(4))}


async def test_pair9_team_round_reads_as_matches_with_game_and_match_points(svc):
    """PAIR-9: a match's game points are its boards' points summed per team (a board's first mover
    alternates between the teams), more game points win the match (2), equal draw it (1)."""
    await svc.send(closed("team", team_entrants(4), rules(kind="team", rounds=3, boards=3)))
    await svc.settle()
    path = f"/v1/events/{EV}/sections/team/rounds/1"
    before = (await svc.client.get(path)).json()
    assert len(before["matches"]) == 2
    assert all(m["boards_decided"] == 0 and m["result"] is None for m in before["matches"])
    assert all(m["first_match_points"] is None for m in before["matches"])

    await svc.play_round("team", 1)
    rnd = (await svc.client.get(path)).json()
    by_id = {p["pairing_id"]: p for p in rnd["pairings"]}
    assert sorted(pid for m in rnd["matches"] for pid in m["pairing_ids"]) == sorted(by_id)
    for match in rnd["matches"]:
        boards = [by_id[pid] for pid in match["pairing_ids"]]
        assert [b["board"] for b in boards] == [1, 2, 3]
        assert {b["match_id"] for b in boards} == {match["match_id"]}
        assert boards[0]["first_team"] == match["first_team"]  # the first-listed team moves first on board 1
        mine = sum(b["first_points"] if b["first_team"] == match["first_team"] else b["second_points"] for b in boards)
        theirs = sum(
            b["second_points"] if b["first_team"] == match["first_team"] else b["first_points"] for b in boards
        )
        assert (match["first_game_points"], match["second_game_points"]) == (mine, theirs)
        assert match["boards_decided"] == 3
        expected = (2, 0) if mine > theirs else (0, 2) if mine < theirs else (1, 1)
        assert (match["first_match_points"], match["second_match_points"]) == expected
        assert match["result"] == {(2, 0): "first_wins", (0, 2): "second_wins", (1, 1): "draw"}[expected]


async def test_pair9_a_match_forfeited_on_every_board_by_both_teams_gives_no_match_points(svc):
    """PAIR-9 with PAIR-6: the arbiter enters a double forfeit on each board of a match (neither
    team came): the match reads as a double forfeit, 0 : 0 match points, not a draw."""
    await svc.send(closed("team", team_entrants(4), rules(kind="team", rounds=3, boards=3)))
    await svc.settle()
    path = f"/v1/events/{EV}/sections/team/rounds/1"
    match = (await svc.client.get(path)).json()["matches"][0]
    for n, pid in enumerate(match["pairing_ids"]):
        body = {"pairing_id": pid, "result": "double_forfeit", "expected_revision": 0}
        headers = {**ARB, "Idempotency-Key": f"forfeit-{n}"}
        answer = await svc.client.post(f"/v1/events/{EV}/sections/team/rounds/1/results", json=body, headers=headers)
        assert answer.status_code == 200, answer.text
    read = next(m for m in (await svc.client.get(path)).json()["matches"] if m["match_id"] == match["match_id"])
    assert read["boards_decided"] == 3 and read["result"] == "double_forfeit"
    assert (read["first_game_points"], read["second_game_points"]) == (0, 0)
    assert (read["first_match_points"], read["second_match_points"]) == (0, 0)
