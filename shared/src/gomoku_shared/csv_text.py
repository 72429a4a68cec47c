"""The one CSV writer of every export: cells a spreadsheet cannot take for a formula.

A spreadsheet opening a CSV file evaluates a cell that begins with ``=``, ``+``, ``-`` or ``@``
(and some begin a formula after a TAB or CR), so a name such as ``=HYPERLINK(...)`` would run as
a formula on the organiser's machine (OWASP "CSV injection"). Here:

* a number (an ``int`` or ``float``, or text that is exactly a decimal number such as ``-1`` or
  ``+2.5``) is written as it is: a number is never a formula, and scores stay numbers;
* any other cell beginning with one of those characters is prefixed with a single quote;
* line breaks and other control characters inside a cell become spaces (``text.one_line``):
  every record is one line, whatever a stored name holds.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from typing import Any

from .text import one_line

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_DECIMAL = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def csv_cell(value: Any) -> str:
    """One cell as the file holds it (None: empty)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int | float):
        return str(value)
    text = str(value)
    if _DECIMAL.fullmatch(text):
        return text
    if text.startswith(_FORMULA_START):
        text = "'" + text
    return one_line(text)


def csv_text(header: Iterable[Any], rows: Iterable[Iterable[Any]]) -> str:
    """A whole CSV document (LF line ends): the header, then one line per row."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([csv_cell(name) for name in header])
    writer.writerows([csv_cell(value) for value in row] for row in rows)
    return buffer.getvalue()
