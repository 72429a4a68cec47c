"""The printouts' tables, laid out from the font's own metrics (fpdf2's string widths): columns as
wide as their longest text where the page allows, the free width given to the columns of names
and units, and a text that is still too long set a little smaller, then wrapped inside its cell.
Nothing is cut: every cell shows the whole text it was given (issue 28)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fpdf import FPDF

#: the table's type sizes (pt): the usual one, and the smallest a long text is set in before it wraps
SIZE = 9.0
MIN_SIZE = 7.0
#: the room left of a text inside its cell (mm, both sides together)
PAD = 2.0
#: one line's height (mm) for a size of 1 pt: 9 pt gives 4.3 mm
LINE_PER_PT = 0.48
ROW_MIN = 7.0
#: what a name or unit column gets before the long ones share the rest (mm)
ROOMY = 30.0
#: how wide a name or unit column grows when the page has room to spare (mm)
AMPLE = 60.0


@dataclass(frozen=True)
class Fitted:
    """A text as it is drawn in a cell: its size and its lines (more than one when wrapped)."""

    size: float
    lines: tuple[str, ...]


def text_width(pdf: FPDF, text: str, size: float) -> float:
    """The width of ``text`` at ``size`` pt in the current font (mm)."""
    kept = pdf.font_size_pt
    pdf.set_font_size(size)
    try:
        return float(pdf.get_string_width(text))
    finally:
        pdf.set_font_size(kept)


def wrap(pdf: FPDF, text: str, width: float, size: float) -> list[str]:
    """``text`` in lines no wider than ``width`` at ``size``: broken between words where there are
    spaces, between any two characters in Chinese or inside a word longer than the line. Joining the
    lines with the spaces they were broken at gives the text again."""
    lines: list[str] = []
    line = ""
    for word in _words(text):
        if line and text_width(pdf, (line + word).rstrip(), size) > width:
            lines.append(line.rstrip())
            line = ""
        line += word
        if text_width(pdf, line.rstrip(), size) > width:  # one word wider than the line
            *full, line = _by_characters(pdf, line, width, size)
            lines.extend(full)
    lines.append(line.rstrip())
    return lines


def _words(text: str) -> list[str]:
    """Units a line may break after: a Latin word with its trailing space, or one CJK character."""
    words: list[str] = []
    current = ""
    for char in text:
        if ord(char) > 0x2E7F:  # CJK and fullwidth forms: a break is allowed after each
            if current:
                words.append(current)
                current = ""
            words.append(char)
        elif char == " ":
            words.append(current + char)
            current = ""
        else:
            current += char
    if current:
        words.append(current)
    return words


def _by_characters(pdf: FPDF, text: str, width: float, size: float) -> list[str]:
    pieces, piece = [], ""
    for char in text:
        if piece and text_width(pdf, (piece + char).rstrip(), size) > width:
            pieces.append(piece)
            piece = char.lstrip()
        else:
            piece += char
    return [*pieces, piece]


def fit(pdf: FPDF, text: str, width: float, size: float = SIZE, min_size: float = MIN_SIZE) -> Fitted:
    """``text`` in a cell ``width`` wide: on one line at ``size`` when it fits, else at the largest
    size down to ``min_size`` where it does, else wrapped at ``min_size``."""
    room = max(width - PAD, 1.0)
    step = size
    while step >= min_size:
        if text_width(pdf, text, step) <= room:
            return Fitted(step, (text,))
        step = round(step - 0.5, 1)
    return Fitted(min_size, tuple(wrap(pdf, text, room, min_size)))


def fit_head(pdf: FPDF, text: str, width: float) -> Fitted:
    """A column's head: wrapped between words at the table's size where that is enough, else the
    largest size down to ``MIN_SIZE`` at which every word fits its line, else as ``fit``."""
    room = max(width - PAD, 1.0)
    step = SIZE
    while step >= MIN_SIZE:
        if all(text_width(pdf, word, step) <= room for word in text.split()):
            return Fitted(step, tuple(wrap(pdf, text, room, step)))
        step = round(step - 0.5, 1)
    return fit(pdf, text, width)


def widths(
    pdf: FPDF, heads: Sequence[str], rows: Sequence[Sequence[str]], total: float, grow: Sequence[int]
) -> list[float]:
    """Column widths filling ``total``. Each column needs its longest text at the table's size (a
    head counts by its longest word, since a head may wrap). Short columns get what they need; the
    columns in ``grow`` (names, units) first get what they need up to ``ROOMY`` mm (never less than
    their head's longest word), then share the rest in proportion to what they still lack, and any
    width left over after that evenly. Only when even that is more than the page does every column
    shrink alike (``fit`` then sets the long texts smaller or wraps them)."""
    need, floor = [], []
    for i, head in enumerate(heads):
        word = max((text_width(pdf, w, SIZE) for w in head.split()), default=0.0) + PAD + 1
        cells = [text_width(pdf, str(row[i]), SIZE) + PAD + 1 for row in rows]
        need.append(max([word, *cells]))
        floor.append(word)
    growing = [i for i in grow if 0 <= i < len(heads)] or list(range(len(heads)))
    base = [max(floor[i], min(need[i], ROOMY)) if i in growing else need[i] for i in range(len(heads))]
    if sum(base) >= total:
        return [w * total / sum(base) for w in base]
    extra = total - sum(base)
    lack = {i: need[i] - base[i] for i in growing}
    lacking = sum(lack.values())
    if lacking >= extra:
        return [w + extra * lack[i] / lacking if i in lack else w for i, w in enumerate(base)]
    # what is left after every text fits: the name columns a little wider (up to ``AMPLE``), the
    # rest left as margin (``ruled_table`` centres the table)
    share = (extra - lacking) / len(growing)
    return [w + lack[i] + min(share, max(AMPLE - w - lack[i], 0)) if i in lack else w for i, w in enumerate(base)]


@dataclass
class Drawn:
    """What a table drew, cell by cell (the tests read it back)."""

    cells: list[Fitted]


def ruled_table(
    pdf: FPDF,
    family: str,
    heads: Sequence[str],
    rows: Sequence[Sequence[Any]],
    grow: Sequence[int] = (),
    on_new_page: Any = None,
) -> Drawn:
    """A ruled table across the page: the head (wrapped where long) repeated on every page, each
    row as high as its tallest cell. A cell without a value shows a dash."""
    texts = [["—" if v is None or v == "" else str(v) for v in row] for row in rows]
    pdf.set_font(family, size=SIZE)
    total = pdf.w - pdf.l_margin - pdf.r_margin
    cols = widths(pdf, [str(h) for h in heads], texts, total, grow)
    left = pdf.l_margin + (total - sum(cols)) / 2
    drawn = Drawn([])

    def line(cells: Sequence[str], head: bool) -> None:
        fitted = [(fit_head if head else fit)(pdf, text, w) for text, w in zip(cells, cols, strict=True)]
        drawn.cells.extend(fitted)
        height = max(ROW_MIN, *(len(f.lines) * f.size * LINE_PER_PT + 2.4 for f in fitted))
        if pdf.get_y() + height > pdf.h - pdf.b_margin:
            pdf.add_page()
            if on_new_page:
                on_new_page()
            if not head:
                line([str(h) for h in heads], True)
        x, y = left, pdf.get_y()
        for column, (f, w) in enumerate(zip(fitted, cols, strict=True)):
            if head:
                pdf.set_fill_color(225, 225, 225)
                pdf.rect(x, y, w, height, style="DF")
            else:
                pdf.rect(x, y, w, height)
            pdf.set_font(family, size=f.size)
            step = f.size * LINE_PER_PT
            top = y + (height - step * len(f.lines)) / 2
            align = "L" if not head and column in grow else "C"
            for n, part in enumerate(f.lines):
                pdf.set_xy(x + PAD / 2, top + n * step)
                pdf.cell(w - PAD, step, part, align=align)
            x += w
        pdf.set_xy(pdf.l_margin, y + height)
        pdf.set_font(family, size=SIZE)

    line([str(h) for h in heads], True)
    for row in texts:
        line(row, False)
    return drawn


def legend(pdf: FPDF, family: str, entries: Sequence[tuple[str, str]], title: str, colon: str) -> None:
    """Under a table: each short head said in words ("对手分：所有对手大分之和"), with the colon of
    the printout's language (``Words.colon``)."""
    if not entries:
        return
    pdf.ln(3)
    pdf.set_font(family, size=9)
    pdf.multi_cell(0, 5, title, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(family, size=8)
    for short, said in entries:
        pdf.multi_cell(0, 4.4, f"{short}{colon}{said}", new_x="LMARGIN", new_y="NEXT")
