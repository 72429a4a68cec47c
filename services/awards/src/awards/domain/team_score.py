"""AWD-6: team scores computed from individual results (SZ mixed teams, NY teams).

For each unit and each component of the rule, the unit's best ``count`` entrants of that
section (by final place) are counted. A unit missing any component's count gets no team
score (it is listed as unscored with the reason). Units are then ordered by the measure
and the rule's tiebreaks; units still equal share a place.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

from .config import TeamScoreMeasure, TeamScoreRule, TeamTieKind
from .model import Number, SectionStandings, StandingRow


@dataclass(frozen=True)
class TeamMember:
    """One individual result counted for a unit."""

    component: int
    section_id: str
    entrant_id: str
    name: str
    place: int
    points: Number


@dataclass(frozen=True)
class TeamScore:
    unit_id: str
    unit_name: str
    place: int
    #: place sum (lower better) or points sum (higher better), per the rule's measure
    score: Number
    members: tuple[TeamMember, ...]
    #: the tiebreak values, by tiebreak kind, in the rule's order
    tiebreaks: tuple[tuple[str, Number], ...] = ()
    shared_place: bool = False


@dataclass(frozen=True)
class UnscoredUnit:
    unit_id: str
    unit_name: str
    reason: str


@dataclass(frozen=True)
class CancelledSource:
    """A source section that was cancelled (REG-12 at closing, or AWD-2 by its field size)."""

    section_id: str
    name: str
    reason: str


@dataclass(frozen=True)
class TeamRanking:
    team_section_id: str
    name: str
    ranked: tuple[TeamScore, ...]
    unscored: tuple[UnscoredUnit, ...] = ()
    #: source sections that were cancelled: they count as absent (nobody of theirs is counted)
    cancelled_sources: tuple[CancelledSource, ...] = ()

    @property
    def notes(self) -> tuple[str, ...]:
        """What the publication says about the cancelled source sections (AWD-6)."""
        if not self.cancelled_sources:
            return ()
        names = ", ".join(f"{c.name} ({c.reason})" for c in self.cancelled_sources)
        return (
            f"source section cancelled, counted as absent: {names}; "
            "the team score is computed from the sections that were played",
        )


def _best(rows: list[StandingRow], count: int) -> list[StandingRow]:
    # best by place; equal places keep the standings' order (irrelevant to the sums)
    return sorted(rows, key=lambda r: r.place)[:count]


def _sort_key(
    rule: TeamScoreRule, members: tuple[TeamMember, ...]
) -> tuple[tuple[Number, ...], tuple[tuple[str, Number], ...]]:
    place_sum = sum(m.place for m in members)
    points_sum = sum((Decimal(m.points) for m in members), Decimal(0))
    key: list[Number] = [place_sum if rule.measure is TeamScoreMeasure.PLACE_SUM else -points_sum]
    shown: list[tuple[str, Number]] = []
    for tiebreak in rule.tiebreaks:
        if tiebreak.kind is TeamTieKind.PLACE_SUM:
            value: Number = place_sum
            key.append(value)
        elif tiebreak.kind is TeamTieKind.POINTS_SUM:
            value = points_sum
            key.append(-value)
        elif tiebreak.kind is TeamTieKind.BEST_SINGLE_PLACE:
            value = min(m.place for m in members)
            key.append(value)
        else:  # COMPONENT_PLACE: the best counted member of that component
            value = min(m.place for m in members if m.component == tiebreak.component)
            key.append(value)
        name = (
            tiebreak.kind.value
            if tiebreak.kind is not TeamTieKind.COMPONENT_PLACE
            else f"{tiebreak.kind.value}:{tiebreak.component}"
        )
        shown.append((name, value))
    return tuple(key), tuple(shown)


def team_ranking(
    rule: TeamScoreRule,
    sections: Mapping[str, SectionStandings],
    cancelled: tuple[CancelledSource, ...] = (),
) -> TeamRanking:
    """AWD-6: rank the units of the component sections.

    A component whose section is absent (e.g. cancelled, AWD-2) contributes nobody, so no
    unit can complete that component. ``cancelled`` names the source sections cancelled
    (their standings are not in ``sections``): a unit short of such a component says so,
    and the ranking carries them for the publication's note.
    """
    cancelled_ids = {c.section_id for c in cancelled}
    units: dict[str, str] = {}
    per_component: list[dict[str, list[StandingRow]]] = []
    for comp in rule.components:
        by_unit: dict[str, list[StandingRow]] = {}
        standings = sections.get(comp.section_id)
        for row in standings.rows if standings else ():
            if row.unit_id is None or (comp.gender is not None and row.gender != comp.gender):
                continue
            units.setdefault(row.unit_id, row.unit_name or row.unit_id)
            by_unit.setdefault(row.unit_id, []).append(row)
        per_component.append(by_unit)

    scored: list[tuple[tuple[Number, ...], str, tuple[TeamMember, ...], tuple[tuple[str, Number], ...], Number]] = []
    unscored: list[UnscoredUnit] = []
    for unit_id in sorted(units):
        members: list[TeamMember] = []
        missing: list[str] = []
        for index, (comp, by_unit) in enumerate(zip(rule.components, per_component)):
            best = _best(by_unit.get(unit_id, []), comp.count)
            if len(best) < comp.count:
                why = " (section cancelled)" if comp.section_id in cancelled_ids else ""
                missing.append(f"{comp.label or comp.section_id}: {len(best)} of {comp.count}{why}")
            members.extend(TeamMember(index, comp.section_id, r.entrant_id, r.name, r.place, r.points) for r in best)
        if missing:
            unscored.append(UnscoredUnit(unit_id, units[unit_id], "not enough players — " + "; ".join(missing)))
            continue
        key, shown = _sort_key(rule, tuple(members))
        score: Number = (
            sum(m.place for m in members)
            if rule.measure is TeamScoreMeasure.PLACE_SUM
            else sum((Decimal(m.points) for m in members), Decimal(0))
        )
        scored.append((key, unit_id, tuple(members), shown, score))

    scored.sort(key=lambda item: (item[0], item[1]))
    ranked: list[TeamScore] = []
    for index, (key, unit_id, counted, shown, score) in enumerate(scored):
        tied_above = index > 0 and scored[index - 1][0] == key
        place = ranked[-1].place if tied_above else index + 1
        shared = any(other[0] == key for j, other in enumerate(scored) if j != index)
        ranked.append(TeamScore(unit_id, units[unit_id], place, score, counted, shown, shared))
    of_rule = tuple(c for c in cancelled if c.section_id in rule.required_sections)
    return TeamRanking(rule.team_section_id, rule.name, tuple(ranked), tuple(unscored), of_rule)


def team_ranking_standings(ranking: TeamRanking) -> SectionStandings:
    """The ranking as standings rows (entrant = unit), to apply place awards (AWD-2)."""
    rows = tuple(
        StandingRow(
            entrant_id=t.unit_id,
            name=t.unit_name,
            place=t.place,
            points=t.score,
            unit_id=t.unit_id,
            unit_name=t.unit_name,
        )
        for t in ranking.ranked
    )
    return SectionStandings(ranking.team_section_id, ranking.name, rows, kind="team")
