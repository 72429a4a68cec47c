"""AWD-QUAL: qualification to the next stage, seeded direct qualifiers, training squad.

Per source section (or per gender of a merged section, REG-12) the first ``qualifiers``
players go on and the next ``substitutes`` are ordered substitutes. Players handed in as
ineligible (REG-7: met no eligibility clause) or already seeded into the target are
passed over; the next player moves up.

Ties (SZ online plays no playoffs, PAIR-8): a shared place straddling the qualification
cut is *not* resolved here — the players above it qualify, and a ``qualification_cut``
flag names the tied players and the open slots for an arbiter. Substitutes are then not
listed until the cut is resolved. A shared place among the substitutes is listed in
standings order with a ``substitute_order`` flag; one straddling the last substitute slot
is left out with a ``substitute_cut`` flag.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .config import ConfigError, QualificationRule, SeededList, SeededPlayer, SquadRule
from .model import Gender, SectionStandings, StandingRow, rank_within


@dataclass(frozen=True)
class Qualifier:
    entrant_id: str
    name: str
    gender: Gender | None
    #: place in the source section
    place: int
    #: rank among the players still in contention for this group (after skips)
    rank: int
    #: year of birth (full birth dates stay in registration)
    birth_year: int | None = None
    unit_name: str | None = None


@dataclass(frozen=True)
class TieFlag:
    """A tie the arbiter must settle before the lists are final."""

    kind: str  # "qualification_cut" | "substitute_cut" | "substitute_order"
    place: int
    entrant_ids: tuple[str, ...]
    #: slots the tied players compete for (cut flags); 0 for substitute_order
    open_slots: int = 0


@dataclass(frozen=True)
class QualifierSelection:
    """Payload-ready content of one ``qualifiers.selected`` event."""

    source_section_id: str
    target_section_id: str
    gender: Gender | None
    qualifiers: tuple[Qualifier, ...]
    substitutes: tuple[Qualifier, ...]
    seeded: tuple[SeededPlayer, ...] = ()
    seeded_substitutes: tuple[SeededPlayer, ...] = ()
    #: (entrant_id, reason) passed over
    skipped: tuple[tuple[str, str], ...] = ()
    flags: tuple[TieFlag, ...] = ()

    @property
    def complete(self) -> bool:
        return not self.flags


def _qualifier(row: StandingRow, rank: int) -> Qualifier:
    return Qualifier(row.entrant_id, row.name, row.gender, row.place, rank, row.birth_year, row.unit_name)


def _seeded_for(target: str, seeded: Iterable[SeededList]) -> tuple[tuple[SeededPlayer, ...], tuple[SeededPlayer, ...]]:
    players: list[SeededPlayer] = []
    subs: list[SeededPlayer] = []
    for entry in seeded:
        if entry.target_section_id == target:
            players.extend(entry.players)
            subs.extend(entry.substitutes)
    return tuple(players), tuple(subs)


def _select_group(
    rows: list[StandingRow], qualifiers: int, substitutes: int
) -> tuple[list[Qualifier], list[Qualifier], list[TieFlag]]:
    chosen: list[Qualifier] = []
    subs: list[Qualifier] = []
    flags: list[TieFlag] = []
    groups = list(rank_within(rows))
    index = 0
    while index < len(groups) and len(chosen) < qualifiers:
        group = groups[index]
        if len(chosen) + group.size > qualifiers:
            flags.append(
                TieFlag(
                    "qualification_cut",
                    group.rows[0].place,
                    tuple(r.entrant_id for r in group.rows),
                    qualifiers - len(chosen),
                )
            )
            return chosen, subs, flags
        chosen.extend(_qualifier(r, group.place) for r in group.rows)
        index += 1
    while index < len(groups) and len(subs) < substitutes:
        group = groups[index]
        ids = tuple(r.entrant_id for r in group.rows)
        if len(subs) + group.size > substitutes:
            flags.append(TieFlag("substitute_cut", group.rows[0].place, ids, substitutes - len(subs)))
            break
        if group.shared:
            flags.append(TieFlag("substitute_order", group.rows[0].place, ids))
        subs.extend(_qualifier(r, group.place) for r in group.rows)
        index += 1
    return chosen, subs, flags


def select_qualifiers(
    standings: SectionStandings,
    rule: QualificationRule,
    seeded: Iterable[SeededList] = (),
    ineligible: Mapping[str, str] | None = None,
) -> tuple[QualifierSelection, ...]:
    """AWD-QUAL: one selection per group (one, or one per gender of a merged section).

    ``ineligible`` maps entrant id → reason (REG-7); those players are passed over.
    Each selection carries the seeded list of its target section (consumers must apply
    seeded entries idempotently, by entrant id, as several sources may feed one target).
    """
    seeded = tuple(seeded)
    ineligible = ineligible or {}
    if rule.by_gender or standings.rank_by_gender:
        present = {r.gender for r in standings.rows}
        if None in present:
            raise ConfigError(f"{standings.section_id}: ranking by gender needs every row's gender")
        genders: list[Gender | None] = [g for g in Gender if g in present]
    else:
        genders = [None]
    selections: list[QualifierSelection] = []
    for gender in genders:
        target = rule.targets.get(gender) if gender in rule.targets else rule.targets.get(None)
        if target is None:
            raise ConfigError(f"{rule.source_section_id}: no target section for {gender or 'any gender'}")
        seeded_players, seeded_subs = _seeded_for(target, seeded)
        seeded_ids = {p.entrant_id for p in seeded_players}
        pool: list[StandingRow] = []
        skipped: list[tuple[str, str]] = []
        for row in standings.rows:
            if gender is not None and row.gender != gender:
                continue
            if row.entrant_id in ineligible:
                skipped.append((row.entrant_id, ineligible[row.entrant_id]))
            elif rule.skip_seeded and row.entrant_id in seeded_ids:
                skipped.append((row.entrant_id, "seeded directly into " + target))
            else:
                pool.append(row)
        chosen, subs, flags = _select_group(pool, rule.qualifiers, rule.substitutes)
        selections.append(
            QualifierSelection(
                standings.section_id,
                target,
                gender,
                tuple(chosen),
                tuple(subs),
                seeded_players,
                seeded_subs,
                tuple(skipped),
                tuple(flags),
            )
        )
    return tuple(selections)


@dataclass(frozen=True)
class StageQualification:
    selections: tuple[QualifierSelection, ...]
    #: distinct players going on (qualifiers + seeded), substitutes excluded
    total_entrants: int
    max_entrants: int | None

    @property
    def over_capacity(self) -> bool:
        return self.max_entrants is not None and self.total_entrants > self.max_entrants

    @property
    def complete(self) -> bool:
        return all(s.complete for s in self.selections)


def stage_qualification(
    sections: Mapping[str, SectionStandings],
    rules: Iterable[QualificationRule],
    seeded: Iterable[SeededList] = (),
    ineligible: Mapping[str, str] | None = None,
    max_entrants: int | None = None,
) -> StageQualification:
    """AWD-QUAL for a whole stage; sections without standings (cancelled) are skipped.

    The count includes every seeded list, even for targets no source section feeds.
    """
    seeded = tuple(seeded)
    selections: list[QualifierSelection] = []
    for rule in rules:
        standings = sections.get(rule.source_section_id)
        if standings is not None:
            selections.extend(select_qualifiers(standings, rule, seeded, ineligible))
    going = {q.entrant_id for s in selections for q in s.qualifiers}
    going |= {p.entrant_id for entry in seeded for p in entry.players}
    return StageQualification(tuple(selections), len(going), max_entrants)


@dataclass(frozen=True)
class SquadSelection:
    section_id: str
    squad: str
    members: tuple[Qualifier, ...]
    substitutes: tuple[Qualifier, ...]


def select_squad(standings: SectionStandings, rule: SquadRule) -> SquadSelection:
    """AWD-QUAL (SZ final): places in ``member_places`` join the squad, places in
    ``substitute_places`` are squad substitutes. A shared place counts for everyone
    sharing it (the final decides medal places by playoff, so this is rare)."""

    def pick(first: int, last: int) -> tuple[Qualifier, ...]:
        return tuple(_qualifier(r, r.place) for r in standings.rows if first <= r.place <= last)

    return SquadSelection(standings.section_id, rule.squad, pick(*rule.member_places), pick(*rule.substitute_places))
