"""Issue 28: the player search of an event finds a team section's players (pairing's ``members``,
PAIR-9) by a part of their name, each with their team and linked to their own page; a team found
by its name links to the team's page, an individual section's player to theirs."""

from __future__ import annotations

from portal.player_search import found_in

TEAM_SECTION = {
    "kind": "team",
    "entrants": [
        {
            "entrant_id": "t1",
            "name": "北京",
            "members": [
                {"player_id": "p1", "name": "张三", "board": 1},
                {"player_id": "p2", "name": "张小北", "board": 2},
            ],
        },
        {"entrant_id": "t2", "name": "浙江", "members": [{"player_id": "q1", "name": "李四", "board": 1}]},
    ],
}
MIXED = "/events/nt23/sections/mixed"
SOLO_SECTION = {"entrants": [{"entrant_id": "e1", "name": "张伟", "unit": "江苏"}]}


def test_pair9_a_team_sections_players_are_found_by_name_with_their_team():
    found = found_in("nt23", [("mixed", TEAM_SECTION), ("open", SOLO_SECTION)], "张")
    assert found == [
        {"name": "张三", "unit": "北京", "href": f"{MIXED}/players/p1", "section_id": "mixed", "kind": "member"},
        {"name": "张小北", "unit": "北京", "href": f"{MIXED}/players/p2", "section_id": "mixed", "kind": "member"},
        {
            "name": "张伟",
            "unit": "江苏",
            "href": "/events/nt23/sections/open/players/e1",
            "section_id": "open",
            "kind": "player",
        },
    ]


def test_a_team_found_by_its_name_links_to_the_teams_page():
    found = found_in("nt23", [("mixed", TEAM_SECTION)], "浙江")
    assert [(f["href"], f["kind"], f["unit"]) for f in found] == [(f"{MIXED}/teams/t2", "team", None)]


def test_nothing_typed_or_nobody_matching_finds_nobody():
    assert found_in("nt23", [("mixed", TEAM_SECTION), ("gone", None)], "") == []
    assert found_in("nt23", [("mixed", TEAM_SECTION), ("gone", None)], "王") == []
