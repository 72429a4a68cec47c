"""The consistency check names the first disagreement between the services (issue 12), on canned
answers of their public HTTP APIs."""

from __future__ import annotations

import copy

import pytest

from gomoku_sim.consistency import check, pairing_result_of_games


class NotFound(Exception):
    status = 404


class Canned:
    """Answers GETs from a dict {(service, path): body}; anything else is a 404."""

    def __init__(self, answers: dict) -> None:
        self.answers = answers

    async def get(self, service: str, path: str, params: dict | None = None):
        key = (service, path)
        if key not in self.answers:
            raise NotFound(f"{service}{path}")
        body = self.answers[key]
        if service == "registration" and path.endswith("/entries"):
            return {"entries": [e for e in body["entries"] if e["stage"] == params["stage"]]}
        return body


def _game(gid, pid, no, result, winner, reason, outcome=None, status="finished"):
    return {
        "game_id": gid,
        "section_id": "s",
        "round": 1,
        "pairing_id": pid,
        "game_no": no,
        "status": status,
        "result": result,
        "winner": winner,
        "reason": reason,
        "outcome": outcome,
        "playoff_id": None,
    }


def _event() -> dict:
    rows = [
        {"place": 1, "entrant_id": "a", "points": 2.0, "tiebreaks": {"buchholz": 0.0}},
        {"place": 2, "entrant_id": "c", "points": 0.0, "tiebreaks": {"buchholz": 2.0}},
        {"place": 2, "entrant_id": "b", "points": 0.0, "tiebreaks": {"buchholz": 0.0}},
        {"place": 2, "entrant_id": "d", "points": 0.0, "tiebreaks": {"buchholz": 0.0}},
    ]
    pairings = [
        {
            "pairing_id": "r1.b1",
            "first": "a",
            "second": "b",
            "result": "first_wins",
            "result_source": "game",
            "game_results": [{"game_id": "g1", "result": "black", "winner": "a", "reason": "five"}],
        },
        {
            "pairing_id": "r1.b2",
            "first": "c",
            "second": "d",
            "result": "double_forfeit",
            "result_source": "game",
            "game_results": [{"game_id": "g2", "result": "double_forfeit", "winner": None, "reason": "no_show"}],
        },
    ]
    return {
        ("pairing", "/v1/events/E/sections"): {
            "sections": [{"section_id": "s", "status": "completed", "current_round": 1, "revision": 1}]
        },
        ("pairing", "/v1/events/E/sections/s"): {"entrants": [{"entrant_id": x} for x in "abcd"]},
        ("pairing", "/v1/events/E/sections/s/rounds/1"): {"status": "complete", "pairings": pairings},
        ("pairing", "/v1/events/E/sections/s/standings"): {"revision": 1, "standings": rows},
        ("gameplay", "/v1/games"): {
            "games": [
                _game("g1", "r1.b1", 1, "black", "a", "five", {"first_points": 2, "second_points": 0}),
                _game("g2", "r1.b2", 1, "double_forfeit", None, "no_show", {"first_points": 0, "second_points": 0}),
            ]
        },
        ("awards", "/v1/events/E/sections/s/standings"): {
            "publication": {"source_revision": 1},
            "rows": copy.deepcopy(rows),
        },
        ("registration", "/v1/events/E"): {"stages": [{"id": "main"}]},
        ("registration", "/v1/events/E/stages/main"): {
            "status": "closed",
            "sections": [
                {"section_id": "s", "closed": {"status": "ready"}},
                {"section_id": "w", "closed": {"status": "merged", "merged_into": "s"}},
            ],
        },
        ("registration", "/v1/events/E/entries"): {
            "entries": [
                {
                    "entry_id": x,
                    "entrant_id": x,
                    "stage": "main",
                    "section_id": "s" if x in "ab" else "w",
                    "status": "accepted_pending_evidence" if x == "d" else "accepted",
                    "no_show": False,
                }
                for x in "abcd"
            ]
            + [
                {
                    "entry_id": "r",
                    "entrant_id": "r",
                    "stage": "main",
                    "section_id": "s",
                    "status": "refused",
                    "no_show": False,
                },
                {
                    "entry_id": "n",
                    "entrant_id": "n",
                    "stage": "main",
                    "section_id": "s",
                    "status": "accepted",
                    "no_show": True,
                },
            ]
        },
    }


async def test_agreeing_services_pass_and_everything_is_counted():
    report = await check(Canned(_event()), "E")
    report.assert_consistent()
    assert report.checked == {
        "games": 2,
        "pairings": 2,
        "game results": 2,
        "standings rows": 4,
        "entries": 4,
        "sections closed": 2,
    }


async def test_pair11_a_game_played_out_after_the_arbiters_result_is_named():
    """The bug of issue 12: pairing scored the arbiter's result, gameplay's game shows another."""
    ev = _event()
    ev[("pairing", "/v1/events/E/sections/s/rounds/1")]["pairings"][0].update(
        result="second_wins", result_source="arbiter"
    )
    report = await check(Canned(ev), "E", parts=("games",))
    assert not report.ok
    with pytest.raises(
        AssertionError,
        match=r"\[games\] s round 1 r1.b1: pairing scored second_wins \(arbiter\), "
        r"gameplay shows first_wins",
    ):
        report.assert_consistent()


