"""Issue 32: title certificates (段级位证书), one A4 page per title grant, in the frame and
layout of the place certificates (``pdf.certificate``): the holder named whole with their unit,
the event, the place in the section that earned the title, the title in words (二段 / 2-dan), the
day it was granted (the last day of the section's stage), the organiser and the venue, the seal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .dates_in_words import say_days
from .i18n import Words
from .pdf import FAMILY, Sheet, _nth, certificate


def held_words(words: Words, title: str) -> str:
    """A title in words: the kyu/dan ladder's own (二段 / 2-dan); an organisation's own title as it
    is written on its ladder."""
    said = words.title(title)
    return title if said == "—" else said


def title_certificates(
    words: Words, event: dict, rows: Sequence[Mapping[str, Any]], sections: Mapping[str, str], font: str = ""
) -> bytes:
    """One certificate per row of awards' title certificates (``name``, ``title``, ``section_id``,
    ``place``, ``granted_on``; ``unit`` where the section names one); ``sections``: each section's
    name in the reader's language."""
    pdf = Sheet("", "", words, font=font)
    pdf.set_auto_page_break(False)
    for row in rows:
        section = sections.get(str(row.get("section_id")), "")
        place = row.get("place")
        title = held_words(words, str(row.get("title") or ""))
        granted = say_days(row.get("granted_on"), None, words.lang, long_months=True)
        lines = [
            words.t("pdf.cert.place", section=section, n=place, nth=_nth(place)),
            words.t("pdf.title_cert.granted", title=title),
        ]
        certificate(pdf, words.t("pdf.title_cert.heading"), dict(row), event, lines, granted)
    if not rows:
        pdf.add_page()
        pdf.set_font(FAMILY, size=12)
        pdf.cell(0, 10, words.t("pdf.title_cert.none"))
    return bytes(pdf.output())
