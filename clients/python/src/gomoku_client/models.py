"""The request bodies and answers of the partner API, as pydantic models.

They mirror the services' OpenAPI documents (``/openapi.json`` of each service) and are checked
against them field by field — name, type, required-ness — by the client's contract test, so a
change on either side that makes them differ fails the build. Answers accept fields they do not
declare (the API's versioning policy adds fields within ``/v1``): read them from
``model_extra``. Request bodies refuse unknown fields, as the services do.
"""
# over 500 lines on purpose: one module is what the contract test compares with the OpenAPI documents

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class Answer(BaseModel):
    """An answer of the platform: unknown (newer) fields are kept in ``model_extra``."""

    model_config = ConfigDict(extra="allow")


class Body(BaseModel):
    """A request body: unknown fields are refused before anything is sent."""

    model_config = ConfigDict(extra="forbid")


# --------------------------------------------------------------------------- errors


class ErrorDetail(BaseModel):
    model_config = ConfigDict(extra="forbid")

    code: str
    message: str
    details: Any = None


class ErrorBody(BaseModel):
    """The common error shape of every service: ``{"error": {"code", "message", "details"}}``."""

    model_config = ConfigDict(extra="forbid")

    error: ErrorDetail


class OAuthErrorBody(Answer):
    """RFC 6749 §5.2: the token endpoint's refusals."""

    error: Literal[
        "invalid_request",
        "invalid_client",
        "invalid_grant",
        "unauthorized_client",
        "unsupported_grant_type",
        "invalid_scope",
    ]
    error_description: str | None = None


# --------------------------------------------------------------------------- partners


class TokenForm(Body):
    """The client-credentials grant (RFC 6749 §4.4), sent as a form."""

    grant_type: Literal["client_credentials"]
    scope: str = ""
    client_id: str = ""
    client_secret: str = ""


class TokenAnswer(Answer):
    access_token: str
    token_type: Literal["Bearer"]
    expires_in: int
    scope: str


class WhoAmI(Answer):
    role: str
    partner_id: str | None
    service: str
    scopes: list[str] | None = None
    client_id: str | None = None


EventType = Literal[
    "round.paired",
    "round.rescheduled",
    "game.created",
    "game.started",
    "game.finished",
    "section.completed",
    "awards.published",
    "standings.updated",
    "entry.decided",
]


class SubscriptionIn(Body):
    url: str
    event_types: list[EventType]
    description: str = ""


class SubscriptionView(Answer):
    subscription_id: str
    url: str
    event_types: list[str]
    description: str
    status: Literal["active", "disabled"]
    created_at: str
    previous_secret_valid_until: str | None
    failure_streak: int
    disabled_at: str | None
    notice: str | None


class SubscriptionWithSecret(SubscriptionView):
    #: ``whsec_…``: shown once, when created or rotated; verify deliveries with it
    secret: str


class SubscriptionList(Answer):
    items: list[SubscriptionView]
    #: the cursor of the next page (``limit`` given); null on the last
    next_cursor: str | None = None


class SecretRotateIn(Body):
    grace_s: int | None = None


class DeliveryView(Answer):
    delivery_id: str
    subscription_id: str
    event_type: str
    event_id: str
    status: Literal["pending", "delivered", "failed"]
    attempts: int
    next_attempt_at: str | None
    last_attempt_at: str | None
    last_status_code: int | None
    last_response_ms: int | None
    last_error: str | None
    created_at: str
    delivered_at: str | None


class DeliveryPage(Answer):
    items: list[DeliveryView]
    next_cursor: str | None


# --------------------------------------------------------------------------- registration


class PlayerIn(Body):
    name: str
    gender: Literal["male", "female"]
    birth_date: date
    id_number: str | None = None
    unit: str | None = None
    citizenship: str | None = "CN"
    registered_unit_id: str | None = None
    rating: int = 0
    #: your own user id for the player: stored, searchable (``entries(external_id=...)``), shown to you alone
    external_id: str | None = None


class FactsIn(Body):
    intends_to_represent: bool = False
    quota_exempt_ref: str | None = None


EvidenceKind = Literal[
    "household_registration",
    "residence_permit",
    "social_insurance",
    "student_status",
    "grade_certificate",
    "past_result",
    "employment",
]


