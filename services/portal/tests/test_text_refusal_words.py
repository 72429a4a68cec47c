"""The staff console says the text refusals of issue 27 in words, zh-CN and English."""

from __future__ import annotations

import pytest

from portal import i18n
from portal.staff_pages import _filled

DETAILS = {"where": "body", "loc": ["body", "player", "name"], "msg": "U+000D"}


@pytest.mark.parametrize(
    ("code", "lang", "expected"),
    [
        ("invalid_characters", "zh", "不允许的字符"),
        ("invalid_characters", "en", "characters that are not allowed"),
        ("bad_cursor", "zh", "第一页"),
        ("bad_cursor", "en", "first page"),
    ],
)
def test_text_and_cursor_refusals_have_words_in_both_languages(code, lang, expected):
    """issue 27 finding 2 (control characters refused at input) and finding 10 (a forged cursor):
    the console's sentence for each code, in each language, whatever the details say."""
    assert i18n.known(f"refusal.{code}")
    text = _filled(i18n.Words(lang).t(f"refusal.{code}"), DETAILS)
    assert expected in text and "{" not in text
