"""Which characters a line of text may not hold, and ``one_line`` for writers of line-based
formats (a TRF file, a CSV row): plain ``re``, so a tool that only writes or reads such a file
(``pairing-engine``) need not import pydantic. ``gomoku_shared.text`` builds its input types on
these patterns."""

from __future__ import annotations

import re

_SEPARATORS_AND_BIDI = "\u2028\u2029\u202a-\u202e\u2066-\u2069"
#: what a one-line text (``text.Line``) refuses: control characters (C0 and C1, TAB, LF, CR
#: included), line and paragraph separators, bidirectional embeddings, overrides and isolates
NOT_IN_A_LINE = re.compile(f"[\x00-\x1f\x7f-\x9f{_SEPARATORS_AND_BIDI}]")
#: what free text (``text.Prose``) refuses: the same, except the line feed
NOT_IN_PROSE = re.compile(f"[\x00-\x09\x0b-\x1f\x7f-\x9f{_SEPARATORS_AND_BIDI}]")


def one_line(value: str) -> str:
    """``value`` as a writer of a line-based format may emit it: every character a ``Line``
    refuses (line breaks included) becomes a space."""
    return NOT_IN_A_LINE.sub(" ", value)
