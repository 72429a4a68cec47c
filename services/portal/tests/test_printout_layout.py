"""Printouts to the standard of Swiss-Manager's (issue 28): the table layout from the font's own
widths (nothing cut: the text drawn is the text given), the standings' legend, each printout in one
language, certificates with the organiser, the venue, the dates, the date of issue and the seal, and
a team round as matches."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from portal import names, pdf, pdf_table, pdf_team, printout_reads
from portal.i18n import Words

ZH, EN = Words("zh"), Words("en")
LONG_UNIT_ZH = "深圳市南山区青少年五子棋俱乐部（南山棋院）"
LONG_UNIT_EN = "Nanshan Chess Academy of the Shenzhen Youth Gomoku Club"
LONG_NAME = "Alexandra Konstantinopoulou-Wellington"
VENUE_ZH = "海南省定安县南丽湖风景区中铁诺德丽湖半岛（海南诺德珺唐酒店）"
VENUE_EN = "Nuode Lihu Peninsula (Hainan Nuode Juntang Hotel), Nanli Lake, Ding'an County, Hainan"
ORGANISER_ZH = "国家体育总局棋牌运动管理中心、湖北省体育局、十堰市人民政府"
ORGANISER_EN = (
    "Chess and Card Sports Administration Centre of the General Administration of Sport; "
    "Hubei Provincial Sports Bureau; Shiyan City People's Government"
)
EVENT_ZH = {
    "name": "2023年全国五子棋定安公开赛",
    "dates": "2023年8月19日至22日",
    "organiser": ORGANISER_ZH,
    "venue": VENUE_ZH,
}
EVENT_EN = {
    "name": "2023 National Gomoku Open, Ding'an",
    "dates": "19–22 August 2023",
    "organiser": ORGANISER_EN,
    "venue": VENUE_EN,
}
NAMES = {
    "e1": {"entrant_id": "e1", "name": "张伟", "unit": LONG_UNIT_ZH},
    "e2": {"entrant_id": "e2", "name": "李娜", "unit": "江苏"},
}
CJK = re.compile(r"[\u2e80-\u9fff\uff00-\uffef]")
LATIN = re.compile(r"[A-Za-z]")


def _text(body: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages)


def _flat(text: str) -> str:
    """The text without its line breaks and spaces: a wrapped cell reads as the whole text."""
    return re.sub(r"\s+", "", text)


def _sheet() -> pdf.Sheet:
    sheet = pdf.Sheet("t", "", ZH)
    sheet.add_page()
    sheet.set_font(pdf.FAMILY, size=pdf_table.SIZE)
    return sheet


def test_a_long_unit_is_set_smaller_or_wrapped_but_drawn_whole():
    sheet = _sheet()
    for text in (LONG_UNIT_ZH, LONG_UNIT_EN, LONG_NAME):
        fitted = pdf_table.fit(sheet, text, 30)
        # the text drawn is the text given (lines broken at spaces or between characters)
        assert _flat("".join(fitted.lines)) == _flat(text)
        assert len(fitted.lines) > 1 and fitted.size == pdf_table.MIN_SIZE
        room = 30 - pdf_table.PAD
        assert all(pdf_table.text_width(sheet, line, fitted.size) <= room + 0.01 for line in fitted.lines)
    # a text a little too long keeps one line, a size smaller
    short = pdf_table.fit(sheet, "Shanghai Gomoku", pdf_table.text_width(sheet, "Shanghai Gomoku", 9) + 1)
    assert short.lines == ("Shanghai Gomoku",) and pdf_table.MIN_SIZE <= short.size < pdf_table.SIZE


def test_the_free_width_goes_to_the_names_and_units_and_a_head_keeps_its_longest_word():
    sheet = _sheet()
    heads = ["Board", "First-listed", "Unit", "Result", "Second-listed", "Unit"]
    rows = [["1", "Zhou Chao", "Beijing", "1 : 1", "Gao Min", "Jiangsu"]]
    cols = pdf_table.widths(sheet, heads, rows, 180, grow=(1, 2, 4, 5))
    assert abs(sum(cols) - 180) < 0.01 or sum(cols) < 180
    need_board = pdf_table.text_width(sheet, "Board", pdf_table.SIZE) + pdf_table.PAD + 1
    assert abs(cols[0] - need_board) < 0.01  # a number column is as wide as it needs
    assert min(cols[1], cols[2], cols[4], cols[5]) > pdf_table.ROOMY - 0.01
    # too much text for the page: the names share what the short columns leave, heads still whole
    rows = [["1", LONG_NAME, LONG_UNIT_EN, "1 : 1", LONG_NAME, LONG_UNIT_EN]]
    cols = pdf_table.widths(sheet, heads, rows, 180, grow=(1, 2, 4, 5))
    assert abs(sum(cols) - 180) < 0.01
    second = pdf_table.text_width(sheet, "Second-listed", pdf_table.SIZE)
    assert cols[4] >= second + pdf_table.PAD


@pytest.mark.slow
def test_the_pairing_sheet_prints_a_long_unit_whole_in_chinese_only():
    rnd = {"round": 2, "pairings": [{"board": 1, "first": "e1", "second": "e2", "result": None}]}
    text = _text(pdf.pairing_sheet(ZH, EVENT_ZH, {"name": "公开组"}, rnd, NAMES))
    assert _flat(LONG_UNIT_ZH) in _flat(text) and "…" not in text
    for word in ("2023年全国五子棋定安公开赛", "公开组", "第 2 轮对阵表", "比赛日期：2023年8月19日至22日"):
        assert _flat(word) in _flat(text), word
    assert not LATIN.search(text), LATIN.findall(text)


def test_english_standings_heads_whole_with_a_legend_in_english_only():
    """PAIR-7: each tiebreak's short head is explained in words under the table."""
    names = {"e1": {"name": "Zhou Chao", "unit": LONG_UNIT_EN}}
    table = {
        "after_round": 3,
        "order": ["points", "buchholz", "median_buchholz", "wins"],
        "standings": [
            {
                "place": 1,
                "shared": True,
                "name": names["e1"]["name"],
                "unit": LONG_UNIT_EN,
                "points": 6,
                "tiebreaks": {"buchholz": 11, "median_buchholz": 3, "wins": 3},
                "games_played": 3,
                "decided_by": "tiebreak",
            }
        ],
    }
    text = _text(pdf.standings(EN, EVENT_EN, {"name": "Open"}, table))
    assert "…" not in text and not CJK.search(text.replace("–", "")), CJK.findall(text)
    assert _flat(LONG_UNIT_EN) in _flat(text)
    for legend in (
        "The columns",
        "Median Buchholz: the opponents' points without the highest and the lowest",
        "Buchholz: the sum of the opponents' points",
        "Tie decided by: how a tie on points was broken",
        "Dates: 19–22 August 2023",
    ):
        assert legend in text, legend


