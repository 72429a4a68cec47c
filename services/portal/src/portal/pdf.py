"""Printouts for the venue (A4, black on white, Chinese text in an embedded CJK font): a round's
pairing sheet, result slips, standings, the cross table and award certificates. Built with
fpdf2 from the services' answers; no rules here, only layout."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from fpdf import FPDF

from .i18n import Words
from .nofont import NoFont

#: where a CJK font is looked for (Debian's fonts-wqy-microhei first); the PORTAL_PDF_FONT setting (``font`` below) comes first
FONT_CANDIDATES = (
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
)
FAMILY = "cjk"


def font_path(configured: str = "") -> Path:
    """The font file to embed: ``configured`` (the PORTAL_PDF_FONT setting) when it exists, else the first
    candidate found."""
    for candidate in ([configured] if configured else []) + list(FONT_CANDIDATES):
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    raise NoFont("no CJK font: install Debian's fonts-wqy-microhei or set PORTAL_PDF_FONT")


class Sheet(FPDF):
    """An A4 page set with the CJK font, a title line on every page and page numbers."""

    def __init__(self, title: str, subtitle: str, words: Words, landscape: bool = False, font: str = "") -> None:
        super().__init__(orientation="L" if landscape else "P", unit="mm", format="A4")
        self.add_font(FAMILY, fname=str(font_path(font)))
        self.doc_title, self.doc_subtitle, self.words = title, subtitle, words
        self.set_title(title)
        self.set_creator("Gomoku tournaments")
        self.set_auto_page_break(True, margin=15)
        self.set_margins(15, 15, 15)
        self.alias_nb_pages()

    def header(self) -> None:
        if not self.doc_title:
            return  # a certificate: the page is its own layout
        self.set_font(FAMILY, size=15)
        self.cell(0, 8, self.doc_title, new_x="LMARGIN", new_y="NEXT", align="C")
        if self.doc_subtitle:
            self.set_font(FAMILY, size=10)
            self.cell(0, 6, self.doc_subtitle, new_x="LMARGIN", new_y="NEXT", align="C")
        self.ln(2)

    def footer(self) -> None:
        if not self.doc_title:
            return
        self.set_y(-12)
        self.set_font(FAMILY, size=8)
        self.cell(0, 5, self.words.t("pdf.page", n=self.page_no()), align="C")

    def ruled_table(self, heads: Sequence[str], rows: Sequence[Sequence[Any]], widths: Sequence[float]) -> None:
        """A ruled table; the head is repeated on every page."""
        total = sum(widths)
        scale = (self.w - self.l_margin - self.r_margin) / total
        widths = [w * scale for w in widths]

        def head() -> None:
            self.set_font(FAMILY, size=9)
            self.set_fill_color(225, 225, 225)
            for text, width in zip(heads, widths, strict=True):
                self.cell(width, 7, _fit(self, str(text), width), border=1, align="C", fill=True)
            self.ln()

        head()
        self.set_font(FAMILY, size=9)
        for row in rows:
            if self.get_y() + 7 > self.h - self.b_margin:
                self.add_page()
                head()
                self.set_font(FAMILY, size=9)
            for value, width in zip(row, widths, strict=True):
                text = "—" if value is None or value == "" else str(value)
                self.cell(width, 7, _fit(self, text, width), border=1, align="C" if len(text) < 6 else "L")
            self.ln()


def _fit(pdf: FPDF, text: str, width: float) -> str:
    """The text, cut with an ellipsis where it would overflow its cell."""
    if pdf.get_string_width(text) <= width - 2:
        return text
    while text and pdf.get_string_width(text + "…") > width - 2:
        text = text[:-1]
    return text + "…"


def _who(names: dict[str, Any], entrant_id: str | None) -> tuple[str, str]:
    entrant = names.get(entrant_id or "") or {}
    return entrant.get("name") or "—", entrant.get("unit") or ""


def pairing_sheet(words: Words, event: dict, section: dict, rnd: dict, names: dict[str, Any], font: str = "") -> bytes:
    n = rnd.get("round")
    pdf = Sheet(
        f"{event.get('name', '')} · {section.get('name', '')}", words.t("pdf.pairing_sheet", n=n), words, font=font
    )
    pdf.add_page()
    rows = []
    for p in rnd.get("pairings", []):
        first, first_unit = _who(names, p.get("first"))
        second, second_unit = _who(names, p.get("second"))
        result = f"{_num(p.get('first_points'))} : {_num(p.get('second_points'))}" if p.get("result") else ""
        rows.append([p.get("board"), first, first_unit, result, second, second_unit])
    for bye in rnd.get("byes", []):
        entrant = bye.get("entrant_id") if isinstance(bye, dict) else bye
        name, unit = _who(names, entrant)
        rows.append(["—", name, unit, words.t("bye"), "", ""])
    heads = [
        words.t("board_no"),
        words.t("pdf.first_black"),
        words.t("unit"),
        words.t("result"),
        words.t("pdf.second_white"),
        words.t("unit"),
    ]
    pdf.ruled_table(heads, rows, [12, 38, 36, 18, 38, 36])
    pdf.ln(3)
    pdf.set_font(FAMILY, size=8)
    pdf.multi_cell(0, 5, words.t("pdf.colour_note"))
    return bytes(pdf.output())


def result_slips(words: Words, event: dict, section: dict, rnd: dict, names: dict[str, Any], font: str = "") -> bytes:
    """One slip per board, three to a page, for the players to sign."""
    n = rnd.get("round")
    pdf = Sheet(
        f"{event.get('name', '')} · {section.get('name', '')}", words.t("pdf.result_slips", n=n), words, font=font
    )
    pdf.set_auto_page_break(False)
    for i, p in enumerate(rnd.get("pairings", [])):
        if i % 3 == 0:
            pdf.add_page()
        top = 32 + (i % 3) * 85
        first, first_unit = _who(names, p.get("first"))
        second, second_unit = _who(names, p.get("second"))
        pdf.set_draw_color(0, 0, 0)
        pdf.rect(15, top, pdf.w - 30, 78)
        pdf.set_xy(20, top + 4)
        pdf.set_font(FAMILY, size=13)
        pdf.cell(0, 8, f"{words.t('pdf.slip')} · {words.t('round', n=n)} · {words.t('board_no')} {p.get('board')}")
        pdf.set_font(FAMILY, size=11)
        for row, (label, name, unit) in enumerate(
            ((words.t("pdf.first_black"), first, first_unit), (words.t("pdf.second_white"), second, second_unit))
        ):
            y = top + 16 + row * 14
            pdf.set_xy(20, y)
            pdf.cell(34, 8, label)
            pdf.cell(66, 8, _fit(pdf, f"{name}  {unit}".strip(), 66))
            pdf.cell(32, 8, words.t("pdf.win_draw_loss"))
            pdf.cell(14, 8, words.t("pdf.signature") + "：")
            # the line to sign on, up to the slip's frame
            pdf.line(pdf.get_x(), y + 7, pdf.w - 20, y + 7)
        pdf.set_xy(20, top + 48)
        pdf.cell(0, 8, words.t("pdf.result_line"))
        pdf.set_xy(20, top + 60)
        pdf.cell(0, 8, words.t("pdf.arbiter_line"))
    if not rnd.get("pairings"):
        pdf.add_page()
        pdf.set_font(FAMILY, size=11)
        pdf.cell(0, 8, words.t("not_paired"))
    return bytes(pdf.output())


def standings(words: Words, event: dict, section: dict, table: dict, font: str = "") -> bytes:
    order = list(table.get("order", []))
    pdf = Sheet(
        f"{event.get('name', '')} · {section.get('name', '')}",
        f"{words.t('standings')} · {words.t('after_round', n=table.get('after_round'))}",
        words,
        landscape=len(order) > 4,
        font=font,
    )
    pdf.add_page()
    heads = [words.t("place"), words.t("name"), words.t("unit"), *(words.tiebreak(tb, order) for tb in order)]
    heads += [words.t("played"), words.t("decided_by")]
    rows = []
    for row in table.get("standings", []):
        values = [
            _num(
                row.get("points")
                if tb in ("points", "match_points") and tb not in row.get("tiebreaks", {})
                else row.get("tiebreaks", {}).get(tb)
            )
            for tb in order
        ]
        place = f"{row.get('place')}{'=' if row.get('shared') else ''}"
        decided = words.v("decided_by", row.get("decided_by")) if row.get("decided_by") else ""
        rows.append([place, row.get("name"), row.get("unit"), *values, row.get("games_played"), decided])
    pdf.ruled_table(heads, rows, [12, 34, 34, *([19] * len(order)), 12, 18])
    return bytes(pdf.output())


def cross_table(words: Words, event: dict, section: dict, table: dict, starts: dict[str, int], font: str = "") -> bytes:
    rounds = int(table.get("rounds") or 0)
    pdf = Sheet(
        f"{event.get('name', '')} · {section.get('name', '')}",
        words.t("crosstable"),
        words,
        landscape=rounds > 5,
        font=font,
    )
    pdf.add_page()
    heads = [words.t("start_no"), words.t("name"), *(str(n) for n in range(1, rounds + 1))]
    heads += [words.t("tiebreak.points"), words.t("place")]
    marks = {"1": "+", "0": "−", "=": "="}
    rows = []
    for player in table.get("players", []):
        cells = []
        by_round = {c.get("round"): c for c in player.get("rounds", [])}
        for n in range(1, rounds + 1):
            cell = by_round.get(n)
            if not cell:
                cells.append("")
                continue
            colour = words.t("first_short") if cell.get("colour") == "first" else words.t("second_short")
            opponent = starts.get(cell.get("opponent") or "", "")
            mark = marks.get(str(cell.get("result")), str(cell.get("result") or ""))
            cells.append(f"{opponent}{colour if opponent else ''}{mark}" if opponent else words.t("bye"))
        rows.append(
            [player.get("start_no"), player.get("name"), *cells, _num(player.get("points")), player.get("place")]
        )
    pdf.ruled_table(heads, rows, [10, 36, *([14] * rounds), 12, 10])
    return bytes(pdf.output())


def certificates(words: Words, event: dict, awards: dict, font: str = "") -> bytes:
    """获奖证书 for each awarded place, 纪念证书 for every finisher where the section gives one
    and 最佳台次 for each best-board winner: one A4 page each, a plain ruled frame."""
    pdf = Sheet("", "", words, font=font)
    pdf.set_auto_page_break(False)
    section_name = awards.get("name") or ""
    event_name = event.get("name") or ""
    made = 0
    for place in awards.get("places", []):
        items = list(place.get("items") or [])
        if "certificate" in items:
            lines = [words.t("pdf.place_line", section=section_name, n=place.get("place"))]
            if place.get("title"):
                lines.append(words.t("pdf.title_line", title=words.title(place.get("title"))))
            others = [words.v("item", i) for i in items if i not in ("certificate",)]
            if others:
                lines.append("、".join(others))
            _certificate(pdf, words.t("item.certificate"), place, event_name, lines)
            made += 1
        # every finisher's items go to the placed players too (AWD-1, DA: every finisher a finisher's medal and certificate)
        if "commemorative_certificate" in (place.get("finisher_items") or []):
            lines = [words.t("pdf.finisher_line", section=section_name)]
            _certificate(pdf, words.t("item.commemorative_certificate"), place, event_name, lines)
            made += 1
    for board in awards.get("best_boards", []):
        lines = [words.t("pdf.best_board_line", section=section_name, n=board.get("board"))]
        _certificate(pdf, words.t("best_boards"), board, event_name, lines)
        made += 1
    if not made:
        pdf.add_page()
        pdf.set_font(FAMILY, size=12)
        pdf.cell(0, 10, words.t("no_awards"))
    return bytes(pdf.output())


def honour_certificates(words: Words, event: dict, honours: dict, font: str = "") -> bytes:
    """AWD-9 (NY 十一(三) 颁发证书): one certificate per honour in force, in the same frame."""
    pdf = Sheet("", "", words, font=font)
    pdf.set_auto_page_break(False)
    for row in honours.get("rows", []):
        honour = words.v("honour", row.get("kind"))
        lines = [words.t("pdf.honour_line", honour=honour), *([row["citation"]] if row.get("citation") else [])]
        _certificate(pdf, honour, row, event.get("name") or "", lines)
    if not honours.get("rows"):
        pdf.add_page()
        pdf.set_font(FAMILY, size=12)
        pdf.cell(0, 10, words.t("no_awards"))
    return bytes(pdf.output())


def _certificate(pdf: Sheet, heading: str, who: dict, event_name: str, lines: list[str]) -> None:
    pdf.add_page()
    pdf.set_line_width(1.2)
    pdf.rect(12, 12, pdf.w - 24, pdf.h - 24)
    pdf.set_line_width(0.3)
    pdf.rect(16, 16, pdf.w - 32, pdf.h - 32)
    pdf.set_xy(20, 60)
    pdf.set_font(FAMILY, size=34)
    pdf.cell(pdf.w - 40, 20, heading, align="C")
    pdf.set_xy(20, 105)
    pdf.set_font(FAMILY, size=24)
    pdf.cell(pdf.w - 40, 14, str(who.get("name") or "—"), align="C")
    unit = who.get("unit") or who.get("unit_name") or who.get("team_name")
    if unit:
        pdf.set_xy(20, 122)
        pdf.set_font(FAMILY, size=14)
        pdf.cell(pdf.w - 40, 10, str(unit), align="C")
    pdf.set_font(FAMILY, size=15)
    y: float = 150
    for line in [event_name, *lines]:
        pdf.set_xy(25, y)
        pdf.multi_cell(pdf.w - 50, 9, line, align="C")
        y = pdf.get_y() + 4


def _num(value: Any) -> str:
    if value is None or value == "":
        return ""
    try:
        f = float(value)
    except (TypeError, ValueError):
        return str(value)
    return str(int(f)) if f == int(f) else f"{f:g}"
