"""Text people type (names, units, reasons, notes): what is refused at input, and what a writer
does with text stored before the check.

The input guard (``gomoku_shared.guard``) already refuses what no column can store; TAB, LF and
CR pass it, for free text. A name that spans lines forges a line of every line-based export (a
TRF header, a CSV row), and invisible direction overrides make a name read differently from what
it is, so fields are typed by what they hold:

* ``Line`` (names, units, labels, short references): no control character at all (C0 and C1,
  TAB, LF and CR included), no Unicode line or paragraph separator (U+2028, U+2029), no
  bidirectional embedding, override or isolate (U+202A-U+202E, U+2066-U+2069);
* ``Prose`` (reasons, notes, grounds, citations): the same, except that a line feed is allowed;
  CR LF (what a browser's text area sends) is taken as LF.

A refused value answers 400 ``invalid_characters`` (``gomoku_shared.web``), as the guard does.
Writers neutralise anyway (``one_line``): rows stored before the check, or from an import, must
not forge an export either.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, BeforeValidator
from pydantic_core import PydanticCustomError

from .line_text import NOT_IN_A_LINE as _NOT_IN_A_LINE
from .line_text import NOT_IN_PROSE as _NOT_IN_PROSE
from .line_text import one_line

__all__ = ["INVALID_CHARACTERS", "Line", "Prose", "one_line"]

#: the pydantic error type a refused value carries (the API answers 400 with this code)
INVALID_CHARACTERS = "invalid_characters"


def _refused(value: str, pattern: re.Pattern[str], what: str) -> str:
    found = pattern.search(value)
    if found is not None:
        raise PydanticCustomError(
            INVALID_CHARACTERS,
            "{what} may not contain the character U+{code} (control characters, line breaks, "
            "line separators and direction overrides are refused)",
            {"what": what, "code": f"{ord(found.group()):04X}"},
        )
    return value


def _single_line(value: str) -> str:
    return _refused(value, _NOT_IN_A_LINE, "a one-line text")


def _prose(value: str) -> str:
    return _refused(value, _NOT_IN_PROSE, "a text")


def _line_feeds(value: object) -> object:
    return value.replace("\r\n", "\n") if isinstance(value, str) else value


#: one line of text: a name, a unit, a label, a reference
Line = Annotated[str, AfterValidator(_single_line)]
#: free text of several lines (LF only): a reason, a note, grounds, a citation
Prose = Annotated[str, BeforeValidator(_line_feeds), AfterValidator(_prose)]
