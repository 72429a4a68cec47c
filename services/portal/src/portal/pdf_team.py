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


def matches(rnd: Mapping[str, Any]) -> list[tuple[str, list[dict[str, Any]]]]:
    """The round's pairings by match (``match_id``), in the order of the matches, boards in order."""
    found: dict[str, list[dict[str, Any]]] = {}
    for pairing in rnd.get("pairings", []):
        found.setdefault(str(pairing.get("match_id") or ""), []).append(pairing)
    ordered = sorted(found.items(), key=lambda kv: min(p.get("pairing_id") or "" for p in kv[1]))
    ordered = sorted(ordered, key=lambda kv: _match_no(kv[0]))
    return [(mid, sorted(boards, key=lambda p: p.get("board") or 0)) for mid, boards in ordered]


def _match_no(match_id: str) -> int:
    tail = match_id.rsplit(".m", 1)[-1]
    return int(tail) if tail.isdigit() else 0


def _sides(boards: list[dict[str, Any]]) -> tuple[str, str]:
    """The match's two teams: the first-listed team is the one moving first on board 1."""
    first = boards[0]
    return str(first.get("first_team") or ""), str(first.get("second_team") or "")


def _team_points(boards: list[dict[str, Any]], team: str) -> float:
    total = 0.0
    for p in boards:
        if not p.get("result"):
            continue
        side = "first" if p.get("first_team") == team else "second"
        total += float(p.get(f"{side}_points") or 0)
    return total


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
    for no, (_mid, boards) in enumerate(matches(rnd), 1):
        home, away = _sides(boards)
        home_name = str((teams.get(home) or {}).get("name") or "")
        away_name = str((teams.get(away) or {}).get("name") or "")
        line = f"{words.t('pdf.match', n=no)}   {words.t('pdf.match_vs', first=home_name, second=away_name)}"
        if boards and all(p.get("result") for p in boards):
            points = (_num(_team_points(boards, home)), _num(_team_points(boards, away)))
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
    for no, (_mid, boards) in enumerate(matches(rnd), 1):
        home, away = (str((teams.get(t) or {}).get("name") or "") for t in _sides(boards))
        match = f"{words.t('pdf.match', n=no)} {words.t('pdf.match_vs', first=home, second=away)}"
        for p in boards:
            heading = " · ".join(
                (words.t("pdf.slip"), words.t("round", n=n), match, words.t("pdf.board_n", n=p.get("board")))
            )
            first = board_player(players, teams, p, "first", words)
            slips.append((heading, first, board_player(players, teams, p, "second", words)))
    draw_slips(pdf, words, slips)
    return bytes(pdf.output())
