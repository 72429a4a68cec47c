"""PAIR-1 / EVT-7 at closing, in the staff console: registration's refusal of more rounds than the
regulation's maximum (NT 七(二), DA 七(四)) or the schedule's slots is said in plain words, zh-CN
and English, with its numbers."""

from __future__ import annotations

import pytest

from portal import i18n
from portal.staff_pages import _filled

DETAILS = {
    "rule": "PAIR-1",
    "section_id": "mixed-team",
    "section_name": "Mixed team",
    "section_name_zh": "混合团体",
    "entrants": 9,
    "format": "round_robin",
    "rounds": 9,
    "max_rounds": 7,
    "max_rounds_binding": "strict",
    "scheduled_rounds": 7,
    "override": None,
    "choices": [{"kind": "swiss", "rounds": 5}],
    "swiss_rounds": 5,
    "round_robin_rounds": None,
}


@pytest.mark.parametrize(
    ("code", "lang", "expected"),
    [
        (
            "rounds_exceed_maximum",
            "zh",
            ["混合团体", "9 个参赛者", "9 轮", "最多 7 轮", "PAIR-1", "5 轮或更少", "尚未截止"],
        ),
        (
            "rounds_exceed_maximum",
            "en",
            ["Mixed team", "9 entrants", "9 rounds", "maximum of 7", "PAIR-1", "Swiss of 5"],
        ),
        ("rounds_exceed_schedule", "zh", ["混合团体", "9 轮", "只安排了 7 轮", "EVT-7", "5 轮或更少", "尚未截止"]),
        ("rounds_exceed_schedule", "en", ["Mixed team", "9 rounds", "starts only 7", "EVT-7", "Swiss of 5"]),
    ],
)
def test_pair1_evt7_the_round_limit_refusals_are_said_in_words_with_their_numbers(code, lang, expected):
    """PAIR-1 (NT 七(二), DA 七(四)) / EVT-7: both refusals in both languages, filled from the details."""
    assert i18n.known(f"refusal.{code}")
    text = _filled(i18n.Words(lang).t(f"refusal.{code}"), DETAILS)
    assert all(part in text for part in expected), text
    assert "{" not in text and "}" not in text


def test_pair1_the_close_form_sends_the_organisers_reason_beside_a_format():
    """PAIR-1 (DA 七(四) 原则上): a reason typed beside a format travels as `over_max_reason`; a
    blank one is not sent, and a reason without a format is ignored (no choice to attach it to)."""
    from portal.staff_event import _format_choices

    form = {
        "format.open": "round_robin",
        "reason.open": "  nine players meet each other  ",
        "format.junior": "swiss",
        "rounds.junior": "7",
        "reason.junior": "   ",
        "reason.public": "no format chosen",
    }
    assert _format_choices(form) == {
        "open": {"kind": "round_robin", "over_max_reason": "nine players meet each other"},
        "junior": {"kind": "swiss", "rounds": 7},
    }


@pytest.mark.parametrize(
    ("code", "lang", "expected", "not_said"),
    [
        ("rounds_exceed_maximum", "zh", ["混合团体：9 队，", "最多 7 轮", "PAIR-1"], "参赛者"),
        ("rounds_exceed_maximum", "en", ["Mixed team: 9 teams;", "maximum of 7", "PAIR-1"], "entrants"),
        ("swiss_rounds_exceed_field", "zh", ["混合团体：9 队的积分编排制", "PAIR-2"], "名选手"),
        ("swiss_rounds_exceed_field", "en", ["a Swiss of 9 teams", "PAIR-2"], "players"),
    ],
)
def test_pair1_pair2_a_team_sections_field_is_counted_in_teams(code, lang, expected, not_said):
    """PAIR-1 / PAIR-2 at closing on a team section (NT 六(二) 混合团体): the field is "9 队" /
    "9 teams", never people; a section of players keeps its words."""
    from portal.staff_event import in_teams, team_sections

    event = {
        "stages": [
            {"id": "main", "sections": [{"id": "mixed-team", "kind": "team"}, {"id": "open", "kind": "individual"}]}
        ]
    }
    teams = team_sections(event)
    assert teams == {"mixed-team"}
    refused = {"error": {"code": code, "message": "", "details": DETAILS}}
    named = in_teams(refused, teams)["error"]["code"]
    assert named == f"{code}_teams" and i18n.known(f"refusal.{named}")
    text = _filled(i18n.Words(lang).t(f"refusal.{named}"), DETAILS)
    assert all(part in text for part in expected) and not_said not in text, text
    players = {"error": {"code": code, "message": "", "details": {**DETAILS, "section_id": "open"}}}
    assert in_teams(players, teams) is players  # a section of players: its field stays players
