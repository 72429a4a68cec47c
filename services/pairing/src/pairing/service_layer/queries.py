"""Public reads of a section: the JSON answers of the API (docs/api.md), pure functions of the
stored state. The CSV forms are written from these by the API."""

from __future__ import annotations

from gomoku_shared.errors import NotFound

from ..domain import Outcome, export_trf
from ..domain.aggregate import Section
from ..domain.standings import cross_table
from .matches import match_views, team_members
from .round_pairing import bye_specs
from .section import as_competitors, result_name
from .standings import contract_rows, ranked


def section_list(event_code: str, rows: list[dict]) -> dict:
    return {
        "event_code": event_code,
        "sections": [
            {
                "section_id": row["section_id"],
                "stage": row["stage"],
                "name": row["name"],
                "status": row["status"],
                "current_round": row["current_round"],
                "rounds": row["rounds_planned"],
                "format": row["format"],
                "kind": row["kind"],
                "revision": row["revision"],
            }
            for row in rows
        ],
    }


def tie_view(tie: dict) -> dict:
    playoff = tie["playoff"] or {}
    return {
        "tie_id": tie["tie_id"],
        "gender": tie["gender"],
        "place_from": tie["place_from"],
        "place_to": tie["place_to"],
        "entrant_ids": tie["entrant_ids"],
        "action": tie["action"],
        "status": tie["status"],
        "revision": int(tie.get("revision") or 1),
        "decided": tie["status"] == "decided",
        "decision": tie["decision"],
        "decided_by": tie["decided_by"],
        "playoff_id": playoff.get("playoff_id"),
        "playoff_stage": playoff.get("stage"),
        "matches": playoff.get("matches", []),
    }


def live_ties(state: Section) -> list[dict]:
    return [tie_view(tie) for tie in state.ties if tie["status"] != "void"]


def section_detail(state: Section) -> dict:
    return {
        "event_code": state.event_code,
        "section_id": state.section_id,
        "stage": state.row["stage"],
        "name": state.row["name"],
        "status": state.row["status"],
        "kind": state.rules.kind,
        "format": state.rules.format,
        "rounds": state.rules.rounds,
        "current_round": state.row["current_round"],
        "revision": state.row["revision"],
        "hold": state.row["hold"],
        "note": state.row["note"],
        "rules": state.rules.model_dump(mode="json"),
        "entrants": [
            {
                "start_no": start_no,
                "entrant_id": entrant["entrant_id"],
                "name": entrant["entrant"].name,
                "gender": entrant["entrant"].gender,
                "unit": entrant["entrant"].unit,
                "rating": entrant["entrant"].rating,
                #: the person in the organisation's registry (issue 32: the history page's link)
                "registry_id": entrant["entrant"].registry_id,
                "withdrawn_after": entrant["withdrawn_after"],
                **({"members": team_members(entrant["entrant"])} if state.team else {}),
            }
            for start_no, entrant in sorted(state.entrants.items())
        ],
        "round_status": [{"round": rnd, "status": state.rounds[rnd]["status"]} for rnd in sorted(state.rounds)],
        "ties": live_ties(state),
    }


def standings(state: Section) -> dict:
    ranking = ranked(state)
    rows = contract_rows(state, ranking, final=True)
    done = state.complete_rounds()
    return {
        "event_code": state.event_code,
        "section_id": state.section_id,
        "status": state.row["status"],
        "after_round": done[-1] if done else 0,
        "revision": state.row["revision"],
        "order": ranking.names,
        "standings": [row.model_dump(mode="json") for row in rows],
    }


def crosstable(state: Section) -> dict:
    rows = contract_rows(state, ranked(state), final=True)
    ids = {start_no: entrant["entrant_id"] for start_no, entrant in state.entrants.items()}
    place = {row.entrant_id: row.place for row in rows}
    table = cross_table(as_competitors(state))
    players = []
    for player in table["players"]:
        entrant_id = ids[player["id"]]
        players.append(
            {
                "entrant_id": entrant_id,
                "start_no": player["id"],
                "name": player["name"],
                "place": place.get(entrant_id),
                "points": player["points"],
                "rounds": [
                    {**cell, "opponent": ids.get(cell["opponent"]) if cell["opponent"] else None}
                    for cell in player["rounds"]
                ],
            }
        )
    players.sort(key=lambda entry: (entry["place"] or 0, entry["start_no"]))
    return {"section_id": state.section_id, "rounds": table["rounds"], "players": players}


def trf(state: Section) -> str:
    """FIDE TRF-16 (teams: the teams as competitors)."""
    return export_trf(as_competitors(state))


def _game_results(games: list[dict], rnd: int) -> dict[str, list[dict]]:
    by_pairing: dict[str, list] = {}
    for game in games:
        if not game["playoff_id"] and game["round"] == rnd:
            by_pairing.setdefault(game["pairing_id"], []).append(
                {
                    "game_no": game["game_no"],
                    "game_id": game["game_id"],
                    "winner": game["winner"],
                    "result": game["result"],
                    "reason": game["reason"],
                }
            )
    return by_pairing


def round_view(state: Section, rnd: int, games: list[dict]) -> dict:
    """A paired round (drafts are shown: the arbiter reviews them here before publishing)."""
    if rnd not in state.rounds:
        raise NotFound("round_not_found", f"round {rnd} of {state.section_id} is not paired")
    stored = state.rounds[rnd]
    by_pairing = _game_results(games, rnd)
    pairings = []
    for pairing in state.pairings.get(rnd, []):
        outcome = Outcome(pairing["outcome"]) if pairing["outcome"] else None
        pairings.append(
            {
                "pairing_id": pairing["pairing_id"],
                "match_id": f"r{rnd}.m{pairing['match_no']}" if state.team else None,
                "board": pairing["board"] if state.team else pairing["match_no"],
                "first": pairing["first_id"],
                "second": pairing["second_id"],
                "first_team": pairing["first_team"],
                "second_team": pairing["second_team"],
                "games": pairing["games"],
                "result": result_name(outcome) if outcome else None,
                "outcome": pairing["outcome"],
                "first_points": pairing["first_points"],
                "second_points": pairing["second_points"],
                "result_source": pairing["result_source"],
                "revision": int(pairing.get("revision") or 0),
                "game_results": by_pairing.get(pairing["pairing_id"], []),
            }
        )
    return {
        "section_id": state.section_id,
        "round": rnd,
        "status": stored["status"],
        "paired_by": stored["paired_by"],
        "published_at": stored["published_at"].isoformat() if stored["published_at"] else None,
        "pairings": pairings,
        "byes": [bye.model_dump() for bye in bye_specs(state, rnd)],
        **({"matches": match_views(state, rnd)} if state.team else {}),
    }


def ties(state: Section) -> dict:
    return {"section_id": state.section_id, "status": state.row["status"], "ties": live_ties(state)}


def bye_requests(state: Section) -> dict:
    return {
        "byes": [
            {
                "entrant_id": state.entrants[request["start_no"]]["entrant_id"],
                "round": request["round"],
                "kind": request["kind"],
            }
            for request in state.requests
        ]
    }


def audit_view(rows: list[dict]) -> dict:
    return {
        "audit": [
            {**{name: value for name, value in row.items() if name not in ("at",)}, "at": row["at"].isoformat()}
            for row in rows
        ]
    }
