"""Printouts for the venue (A4, black on white, Chinese text in an embedded CJK font): a round's
pairing sheet, result slips, standings, the cross table and award certificates, each in the one
language asked for (issue 28). Built with fpdf2 from the services' answers; no rules here, only
layout. Tables are laid out by ``pdf_table`` (nothing truncated); team events' sheets are in
``pdf_team``."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from fpdf import FPDF

from . import pdf_table
from .i18n import Words
from .nofont import NoFont
from .rating_band_words import band_prize_lines, band_prizes

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
    """An A4 page set with the CJK font; on every page the event's name, the sheet's title (the
    section and what the sheet is) and the dates, and the page number at the foot."""

    def __init__(
        self,
        title: str,
        subtitle: str,
        words: Words,
        landscape: bool = False,
        font: str = "",
        dates: str = "",
        imprint: tuple[str, ...] = (),
    ) -> None:
        super().__init__(orientation="L" if landscape else "P", unit="mm", format="A4")
        self.add_font(FAMILY, fname=str(font_path(font)))
        self.doc_title, self.doc_subtitle, self.doc_dates, self.words = title, subtitle, dates, words
        self.doc_imprint = imprint
        self.set_title(" · ".join(t for t in (title, subtitle) if t))
        self.set_creator("Gomoku tournaments")
        self.set_auto_page_break(True, margin=15)
        self.set_margins(15, 15, 15)
        self.alias_nb_pages()

    def header(self) -> None:
        if not self.doc_title:
            return  # a certificate: the page is its own layout
        width = self.w - self.l_margin - self.r_margin
        self.set_font(FAMILY, size=15)
        title = pdf_table.fit(self, self.doc_title, width, 15, 11)
        self.set_font(FAMILY, size=title.size)
        for line in title.lines:
            self.cell(0, 7.5, line, new_x="LMARGIN", new_y="NEXT", align="C")
        if self.doc_subtitle:
            self.set_font(FAMILY, size=11)
            self.multi_cell(0, 6, self.doc_subtitle, new_x="LMARGIN", new_y="NEXT", align="C")
        if self.doc_dates:
            self.set_font(FAMILY, size=9)
            self.cell(0, 5, self.doc_dates, new_x="LMARGIN", new_y="NEXT", align="C")
        for line in self.doc_imprint:  # the organiser and the venue, wrapped between words when long
            self.set_font(FAMILY, size=8)
            self.multi_cell(0, 4, line, new_x="LMARGIN", new_y="NEXT", align="C")
        self.ln(2)

    def footer(self) -> None:
        if not self.doc_title:
            return
        self.set_y(-12)
        self.set_font(FAMILY, size=8)
        self.cell(0, 5, self.words.t("pdf.page", n=self.page_no()), align="C")

    def ruled_table(self, heads: Sequence[str], rows: Sequence[Sequence[Any]], grow: Sequence[int] = ()) -> None:
        """A ruled table across the page (``pdf_table``): the head repeated on every page, the
        free width to the columns ``grow`` (names, units), long texts smaller or wrapped, never cut."""
        pdf_table.ruled_table(self, FAMILY, heads, rows, grow)


def sheet_for(
    words: Words,
    event: dict,
    section: dict,
    what: str,
    landscape: bool = False,
    font: str = "",
    with_imprint: bool = False,
) -> Sheet:
    """A printout of ``section``: the event's name as title, the section and ``what`` under it and
    the dates (``event["dates"]``, in words, from ``printout_reads.imprint``); ``with_imprint``
    (the standings and the cross table, where Swiss-Manager's lists name them) the organiser and
    the venue too."""
    subtitle = " · ".join(t for t in (str(section.get("name") or ""), what) if t)
    dates = words.t("pdf.dates", dates=event["dates"]) if event.get("dates") else ""
    imprint = organiser_and_venue(words, event) if with_imprint else ()
    title = str(event.get("name") or "")
    return Sheet(title, subtitle, words, landscape=landscape, font=font, dates=dates, imprint=imprint)


def organiser_and_venue(words: Words, event: dict) -> tuple[str, ...]:
    """ "主办单位：…" and "比赛地点：…" in the printout's language, each where the event names it."""
    return tuple(words.t(f"pdf.{field}", name=event[field]) for field in ("organiser", "venue") if event.get(field))


def _who(names: dict[str, Any], entrant_id: str | None) -> tuple[str, str]:
    entrant = names.get(entrant_id or "") or {}
    return entrant.get("name") or "—", entrant.get("unit") or ""


def pairing_sheet(words: Words, event: dict, section: dict, rnd: dict, names: dict[str, Any], font: str = "") -> bytes:
    n = rnd.get("round")
    pdf = sheet_for(words, event, section, words.t("pdf.pairing_sheet", n=n), font=font)
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
        rows.append(["", name, unit, words.t("bye"), "", ""])
    heads = [
        words.t("board_no"),
        words.t("pdf.first_black"),
        words.t("unit"),
        words.t("result"),
        words.t("pdf.second_white"),
        words.t("unit"),
    ]
    pdf.ruled_table(heads, rows, grow=(1, 2, 4, 5))
    pdf.ln(3)
    pdf.set_font(FAMILY, size=8)
    pdf.multi_cell(0, 5, words.t("pdf.colour_note"))
    return bytes(pdf.output())


def result_slips(words: Words, event: dict, section: dict, rnd: dict, names: dict[str, Any], font: str = "") -> bytes:
    """One slip per board, three to a page, for the players to sign."""
    n = rnd.get("round")
    pdf = sheet_for(words, event, section, words.t("pdf.result_slips", n=n), font=font)
    slips = []
    for p in rnd.get("pairings", []):
        heading = f"{words.t('pdf.slip')} · {words.t('round', n=n)} · {words.t('pdf.board_n', n=p.get('board'))}"
        slips.append((heading, _who(names, p.get("first")), _who(names, p.get("second"))))
    draw_slips(pdf, words, slips)
    return bytes(pdf.output())


#: a slip's "先列（先行）" / "后列" column at one size; 30 mm breaks the English one before its bracket
SLIP_LABEL_WIDTH, SLIP_LABEL_SIZE = 30, 10


def draw_slips(pdf: Sheet, words: Words, slips: Sequence[tuple[str, tuple[str, str], tuple[str, str]]]) -> None:
    """The slips (heading, (first's name, unit), (second's name, unit)), three to an A4 page: each
    player's name whole (smaller when long) with the unit or team under it, and a line to sign on."""
    pdf.set_auto_page_break(False)
    top_of_slips = 40 if pdf.doc_dates else 35
    for i, (heading, *players) in enumerate(slips):
        if i % 3 == 0:
            pdf.add_page()
        top = top_of_slips + (i % 3) * 83
        pdf.set_draw_color(0, 0, 0)
        pdf.rect(15, top, pdf.w - 30, 78)
        block(pdf, heading, 20, top + 4, pdf.w - 40, 12, 9)
        for row, (label, (name, unit)) in enumerate(
            zip((words.t("pdf.first_black"), words.t("pdf.second_white")), players, strict=True)
        ):
            y = top + 15 + row * 16
            # both labels at 10 pt, wrapped between words when long ("First-listed / (moves first)")
            block(pdf, label, 20, y + 1, SLIP_LABEL_WIDTH, SLIP_LABEL_SIZE, SLIP_LABEL_SIZE)
            below = block(pdf, name, 57, y, 63, 12, 8)
            if unit and unit not in name:  # "北京 第 2 台" names its team already
                block(pdf, unit, 57, below + 0.5, 63, 8, 6)
            pdf.set_font(FAMILY, size=10)
            pdf.set_xy(122, y)
            pdf.cell(32, 8, words.t("pdf.win_draw_loss"))
            signature = words.t("pdf.signature") + ("：" if words.lang == "zh" else ":")
            pdf.cell(pdf.get_string_width(signature) + 1, 8, signature)
            # the line to sign on, up to the slip's frame
            pdf.line(pdf.get_x(), y + 7, pdf.w - 20, y + 7)
        pdf.set_font(FAMILY, size=10)
        pdf.set_xy(20, top + 50)
        pdf.cell(0, 8, words.t("pdf.result_line"))
        pdf.set_xy(20, top + 62)
        pdf.cell(0, 8, words.t("pdf.arbiter_line"))
    if not slips:
        pdf.add_page()
        pdf.set_font(FAMILY, size=11)
        pdf.cell(0, 8, words.t("not_paired"))


def standings(words: Words, event: dict, section: dict, table: dict, font: str = "") -> bytes:
    """The standings with each tiebreak's column, and under the table each short head in words."""
    order = list(table.get("order", []))
    team = section.get("kind") == "team" or "match_points" in order
    pdf = sheet_for(
        words,
        event,
        section,
        f"{words.t('standings')} · {words.t('after_round', n=table.get('after_round'))}",
        landscape=len(order) > 4,
        font=font,
        with_imprint=True,
    )
    pdf.add_page()
    played = "pdf.matches_played" if team else "played"
    tiebreak_heads = [words.tiebreak(tb, order) for tb in order]
    heads = [words.t("place"), words.t("pdf.team") if team else words.t("name")]
    heads += [] if team else [words.t("unit")]
    heads += [*tiebreak_heads, words.t(played), words.t("decided_by")]
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
        who = [row.get("name")] if team else [row.get("name"), row.get("unit")]
        rows.append([place, *who, *values, row.get("games_played"), decided])
    pdf.ruled_table(heads, rows, grow=(1,) if team else (1, 2))
    said = [(words.t("place"), words.t("pdf.legend.place"))]
    said += [(head, words.t(_legend_key(tb, order))) for head, tb in zip(tiebreak_heads, order, strict=True)]
    said += [(words.t(played), words.t(f"pdf.legend.{played.removeprefix('pdf.')}"))]
    said += [(words.t("decided_by"), words.t("pdf.legend.decided_by"))]
    pdf_table.legend(pdf, FAMILY, said, words.t("pdf.legend"), words.colon)
    return bytes(pdf.output())


def _legend_key(tiebreak: str, order: list[str]) -> str:
    # SZ online's 小分 is the Buchholz (Words.tiebreak): explained as such
    if tiebreak == "buchholz" and "buchholz_of_buchholz" in order:
        return "pdf.legend.buchholz_small"
    return f"pdf.legend.{tiebreak}"


def cross_table(words: Words, event: dict, section: dict, table: dict, starts: dict[str, int], font: str = "") -> bytes:
    rounds = int(table.get("rounds") or 0)
    pdf = sheet_for(words, event, section, words.t("crosstable"), landscape=rounds > 5, font=font, with_imprint=True)
    pdf.add_page()
    team = section.get("kind") == "team"
    # a team's points here are its match points (次分), as in its standings
    points = "match_points" if team else "points"
    heads = [words.t("start_no"), words.t("pdf.team") if team else words.t("name")]
    heads += [*(str(n) for n in range(1, rounds + 1)), words.t(f"tiebreak.{points}"), words.t("place")]
    marks = {"1": "+", "0": "−", "=": "="}
    first, second = words.t("pdf.first_mark"), words.t("pdf.second_mark")
    rows = []
    for player in table.get("players", []):
        cells = []
        by_round = {c.get("round"): c for c in player.get("rounds", [])}
        for n in range(1, rounds + 1):
            cell = by_round.get(n)
            if not cell:
                cells.append("")
                continue
            colour = first if cell.get("colour") == "first" else second
            opponent = starts.get(cell.get("opponent") or "", "")
            mark = marks.get(str(cell.get("result")), str(cell.get("result") or ""))
            cells.append(f"{opponent}{colour}{mark}" if opponent else words.t("bye"))
        rows.append(
            [player.get("start_no"), player.get("name"), *cells, _num(player.get("points")), player.get("place")]
        )
    pdf.ruled_table(heads, rows, grow=(1,))
    said = [
        (words.t("start_no"), words.t("pdf.legend.start_no_team" if team else "pdf.legend.start_no")),
        (f"1–{rounds}" if rounds > 1 else "1", words.t("pdf.legend.rounds")),
        (words.t(f"tiebreak.{points}"), words.t(f"pdf.legend.{points}")),
        (words.t("place"), words.t("pdf.legend.place")),
    ]
    pdf_table.legend(pdf, FAMILY, said, words.t("pdf.legend"), words.colon)
    return bytes(pdf.output())


def cancelled_notice(words: Words, event: dict, section: dict, font: str = "") -> bytes:
    """A cancelled section's printouts: the event, the section and that it was cancelled."""
    pdf = sheet_for(words, event, section, "", font=font)
    pdf.add_page()
    pdf.ln(6)
    pdf.set_font(FAMILY, size=13)
    pdf.multi_cell(0, 8, words.t("pdf.cancelled_section"), align="C")
    return bytes(pdf.output())


def certificates(words: Words, event: dict, awards: dict, font: str = "", members: dict | None = None) -> bytes:
    """获奖证书 for each awarded place, 纪念证书 for every finisher where the section gives one
    and 最佳台次 for each best-board winner: one A4 page each, all in the reader's language, with
    the event, the section, the dates, the date of issue and a place for the seal. ``members``:
    a team's players by team (entrant) id, named on its certificate."""
    pdf = Sheet("", "", words, font=font)
    pdf.set_auto_page_break(False)
    section = str(awards.get("section_name") or awards.get("name") or "")
    issued = str(awards.get("issued") or "")
    made = 0
    for place in awards.get("places", []):
        items = list(place.get("items") or [])
        team_players = (members or {}).get(place.get("entrant_id") or "") or []
        who = {**place, "team_players": team_players}
        if "certificate" in items:
            lines = [words.t("pdf.cert.place", section=section, n=place.get("place"), nth=_nth(place.get("place")))]
            if place.get("title"):
                lines.append(words.t("pdf.cert.title", title=words.title(place.get("title"))))
            others = [words.v("item", i) for i in items if i not in ("certificate",)]
            if others:
                lines.append(words.t("pdf.cert.prizes", items=("、" if words.lang == "zh" else ", ").join(others)))
            certificate(pdf, words.t("pdf.cert.award"), who, event, lines, issued)
            made += 1
        # every finisher's items go to the placed players too (AWD-1, DA: every finisher a finisher's medal and certificate)
        if "commemorative_certificate" in (place.get("finisher_items") or []):
            lines = [words.t("pdf.cert.finisher_line", section=section)]
            certificate(pdf, words.t("pdf.cert.finisher"), who, event, lines, issued)
            made += 1
    for board in awards.get("best_boards", []):
        lines = [words.t("pdf.cert.best_board_line", section=section, n=board.get("board"))]
        certificate(pdf, words.t("pdf.cert.best_board"), board, event, lines, issued)
        made += 1
    for prize in band_prizes(awards):  # issue 32: a rating-band prize's own certificate
        certificate(pdf, words.t("pdf.cert.award"), prize, event, band_prize_lines(words, section, prize), issued)
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
    if words.lang == "zh" and event.get("name_zh"):
        event = {**event, "name": event["name_zh"]}
    for row in honours.get("rows", []):
        honour = words.v("honour", row.get("kind"))
        lines = [words.t("pdf.honour_line", honour=honour), *([row["citation"]] if row.get("citation") else [])]
        certificate(pdf, honour, row, event, lines, "")
    if not honours.get("rows"):
        pdf.add_page()
        pdf.set_font(FAMILY, size=12)
        pdf.cell(0, 10, words.t("no_awards"))
    return bytes(pdf.output())


def certificate(pdf: Sheet, heading: str, who: dict, event: dict, lines: list[str], issued: str) -> None:
    """One certificate: a double frame; the heading; the person (or team) named whole, with their
    unit or team (and a team's players); the event and what they won; under it the organiser and
    the venue (each where known); at the foot the dates and the date of issue on the left, the
    circle where the organiser's seal goes on the right."""
    words = pdf.words
    inner = pdf.w - 50
    pdf.add_page()
    pdf.set_line_width(1.2)
    pdf.rect(12, 12, pdf.w - 24, pdf.h - 24)
    pdf.set_line_width(0.3)
    pdf.rect(16, 16, pdf.w - 32, pdf.h - 32)
    _centred(pdf, heading, 45, 34, 22, 16)
    y = _centred(pdf, str(who.get("name") or "—"), 85, 26, 14, 13)
    team = who.get("team_players")
    unit = who.get("unit") or who.get("unit_name") or who.get("team_name")
    if unit and unit != who.get("name"):
        y = _centred(pdf, str(unit), y + 2, 14, 9, 8)
    if team:
        names = ("、" if words.lang == "zh" else ", ").join(str(p) for p in team)
        y = _centred(pdf, words.t("pdf.cert.members", names=names), y + 2, 13, 9, 7)
    y = _centred(pdf, str(event.get("name") or ""), max(y + 14, 130), 17, 11, 10)
    for line in lines:
        y = _centred(pdf, line, y + 4, 15, 10, 9)
    # who held it and where, under what was won, across the page (a long organiser wraps)
    y += 6
    for line in organiser_and_venue(words, event):
        y = _centred(pdf, line, y + 3, 11, 9, 5.5)
    # the foot: the dates and the date of issue, and the seal
    foot = pdf.h - 75
    said = [
        words.t("pdf.dates", dates=event["dates"]) if event.get("dates") else "",
        words.t("pdf.issued", date=issued) if issued else "",
    ]
    for n, line in enumerate(t for t in said if t):
        block(pdf, line, 28, foot + 16 + n * 9, inner / 2 + 10, 12, 8)
    cx, cy, r = pdf.w - 62, foot + 20, 20
    pdf.set_dash_pattern(dash=1.5, gap=1.5)
    pdf.ellipse(cx - r, cy - r, 2 * r, 2 * r)
    pdf.set_dash_pattern()
    pdf.set_font(FAMILY, size=11)
    pdf.set_xy(cx - r, cy - 4)
    pdf.cell(2 * r, 8, words.t("pdf.seal"), align="C")


def block(pdf: Sheet, text: str, x: float, y: float, width: float, size: float, min_size: float) -> float:
    """``text`` from (x, y) within ``width``: at ``size`` when it fits, else smaller down to
    ``min_size``, else wrapped there (``pdf_table.fit``); every line drawn. Returns where it ends."""
    pdf.set_font(FAMILY, size=size)
    fitted = pdf_table.fit(pdf, text, width, size, min_size)
    pdf.set_font(FAMILY, size=fitted.size)
    step = fitted.size * pdf_table.LINE_PER_PT
    for n, part in enumerate(fitted.lines):
        pdf.set_xy(x, y + n * step)
        pdf.cell(width, step, part)
    return y + len(fitted.lines) * step


def _centred(pdf: Sheet, text: str, y: float, size: float, min_size: float, line: float) -> float:
    """``text`` centred across the certificate from ``y``, smaller or wrapped when long; returns
    the height it reached."""
    width = pdf.w - 50
    pdf.set_font(FAMILY, size=size)
    fitted = pdf_table.fit(pdf, text, width, size, min_size)
    pdf.set_font(FAMILY, size=fitted.size)
    for n, part in enumerate(fitted.lines):
        pdf.set_xy(25, y + n * line)
        pdf.cell(width, line, part, align="C")
    return y + len(fitted.lines) * line


def _nth(n: Any) -> str:
    """1st, 2nd, 3rd, 4th … 11th, 12th, 13th, 21st."""
    try:
        k = int(n)
    except (TypeError, ValueError):
        return str(n)
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


def _num(value: Any) -> str:
    if value is None or value == "":
        return ""
    try:
        f = float(value)
    except (TypeError, ValueError):
        return str(value)
    return str(int(f)) if f == int(f) else f"{f:g}"
