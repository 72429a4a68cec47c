"""Issue 32: title certificates (段级位证书) as A4 PDFs: one page per title grant, in the reader's
language, whose text extracted again (``pdftotext``) names the holder, the title in words, the
event, the section and the place that earned it (DA 九(三): 第1名 二段, 第4-6名 1级)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from portal.i18n import Words
from portal.pdf_titles import held_words, title_certificates

pytestmark = pytest.mark.slow  # the CJK font embedded: about a second a document

EVENT = {
    "name": "2023年全国五子棋公开赛（定安）",
    "dates": "2023年8月19日至22日",
    "organiser": "中国五子棋协会",
    "venue": "海南定安",
}
ROWS = [
    {"name": "张伟", "unit": "浙江", "title": "2d", "section_id": "junior", "place": 1, "granted_on": "2023-08-22"},
    {"name": "李娜", "unit": "江苏", "title": "1k", "section_id": "junior", "place": 5, "granted_on": "2023-08-22"},
]


def _text(body: bytes, tmp_path) -> str:
    assert shutil.which("pdftotext"), "pdftotext is needed: apt-get install poppler-utils"
    path = tmp_path / "titles.pdf"
    path.write_bytes(body)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


def test_issue32_awd5_a_title_certificate_per_grant_names_holder_title_place_in_chinese(tmp_path):
    """DA 九(三): 第1名 二段 and 第5名 1级, each a page of its own, in Chinese."""
    body = title_certificates(Words("zh"), EVENT, ROWS, {"junior": "少年组"})
    text = _text(body, tmp_path)
    assert text.count("段级位证书") == 2 and text.count("\f") == 2  # two pages
    for word in (
        "张伟",
        "浙江",
        "授予二段称号",
        "李娜",
        "授予一级称号",
        "少年组",
        "第 1 名",
        "第 5 名",
        "中国五子棋协会",
    ):
        assert word in text, word
    assert "颁发日期：2023年8月22日" in text


def test_issue32_awd5_the_title_certificate_in_english(tmp_path):
    body = title_certificates(
        Words("en"), {**EVENT, "name": "2023 National Open (Ding'an)"}, ROWS[:1], {"junior": "Junior"}
    )
    text = _text(body, tmp_path)
    for word in ("Title Certificate", "张伟", "is awarded the title 2-dan", "1st place in the Junior section"):
        assert word in text, word


def test_issue32_no_grants_says_so_and_an_organisations_own_title_is_written_as_on_its_ladder(tmp_path):
    assert "尚未授予段级位称号" in _text(title_certificates(Words("zh"), EVENT, [], {}), tmp_path)
    assert held_words(Words("zh"), "1d") == "初段" and held_words(Words("zh"), "候补大师") == "候补大师"