def test_chinese_standings_legend_names_sz_buchholz_as_small_points():
    """PAIR-7 (SZ online): 小分 is the Buchholz there, and 小小分 its sum; both explained."""
    table = {"after_round": 1, "order": ["points", "buchholz", "buchholz_of_buchholz"], "standings": []}
    text = _text(pdf.standings(ZH, EVENT_ZH, {"name": "男子组（大众规则组）"}, table))
    assert "小分：所有对手大分之和" in text and "小小分：所有对手小分之和" in text and "表头说明" in text


def test_certificates_in_one_language_with_dates_issue_date_and_seal():
    awards = {
        "section_name": "公开组",
        "issued": "2023年8月20日",
        "places": [
            {"place": 1, "name": "张伟", "unit": LONG_UNIT_ZH, "items": ["certificate", "medal"], "title": "2d"}
        ],
        "best_boards": [],
    }
    text = _text(pdf.certificates(ZH, EVENT_ZH, awards))
    for word in (
        "获奖证书",
        "张伟",
        LONG_UNIT_ZH,
        EVENT_ZH["name"],
        "在公开组比赛中荣获第 1 名",
        "授予二段称号",
        "奖品：奖牌",
        "比赛日期：2023年8月19日至22日",
        "颁发日期：2023年8月20日",
        "盖章处",
        f"主办单位：{ORGANISER_ZH}",
        f"比赛地点：{VENUE_ZH}",
    ):
        assert _flat(word) in _flat(text), word
    assert not LATIN.search(text), LATIN.findall(text)
    awards = {**awards, "section_name": "Open", "issued": "20 August 2023"}
    awards["places"] = [{**awards["places"][0], "name": "Zhou Chao", "unit": LONG_UNIT_EN}]
    text = _text(pdf.certificates(EN, EVENT_EN, awards))
    for words in ("Certificate of Award", "won 1st place in the Open section", "Prizes: medal", "Seal", "Issued on"):
        assert words in text, words
    for words in (f"Organiser: {ORGANISER_EN}", f"Venue: {VENUE_EN}"):
        assert _flat(words) in _flat(text), words
    assert not CJK.search(text.replace("–", "")), CJK.findall(text)


