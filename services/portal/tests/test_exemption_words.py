"""REG-16 (NY 七(三): 2021 年各组前8名的棋手报名不受名额限制) in the staff console: how registration
judged each exemption claim, said in words, zh-CN and English, from the decision's params; and
the refusals of a list load."""

from __future__ import annotations

from pathlib import Path

import pytest
from jinja2 import Environment, FileSystemLoader, select_autoescape

import portal
from portal import i18n
from portal.staff_pages import _filled

TEMPLATES = Path(portal.__file__).parent / "templates"

UNLISTED = {
    "rule": "REG-16",
    "clause": "units/quota_exempt_unlisted",
    "outcome": "admitted",
    "reason": "exemption claimed: not on the list of 2021's top 8: counted in the quota",
    "person_id": "ny.p00022",
    "params": {"edition": "2021", "top": 8},
}
LISTED = {
    **UNLISTED,
    "clause": "units/quota_exempt",
    "reason": "outside the quota: place 3 in 2021's youth-male (top 8)",
    "params": {"edition": "2021", "place": 3, "section": "youth-male", "top": 8},
}
NO_LIST = {**UNLISTED, "clause": "units/quota_exempt_no_list", "params": {"top": 8}}
#: a list kept in the event's configuration: no params, the service's sentence is shown
PUBLISHED = {**UNLISTED, "reason": "'2021/x/3' is not Li's place on the list of the previous top 8: counted"}
del PUBLISHED["params"]


def _notes(lang: str, decisions: list[dict]) -> str:
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html"]))
    words = i18n.Words(lang)
    source = '{% from "staff/_bits.html" import exemption_notes with context %}{{ exemption_notes(e) }}'
    return env.from_string(source).render(t=words.t, v=words.v, e={"decisions": decisions})


@pytest.mark.parametrize(
    ("decision", "lang", "expected", "warn"),
    [
        (UNLISTED, "en", "exemption claimed: not on the list of 2021&#39;s top 8; counted in the quota", True),
        (UNLISTED, "zh", "申报不受名额限制：不在2021年前8名名单上，计入名额", True),
        (LISTED, "en", "outside the quota: place 3 in 2021&#39;s youth-male (top 8)", False),
        (LISTED, "zh", "不受名额限制：2021年youth-male第3名（前8名）", False),
        (NO_LIST, "en", "no list of the previous top 8 is loaded", True),
        (NO_LIST, "zh", "上届前8名名单尚未载入", True),
        (PUBLISHED, "zh", "is not Li&#39;s place on the list of the previous top 8", True),
    ],
)
def test_reg16_ny_exemption_claims_in_words_for_the_arbiter(decision, lang, expected, warn):
    """NY 七(三), REG-16: the entries page says why a claim did or did not exempt the player."""
    other = {"rule": "REG-3", "clause": "units/quota", "outcome": "refused", "reason": "x", "person_id": None}
    html = _notes(lang, [other, decision])
    assert expected in html and html.count("badge") == 1, html
    assert ("badge warn" in html) == warn and "{" not in html


@pytest.mark.parametrize(
    ("code", "details", "lang", "expected"),
    [
        ("exemption_list_not_loadable", {}, "en", "nothing was loaded"),
        ("exemption_list_not_loadable", {}, "zh", "未载入"),
        ("duplicate_listed_player", {"first_line": 2, "second_line": 5}, "en", "lines 2 and 5"),
        ("duplicate_listed_player", {"first_line": 2, "second_line": 5}, "zh", "第 2 行和第 5 行"),
    ],
)
def test_reg16_list_load_refusals_have_words_in_both_languages(code, details, lang, expected):
    """REG-16: the refusals of a list load, filled from their details."""
    assert i18n.known(f"refusal.{code}")
    text = _filled(i18n.Words(lang).t(f"refusal.{code}"), details)
    assert expected in text and "{" not in text
