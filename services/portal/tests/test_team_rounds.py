"""A team round as the public pages read it (issue 28, PAIR-9): each match seen from the
first-listed team, boards whose first mover alternates between the teams, colours from the games
(after a swap the first mover need not be black), a team's matches and players seen from it."""

from __future__ import annotations

from portal import names, team_rounds

SECTION = {
    "kind": "team",
    "entrants": [
        {
            "entrant_id": "A",
            "name": "Team A",
            "members": [{"player_id": f"a{b}", "name": f"A{b}", "board": b} for b in (1, 2)],
        },
        {
            "entrant_id": "B",
            "name": "Team B",
            "members": [{"player_id": f"b{b}", "name": f"B{b}", "board": b} for b in (1, 2)],
        },
    ],
}


def _pairing(pid: str, board: int, first: str, second: str, first_team: str, points: tuple[float, float] | None):
    return {
        "pairing_id": pid,
        "board": board,
        "first": first,
        "second": second,
        "first_team": first_team,
        "second_team": "B" if first_team == "A" else "A",
        "result": None if points is None else "decided",
        "first_points": None if points is None else points[0],
        "second_points": None if points is None else points[1],
        "game_results": [{"game_id": f"g-{pid}", "game_no": 1}],
    }


ROUND = {
    "round": 1,
    # PAIR-9: team A moves first on board 1, team B on board 2
    "pairings": [_pairing("p1", 1, "a1", "b1", "A", (2, 0)), _pairing("p2", 2, "b2", "a2", "B", (1, 1))],
    "matches": [
        {
            "match_id": "r1.m1",
            "first_team": "A",
            "second_team": "B",
            "pairing_ids": ["p1", "p2"],
            "boards_decided": 2,
            "first_game_points": 3,
            "second_game_points": 1,
            "result": "first_wins",
            "first_match_points": 2,
            "second_match_points": 0,
        }
    ],
}
#: board 1 swapped: the second mover (b1) plays black
GAMES = {"p1": [{"game_id": "g-p1", "game_no": 1, "black": "b1", "white": "a1", "status": "finished"}]}


def test_a_team_players_are_named_with_their_team_and_board():
    """REG-9: the games name players; the pages find each by id with their team."""
    who = names.by_id(SECTION)
    assert who["a2"] == {"name": "A2", "unit": "Team A", "board": 2, "team": "A", "team_name": "Team A"}
    assert who["A"]["name"] == "Team A"


def test_pair9_match_boards_are_seen_from_the_first_listed_team_with_colours_from_the_games():
    (match,) = team_rounds.matches(ROUND, GAMES)
    assert match["anchor"] == "match-r1-m1"
    one, two = match["boards"]
    assert (one["mine"], one["theirs"], one["my_points"], one["their_points"]) == ("a1", "b1", 2, 0)
    assert (one["my_colour"], one["their_colour"]) == ("white", "black")  # swapped
    # board 2: B moved first, so A's player is the pairing's second and A's points the second's
    assert (two["mine"], two["theirs"], two["my_points"], two["their_points"]) == ("a2", "b2", 1, 1)
    assert two["my_colour"] is None  # no game read: no colour guessed


def test_an_individual_round_has_no_matches():
    assert team_rounds.matches({"round": 1, "pairings": []}, {}) is None


def test_pair9_a_team_page_sees_each_match_and_its_players_from_the_team():
    (played,) = team_rounds.team_matches([ROUND, None], "B")
    assert played["opponent"] == "A" and played["outcome"] == "loss"
    assert (played["my_game_points"], played["their_game_points"]) == (1, 3)
    assert (played["my_match_points"], played["their_match_points"]) == (0, 2)
    rows = team_rounds.players_of(SECTION["entrants"][1], [played])
    assert [(r["player_id"], r["points"]) for r in rows] == [("b1", 0), ("b2", 1)]
    assert rows[0]["rounds"][1]["games"] == [{"game_id": "g-p1", "game_no": 1}]


def test_a_match_not_finished_has_no_outcome_for_the_team():
    unfinished = {
        **ROUND,
        "pairings": [ROUND["pairings"][0], _pairing("p2", 2, "b2", "a2", "B", None)],
        "matches": [
            {
                **ROUND["matches"][0],
                "boards_decided": 1,
                "result": None,
                "first_match_points": None,
                "second_match_points": None,
            }
        ],
    }
    (played,) = team_rounds.team_matches([unfinished], "A")
    assert played["outcome"] is None and played["boards"][1]["my_points"] is None
    rows = team_rounds.member_rounds([unfinished], "a2")
    assert rows == [{"round": 1, "colour": "second", "opponent": "b2", "result": None, "points": None}]