@pytest.mark.slow
def test_a_cancelled_sections_printout_says_so_in_its_language():
    text = _text(pdf.cancelled_notice(ZH, EVENT_ZH, {"name": "少年组"}))
    assert "本组别已取消，没有名次，也没有证书。" in text and "少年组" in text and "获奖名单尚未公布" not in text
    text = _text(pdf.cancelled_notice(EN, EVENT_EN, {"name": "Junior"}))
    assert "This section was cancelled: it has no places and no certificates." in text and "Junior" in text


def test_a_team_certificate_names_the_team_and_its_players_in_board_order():
    awards = {
        "section_name": "混合团体",
        "places": [{"place": 1, "entrant_id": "t1", "name": "上海", "unit": "上海", "items": ["certificate"]}],
    }
    text = _text(pdf.certificates(ZH, EVENT_ZH, awards, members={"t1": ["甲一", "乙二", "丙三"]}))
    assert "队员：甲一、乙二、丙三" in text and "上海" in text and "在混合团体比赛中荣获第 1 名" in text


TEAMS = {
    "t1": {
        "entrant_id": "t1",
        "name": "北京",
        "members": [{"player_id": "p1", "name": "张三", "board": 1}, {"player_id": "p2", "name": "王五", "board": 2}],
    },
    # the section names one of this team's players only
    "t2": {"entrant_id": "t2", "name": "浙江", "members": [{"player_id": "q1", "name": "李四", "board": 1}]},
}
TEAM_ROUND = {
    "round": 1,
    "pairings": [
        {
            "pairing_id": f"r1.m1.b{b}",
            "match_id": "r1.m1",
            "board": b,
            "first": f"p{b}" if b % 2 else f"q{b}",
            "second": f"q{b}" if b % 2 else f"p{b}",
            "first_team": "t1" if b % 2 else "t2",
            "second_team": "t2" if b % 2 else "t1",
            "result": "first_wins",
            "first_points": 2,
            "second_points": 0,
        }
        for b in (1, 2)
    ],
    # pairing's read of the round as matches (PAIR-9): the teams and the game points of each
    "matches": [
        {
            "match_id": "r1.m1",
            "first_team": "t1",
            "second_team": "t2",
            "pairing_ids": ["r1.m1.b1", "r1.m1.b2"],
            "boards_decided": 2,
            "first_game_points": 2,
            "second_game_points": 2,
        }
    ],
    "byes": [],
}


def test_a_team_round_is_printed_as_matches_with_players_by_name_and_team():
    """PAIR-9: a match is team against team; each board names its players (REG-9 board order)."""
    section = {"name": "混合团体", "kind": "team", "entrants": list(TEAMS.values())}
    players = names.by_id(section)
    assert players["p1"] == {"name": "张三", "unit": "北京", "board": 1, "team": "t1", "team_name": "北京"}
    text = _text(pdf_team.pairing_sheet(ZH, EVENT_ZH, section, TEAM_ROUND, TEAMS, players))
    assert "第 1 场" in text and "北京 对 浙江" in text and "局分 2 : 2" in text
    assert all(name in text for name in ("张三", "李四", "王五"))
    # a board whose player the section does not name: its team and board, never a dash or an id
    assert "浙江 第 2 台" in text and "q2" not in text and "—" not in text
    slips = _text(pdf_team.result_slips(ZH, EVENT_ZH, section, TEAM_ROUND, TEAMS, players))
    assert slips.count("对局记录单") == 2 and "第 1 场 北京 对 浙江" in slips and "第 2 台" in slips