class EvidenceIn(Body):
    kind: EvidenceKind
    document_ref: str
    region: str | None = None
    issued_on: date | None = None
    months_paid: list[str] = Field(default_factory=list)
    grade: str | None = None
    result_level: Literal["city", "provincial", "national"] | None = None
    result_place: int | None = None
    result_event: str | None = None
    officially_recognised: bool = True
    employer_unit_id: str | None = None
    employed_since: date | None = None


class InsuranceIn(Body):
    confirmed: bool = False
    document_ref: str | None = None


class EntryIn(Body):
    """One person's entry in a stage's section (``POST /v1/events/{event_code}/entries``)."""

    stage: str | None = None
    section_id: str
    player: PlayerIn
    facts: FactsIn = Field(default_factory=FactsIn)
    evidence: list[EvidenceIn] = Field(default_factory=list)
    insurance: InsuranceIn = Field(default_factory=InsuranceIn)
    items: list[str] | None = None


class MemberIn(PlayerIn):
    """A team member: a person (as an entry's player) and the board they play."""

    board: int
    evidence: list[EvidenceIn] = Field(default_factory=list)
    facts: FactsIn = Field(default_factory=FactsIn)


class TeamIn(Body):
    """A unit's team in a team section (``POST /v1/events/{event_code}/teams``)."""

    stage: str | None = None
    section_id: str
    unit: str
    team_name: str | None = None
    members: list[MemberIn]
    insurance: InsuranceIn = Field(default_factory=InsuranceIn)
    items: list[str] | None = None


class PlayerView(Answer):
    """A person as registration shows it (the ID number masked: its last 4 characters only)."""

    player_id: str
    name: str
    id_number: str | None = None
    #: your own user id for the player (null for anyone else's)
    external_id: str | None = None


class PendingEvidence(Answer):
    approve_by: str
    otherwise: str
    players: list[str]
    clauses: list[str]


class SubmittedEntry(Answer):
    """Registration's decision on an entry; ``entrant_id`` is the id pairing and gameplay use."""

    entry_id: str
    entrant_id: str
    player_id: str | None
    stage: str
    section_id: str
    status: str
    clause: str | None
    reason: str | None
    pending_evidence: PendingEvidence | None
    waitlist_position: int | None
    players: list[PlayerView]
    decisions: list[dict[str, Any]]


class EntryView(Answer):
    entry_id: str
    entrant_id: str
    event_code: str
    stage: str
    section_id: str
    seq: int
    status: str
    clause: str | None
    reason: str | None
    players: list[PlayerView]
    received_at: datetime | None = None
    decisions: list[dict[str, Any]] = Field(default_factory=list)


class Entries(Answer):
    entries: list[EntryView]
    #: the cursor of the next page (``limit`` given); null on the last
    next_cursor: str | None = None


# --------------------------------------------------------------------------- pairing


class SectionSummary(Answer):
    section_id: str
    stage: str
    name: str
    status: str
    current_round: int
    rounds: int
    format: str
    kind: str
    revision: int


class SectionList(Answer):
    event_code: str
    sections: list[SectionSummary]
    #: the cursor of the next page (``limit`` given); null on the last
    next_cursor: str | None = None


class GameResult(Answer):
    game_no: int
    game_id: str
    result: str | None


class PairingView(Answer):
    """A pairing of a round: ``first`` and ``second`` are entrant ids (``second`` null: a bye)."""

    pairing_id: str
    first: str
    second: str | None
    games: int
    result: str | None
    first_points: float | None
    second_points: float | None
    game_results: list[GameResult]


class RoundView(Answer):
    section_id: str
    round: int
    status: str
    published_at: datetime | None
    pairings: list[PairingView]
    byes: list[dict[str, Any]]


class StandingRow(Answer):
    place: int
    shared: bool
    entrant_id: str
    name: str
    points: float
    tiebreaks: dict[str, float]


class Standings(Answer):
    event_code: str
    section_id: str
    status: str
    after_round: int
    revision: int
    order: list[str]
    standings: list[StandingRow]


# --------------------------------------------------------------------------- gameplay


