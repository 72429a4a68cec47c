"""The staff console says the refusals of fees announced later in words, zh-CN and English
(REG-14; NY 十二(三), NT 十一: 另行通知)."""

from __future__ import annotations

import pytest

from portal import i18n
from portal.staff_pages import _filled

DETAILS = {"item": "lodging", "amount_fen": 20000}


@pytest.mark.parametrize(
    ("code", "lang", "expected"),
    [
        ("unknown_fee_item", "zh", "收费项目"),
        ("unknown_fee_item", "en", "no such fee item"),
        ("appeal_fee_fixed", "zh", "仲裁费"),
        ("appeal_fee_fixed", "en", "appeal terms"),
        ("fee_announced", "zh", "20000 分"),
        ("fee_announced", "en", "20000 fen"),
        ("no_payment", "zh", "先登记到账款项"),
        ("no_payment", "en", "record the money received first"),
        ("invalid_confirmation", "zh", "不能晚于现在"),
        ("invalid_confirmation", "en", "in the future"),
    ],
)
def test_reg14_fee_refusals_have_words_in_both_languages(code, lang, expected):
    """REG-14, NT 十一 (食宿标准另行通知): each new refusal of the fee routes has its sentence in
    each language, with the announced amount filled in where the answer gives it."""
    assert i18n.known(f"refusal.{code}")
    text = _filled(i18n.Words(lang).t(f"refusal.{code}"), DETAILS)
    assert expected in text and "{" not in text