async def test_play7_double_forfeit_shown_as_a_draw_disagrees():
    ev = _event()
    ev[("gameplay", "/v1/games")]["games"][1].update(result="draw", outcome={"first_points": 1, "second_points": 1})
    report = await check(Canned(ev), "E", parts=("games",))
    assert "gameplay shows draw" in str(report.disagreements[0])


async def test_an_open_game_and_an_unknown_pairing_are_named():
    ev = _event()
    games = ev[("gameplay", "/v1/games")]["games"]
    games[0]["status"] = "active"
    games.append(_game("g9", "r1.b9", 1, "black", "x", "five", {"first_points": 2, "second_points": 0}))
    report = await check(Canned(ev), "E", parts=("games",))
    assert [str(d) for d in report.disagreements] == [
        "[games] s round 1 r1.b1: pairing scored first_wins but gameplay's ['g1'] are not finished",
        "[games] s round 1 r1.b9: gameplay has games ['g9'] of a pairing pairing does not know",
    ]


async def test_awd8_awards_on_an_older_revision_or_other_rows_disagree():
    ev = _event()
    ev[("awards", "/v1/events/E/sections/s/standings")]["publication"]["source_revision"] = 0
    report = await check(Canned(ev), "E", parts=("awards",))
    assert "awards used section revision 0, pairing's final is 1" in str(report.disagreements[0])
    ev = _event()
    ev[("awards", "/v1/events/E/sections/s/standings")]["rows"][1]["points"] = 1.0
    report = await check(Canned(ev), "E", parts=("awards",))
    assert "standings differ at row 2" in str(report.disagreements[0])


async def test_reg12_an_accepted_entry_missing_or_twice_in_the_field_is_named():
    """REG-12: entries of a merged section play in the section it was merged into; REG-18: an entry
    accepted pending evidence is in the field too; refused and absent (REG-11) entries are not."""
    ev = _event()
    ev[("pairing", "/v1/events/E/sections/s")]["entrants"] = [{"entrant_id": x} for x in "abcc"]
    report = await check(Canned(ev), "E", parts=("field",))
    assert [str(d) for d in report.disagreements] == [
        "[field] main/s: accepted entry c appears 2 times in pairing's field",
        "[field] main/s: accepted entry d appears 0 times in pairing's field",
    ]


def test_pair5_two_game_pairing_result_is_read_from_its_last_game():
    g1 = _game("g1", "p", 1, "black", "a", "five")
    g2 = _game("g2", "p", 2, "black", "b", "five", {"first_points": 1, "second_points": 1})
    assert pairing_result_of_games([g2, g1]) == "draw"
    assert pairing_result_of_games([g1]) is None  # the pairing goes on
    forfeit = _game("g1", "p", 1, "white", "b", "no_show", {"first_points": 0, "second_points": 2})
    assert pairing_result_of_games([forfeit]) == "second_forfeit_win"


async def test_reg9_a_team_whose_boards_differ_between_registration_and_pairing_is_named():
    """REG-9 (fixed boards): a team entry's players, board by board, are the members pairing pairs;
    the same players on other boards (or another player) is a disagreement."""
    ev = _event()
    entrants = [{"entrant_id": x} for x in "abcd"]
    entrants[0]["members"] = [
        {"player_id": "a2", "name": "Li", "board": 2},
        {"player_id": "a1", "name": "Wang", "board": 1},
    ]
    entrants[1]["members"] = [
        {"player_id": "b1", "name": "Zhao", "board": 1},
        {"player_id": "b2", "name": "Qian", "board": 2},
    ]
    ev[("pairing", "/v1/events/E/sections/s")]["entrants"] = entrants
    for entry in ev[("registration", "/v1/events/E/entries")]["entries"]:
        entry["players"] = {
            "a": [{"player_id": "a1", "name": "Wang"}, {"player_id": "a2", "name": "Li"}],
            "b": [{"player_id": "b2", "name": "Qian"}, {"player_id": "b1", "name": "Zhao"}],
        }.get(entry["entry_id"], [])
    report = await check(Canned(ev), "E", parts=("field",))
    assert report.checked["team boards"] == 4
    assert [str(d) for d in report.disagreements] == [
        "[field] main/s: team entry b: registration has boards [('b2', 'Qian'), ('b1', 'Zhao')], "
        "pairing plays [('b1', 'Zhao'), ('b2', 'Qian')]"
    ]


async def test_reg12_a_section_closed_otherwise_than_pairing_has_it_is_named():
    """REG-12: closed ready → a pairing section that plays; merged → into a section pairing has;
    cancelled → cancelled in pairing too."""
    ev = _event()
    ev[("registration", "/v1/events/E/stages/main")]["sections"] += [
        {"section_id": "x", "closed": {"status": "ready"}},
        {"section_id": "y", "closed": {"status": "merged", "merged_into": "z"}},
        {"section_id": "s2", "closed": {"status": "cancelled"}},
    ]
    ev[("pairing", "/v1/events/E/sections")]["sections"].append(
        {"section_id": "s2", "status": "in_progress", "current_round": 0, "revision": 1}
    )
    ev[("pairing", "/v1/events/E/sections/s2")] = {"entrants": []}
    report = await check(Canned(ev), "E", parts=("field",))
    assert report.checked["sections closed"] == 5
    assert [str(d) for d in report.disagreements] == [
        "[field] main/x: closed ready in registration, absent in pairing",
        "[field] main/y: merged into z, which pairing does not have",
        "[field] main/s2: cancelled in registration, in_progress in pairing",
    ]
