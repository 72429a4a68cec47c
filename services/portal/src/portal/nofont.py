"""The printouts' one error, apart from the PDF code (fpdf, fontTools and Pillow are imported
with the first printout, not when the pages start)."""

from __future__ import annotations


class NoFont(Exception):
    """No CJK font is installed: Chinese text cannot be printed."""
