"""AWD-4: prize money — overall and gendered tables, combinability (兼得), shared places.

Shared places (our decision under AWD-4): a tie group occupying ranks p..p+k−1 shares the
sum of those ranks' amounts equally; ranks beyond the table count as 0 (a tie straddling
the last paid rank shares that one amount among all tied). Shares are rounded down to the
fen; the fen left over is reported, not paid. Ties separated by a playoff arrive as
distinct places and are paid by rank like any other.
"""

from __future__ import annotations

from dataclasses import dataclass

from .config import PrizeConfig, PrizeTable
from .model import SectionStandings, StandingRow, TieGroup, rank_within
from .money import split_fen
from .rating_band import RatingBand


@dataclass(frozen=True)
class PrizeAward:
    """One prize line: ``amount_fen`` paid to ``entrant_id`` from table ``table``."""

    table: str
    entrant_id: str
    name: str
    #: place in the section
    place: int
    #: rank inside the table's ranking (= place for overall tables; rank among women …)
    rank: int
    amount_fen: int
    #: other entrants sharing this rank (empty unless tied)
    shared_with: tuple[str, ...] = ()
    #: ranks the tie group occupies, e.g. (8, 9); None when not tied
    tied_ranks: tuple[int, int] | None = None
    #: fen of the group's total left undistributed by rounding down (same on each line)
    remainder_fen: int = 0
    #: the table's Chinese name, where the configuration gives one
    table_zh: str | None = None
    #: issue 32: the rating band the table ranks (None: every player)
    band: RatingBand | None = None


def _table_amount(table: PrizeTable, rank: int) -> int:
    return table.amounts[rank - 1] if 1 <= rank <= len(table.amounts) else 0


def pay_groups(table: PrizeTable, groups: tuple[TieGroup, ...]) -> tuple[PrizeAward, ...]:
    """Pay one table over rank groups (``group.place`` is the rank in this table)."""
    lines: list[PrizeAward] = []
    for group in groups:
        total = sum(_table_amount(table, r) for r in range(group.place, group.last_place + 1))
        if total == 0:
            continue
        share, remainder = split_fen(total, group.size)
        ids = tuple(row.entrant_id for row in group.rows)
        for row in group.rows:
            lines.append(
                PrizeAward(
                    table=table.name,
                    entrant_id=row.entrant_id,
                    name=row.name,
                    place=row.place,
                    rank=group.place,
                    amount_fen=share,
                    shared_with=tuple(i for i in ids if i != row.entrant_id),
                    tied_ranks=(group.place, group.last_place) if group.shared else None,
                    remainder_fen=remainder,
                    table_zh=table.name_zh,
                    band=table.band,
                )
            )
    return tuple(lines)


def section_prizes(standings: SectionStandings, config: PrizeConfig) -> tuple[PrizeAward, ...]:
    """AWD-4: every prize line of the section, tables in configuration order.

    Overall tables (``gender=None``) rank the section by place. A gendered table ranks
    the entrants of that gender by their section places; when it is not combinable the
    entrants already holding an overall prize are skipped first.
    """
    lines: list[PrizeAward] = []
    overall_winners: set[str] = set()
    overall = [t for t in config.tables if t.gender is None]
    gendered = [t for t in config.tables if t.gender is not None]
    for table in overall:
        paid = pay_groups(table, rank_within(standings.rows))
        overall_winners.update(p.entrant_id for p in paid if p.amount_fen > 0)
        lines.extend(paid)
    for table in gendered:
        pool: list[StandingRow] = [r for r in standings.rows if r.gender == table.gender]
        if not table.combinable:
            pool = [r for r in pool if r.entrant_id not in overall_winners]
        lines.extend(pay_groups(table, rank_within(pool)))
    return tuple(lines)


def total_by_entrant(lines: tuple[PrizeAward, ...]) -> dict[str, int]:
    totals: dict[str, int] = {}
    for line in lines:
        totals[line.entrant_id] = totals.get(line.entrant_id, 0) + line.amount_fen
    return totals
