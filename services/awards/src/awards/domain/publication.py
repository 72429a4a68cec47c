"""AWD-8: publication data — certificates, prize list, title list, team ranking, best
boards — as plain rows, plus CSV rendering (pure: returns ``str``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields, is_dataclass
from decimal import Decimal
from enum import Enum
from fractions import Fraction
from typing import Any

from gomoku_shared.csv_text import csv_text

from .best_board import BestBoardResult
from .model import SectionStandings
from .money import format_fen
from .section import SectionAwards
from .team_score import TeamRanking


@dataclass(frozen=True)
class CertificateWording:
    """Templates for certificate lines; a preset may translate them (e.g. "第{place}名")."""

    place: str = "Place {place}"
    shared: str = "{place_text} (shared)"
    item: str = "{item}"
    prize: str = "{table} prize: {amount} {currency}"
    title: str = "Title: {title}"
    best_board: str = "Best board {board}"


@dataclass(frozen=True)
class CertificateData:
    section_id: str
    section_name: str
    entrant_id: str
    name: str
    unit_name: str | None
    place: int | None
    lines: tuple[str, ...]


def certificates(
    awards: SectionAwards, wording: CertificateWording = CertificateWording(), include_finishers: bool = True
) -> tuple[CertificateData, ...]:
    """One certificate per entrant with anything to certify (place items, prize, title,
    or — with ``include_finishers`` — a finisher's item). Cancelled section: none."""
    out: list[CertificateData] = []
    for entry in awards.entrants:
        lines: list[str] = []
        if entry.items or entry.prizes or entry.title:
            text = wording.place.format(place=entry.place)
            lines.append(wording.shared.format(place_text=text) if entry.shared_place else text)
            lines.extend(wording.item.format(item=i) for i in entry.items)
            lines.extend(
                wording.prize.format(table=p.table, amount=format_fen(p.amount_fen), currency=awards.currency)
                for p in entry.prizes
            )
            if entry.title:
                lines.append(wording.title.format(title=entry.title))
        if include_finishers:
            lines.extend(wording.item.format(item=i) for i in entry.finisher_items)
        if lines:
            out.append(
                CertificateData(
                    awards.section_id,
                    awards.section_name,
                    entry.entrant_id,
                    entry.name,
                    entry.unit_name,
                    entry.place,
                    tuple(lines),
                )
            )
    return tuple(out)


def best_board_certificates(
    results: Iterable[BestBoardResult], section_name: str, wording: CertificateWording = CertificateWording()
) -> tuple[CertificateData, ...]:
    out: list[CertificateData] = []
    for result in results:
        for winner in result.winners:
            rec = winner.record
            lines = (wording.best_board.format(board=result.board),) + tuple(
                wording.item.format(item=i) for i in result.items
            )
            out.append(
                CertificateData(result.section_id, section_name, rec.player_id, rec.name, rec.team_name, None, lines)
            )
    return tuple(out)


@dataclass(frozen=True)
class PrizeListRow:
    section_id: str
    section_name: str
    table: str
    rank: int
    place: int
    entrant_id: str
    name: str
    unit_name: str | None
    amount: str
    amount_fen: int
    currency: str
    shared_with: tuple[str, ...]
    remainder_fen: int
    #: the table's Chinese name, where the configuration gives one
    table_zh: str | None = None
    #: issue 32: the table's band of published ratings (from, inclusive; under), None: no bound
    band_at_least: int | None = None
    band_under: int | None = None


def prize_list(awards: SectionAwards) -> tuple[PrizeListRow, ...]:
    units = {e.entrant_id: e.unit_name for e in awards.entrants}
    return tuple(
        PrizeListRow(
            awards.section_id,
            awards.section_name,
            p.table,
            p.rank,
            p.place,
            p.entrant_id,
            p.name,
            units.get(p.entrant_id),
            format_fen(p.amount_fen),
            p.amount_fen,
            awards.currency,
            p.shared_with,
            p.remainder_fen,
            p.table_zh,
            p.band.at_least if p.band else None,
            p.band.under if p.band else None,
        )
        for p in awards.prizes
    )


@dataclass(frozen=True)
class TitleListRow:
    section_id: str
    section_name: str
    place: int
    entrant_id: str
    name: str
    unit_name: str | None
    title: str
    shared_place: bool


def title_list(awards: SectionAwards) -> tuple[TitleListRow, ...]:
    units = {e.entrant_id: e.unit_name for e in awards.entrants}
    return tuple(
        TitleListRow(
            awards.section_id,
            awards.section_name,
            t.place,
            t.entrant_id,
            t.name,
            units.get(t.entrant_id),
            t.title,
            t.shared_place,
        )
        for t in awards.titles
    )


@dataclass(frozen=True)
class TeamRankingRow:
    team_section_id: str
    team_section_name: str
    place: int | None
    unit_id: str
    unit_name: str
    score: str
    members: tuple[str, ...]
    tiebreaks: tuple[str, ...]
    note: str = ""


def team_ranking_rows(ranking: TeamRanking) -> tuple[TeamRankingRow, ...]:
    """Ranked units first, then the unscored ones (place empty, reason in ``note``)."""
    rows = [
        TeamRankingRow(
            ranking.team_section_id,
            ranking.name,
            t.place,
            t.unit_id,
            t.unit_name,
            str(t.score),
            tuple(f"{m.name} ({m.section_id} #{m.place}, {m.points} pts)" for m in t.members),
            tuple(f"{k}={v}" for k, v in t.tiebreaks),
            "shared place" if t.shared_place else "",
        )
        for t in ranking.ranked
    ]
    rows.extend(
        TeamRankingRow(ranking.team_section_id, ranking.name, None, u.unit_id, u.unit_name, "", (), (), u.reason)
        for u in ranking.unscored
    )
    return tuple(rows)


@dataclass(frozen=True)
class BestBoardRow:
    section_id: str
    board: int
    player_id: str
    name: str
    team_name: str
    points: str
    games_played: int
    board_games: int
    wins: int
    win_rate: str
    team_place: int | None


def best_board_rows(results: Iterable[BestBoardResult]) -> tuple[BestBoardRow, ...]:
    """The winners of every board (several on a board only when fully tied)."""
    return tuple(
        BestBoardRow(
            r.section_id,
            r.board,
            w.record.player_id,
            w.record.name,
            w.record.team_name,
            str(w.record.points),
            w.record.games_played,
            w.record.board_games,
            w.record.wins,
            f"{w.win_rate.numerator}/{w.win_rate.denominator}",
            w.team_place,
        )
        for r in results
        for w in r.winners
    )


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return "; ".join(_cell(v) for v in value)
    return str(value)


def to_csv(rows: Sequence[object], columns: Sequence[str] | None = None) -> str:
    """Render dataclass rows as CSV text (header from field names; tuples joined by "; ")."""
    if columns is None:
        if not rows:
            return ""
        first = rows[0]
        if not is_dataclass(first):
            raise TypeError("rows must be dataclass instances")
        columns = [f.name for f in fields(first)]
    return csv_text(columns, ([_cell(getattr(row, c)) for c in columns] for row in rows))


def prizes_csv(awards: SectionAwards) -> str:
    return to_csv(prize_list(awards), [f.name for f in fields(PrizeListRow)])


def titles_csv(awards: SectionAwards) -> str:
    return to_csv(title_list(awards), [f.name for f in fields(TitleListRow)])


def team_ranking_csv(ranking: TeamRanking) -> str:
    return to_csv(team_ranking_rows(ranking), [f.name for f in fields(TeamRankingRow)])


def best_boards_csv(results: Iterable[BestBoardResult]) -> str:
    return to_csv(best_board_rows(results), [f.name for f in fields(BestBoardRow)])


def certificates_csv(certs: Sequence[CertificateData]) -> str:
    return to_csv(certs, [f.name for f in fields(CertificateData)])


def standings_csv(standings: SectionStandings) -> str:
    """AWD-8: the final standings with every tiebreak value (columns in the section's
    tiebreak order, taken from the first row)."""
    names = [name for name, _ in standings.rows[0].tiebreaks] if standings.rows else []
    shared = {r.place for r in standings.rows if sum(1 for o in standings.rows if o.place == r.place) > 1}
    header = [
        "place",
        "shared",
        "entrant_id",
        "name",
        "unit",
        "gender",
        "points",
        *names,
        "wins",
        "games_played",
        "decided_by_playoff",
    ]
    rows = []
    for row in standings.rows:
        values = dict(row.tiebreaks)
        rows.append(
            [
                row.place,
                _cell(row.place in shared),
                row.entrant_id,
                row.name,
                _cell(row.unit_name),
                _cell(row.gender),
                row.points,
                *(_cell(values.get(n)) for n in names),
                row.wins,
                row.games_played,
                _cell(row.decided_by_playoff),
            ]
        )
    return csv_text(header, rows)


def plain(value: Any) -> Any:
    """JSON-ready plain data: dataclasses → dicts, tuples → lists, Decimal → str,
    Fraction → "n/d", enums → their value, dates → ISO strings."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(plain(k)): plain(v) for k, v in value.items()}
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


def section_publication(awards: SectionAwards) -> dict[str, Any]:
    """AWD-8: the lists of one section as plain data, shaped for ``awards.published``
    (``places`` / ``prizes`` / ``titles`` / ``cancelled``)."""
    return {
        "section_id": awards.section_id,
        "cancelled": awards.cancelled,
        "places": [
            {
                "entrant_id": e.entrant_id,
                "name": e.name,
                "place": e.place,
                "shared_place": e.shared_place,
                "unit": e.unit_name,
                "items": list(e.items),
                "finisher_items": list(e.finisher_items),
                "prize_total_fen": e.prize_total_fen,
                "title": e.title,
            }
            for e in awards.entrants
        ],
        "prizes": plain(prize_list(awards)),
        "titles": plain(title_list(awards)),
    }
