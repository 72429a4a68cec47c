"""PAIR-1/PAIR-2 at closing, SZ 九(一): an arbiter's Swiss keeps the regulation's rounds up to the
most the field can play at all (n − 1 rounds, n if odd: a round robin's; registration.domain.
swiss_limit) — beyond the ⌈n/2⌉ any field is guaranteed, the pairing's look-ahead keeps every
round pairable; closing refuses only a longer Swiss, with a 422 naming PAIR-2, the numbers and
the round robin, before anything is closed."""

from __future__ import annotations

from datetime import datetime
from functools import cache

import pytest
from registration_kit import CST, OP, P1, harness, sz_entry

from registration import presets
from registration.domain import FormatChoice, SwissRoundsExceedField, choose_format, max_swiss_rounds
from registration.domain.swiss_limit import guaranteed_swiss_rounds

SZ = presets.load("sz-2022")


@pytest.mark.parametrize(
    ("entrants", "guaranteed", "most"),
    [
        (2, 1, 1),
        (3, 2, 3),
        (4, 2, 3),
        (5, 3, 5),
        (6, 3, 5),
        (7, 4, 7),
        (8, 4, 7),
        (9, 5, 9),
        (10, 5, 9),
        (13, 7, 13),
        (14, 7, 13),
        (16, 8, 15),
        (128, 64, 127),
    ],
)
def test_pair2_the_swiss_rounds_a_field_is_guaranteed_and_the_most_it_can_play(entrants, guaranteed, most):
    """PAIR-2: ⌈n/2⌉ guaranteed whatever the history; at most n − 1 (n if odd: a bye counts as a
    game against a dummy, one each) — the round robin's rounds."""
    assert guaranteed_swiss_rounds(entrants) == guaranteed
    assert max_swiss_rounds(entrants) == most


@pytest.mark.parametrize(
    ("section", "entrants", "choice", "outcome"),
    [
        # SZ 九(一): a free section of 8 (merging only below 8) keeps the preset's 7 rounds
        ("men-free", 8, FormatChoice("swiss"), ("swiss", 7)),
        ("men-free", 8, FormatChoice("swiss", 4), ("swiss", 4)),
        ("men-free", 8, FormatChoice("swiss", 8), ("refused", 8, 7)),
        ("men-free", 8, FormatChoice("round_robin"), ("round_robin", 7)),
        ("men-free", 10, FormatChoice("swiss"), ("swiss", 7)),
        ("men-free", 13, FormatChoice("swiss"), ("swiss", 7)),
        ("men-free", 12, FormatChoice("swiss"), ("swiss", 7)),
        ("men-free", 128, FormatChoice("swiss"), ("swiss", 7)),
        # professional: 5 rounds (merging only below 6): a section of 6, 7 or 8 keeps them
        ("men-pro", 9, FormatChoice("swiss"), ("swiss", 5)),
        ("men-pro", 8, FormatChoice("swiss"), ("swiss", 5)),
        ("men-pro", 7, FormatChoice("swiss"), ("swiss", 5)),
        ("men-pro", 6, FormatChoice("swiss"), ("swiss", 5)),
        ("men-pro", 6, FormatChoice("swiss", 6), ("refused", 6, 5)),
        ("men-pro", 4, FormatChoice("swiss"), ("refused", 5, 3)),
        ("men-pro", 3, FormatChoice("swiss", 3), ("swiss", 3)),
        # a field of fewer than 2 is cancelled at closing, not refused
        ("men-pro", 1, FormatChoice("swiss"), ("swiss", 5)),
    ],
)
def test_pair2_an_arbiters_swiss_longer_than_the_field_can_play_is_refused(section, entrants, choice, outcome):
    """PAIR-1/PAIR-2, SZ 九(一): the arbiter's choice at closing, table-driven."""
    sec = SZ.section(section)
    if outcome[0] == "refused":
        with pytest.raises(SwissRoundsExceedField) as refused:
            choose_format(sec, entrants, choice)
        assert (refused.value.entrants, refused.value.rounds, refused.value.max_rounds) == (entrants, *outcome[1:])
        text = str(refused.value)
        assert "PAIR-2" in text and f"{entrants} entrants" in text and "round robin" in text
    else:
        assert choose_format(sec, entrants, choice) == outcome


# ---------------------------------------------------------------------- the bound, checked exhaustively


