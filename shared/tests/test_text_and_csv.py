"""Typed text refuses what forges an export; the CSV writer and ``one_line`` neutralise what was
stored before (issue 27 finding 2)."""

from __future__ import annotations

import csv
import io

import pytest
from pydantic import BaseModel, ValidationError

from gomoku_shared.csv_text import csv_cell, csv_text
from gomoku_shared.text import INVALID_CHARACTERS, Line, Prose, one_line


class _Body(BaseModel):
    name: Line
    note: Prose = ""


@pytest.mark.parametrize(
    "name",
    [
        "Ev\r\n012 FAKE TOURNAMENT",
        "tab\there",
        "line\nfeed",
        "nul\x00",
        "c1\x85next line",
        "sep\u2028arator",
        "para\u2029graph",
        "bidi \u202eevil",
        "isolate \u2066x\u2069",
    ],
)
def test_a_line_refuses_breaks_controls_separators_and_overrides(name: str) -> None:
    """issue 27 finding 2: names refuse control characters (TAB, CR, LF included), U+2028/9
    and bidirectional overrides; the error type is the one the API answers 400 with."""
    with pytest.raises(ValidationError) as refused:
        _Body(name=name)
    assert [error["type"] for error in refused.value.errors()] == [INVALID_CHARACTERS]


def test_a_line_keeps_ordinary_names() -> None:
    """issue 27 finding 2: what a name may hold still passes (CJK, accents, apostrophes)."""
    for name in ("张三", "Zoë O'Neil", "=SUM(A1)", "  spaced  "):
        assert _Body(name=name).name == name


def test_prose_keeps_line_feeds_and_takes_crlf_as_lf() -> None:
    """issue 27 finding 2: free text may span lines (LF; a text area's CR LF becomes LF), but
    a lone CR, TAB or other control character is refused."""
    assert _Body(name="x", note="first\r\nsecond\nthird").note == "first\nsecond\nthird"
    for note in ("lone\rcr", "tab\t", "bell\x07", "rtl\u202e"):
        with pytest.raises(ValidationError):
            _Body(name="x", note=note)


def test_one_line_replaces_every_refused_character_by_a_space() -> None:
    """issue 27 finding 2: writers neutralise stored text: no line break survives."""
    assert one_line("Ev\r\n012 FAKE\u2028X\x85Y\tZ") == "Ev  012 FAKE X Y Z"
    assert one_line("张三") == "张三"


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ('=HYPERLINK("http://x","y")', '\'=HYPERLINK("http://x","y")'),
        ("+cmd", "'+cmd"),
        ("-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"),
        ("@SUM(1)", "'@SUM(1)"),
        ("\t=1", "' =1"),
        ("\r=1", "' =1"),
        ("-1", "-1"),
        ("+2.5", "+2.5"),
        (-1, "-1"),
        (2.5, "2.5"),
        (None, ""),
        ("张三", "张三"),
        ("a\r\nb", "a  b"),
    ],
)
def test_csv_cells_cannot_be_formulas(value: object, written: str) -> None:
    """issue 27 finding 2 (OWASP CSV injection): a text cell beginning with = + - @ TAB or CR
    is prefixed with a single quote; numbers, and text that is exactly a number, stay numbers."""
    assert csv_cell(value) == written


def test_csv_text_has_one_line_per_row() -> None:
    """issue 27 finding 2: a stored name with a line break is still one record."""
    text = csv_text(["name", "points"], [["Ev\r\n012 FAKE", 1.5], ["=1+1", -1]])
    assert text.count("\n") == 3
    assert list(csv.reader(io.StringIO(text))) == [["name", "points"], ["Ev  012 FAKE", "1.5"], ["'=1+1", "-1"]]
