"""Issue 32 rating-band prizes in the reader's words: the band beside a prize table's name on the
awards page, and a band prize's own certificate in the PDF, in Chinese and in English."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from portal import pdf
from portal.i18n import Words
from portal.rating_band_words import band_label

pytestmark = pytest.mark.slow  # the PDF with its embedded CJK font

ZH, EN = Words("zh"), Words("en")
EVENT = {"name": "2023年全国五子棋公开赛（定安）"}
BAND_PRIZE = {
    "table": "Best under 1600",
    "rank": 1,
    "place": 3,
    "name": "王芳",
    "unit_name": "上海",
    "band_under": 1600,
}


@pytest.mark.parametrize(
    "row,zh,en",
    [
        ({"band_under": 1600}, "等级分1600以下", "rating under 1600"),
        ({"band_at_least": 1800}, "等级分1800及以上", "rating of 1800 or more"),
        ({"band_at_least": 1400, "band_under": 1600}, "等级分1400至1600以下", "rating from 1400 to under 1600"),
        ({"band_at_least": None, "band_under": None}, "", ""),
        ({}, "", ""),  # a row from a publication before bands
    ],
)
def test_issue32_a_prize_tables_band_in_words(row, zh, en):
    """Issue 32 rating band: the band in both languages; nothing for a table ranking everyone."""
    assert band_label(ZH, row) == zh and band_label(EN, row) == en


@pytest.mark.parametrize(
    "words,said",
    [
        (ZH, ("获奖证书", "王芳", "等级分1600以下", "第 1 名", "少年组")),
        (EN, ("Certificate of Award", "王芳", "rating under 1600", "ranked no. 1", "少年组")),
    ],
)
def test_issue32_a_band_prize_has_its_own_certificate(words, said):
    """Issue 32 rating band: a band prize's winner gets a certificate naming the band and the
    rank among its players; a prize of a table ranking everyone adds no page."""
    awards = {
        "name": "少年组",
        "places": [],
        "prizes": [BAND_PRIZE, {"table": "Open", "rank": 1, "name": "张伟", "band_under": None}],
    }
    body = pdf.certificates(words, EVENT, awards)
    reader = PdfReader(io.BytesIO(body))
    text = "\n".join(page.extract_text() for page in reader.pages)
    assert len(reader.pages) == 1
    for word in said:
        assert word in text, word
