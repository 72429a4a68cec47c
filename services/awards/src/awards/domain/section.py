"""One call per section and one per event: the entry points the service layer uses."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .band_prizes import prizes_with_bands
from .best_board import BestBoardResult, BoardRecord, best_boards
from .config import EventAwardsConfig, SectionAwardConfig
from .model import Gender, SectionStandings
from .places import awarded_places, is_cancelled, place_awards
from .prizes import PrizeAward
from .qualification import SquadSelection, StageQualification, select_squad, stage_qualification
from .team_score import TeamRanking, team_ranking, team_ranking_standings
from .titles import TitleAward, section_titles


@dataclass(frozen=True)
class EntrantAwards:
    """Everything one entrant receives in a section."""

    entrant_id: str
    name: str
    place: int
    shared_place: bool
    gender: Gender | None = None
    unit_name: str | None = None
    items: tuple[str, ...] = ()
    finisher_items: tuple[str, ...] = ()
    prizes: tuple[PrizeAward, ...] = ()
    title: str | None = None

    @property
    def prize_total_fen(self) -> int:
        return sum(p.amount_fen for p in self.prizes)

    @property
    def awarded(self) -> bool:
        return bool(self.items or self.prizes or self.title)


@dataclass(frozen=True)
class SectionAwards:
    section_id: str
    section_name: str
    kind: str
    field_size: int
    cancelled: bool
    awarded_places: int
    #: every entrant, in place order (empty when cancelled)
    entrants: tuple[EntrantAwards, ...] = ()
    prizes: tuple[PrizeAward, ...] = ()
    titles: tuple[TitleAward, ...] = ()
    currency: str = "CNY"
    cancel_reason: str = ""
    #: REG-12: cancelled when registration closed (never played), not by its field size here
    cancelled_at_closing: bool = False

    def entrant(self, entrant_id: str) -> EntrantAwards:
        for entry in self.entrants:
            if entry.entrant_id == entrant_id:
                return entry
        raise KeyError(entrant_id)


def compute_section_awards(
    standings: SectionStandings, config: SectionAwardConfig, cancelled_at_closing: str | None = None
) -> SectionAwards:
    """AWD-1/2/4/5 for one section: place items, finisher items, prizes, titles.

    A cancelled section (AWD-2 by its field size, or REG-12 at closing: ``cancelled_at_closing``
    is the reason) awards nothing at all, finishers' items included.
    """
    size = standings.field_size
    cancelled_by_size = is_cancelled(size, config.cancel_if_entries_at_most)
    if cancelled_at_closing is not None or cancelled_by_size:
        reason = (
            f"cancelled at closing: {cancelled_at_closing}"
            if cancelled_at_closing is not None
            else f"{size} entrants (cancelled at {config.cancel_if_entries_at_most} or fewer)"
        )
        return SectionAwards(
            standings.section_id,
            standings.name,
            standings.kind,
            size,
            True,
            0,
            cancel_reason=reason,
            cancelled_at_closing=cancelled_at_closing is not None,
        )
    items = {p.entrant_id: p for p in place_awards(standings, config.places)}
    prizes = prizes_with_bands(standings, config.prizes) if config.prizes else ()  # AWD-4, issue 32 bands
    titles = section_titles(standings, config.titles) if config.titles else ()
    title_of = {t.entrant_id: t.title for t in titles}
    entrants = tuple(
        EntrantAwards(
            entrant_id=row.entrant_id,
            name=row.name,
            place=row.place,
            shared_place=items[row.entrant_id].shared_place,
            gender=row.gender,
            unit_name=row.unit_name,
            items=items[row.entrant_id].items,
            finisher_items=items[row.entrant_id].finisher_items,
            prizes=tuple(p for p in prizes if p.entrant_id == row.entrant_id),
            title=title_of.get(row.entrant_id),
        )
        for row in standings.rows
    )
    return SectionAwards(
        standings.section_id,
        standings.name,
        standings.kind,
        size,
        False,
        awarded_places(size, config.places),
        entrants,
        prizes,
        titles,
        config.prizes.currency if config.prizes else "CNY",
    )


@dataclass(frozen=True)
class EventAwards:
    sections: tuple[SectionAwards, ...]
    team_rankings: tuple[TeamRanking, ...] = ()
    best_boards: tuple[BestBoardResult, ...] = ()
    qualification: StageQualification | None = None
    squads: tuple[SquadSelection, ...] = ()
    #: section ids present in the standings but absent from the configuration
    unconfigured: tuple[str, ...] = field(default=())


def compute_event_awards(
    standings: Mapping[str, SectionStandings],
    config: EventAwardsConfig,
    board_records: Mapping[str, Iterable[BoardRecord]] | None = None,
    ineligible: Mapping[str, str] | None = None,
) -> EventAwards:
    """Everything at once, for a stage whose sections are all complete.

    - ``standings``: section id → final standings (cancelled sections may be left out or
      handed in; AWD-2 cancels them by field size).
    - ``board_records``: team section id → per-board records (AWD-7).
    - ``ineligible``: entrant id → reason, passed over in qualification (REG-7).

    Team rankings (AWD-6) are built from the individual sections that were not
    cancelled, then awarded with the section config whose id is the team section id.
    """
    live: dict[str, SectionStandings] = {}
    results: list[SectionAwards] = []
    unconfigured: list[str] = []
    for section_id, section in standings.items():
        cfg = config.section(section_id)
        if cfg is None:
            unconfigured.append(section_id)
            live[section_id] = section
            continue
        awards = compute_section_awards(section, cfg)
        results.append(awards)
        if not awards.cancelled:
            live[section_id] = section
    rankings: list[TeamRanking] = []
    for rule in config.team_scores:
        ranking = team_ranking(rule, live)
        rankings.append(ranking)
        cfg = config.section(rule.team_section_id)
        if cfg is not None:
            results.append(compute_section_awards(team_ranking_standings(ranking), cfg))
    boards: list[BestBoardResult] = []
    if config.best_board is not None:
        for section_id, records in (board_records or {}).items():
            team_section = live.get(section_id)
            places = {r.entrant_id: r.place for r in team_section.rows} if team_section else {}
            boards.extend(best_boards(section_id, records, places, config.best_board))
    qualification = None
    if config.qualification:
        qualification = stage_qualification(
            live, config.qualification, config.seeded, ineligible, config.max_next_stage_entrants
        )
    squads = tuple(
        select_squad(live[sid], rule)
        for rule in config.squads
        for sid in (rule.section_ids or tuple(s for s in live if live[s].kind == "individual"))
        if sid in live
    )
    return EventAwards(tuple(results), tuple(rankings), tuple(boards), qualification, squads, tuple(unconfigured))