@cache
def _rounds(players: int) -> tuple[frozenset[frozenset[int]], ...]:
    """Every complete round (perfect matching) of `players` players."""

    def build(left: tuple[int, ...]) -> list[frozenset[frozenset[int]]]:
        if not left:
            return [frozenset()]
        first, rest = left[0], left[1:]
        out = []
        for other in rest:
            remaining = tuple(p for p in rest if p != other)
            out += [tail | {frozenset((first, other))} for tail in build(remaining)]
        return out

    return tuple(build(tuple(range(players))))


def _next_rounds(players: int, met: frozenset[frozenset[int]]) -> list[frozenset[frozenset[int]]]:
    return [one for one in _rounds(players) if not one & met]


@pytest.mark.parametrize("entrants", [2, 3, 4, 5, 6, 7, 8])
def test_pair2_every_round_up_to_the_bound_pairs_without_a_rematch_whatever_came_before(entrants):
    """PAIR-2: for every history of rounds without a rematch, each round up to ⌈n/2⌉ still has a
    pairing without one (an odd field: a dummy player gives the bye; nobody gets two)."""
    players = entrants + entrants % 2
    most = guaranteed_swiss_rounds(entrants)
    first = _rounds(players)[0]  # any first round is this one after renumbering the players
    histories = [first]
    for _ in range(2, most + 1):
        grown = []
        for met in histories:
            following = _next_rounds(players, met)
            assert following, f"{entrants} entrants: no pairing without a rematch after {sorted(map(sorted, met))}"
            grown += [met | one for one in following]
        histories = grown


def test_pair2_the_bound_is_exact_for_six_entrants():
    """PAIR-2: 6 entrants, 3 rounds in which players 0-2 each met players 3-5 leave two triangles
    of players who have not met: round 4 has no pairing without a rematch (why 4 or 5 Swiss
    rounds of 6 need the pairing's look-ahead)."""
    played = [frozenset(frozenset((i, 3 + (i + shift) % 3)) for i in range(3)) for shift in range(3)]
    assert all(one in _rounds(6) for one in played) and len(frozenset().union(*played)) == 9
    assert _next_rounds(6, frozenset().union(*played)) == []


# ---------------------------------------------------------------------- over HTTP

FIELD = (
    [("men-free", "male", n, "1990-05-05") for n in range(1, 9)]
    + [("women-free", "female", n, "1991-06-06") for n in range(11, 19)]
    + [("men-pro", "male", n, "1988-01-01") for n in range(21, 27)]
    + [("women-pro", "female", n, "1992-02-02") for n in range(31, 37)]
)
URL = "/v1/events/sz22/stages/online/close"


def _choices(men_free: dict) -> dict:
    return {
        "format_choices": {
            "men-free": men_free,
            "women-free": {"kind": "round_robin"},
            "men-pro": {"kind": "round_robin"},
            "women-pro": {"kind": "swiss", "rounds": 3},
        },
        "not_checked_in": "present",
    }


async def test_pair2_closing_refuses_only_a_swiss_longer_than_a_round_robin_and_keeps_sz_seven_rounds(tmp_path):
    """PAIR-1/PAIR-2, SZ 九(一): closing with a 9-round Swiss of 8 entrants is refused up front (422,
    the common error shape naming PAIR-2, the entrants, the rounds and the most the field can
    play, 7 — a round robin's); the stage stays open and closes with the preset's 7 rounds."""
    async with harness(tmp_path) as h:
        await h.create_sz()
        rows = [sz_entry(n, section=sec, gender=g, born=born) for sec, g, n, born in FIELD]
        r = await h.client.post("/v1/events/sz22/entries/bulk", headers=P1, json={"entries": rows})
        assert r.status_code == 201, r.text
        h.clock.set(datetime(2022, 11, 4, 9, 0, tzinfo=CST))
        r = await h.client.post(URL, headers=OP, json=_choices({"kind": "swiss", "rounds": 9}))
        assert r.status_code == 422, r.text
        error = r.json()["error"]
        assert error["code"] == "swiss_rounds_exceed_field" and "PAIR-2" in error["message"]
        assert error["details"] == {
            "rule": "PAIR-2",
            "section_id": "men-free",
            "section_name": SZ.section("men-free").name,
            "section_name_zh": SZ.section("men-free").name_zh,
            "entrants": 8,
            "rounds": 9,
            "max_rounds": 7,
        }
        status = (await h.client.get("/v1/events/sz22/stages/online", headers=P1)).json()
        assert status["status"] != "closed"
        r = await h.client.post(URL, headers=OP, json=_choices({"kind": "swiss"}))
        assert r.status_code == 200, r.text
        men = next(s for s in r.json()["sections"] if s["section_id"] == "men-free")
        assert (men["status"], men["entrants"], men["format"], men["rounds"]) == ("ready", 8, "swiss", 7)
