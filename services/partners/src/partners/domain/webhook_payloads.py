"""What a partner receives of each event it can subscribe to: one model per webhook event type.

Each model is the ``data`` of a delivered webhook body and, in the OpenAPI ``webhooks`` section,
its documented schema: the body is built by validating the event's contract payload with the
model (fields the model does not name are dropped) and dumping it, so what is sent and what is
documented are the same fields. Free-form objects (``record`` of a game, the awards' lists) are
sent without personal data keys (``PRIVATE_KEYS``) wherever they sit.

A model names the contract fields a partner may see; the nested contract types (pairings,
standings rows, section rules) are sent whole, as they carry no personal data.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from gomoku_shared.contracts.common import SectionRules
from gomoku_shared.contracts.events import BoardStat, GameReason, PairingOutcome, PairingSpec, StandingRow


class PartnerView(BaseModel):
    """Base of the webhook ``data`` models: built from a contract payload, whose other fields
    are left out. Within ``/v1`` a view may gain fields (additive changes only)."""

    model_config = ConfigDict(extra="ignore", frozen=True)


class RoundPairedData(PartnerView):
    """`round.paired` as a partner receives it: only the pairings of its own players (a pairing
    names a player's partner in `first_partner` / `second_partner`); no byes (they name no
    partner). A partner none of whose players is paired receives nothing."""

    event_code: str
    stage: str
    section_id: str
    round: int
    starts_at: datetime | None = None
    no_show_minutes: int = 15
    pairings: list[PairingSpec] = Field(description="the pairings of your own players only")
    mode: Literal["online", "offline"] = "online"


class RoundRescheduledData(PartnerView):
    """`round.rescheduled` (EVT-7): an arbiter moved a round's start; sent to every subscriber."""

    event_code: str
    stage: str
    section_id: str
    round: int
    starts_at: datetime
    previous_starts_at: datetime | None = None
    reason: str
    decided_by: str = Field(description="the staff member who decided it (their key's name)")
    decided_at: datetime


class GameStartedData(PartnerView):
    """`game.started`: a game of a pairing with one of your players began."""

    event_code: str
    section_id: str
    round: int
    pairing_id: str
    game_id: str
    game_no: int = 1
    black: str
    white: str
    playoff_id: str | None = None
    stage: str | None = None
    first: str | None = None
    second: str | None = None


class GameFinishedData(PartnerView):
    """`game.finished`: a game of a pairing with one of your players ended; `record` leaves out
    personal data keys."""

    event_code: str
    section_id: str
    round: int
    pairing_id: str
    game_id: str
    game_no: int = 1
    playoff_id: str | None = None
    black: str
    white: str
    winner: str | None = Field(description="player id of the winner, null for a draw or a double forfeit")
    result: Literal["black", "white", "draw", "double_forfeit"]
    reason: GameReason
    foul: str | None = None
    moves: list[str] = Field(default_factory=list)
    record: dict[str, Any] = Field(default_factory=dict)
    outcome: PairingOutcome | None = None
    double_forfeit: bool = False
    stage: str | None = None
    first: str | None = None
    second: str | None = None


class SectionCompletedData(PartnerView):
    """`section.completed`: a section's final standings, to every subscriber. No entrants list
    (it carries registration details): the standings are the public result."""

    event_code: str
    stage: str
    section_id: str
    name: str
    revision: int = Field(default=1, description="increases when an arbiter's correction republishes (AWD-8)")
    rules: SectionRules
    standings: list[StandingRow]
    board_stats: list[BoardStat] = Field(default_factory=list)
    flagged_ties: list[list[str]] = Field(default_factory=list)
    rounds_played: int
    cancelled: bool = False
    cancel_reason: str | None = None


class StandingsUpdatedData(PartnerView):
    """`standings.updated`: a section's standings after a round, to every subscriber (standings
    are public). Each row has its place, entrant, points and tiebreaks as the contract has them."""

    event_code: str
    stage: str
    section_id: str
    after_round: int = Field(description="the round the standings were computed after")
    standings: list[StandingRow]


class EntryDecidedData(PartnerView):
    """`entry.decided`: registration accepted or refused one of your entries; sent only to the
    partner that registered the entry (from the bus events `entry.accepted` / `entry.refused`).
    No names nor other personal data: the entry id and your own user ids name it."""

    event_code: str
    stage: str
    section_id: str
    entry_id: str
    decision: Literal["accepted", "refused"]
    clause: str = Field(description="the eligibility clause that admitted or refused the entry (REG-4..REG-8)")
    reason: str | None = Field(default=None, description="why the entry was refused (null when accepted)")
    waiting_list: bool = Field(default=False, description="accepted onto the waiting list")
    evidence_pending: bool = Field(default=False, description="REG-18: admitted on evidence still to be approved")
    evidence_approve_by: datetime | None = None
    external_ids: dict[str, str] = Field(
        default_factory=dict, description="your own user ids of the entry's people (player id -> external_id)"
    )


class AwardsPublishedData(PartnerView):
    """`awards.published`: a section's (or team ranking's) awards, to every subscriber; the lists
    leave out personal data keys."""

    event_code: str
    stage: str
    section_id: str
    revision: int
    supersedes: int | None = None
    places: list[dict[str, Any]] = Field(default_factory=list)
    prizes: list[dict[str, Any]] = Field(default_factory=list)
    titles: list[dict[str, Any]] = Field(default_factory=list)
    team_ranking: list[dict[str, Any]] = Field(default_factory=list)
    best_boards: list[dict[str, Any]] = Field(default_factory=list)
    cancelled: bool = False
    source_revision: int | None = None
    kind: str | None = None
    name: str | None = None
    currency: str | None = None
    squad: list[dict[str, Any]] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)


#: the ``data`` model of each webhook event type (the types a subscription can name)
VIEWS: dict[str, type[PartnerView]] = {
    "round.paired": RoundPairedData,
    "round.rescheduled": RoundRescheduledData,
    "game.started": GameStartedData,
    "game.finished": GameFinishedData,
    "section.completed": SectionCompletedData,
    "awards.published": AwardsPublishedData,
    "standings.updated": StandingsUpdatedData,
    "entry.decided": EntryDecidedData,
}
#: the bus events a webhook type is made from, where they are not the one of its name
SOURCES: dict[str, tuple[str, ...]] = {"entry.decided": ("entry.accepted", "entry.refused")}
#: the fields a view adds to its contract payloads: what the bus event's type said
DERIVED: dict[str, frozenset[str]] = {"entry.decided": frozenset({"decision"})}
#: the contract fields of each type a partner does not get, with why (every other field of the
#: contract payload is in its view: a field the contract adds is a choice made here)
LEFT_OUT: dict[str, dict[str, str]] = {
    "round.paired": {"byes": "byes name no partner: a partner gets its own players' pairings only"},
    "section.completed": {"entrants": "the entrants list carries registration details"},
    "entry.decided": {
        "entrant": "the entrant carries personal data: the entry id and your external ids name it",
        "entrant_name": "a name is personal data: the entry id and your external ids name it",
        "application_id": "the entry id names the entry",
        "partner_id": "you are the partner: the webhook is sent to you alone",
    },
}
