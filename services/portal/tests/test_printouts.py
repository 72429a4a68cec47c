"""Printouts (issue 15): A4 PDFs whose text, extracted again, holds the Chinese names and titles
(the CJK font is embedded: a PDF viewer without Chinese fonts shows them too)."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from portal import pdf
from portal.i18n import Words

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow

ZH = Words("zh")
EVENT = {"name": "2023年全国五子棋公开赛（定安）"}
SECTION = {"section_id": "open", "name": "公开组"}
NAMES = {
    "e1": {"entrant_id": "e1", "name": "张伟", "unit": "浙江"},
    "e2": {"entrant_id": "e2", "name": "李娜", "unit": "江苏"},
    "e3": {"entrant_id": "e3", "name": "王芳", "unit": "上海"},
}
A4_POINTS = (595, 842)


def _read(body: bytes) -> tuple[PdfReader, str]:
    reader = PdfReader(io.BytesIO(body))
    return reader, "\n".join(page.extract_text() for page in reader.pages)


def _fonts_embedded(reader: PdfReader) -> bool:
    for page in reader.pages:
        fonts = page["/Resources"]["/Font"]
        for ref in fonts.values():
            font = ref.get_object()
            for descendant in font.get("/DescendantFonts", []):
                descriptor = descendant.get_object()["/FontDescriptor"].get_object()
                if "/FontFile2" in descriptor:
                    return True
    return False


def test_the_pairing_sheet_is_a4_with_table_numbers_names_units_and_a_bye():
    rnd = {
        "round": 2,
        "pairings": [{"board": 1, "first": "e1", "second": "e2", "result": None}],
        "byes": [{"entrant_id": "e3"}],
    }
    reader, text = _read(pdf.pairing_sheet(ZH, EVENT, SECTION, rnd, NAMES))
    assert [round(float(v)) for v in reader.pages[0].mediabox[2:]] == list(A4_POINTS)
    for word in ("第 2 轮对阵表", "台次", "张伟", "浙江", "李娜", "江苏", "王芳", "轮空", "公开组"):
        assert word in text, word
    assert _fonts_embedded(reader)


def test_standings_and_cross_table_carry_the_tiebreaks_by_their_chinese_names():
    table = {
        "after_round": 3,
        "order": ["points", "buchholz", "median_buchholz", "wins"],
        "standings": [
            {
                "place": 1,
                "shared": False,
                "entrant_id": "e1",
                "name": "张伟",
                "unit": "浙江",
                "points": 6,
                "tiebreaks": {"buchholz": 11, "median_buchholz": 3, "wins": 3},
                "games_played": 3,
                "decided_by": None,
            }
        ],
    }
    _, text = _read(pdf.standings(ZH, EVENT, SECTION, table))
    for word in ("第 3 轮后", "大分", "对手分", "中间对手分", "胜局", "张伟"):  # PAIR-7
        assert word in text, word
    cross = {
        "rounds": 2,
        "players": [
            {
                "entrant_id": "e1",
                "start_no": 1,
                "name": "张伟",
                "place": 1,
                "points": 4,
                "rounds": [{"round": 1, "opponent": "e2", "colour": "first", "result": "1"}],
            }
        ],
    }
    _, text = _read(pdf.cross_table(ZH, EVENT, SECTION, cross, {"e1": 1, "e2": 2}))
    assert "对阵总表" in text and "张伟" in text and "2先+" in text


def test_certificates_name_the_award_the_place_and_the_title_one_page_each():
    awards = {
        "name": "少年组",
        "places": [
            {"place": 1, "name": "张伟", "unit": "浙江", "items": ["certificate", "medal"], "title": "2d"},
            {"place": 9, "name": "王芳", "unit": "上海", "items": [], "finisher_items": ["commemorative_certificate"]},
        ],
        "best_boards": [{"board": 1, "name": "李娜", "team_name": "江苏"}],
    }
    reader, text = _read(pdf.certificates(ZH, EVENT, awards))
    assert len(reader.pages) == 3
    # AWD-5 title 二段, AWD-7 best board, the finisher's 纪念证书
    for word in ("获奖证书", "张伟", "第 1 名", "二段", "奖牌", "纪念证书", "王芳", "最佳台次", "李娜", EVENT["name"]):
        assert word in text, word


def test_result_slips_one_per_board_three_to_a_page():
    rnd = {"round": 1, "pairings": [{"board": b, "first": "e1", "second": "e2"} for b in range(1, 5)]}
    reader, text = _read(pdf.result_slips(ZH, EVENT, SECTION, rnd, NAMES))
    assert len(reader.pages) == 2 and text.count("对局记录单") == 4 and "签名" in text


def test_english_printouts_when_the_page_language_is_english():
    rnd = {"round": 1, "pairings": [{"board": 1, "first": "e1", "second": "e2"}]}
    _, text = _read(pdf.pairing_sheet(Words("en"), EVENT, SECTION, rnd, NAMES))
    assert "Round 1 pairings" in text and "张伟" in text


def test_the_font_setting_is_read_once_by_the_settings_and_named_font_comes_first(tmp_path, monkeypatch):
    from portal.settings import PortalSettings

    chosen = tmp_path / "own-cjk.ttc"
    chosen.write_bytes(b"")  # font_path only chooses the file; Sheet embeds it
    monkeypatch.setenv("PORTAL_PDF_FONT", str(chosen))
    settings = PortalSettings()
    monkeypatch.delenv("PORTAL_PDF_FONT")  # read at start-up, not at each printout
    assert settings.pdf_font == str(chosen)
    assert pdf.font_path(settings.pdf_font) == chosen


def test_a_named_font_that_is_missing_falls_back_to_the_installed_cjk_font(tmp_path):
    found = pdf.font_path(str(tmp_path / "missing.ttc"))
    assert str(found) in pdf.FONT_CANDIDATES and found.is_file()


def test_no_cjk_font_at_all_is_the_printouts_503_error(tmp_path, monkeypatch):
    from portal.nofont import NoFont

    monkeypatch.setattr(pdf, "FONT_CANDIDATES", (str(tmp_path / "none.ttc"),))
    with pytest.raises(NoFont, match="PORTAL_PDF_FONT"):
        pdf.font_path("")
