"""A team round's printouts (issue 28): the pairing sheet as matches, team against team, each with
its boards' players by name and who moves first, and a result slip per board naming the players
and their teams. Standings, the cross table and the certificates are ``pdf``'s own (they read a
team section as such)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import pdf_table
from .i18n import Words
from .pdf import FAMILY, _num, draw_slips, sheet_for
from .printout_reads import board_player


def matches(rnd: Mapping[str, Any]) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """The round's matches as pairing reads them (PAIR-9: ``matches``, in order, with the teams and
    the game points so far), each with its boards' pairings in board order."""
    pairings = {p.get("pairing_id"): p for p in rnd.get("pairings", [])}
    return [
        (match, [pairings[pid] for pid in match.get("pairing_ids", []) if pid in pairings])
        for match in rnd.get("matches") or []
    ]


def _team_names(teams: Mapping[str, Any], match: Mapping[str, Any]) -> tuple[str, str]:
    """The match's two teams by name, the first-listed first."""
    first, second = (
        str((teams.get(str(match.get(side))) or {}).get("name") or "") for side in ("first_team", "second_team")
    )
    return first, second


def pairing_sheet(
    words: Words,
    event: dict,
    section: dict,
    rnd: dict,
    teams: Mapping[str, Any],
    players: Mapping[str, Any],
    font: str = "",
) -> bytes:
    """Each match: "第 1 场  北京 对 浙江" (with the board points once played), then its boards:
    the first-listed player (who moves first) and team, the result, the second-listed and team."""
    n = rnd.get("round")
    pdf = sheet_for(words, event, section, words.t("pdf.pairing_sheet", n=n), font=font)
    pdf.add_page()
    heads = [
        words.t("board_no"),
        words.t("pdf.first_black"),
        words.t("pdf.team"),
        words.t("result"),
        words.t("pdf.second_white"),
        words.t("pdf.team"),
    ]
    for no, (match, boards) in enumerate(matches(rnd), 1):
        home_name, away_name = _team_names(teams, match)
        line = f"{words.t('pdf.match', n=no)}   {words.t('pdf.match_vs', first=home_name, second=away_name)}"
        if boards and match.get("boards_decided") == len(boards):
            points = (_num(match.get("first_game_points")), _num(match.get("second_game_points")))
            line += f"   {words.t('pdf.board_points', a=points[0], b=points[1])}"
        if pdf.get_y() + 30 > pdf.h - pdf.b_margin:
            pdf.add_page()
        pdf.ln(2)
        pdf.set_font(FAMILY, size=11)
        for part in pdf_table.fit(pdf, line, pdf.w - 30, 11, 8).lines:
            pdf.cell(0, 6, part, new_x="LMARGIN", new_y="NEXT")
        rows = []
        for p in boards:
            first, first_team = board_player(players, teams, p, "first", words)
            second, second_team = board_player(players, teams, p, "second", words)
            result = f"{_num(p.get('first_points'))} : {_num(p.get('second_points'))}" if p.get("result") else ""
            rows.append([p.get("board"), first, first_team, result, second, second_team])
        pdf.ruled_table(heads, rows, grow=(1, 2, 4, 5))
    for bye in rnd.get("byes", []):
        entrant = str((bye.get("entrant_id") if isinstance(bye, dict) else bye) or "")
        pdf.ln(2)
        pdf.set_font(FAMILY, size=11)
        team_name = (teams.get(entrant) or {}).get("name") or ""
        pdf.cell(0, 6, f"{team_name}   {words.t('bye')}", new_x="LMARGIN", new_y="NEXT")
    if not rnd.get("pairings"):
        pdf.set_font(FAMILY, size=11)
        pdf.cell(0, 8, words.t("not_paired"))
    pdf.ln(3)
    pdf.set_font(FAMILY, size=8)
    pdf.multi_cell(0, 5, words.t("pdf.colour_note"))
    return bytes(pdf.output())


def result_slips(
    words: Words,
    event: dict,
    section: dict,
    rnd: dict,
    teams: Mapping[str, Any],
    players: Mapping[str, Any],
    font: str = "",
) -> bytes:
    """One slip per board of every match: the match, the board, both players with their teams."""
    n = rnd.get("round")
    pdf = sheet_for(words, event, section, words.t("pdf.result_slips", n=n), font=font)
    slips = []
    for no, (match, boards) in enumerate(matches(rnd), 1):
        home, away = _team_names(teams, match)
        which = f"{words.t('pdf.match', n=no)} {words.t('pdf.match_vs', first=home, second=away)}"
        for p in boards:
            heading = " · ".join(
                (words.t("pdf.slip"), words.t("round", n=n), which, words.t("pdf.board_n", n=p.get("board")))
            )
            first = board_player(players, teams, p, "first", words)
            slips.append((heading, first, board_player(players, teams, p, "second", words)))
    draw_slips(pdf, words, slips)
    return bytes(pdf.output())
