"""What one publication contains (pure): the `awards.published` payload content and the
document behind the HTTP lists (standings with every tiebreak, certificates, …) — AWD-8.

Everything is plain JSON data built only from the inputs, in a fixed order, so the same
inputs give byte-identical publications.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from ..domain import (
    BestBoardResult,
    SectionAwards,
    SectionStandings,
    SquadSelection,
    TeamRanking,
    best_board_certificates,
    best_board_rows,
    certificates,
    plain,
    prize_list,
    section_publication,
    team_ranking_rows,
    tie_groups,
    title_list,
    unresolved_ties,
)
from ..domain.model import Number


def number(value: Number) -> int | float:
    """JSON number for display (points are halves at most; Decimal keeps them exact until here)."""
    if isinstance(value, int):
        return value
    exact = Decimal(value)
    return int(exact) if exact == exact.to_integral_value() else float(exact)


def standings_document(standings: SectionStandings) -> dict[str, Any]:
    """AWD-8: the final standings with every tiebreak value, in the section's order."""
    names = [n for n, _ in standings.rows[0].tiebreaks] if standings.rows else []
    shared = {g.place for g in tie_groups(standings.rows) if g.shared}
    rows = [
        {
            "place": r.place,
            "shared": r.place in shared,
            "entrant_id": r.entrant_id,
            "name": r.name,
            "unit": r.unit_name,
            "gender": r.gender.value if r.gender else None,
            "points": number(r.points),
            "tiebreaks": {n: number(v) for n, v in r.tiebreaks},
            "wins": r.wins,
            "games_played": r.games_played,
            "decided_by_playoff": r.decided_by_playoff,
        }
        for r in standings.rows
    ]
    return {"tiebreak_names": names, "rows": rows}


def squad_rows(squad: SquadSelection | None) -> list[dict[str, Any]]:
    if squad is None:
        return []
    return [
        {"squad": squad.squad, "role": "member", "entrant_id": q.entrant_id, "name": q.name, "place": q.place}
        for q in squad.members
    ] + [
        {"squad": squad.squad, "role": "substitute", "entrant_id": q.entrant_id, "name": q.name, "place": q.place}
        for q in squad.substitutes
    ]


def section_content(
    *,
    event_code: str,
    stage: str,
    awards: SectionAwards,
    source_revision: int | None,
    boards: Iterable[BestBoardResult] = (),
    ranking: TeamRanking | None = None,
    squad: SquadSelection | None = None,
) -> dict[str, Any]:
    """The `awards.published` fields of one publication, without revision / supersedes."""
    base = section_publication(awards)
    return {
        "event_code": event_code,
        "stage": stage,
        "section_id": awards.section_id,
        "name": awards.section_name,
        "kind": awards.kind,
        "currency": awards.currency,
        "cancelled": awards.cancelled,
        "source_revision": source_revision,
        "places": base["places"],
        "prizes": base["prizes"],
        "titles": base["titles"],
        "team_ranking": plain(team_ranking_rows(ranking)) if ranking is not None else [],
        "best_boards": plain(best_board_rows(boards)),
        "squad": squad_rows(squad),
        # AWD-6: a team score whose source section was cancelled says so; REG-12: a section
        # cancelled at closing says why
        "notes": list(ranking.notes) if ranking is not None else _cancel_notes(awards),
    }


def _cancel_notes(awards: SectionAwards) -> list[str]:
    return [awards.cancel_reason] if awards.cancelled_at_closing else []


def section_document(
    *,
    awards: SectionAwards,
    standings: SectionStandings | None,
    boards: Iterable[BestBoardResult] = (),
    ranking: TeamRanking | None = None,
    sources: Iterable[str] = (),
    playoff_through: int | None = None,
    flagged_ties: Iterable[Iterable[str]] = (),
) -> dict[str, Any]:
    """The lists served over HTTP next to the payload: standings, certificates, best-board
    rankings (every eligible candidate) and the unscored units of a team ranking."""
    boards = tuple(boards)
    certs = certificates(awards) + best_board_certificates(boards, awards.section_name)
    return {
        "summary": {
            "field_size": awards.field_size,
            "awarded_places": awards.awarded_places,
            "cancelled": awards.cancelled,
            "cancel_reason": awards.cancel_reason,
            "prize_total": sum(p.amount_fen for p in awards.prizes),
            # PAIR-8: shared places the event decides by playoff, still shared here (money is
            # split, AWD-4) — for the arbiter; and the ties pairing flagged for a decision
            "unresolved_ties": [
                {"place": g.place, "entrant_ids": [r.entrant_id for r in g.rows]}
                for g in (
                    unresolved_ties(standings, min(playoff_through, awards.awarded_places))
                    if standings is not None and playoff_through and not awards.cancelled
                    else ()
                )
            ],
            "flagged_ties": [list(t) for t in flagged_ties],
        },
        "standings": standings_document(standings) if standings is not None else None,
        "certificates": plain(certs),
        "prize_list": plain(prize_list(awards)),
        "title_list": plain(title_list(awards)),
        "best_board_ranking": [
            {
                "board": r.board,
                "winners": [w.record.player_id for w in r.winners],
                "eligible": [_candidate(c) for c in r.ranking],
                "ineligible": [_candidate(c) for c in r.ineligible],
            }
            for r in boards
        ],
        #: a team ranking: the individual sections it is computed from
        "sources": sorted(sources),
        #: … and those of them that were cancelled (counted as absent, AWD-6)
        "cancelled_sources": [
            {"section_id": c.section_id, "name": c.name, "reason": c.reason}
            for c in (ranking.cancelled_sources if ranking is not None else ())
        ],
    }


def _candidate(candidate: Any) -> dict[str, Any]:
    rec = candidate.record
    return {
        "player_id": rec.player_id,
        "name": rec.name,
        "team_id": rec.team_id,
        "team_name": rec.team_name,
        "games_played": rec.games_played,
        "board_games": rec.board_games,
        "points": number(rec.points),
        "wins": rec.wins,
        "share_played": plain(candidate.share_played),
        "win_rate": plain(candidate.win_rate),
        "team_place": candidate.team_place,
    }
