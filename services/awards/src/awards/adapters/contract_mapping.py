"""Contracts (`section.completed`: StandingRow, BoardStat, Entrant) → awards domain inputs,
and domain outputs → `qualifiers.selected` players.

Contract numbers are floats on the wire; the domain refuses floats, so every value goes
through :func:`exact` (shortest repr → Decimal, integral values → int: 12.0 → 12, 7.5 → 7.5).
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from gomoku_shared.contracts.common import Entrant
from gomoku_shared.contracts.events import BoardStat, QualifiedPlayer, SectionCompleted
from gomoku_shared.contracts.events import StandingRow as ContractRow

from ..domain import BoardRecord, Gender, Qualifier, SectionStandings, StandingRow

Number = Decimal | int


def exact(value: float | int) -> Number:
    """A wire float as an exact number (the float's shortest decimal representation)."""
    if isinstance(value, bool):
        raise TypeError("not a number")
    if isinstance(value, int):
        return value
    exact = Decimal(repr(float(value)))
    if exact == exact.to_integral_value():
        return int(exact)
    return exact.normalize()


def _competition_places(rows: list[ContractRow]) -> list[int]:
    """Places as competition ranking (1, 2, 2, 4) whatever numbering the producer used for
    ties (rows arrive in place order; equal place numbers are a shared place)."""
    places: list[int] = []
    for index, row in enumerate(rows):
        if index and row.place == rows[index - 1].place:
            places.append(places[-1])
        else:
            places.append(index + 1)
    return places


def _tiebreaks(row: ContractRow, order: list[str]) -> tuple[tuple[str, Number], ...]:
    names = [n for n in order if n in row.tiebreaks] + [n for n in row.tiebreaks if n not in order]
    return tuple((n, exact(row.tiebreaks[n])) for n in names)


def _gender(value: str | None) -> Gender | None:
    return Gender(value) if value else None


def standings_from_contract(payload: SectionCompleted, section_gender: str | None = None) -> SectionStandings:
    """The final standings of a `section.completed` as the domain's SectionStandings.

    Gender and unit fall back to the entrant record, then (gender) to the section's own
    gender rule; birth years come from the entrants.
    """
    entrants = {e.entrant_id: e for e in payload.entrants}
    ordered = sorted(enumerate(payload.standings), key=lambda item: (item[1].place, item[0]))
    rows_in = [row for _, row in ordered]
    places = _competition_places(rows_in)
    # a merged section (REG-12) holds both genders: its host's gender rule says nothing
    default_gender = (
        section_gender if section_gender in ("male", "female") and not payload.rules.rank_by_gender else None
    )
    rows: list[StandingRow] = []
    for row, place in zip(rows_in, places):
        entrant = entrants.get(row.entrant_id)
        unit = row.unit or (entrant.unit if entrant else None)
        gender = row.gender or (entrant.gender if entrant else None) or default_gender
        rows.append(
            StandingRow(
                entrant_id=row.entrant_id,
                name=row.name,
                place=place,
                points=exact(row.points),
                tiebreaks=_tiebreaks(row, list(payload.rules.tiebreaks)),
                wins=row.wins,
                games_played=row.games_played,
                gender=_gender(gender),
                unit_id=unit,
                unit_name=unit,
                birth_year=entrant.birth_year if entrant else None,
                decided_by_playoff=row.decided_by == "playoff",
                completed=not bool(entrant and entrant.attributes.get("withdrawn")),
                rating=entrant.published_rating if entrant else None,
            )
        )
    return SectionStandings(
        payload.section_id,
        payload.name,
        tuple(rows),
        kind=payload.rules.kind,
        rank_by_gender=payload.rules.rank_by_gender,
    )


def board_records(payload: SectionCompleted) -> tuple[BoardRecord, ...]:
    """AWD-7 inputs: one record per (player, board); the team name from the standings."""
    team_names = {r.entrant_id: r.name for r in payload.standings}
    team_names.update({e.entrant_id: e.name for e in payload.entrants if e.entrant_id not in team_names})
    return tuple(
        _board_record(s, team_names)
        for s in sorted(payload.board_stats, key=lambda s: (s.board, s.entrant_id, s.player_id))
    )


def _board_record(stat: BoardStat, team_names: dict[str, str]) -> BoardRecord:
    return BoardRecord(
        stat.player_id,
        stat.name,
        stat.entrant_id,
        team_names.get(stat.entrant_id, stat.entrant_id),
        stat.board,
        stat.games_played,
        stat.board_games,
        exact(stat.points),
        stat.wins,
    )


def qualified_players(chosen: Iterable[Qualifier], entrants: Iterable[Entrant]) -> list[QualifiedPlayer]:
    """`qualifiers.selected` players: the entrant's own attributes travel on (facts other
    stages need, e.g. the eligibility clause), plus the unit and the rank in the cohort."""
    by_id = {e.entrant_id: e for e in entrants}
    out: list[QualifiedPlayer] = []
    for qualifier in chosen:
        entrant = by_id.get(qualifier.entrant_id)
        attributes: dict[str, Any] = dict(entrant.attributes) if entrant else {}
        if qualifier.unit_name is not None:
            attributes.setdefault("unit", qualifier.unit_name)
        attributes["cohort_rank"] = qualifier.rank
        out.append(
            QualifiedPlayer(
                entrant_id=qualifier.entrant_id,
                name=qualifier.name,
                gender=qualifier.gender.value if qualifier.gender else None,
                place=qualifier.place,
                birth_year=qualifier.birth_year,
                attributes=attributes,
            )
        )
    return out