class GameSummary(Answer):
    """A game in lists and in the answer to every player action."""

    game_id: str
    event_code: str
    stage: str
    section_id: str
    round: int
    pairing_id: str
    game_no: int
    black: str
    white: str
    status: Literal["waiting", "active", "finished"]
    phase: str
    to_act: str | None
    seq: int
    result: Literal["black", "white", "draw", "double_forfeit"] | None
    reason: str | None
    winner: str | None = None
    outcome: dict[str, int] | None = None
    playoff_id: str | None = None
    #: EVT-7: the round's scheduled start (no move before it: 409 not_started)
    starts_at: datetime | None = None


class GamePage(Answer):
    games: list[GameSummary]
    #: pass it as ``cursor`` for the next page; null on the last page
    next_cursor: str | None


class Stone(Answer):
    point: str
    colour: Literal["black", "white"]


class Clocks(Answer):
    black_ms: int
    white_ms: int
    running: Literal["black", "white"] | None


class Board(GameSummary):
    """One game of a round as a small board: its summary, its stones and its clocks as of the
    answer (``GET /v1/rounds/{event_code}/{section_id}/{round}/boards``)."""

    moves: list[str]
    board: list[Stone]
    forbidden: dict[str, Any]
    #: the professional opening's state (the fifth-move offers), null under free rules
    opening: dict[str, Any] | None
    clocks: Clocks


class RoundBoardPage(Answer):
    games: list[Board]
    #: pass it as ``cursor`` for the next page; null on the last page
    next_cursor: str | None = None


class Game(GameSummary):
    """One game as of now (``GET /v1/games/{game_id}``)."""

    rules: dict[str, Any]
    moves: list[str]
    board: list[Stone]
    legal_actions: list[str]
    forbidden: dict[str, Any]
    clocks: Clocks
    joined: dict[str, bool]
    draw_offer_by: str | None


class PlayerBody(Body):
    """``player_id`` is an entrant id (registration's ``entrant_id``)."""

    player_id: str


class OpeningBody(PlayerBody):
    stones: list[str]
    n: int | None = None


class SwapBody(PlayerBody):
    swap: bool


class MoveBody(PlayerBody):
    point: str


class OffersBody(PlayerBody):
    points: list[str]


class DrawBody(PlayerBody):
    action: Literal["offer", "accept", "decline"]


class StreamEvent(Answer):
    """One message of an event's stream; ``id`` is the cursor to resume after."""

    id: int
    game_id: str
    section_id: str
    round: int
    seq: int
    kind: str
    data: dict[str, Any]
    at_ms: int


# --------------------------------------------------------------------------- awards


class PublicationMeta(Answer):
    event_code: str
    section_id: str
    stage: str
    kind: str
    revision: int
    supersedes: int | None = None
    superseded: bool
    superseded_by: int | None = None
    source_revision: int | None = None
    published_at: datetime


class AwardsSummary(Answer):
    field_size: int
    awarded_places: int
    cancelled: bool
    cancel_reason: str
    prize_total: int
    unresolved_ties: list[dict[str, Any]]
    flagged_ties: list[list[str]]


class SectionAwards(Answer):
    """A section's published awards: places, prizes (amounts in fen), titles."""

    publication: PublicationMeta
    name: str | None
    currency: str | None
    summary: AwardsSummary
    places: list[dict[str, Any]]
    prizes: list[dict[str, Any]]
    titles: list[dict[str, Any]]
    team_ranking: list[dict[str, Any]]
    best_boards: list[dict[str, Any]]
    squad: list[dict[str, Any]]


class PublicationEntry(Answer):
    publication: PublicationMeta
    payload: dict[str, Any]


class PublicationHistory(Answer):
    event_code: str
    publications: list[PublicationEntry]
    #: the cursor of the next page (``limit`` given); null on the last
    next_cursor: str | None = None


# --------------------------------------------------------------------------- webhooks


class WebhookEvent(BaseModel):
    """A verified webhook delivery: ``id`` is the ``webhook-id`` header (deduplicate on it);
    ``data`` has the fields of its type's ``data`` schema in the partners service's OpenAPI
    document (section ``webhooks``)."""

    model_config = ConfigDict(extra="allow")

    id: str
    type: str
    timestamp: str
    data: dict[str, Any]
