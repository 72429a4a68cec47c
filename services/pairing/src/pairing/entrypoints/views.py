"""What the pairing API answers, for its OpenAPI document (the handlers build these as dicts;
the fuzz tests check every answer against them). Answers may carry more fields."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import ConfigDict

from gomoku_shared.api_docs import View
from gomoku_shared.pagination import Paged


class SectionSummary(View):
    section_id: str
    stage: str
    name: str
    status: str
    current_round: int
    rounds: int
    format: str
    kind: str
    revision: int


class SectionList(Paged):
    event_code: str
    sections: list[SectionSummary]


class TeamMember(View):
    """A team's player on a fixed board (REG-9): what the public pages name."""

    player_id: str
    name: str
    board: int
    #: the person in the organisation's registry (issue 32)
    registry_id: str | None = None


class Entrant(View):
    start_no: int
    entrant_id: str
    name: str
    withdrawn_after: int | None = None
    #: the person in the organisation's registry (issue 32)
    registry_id: str | None = None
    #: team sections only: the team's players in board order
    members: list[TeamMember] | None = None


class SectionDetail(SectionSummary):
    event_code: str
    hold: bool
    rules: dict[str, Any]
    entrants: list[Entrant]


class GameResult(View):
    game_no: int
    game_id: str
    result: str | None


class PairingView(View):
    pairing_id: str
    first: str
    second: str | None
    games: int
    result: str | None
    #: the result's revision: 0 before any result, one more for every change (expected_revision)
    revision: int
    first_points: float | None
    second_points: float | None
    game_results: list[GameResult]


class MatchView(View):
    """A match of a team round (PAIR-9): its boards' pairings, the game points each team made on
    the boards with a result and, once all have one, the match's result and match points."""

    match_id: str
    first_team: str
    second_team: str
    pairing_ids: list[str]
    boards_decided: int
    first_game_points: float
    second_game_points: float
    result: str | None
    first_match_points: float | None
    second_match_points: float | None


class RoundView(View):
    section_id: str
    round: int
    status: str
    published_at: datetime | None
    pairings: list[PairingView]
    byes: list[dict[str, Any]]
    #: team sections only: the round's matches
    matches: list[MatchView] | None = None


class StandingRow(View):
    place: int
    shared: bool
    entrant_id: str
    name: str
    points: float
    tiebreaks: dict[str, float]


class Standings(View):
    event_code: str
    section_id: str
    status: str
    after_round: int
    revision: int
    order: list[str]
    standings: list[StandingRow]


class CrossTable(View):
    section_id: str
    rounds: int
    players: list[dict[str, Any]]


class TieView(View):
    tie_id: str
    place_from: int
    place_to: int
    entrant_ids: list[str]
    status: str
    #: one more each time the tie is opened again (a correction changed who is tied): a
    #: decision's expected_revision
    revision: int


class Ties(View):
    section_id: str
    status: str
    ties: list[TieView]


class Byes(View):
    byes: list[dict[str, Any]]


class AuditRecord(View):
    at: datetime
    action: str
    #: issue 29: who acted: a person's name (a key: its id) and stable id (acct:<account> or the key id)
    actor: str | None = None
    actor_id: str | None = None


class Audit(Paged):
    audit: list[AuditRecord]


# ---------------------------------------------------------------------- the arbiter's actions


class ResultEntered(View):
    model_config = ConfigDict(
        extra="allow",
        json_schema_extra={
            "examples": [{"pairing_id": "r3-b2", "result": "first_wins", "changed": True, "revision": 2}]
        },
    )
    pairing_id: str
    result: str
    #: false when the result was already the one entered (nothing audited or sent again)
    changed: bool
    #: the result's revision now (send it as expected_revision with the next correction)
    revision: int


class RoundDelayed(View):
    """EVT-7: an arbiter's delay as audited."""

    round: int
    reason: str
    previous_starts_at: datetime | None
    starts_at: datetime
    decided_at: datetime


class SlotSection(View):
    section_id: str
    previous_starts_at: datetime | None


class SlotDelayed(View):
    """EVT-7: a whole time slot's round delayed together (each section audited)."""

    round: int
    #: the slot's scheduled time (the sections scheduled then were delayed)
    scheduled_at: datetime
    starts_at: datetime
    reason: str
    sections: list[SlotSection]
    decided_at: datetime


class RoundTime(View):
    round: int
    #: the schedule's start (null: the round starts when it is paired)
    scheduled_at: datetime | None
    #: the arbiter's latest delay of it
    delayed_to: datetime | None
    #: the start as it stands (published rounds: the games' start)
    starts_at: datetime | None
    #: not_paired | draft | published | complete
    status: str


class RoundTimes(View):
    event_code: str
    section_id: str
    rounds: list[RoundTime]


class RoundStatus(View):
    round: int
    #: draft | published | final
    status: str


class HoldSet(View):
    hold: bool


class ByeAdded(View):
    entrant_id: str
    round: int
    #: requested (half point) or forced (full point)
    kind: str


class Withdrawn(View):
    entrant_id: str
    #: the last round the entrant is paired in
    after_round: int


class LateEntry(View):
    entrant_id: str
    start_no: int
    #: the first round the entrant is paired in
    entry_round: int


class TieDecided(View):
    tie_id: str
    status: str
    #: entrant ids, best first
    order: list[str]