@pytest.mark.slow
def test_dates_and_names_in_the_readers_language():
    assert printout_reads.issued_on("2023-06-23T17:00:00Z", "Asia/Shanghai", ZH) == "2023年6月24日"
    event = {
        "name": "2023 National Gomoku Team Championship",
        "organiser": "Hubei Provincial Sports Bureau",
        "organiser_zh": "湖北省体育局",
        "venue": None,  # NT 三: 地点另行通知 (registration answers none)
        "stages": [{"id": "main", "sections": [{"id": "mixed"}]}],
    }
    plan = {
        "name": event["name"],
        "name_zh": "2023年全国五子棋团体锦标赛",
        "timezone": "Asia/Shanghai",
        "sections": {"mixed": {"name": "Mixed team", "name_zh": "混合团体"}},
        "stages": [{"stage": "main", "starts_on": "2023-06-22", "ends_on": "2023-06-24"}],
    }
    printed, section = printout_reads.imprint(event, plan, "mixed", ZH)
    assert (printed["name"], section["name"], printed["dates"]) == (
        "2023年全国五子棋团体锦标赛",
        "混合团体",
        "2023年6月22日至24日",
    )
    assert (printed["organiser"], printed["venue"]) == ("湖北省体育局", "")
    printed, section = printout_reads.imprint(event, plan, "mixed", EN)
    assert (printed["name"], section["name"]) == (event["name"], "Mixed team")
    assert (printed["organiser"], printed["venue"], printed["dates"]) == (
        "Hubei Provincial Sports Bureau",
        "",
        "22–24 June 2023",
    )
    # a certificate of an event whose venue is to be announced leaves the venue out, not "—"
    text = _text(pdf.certificates(EN, printed, {"section_name": "Mixed team", "places": [], "best_boards": []}))
    assert "Venue" not in text


def test_the_standings_and_cross_table_name_the_organiser_and_venue_under_their_heading():
    """As Swiss-Manager's lists do: under the event's name and dates, who holds it and where."""
    table = {"after_round": 1, "order": ["points"], "standings": []}
    text = _flat(_text(pdf.standings(ZH, EVENT_ZH, {"name": "公开组"}, table)))
    assert _flat(f"主办单位：{ORGANISER_ZH}") in text and _flat(f"比赛地点：{VENUE_ZH}") in text
    text = _flat(_text(pdf.cross_table(EN, EVENT_EN, {"name": "Open"}, {"rounds": 1, "players": []}, {})))
    assert _flat(f"Organiser: {ORGANISER_EN}") in text and _flat(f"Venue: {VENUE_EN}") in text
    # the pairing sheet and the slips stay as they were (a round's sheets)
    rnd = {"round": 1, "pairings": [{"board": 1, "first": "e1", "second": "e2", "result": None}]}
    assert "主办单位" not in _text(pdf.pairing_sheet(ZH, EVENT_ZH, {"name": "公开组"}, rnd, NAMES))


def _sizes_of(body: bytes, texts: tuple[str, ...]) -> dict[str, set[float]]:
    """The font sizes each of ``texts`` (or a line of it) is drawn at on the PDF's pages."""
    sizes: dict[str, set[float]] = {t: set() for t in texts}

    def seen(text: str, cm: list, tm: list, font: dict, size: float) -> None:
        for wanted in texts:
            if text.strip() and text.strip() in wanted:
                sizes[wanted].add(round(size * tm[3], 2))

    for page in PdfReader(io.BytesIO(body)).pages:
        page.extract_text(visitor_text=seen)
    return sizes


def test_an_english_slips_two_labels_are_set_at_the_same_size():
    """The first-listed's label ("First-listed (moves first)") was set at 8 pt beside the second's
    10 pt: both are 10 pt now, the long one wrapped between words within its column."""
    rnd = {"round": 1, "pairings": [{"board": 1, "first": "e1", "second": "e2", "result": None}]}
    names_en = {"e1": {"name": "Zhou Chao", "unit": "Beijing"}, "e2": {"name": "Gao Min", "unit": "Jiangsu"}}
    first, second = EN.t("pdf.first_black"), EN.t("pdf.second_white")
    body = pdf.result_slips(EN, EVENT_EN, {"name": "Open"}, rnd, names_en)
    sizes = _sizes_of(body, (first, second))
    assert sizes[first] == sizes[second] == {pdf.SLIP_LABEL_SIZE}, sizes
    assert _flat(first) in _flat(_text(body))
    sheet = _sheet()
    label = pdf_table.fit(sheet, first, pdf.SLIP_LABEL_WIDTH, pdf.SLIP_LABEL_SIZE, pdf.SLIP_LABEL_SIZE)
    room = pdf.SLIP_LABEL_WIDTH - pdf_table.PAD
    assert all(pdf_table.text_width(sheet, line, label.size) <= room + 0.01 for line in label.lines)
    assert label.lines == ("First-listed", "(moves first)")  # the bracket kept whole on its line
