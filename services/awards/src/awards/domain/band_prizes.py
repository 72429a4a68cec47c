"""Issue 32 rating-band prizes: prize tables restricted to a band of published ratings, e.g.
"best under 1600".

A band table ranks the players whose published rating (as carried at section close) lies in its
band, by their section places, and pays them like any table (shared ranks split, as in
:mod:`awards.domain.prizes`).

One prize per player where the tables are not combinable (our decision, the usual rule of
rating-band prizes): a player whom a band table and another table (overall, a gendered table
that is not 兼得, another band table that is not) would both pay takes the better prize, the
larger amount; at equal amounts the table listed first (overall before gendered before band).
The prize given up passes to the next player of that table, as if the player were not in its
ranking; this is settled best place first and repeated until no player holds two such prizes.
A combinable band table (``combinable``) is paid in addition to anything else. Without band
tables the prizes are :func:`awards.domain.prizes.section_prizes`' exactly.
"""

from __future__ import annotations

from collections.abc import Sequence

from .config import PrizeConfig, PrizeTable
from .model import SectionStandings, StandingRow, rank_within
from .prizes import PrizeAward, pay_groups, section_prizes


def _pool(table: PrizeTable, rows: Sequence[StandingRow], excluded: set[str]) -> list[StandingRow]:
    pool = [r for r in rows if r.entrant_id not in excluded]
    if table.gender is not None:
        pool = [r for r in pool if r.gender == table.gender]
    if table.band is not None:
        pool = [r for r in pool if table.band.admits(r.rating)]
    return pool


def _pay_every_table(
    standings: SectionStandings, tables: Sequence[PrizeTable], excluded: list[set[str]]
) -> list[tuple[PrizeAward, ...]]:
    """Each table's lines (in table order) with the players each has given up excluded. As in
    :func:`section_prizes`, a gendered table that is not combinable skips the overall winners."""
    paid: list[tuple[PrizeAward, ...]] = [()] * len(tables)
    overall_winners: set[str] = set()
    for index, table in enumerate(tables):
        if table.gender is None and table.band is None:
            paid[index] = pay_groups(table, rank_within(_pool(table, standings.rows, excluded[index])))
            overall_winners.update(p.entrant_id for p in paid[index] if p.amount_fen > 0)
    for index, table in enumerate(tables):
        if table.gender is None and table.band is None:
            continue
        skipped = excluded[index] | (overall_winners if table.band is None and not table.combinable else set())
        paid[index] = pay_groups(table, rank_within(_pool(table, standings.rows, skipped)))
    return paid


def _one_prize(table: PrizeTable) -> bool:
    """Whether a line of this table counts towards "one prize per player" (not 兼得)."""
    return table.gender is None and table.band is None or not table.combinable


def _first_double(
    standings: SectionStandings, tables: Sequence[PrizeTable], paid: list[tuple[PrizeAward, ...]]
) -> tuple[str, int, list[int]] | None:
    """The best-placed player holding a band prize and another one-prize line: (player, the
    table kept, the tables given up)."""
    held: dict[str, list[tuple[int, int]]] = {}
    for index, lines in enumerate(paid):
        if _one_prize(tables[index]):
            for line in lines:
                if line.amount_fen > 0:
                    held.setdefault(line.entrant_id, []).append((index, line.amount_fen))
    for row in standings.rows:
        prizes = held.get(row.entrant_id, [])
        if len(prizes) > 1 and any(tables[index].band is not None for index, _ in prizes):
            kept = max(prizes, key=lambda prize: (prize[1], -prize[0]))[0]
            return row.entrant_id, kept, [index for index, _ in prizes if index != kept]
    return None


def prizes_with_bands(standings: SectionStandings, config: PrizeConfig) -> tuple[PrizeAward, ...]:
    """AWD-4 with issue 32's rating-band tables: every prize line, tables in configuration order."""
    tables = config.tables
    if all(t.band is None for t in tables):
        return section_prizes(standings, config)
    excluded: list[set[str]] = [set() for _ in tables]
    while True:  # every round excludes a player from a table: at most players × tables rounds
        paid = _pay_every_table(standings, tables, excluded)
        double = _first_double(standings, tables, paid)
        if double is None:
            return tuple(line for lines in paid for line in lines)
        entrant_id, _kept, given_up = double
        for index in given_up:
            excluded[index].add(entrant_id)
