"""PAIR-2 at closing, in the staff console: registration's refusal of a Swiss longer than the
field can play at all is said in plain words, zh-CN and English, with its numbers; the close
form sends the rounds an arbiter types beside a format."""

from __future__ import annotations

import pytest

from portal import i18n
from portal.staff_event import _format_choices
from portal.staff_pages import _filled

DETAILS = {
    "rule": "PAIR-2",
    "section_id": "men-free",
    "section_name": "Men, free rules",
    "section_name_zh": "男子自由规则组",
    "entrants": 8,
    "rounds": 9,
    "max_rounds": 7,
}


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("zh", ["男子自由规则组", "8 名选手", "最多只能进行 7 轮", "PAIR-2", "所选的 9 轮", "单循环", "尚未截止"]),
        ("en", ["Men, free rules", "a Swiss of 8 players", "at most 7 rounds", "PAIR-2", "9 rounds", "round robin"]),
    ],
)
def test_pair2_the_swiss_refusal_is_said_in_words_with_its_numbers(lang, expected):
    """PAIR-2: the words of the refusal in both languages, filled from the refusal's details."""
    assert i18n.known("refusal.swiss_rounds_exceed_field")
    text = _filled(i18n.Words(lang).t("refusal.swiss_rounds_exceed_field"), DETAILS)
    assert all(part in text for part in expected), text
    assert "{" not in text and "}" not in text


def test_pair2_words_without_fields_or_details_that_do_not_fit_stay_as_they_are():
    """Other refusals are not changed by details (JSON braces in a text, missing fields)."""
    plain = i18n.Words("en").t("refusal.overrides_not_json")
    assert _filled(plain, DETAILS) == plain
    assert _filled("{entrants} entrants", {"rounds": 3}) == "{entrants} entrants"
    assert _filled("{entrants} entrants", [1, 2]) == "{entrants} entrants"


def test_pair2_the_close_form_sends_the_rounds_typed_beside_a_format():
    """PAIR-1/PAIR-2: a format with rounds, a format without, rounds without a format (ignored),
    and rounds that are not a whole number from 1 to 50 (left to the rules)."""
    form = {
        "csrf": "x",
        "format.men-free": "swiss",
        "rounds.men-free": " 4 ",
        "format.women-free": "round_robin",
        "rounds.women-free": "",
        "format.men-pro": "",
        "rounds.men-pro": "3",
        "format.women-pro": "swiss",
        "rounds.women-pro": "-2",
        "format.junior-boys-free": "swiss",
        "rounds.junior-boys-free": "99",
    }
    assert _format_choices(form) == {
        "men-free": {"kind": "swiss", "rounds": 4},
        "women-free": {"kind": "round_robin"},
        "women-pro": {"kind": "swiss"},
        "junior-boys-free": {"kind": "swiss"},
    }
