"""One payload model per integration event (docs/architecture.md, "Bus events"). Routing key = TYPE."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, ClassVar, Literal

from pydantic import Field, model_validator

from .access_events import EventAccessChanged, PartnerCredentialsRevoked, PartnerRegistered
from .common import (
    AppealTerms,
    BirthYear,
    ClockSpec,
    Entrant,
    Gender,
    Model,
    OldBirthDate,
    Ruleset,
    SectionRules,
    birth_year_only,
)
from .envelope import Payload
from .season_events import PeopleMerged, PeopleSplit, RatingsPublished


class SectionEvent(Payload):
    """Base of the events about one section of an event's stage (their first fields)."""

    event_code: str
    stage: str
    section_id: str


class RoundEvent(SectionEvent):
    """Base of the events about one round of a section."""

    round: int


class GameEvent(Payload):
    """Base of the events about one game of a pairing (their first fields)."""

    event_code: str
    section_id: str
    round: int
    pairing_id: str
    game_id: str
    game_no: int = 1


# ---------------------------------------------------------------- registration


class EventConfigured(Payload):
    TYPE: ClassVar[str] = "event.configured"
    event_code: str
    name: str
    preset_id: str
    #: the whole validated event configuration (gomoku_shared.event_config.EventConfig)
    config: dict[str, Any]


class EntryAccepted(SectionEvent):
    TYPE: ClassVar[str] = "entry.accepted"
    entry_id: str
    entrant: Entrant
    #: the eligibility clause that admitted the entrant (REG-4..REG-8)
    clause: str
    waiting_list: bool = False
    #: REG-18: admitted on declared evidence an arbiter has still to approve (a later
    #: entry.accepted of the same entry says when that changed)
    evidence_pending: bool = False
    #: REG-18: the evidence must be approved before this time (the event's configuration)
    evidence_approve_by: datetime | None = None
    #: the registering partner's own user ids of the entry's people (player id -> external id;
    #: empty for an entry no partner registered), for its ``entry.decided`` webhook
    external_ids: dict[str, str] = Field(default_factory=dict)


class EntryRefused(SectionEvent):
    TYPE: ClassVar[str] = "entry.refused"
    application_id: str
    entrant_name: str
    clause: str
    reason: str
    #: the refused entry (None from publishers before it: ``application_id`` names it)
    entry_id: str | None = None
    #: the partner platform that registered the entry (None: staff registered it)
    partner_id: str | None = None
    #: that partner's own user ids of the entry's people (player id -> external id)
    external_ids: dict[str, str] = Field(default_factory=dict)


class EntryWithdrawn(SectionEvent):
    TYPE: ClassVar[str] = "entry.withdrawn"
    entry_id: str
    entrant_id: str
    reason: str


class SectionClosed(SectionEvent):
    TYPE: ClassVar[str] = "section.closed"
    name: str
    status: Literal["ready", "cancelled"]
    #: REG-12: the sections folded into this one
    merged_from: list[str] = Field(default_factory=list)
    rules: SectionRules
    entrants: list[Entrant]
    starts_at: datetime | None = None
    #: AWD-10: the event's appeal terms (None from publishers before them: no fee)
    appeals: AppealTerms | None = None
    #: REG-12: why a cancelled section was cancelled at closing (None for a ready one)
    cancel_reason: str | None = None


# ---------------------------------------------------------------- pairing


class PairingSpec(Model):
    """One pairing of a round: 1 game, a two-game pair (PAIR-5) or one board of a match."""

    pairing_id: str
    #: entrant (player) who moves first in game 1 — the tentative black
    first: str
    second: str
    games: int = 1
    board: int | None = None
    #: team match this board belongs to (PAIR-9)
    match_id: str | None = None
    ruleset: Ruleset
    clock: ClockSpec
    #: two-game rounds play a clock for the pair as a whole (SZ: 30 min per player)
    round_clock: bool = False
    #: partner platforms of the two players (a partner key acts only for its own players)
    first_partner: str | None = None
    second_partner: str | None = None
    #: team entrants of a board game (PAIR-9), for folding board results into matches
    first_team: str | None = None
    second_team: str | None = None


class Bye(Model):
    entrant_id: str
    kind: Literal["pairing", "requested", "forced", "absent"] = "pairing"
    points: int


class RoundPaired(RoundEvent):
    TYPE: ClassVar[str] = "round.paired"
    starts_at: datetime | None = None
    no_show_minutes: int = 15
    pairings: list[PairingSpec]
    byes: list[Bye] = Field(default_factory=list)
    #: PLAY-9: "offline": the games are played over the board (SectionRules.mode)
    mode: Literal["online", "offline"] = "online"


class RoundRescheduled(RoundEvent):
    """EVT-7: an arbiter moved a round's start (a delay). Gameplay moves the start, clocks and
    no-show limit of the round's games not begun yet; partners learn the new time. Published
    also for a round not paired yet: its ``round.paired`` then carries the new time."""

    TYPE: ClassVar[str] = "round.rescheduled"
    VERSION: ClassVar[int] = 1
    starts_at: datetime
    #: the start it replaces (the schedule's, or an earlier delay's)
    previous_starts_at: datetime | None = None
    reason: str
    #: the staff member who decided it (their key's name)
    decided_by: str
    decided_at: datetime


class StandingRow(Model):
    place: int
    shared: bool = False
    entrant_id: str
    name: str
    gender: Gender | None = None
    unit: str | None = None
    points: float
    #: every tiebreak value, by name, in the section's order
    tiebreaks: dict[str, float] = Field(default_factory=dict)
    wins: int = 0
    games_played: int = 0
    #: place among the entrant's gender in a merged section (REG-12)
    gender_place: int | None = None
    #: the tie was settled by a playoff (PAIR-8) or an arbiter
    decided_by: Literal["tiebreak", "playoff", "arbiter", "shared"] | None = None


class BoardStat(Model):
    """Per-board record of a team member, for the best-board award (AWD-7)."""

    entrant_id: str
    player_id: str
    name: str
    board: int
    games_played: int
    board_games: int
    points: float
    wins: int


class StandingsUpdated(SectionEvent):
    TYPE: ClassVar[str] = "standings.updated"
    after_round: int
    standings: list[StandingRow]


DecidedOutcome = Literal[
    "first_wins", "second_wins", "draw", "first_forfeit_win", "second_forfeit_win", "double_forfeit"
]


class GameResult(Model):
    """One pairing's result as its section ends (issue 32: awards rates the games from these).
    ``first``/``second``: entrant ids, or the members' player ids on a team board."""

    round: int
    pairing_id: str
    board: int | None = None
    first: str
    second: str
    #: from the first player's side; a two-game round (PAIR-5) is one pairing
    outcome: DecidedOutcome
    #: decided by absence (PAIR-6 / PLAY-7), not over the board: never rated
    forfeit: bool = False


class SectionCompleted(SectionEvent):
    TYPE: ClassVar[str] = "section.completed"
    name: str
    #: increases when an arbiter's correction republishes the section (AWD-8)
    revision: int = 1
    rules: SectionRules
    standings: list[StandingRow]
    entrants: list[Entrant] = Field(default_factory=list)
    board_stats: list[BoardStat] = Field(default_factory=list)
    #: tie groups left for an arbiter's decision (PAIR-8, no playoffs)
    flagged_ties: list[list[str]] = Field(default_factory=list)
    rounds_played: int
    #: REG-12: the section was cancelled at closing and never played (no standings); it
    #: reaches awards all the same, so a team score fed by it is computed without it (AWD-6)
    cancelled: bool = False
    cancel_reason: str | None = None
    #: every pairing's result (issue 32; empty from producers before it)
    games: list[GameResult] = Field(default_factory=list)


class PlayoffRequired(SectionEvent):
    TYPE: ClassVar[str] = "playoff.required"
    playoff_id: str
    place_from: int
    place_to: int
    entrant_ids: list[str]
    #: the players who actually play (team playoffs: the board-1 players, PAIR-10)
    pairings: list[PairingSpec]
    #: PLAY-PLAYOFF: clock of the single games after a level pair (the pair uses each
    #: pairing's ``clock``); None: the pairing's clock
    decider_clock: ClockSpec | None = None
    #: PLAY-7 for playoff games: forfeit when a player has not joined this long after starts_at
    #: (None: no no-show deadline)
    starts_at: datetime | None = None
    no_show_minutes: int | None = None
    #: PLAY-9: "offline": the games are played over the board (SectionRules.mode)
    mode: Literal["online", "offline"] = "online"


# ---------------------------------------------------------------- gameplay


GameReason = Literal[
    "five",
    "forbidden",
    "time",
    "resignation",
    "no_show",
    "arbiter",
    "agreement",
    "passes",
    "full_board",
    "both_flags",
    "round_forfeit",
]


class GameCreated(GameEvent):
    """A game exists and its players may join (PLAY-7): sent when gameplay creates it from
    ``round.paired`` / ``playoff.required``, possibly days before the round starts."""

    TYPE: ClassVar[str] = "game.created"
    black: str
    white: str
    playoff_id: str | None = None
    stage: str | None = None
    #: the pairing's first and second players (PairingSpec.first/second), whatever the colours
    first: str | None = None
    second: str | None = None
    #: EVT-7: the round's scheduled start (no move before it); None: as soon as both are present
    starts_at: datetime | None = None


class GameStarted(GameEvent):
    """The game is under way: both players are present (PLAY-7), or (over the board, PLAY-9) its
    first move was recorded; the next game of a pairing starts as it is created."""

    TYPE: ClassVar[str] = "game.started"
    black: str
    white: str
    playoff_id: str | None = None
    stage: str | None = None
    #: the pairing's first and second players (PairingSpec.first/second), whatever the colours
    first: str | None = None
    second: str | None = None
    #: when the clock started: the round's scheduled start (EVT-7) when both were present before it
    started_at: datetime | None = None


class PairingOutcome(Model):
    """Round points of a finished pairing (PAIR-5 / PLAY-6 for two-game rounds)."""

    first_points: int
    second_points: int


class GameFinished(GameEvent):
    TYPE: ClassVar[str] = "game.finished"
    playoff_id: str | None = None
    black: str
    white: str
    #: player id of the winner, None for a draw or a double forfeit
    winner: str | None
    #: "double_forfeit": both players absent (PLAY-7) or so decided by an arbiter: 0:0, never a draw
    result: Literal["black", "white", "draw", "double_forfeit"]
    reason: GameReason
    foul: str | None = None
    moves: list[str] = Field(default_factory=list)
    record: dict[str, Any] = Field(default_factory=dict)
    #: set when this game ends its pairing (last game of a two-game round)
    outcome: PairingOutcome | None = None
    #: both players were absent (PLAY-7): a double forfeit
    double_forfeit: bool = False
    stage: str | None = None
    #: the pairing's first and second players (``outcome`` points are theirs, in this order)
    first: str | None = None
    second: str | None = None


class ResultDecided(RoundEvent):
    """An arbiter's result of a round pairing, entered or corrected in pairing (PAIR-11, AWD-8).

    Gameplay closes the pairing's open games with it (and corrects finished ones): from then on
    no move, join, flag fall or no-show sweep changes them. ``sequence`` orders the decisions of
    a section: one older than a decision already applied to the pairing changes nothing."""

    TYPE: ClassVar[str] = "result.decided"
    VERSION: ClassVar[int] = 1
    pairing_id: str
    #: the pairing's first and second players (PairingSpec.first/second)
    first: str
    second: str
    #: the pairing's outcome from the first player's side (PAIR-4/5/6)
    outcome: DecidedOutcome
    #: what gameplay records as the games' reason: "arbiter", or "no_show" for forfeits
    reason: GameReason
    sequence: int
    decided_at: datetime
    #: the arbiter's note (audited in pairing)
    note: str = ""


# ---------------------------------------------------------------- awards


class AwardsPublished(SectionEvent):
    TYPE: ClassVar[str] = "awards.published"
    revision: int
    supersedes: int | None = None
    places: list[dict[str, Any]] = Field(default_factory=list)
    prizes: list[dict[str, Any]] = Field(default_factory=list)
    titles: list[dict[str, Any]] = Field(default_factory=list)
    team_ranking: list[dict[str, Any]] = Field(default_factory=list)
    best_boards: list[dict[str, Any]] = Field(default_factory=list)
    cancelled: bool = False
    #: the section.completed revision these awards were computed from (team rankings: None)
    source_revision: int | None = None
    #: "individual" or "team" (a team ranking computed from individual sections is "team")
    kind: str | None = None
    name: str | None = None
    currency: str | None = None
    #: AWD-QUAL training squad (SZ final): members and substitutes
    squad: list[dict[str, Any]] = Field(default_factory=list)
    #: what a reader must know about how this publication was computed, e.g. a team score
    #: whose source section was cancelled (AWD-6: computed from the sections played)
    notes: list[str] = Field(default_factory=list)


class QualifiedPlayer(Model):
    entrant_id: str
    name: str
    gender: Gender | None = None
    place: int
    birth_date: date | None = OldBirthDate
    birth_year: int | None = BirthYear
    attributes: dict[str, Any] = Field(default_factory=dict)

    _birth_year_only = model_validator(mode="before")(birth_year_only)


class QualifiersSelected(Payload):
    TYPE: ClassVar[str] = "qualifiers.selected"
    event_code: str
    from_stage: str
    to_stage: str
    section_id: str
    #: the next stage's section that receives them
    target_section_id: str
    qualifiers: list[QualifiedPlayer]
    substitutes: list[QualifiedPlayer] = Field(default_factory=list)
    seeded: list[QualifiedPlayer] = Field(default_factory=list)
    #: the gender cohort of a merged section (REG-12); None = the whole section
    gender: Gender | None = None
    #: increases when a correction changes the lists (the highest revision is current)
    revision: int = 1


# ---------------------------------------------------------------- appeals (AWD-10)


class AppealLodged(SectionEvent):
    """A written appeal reached the arbitration committee (pairing records appeals: they are
    about results). ``fee_fen`` is the appeal fee received with it (NY 十(四): 500 CNY; 0 where
    the event charges none); registration's ledger records it as a payment of the unit."""

    TYPE: ClassVar[str] = "appeal.lodged"
    VERSION: ClassVar[int] = 1
    appeal_id: str
    #: the round and pairing appealed against (None: a dispute not about one result)
    round: int | None = None
    pairing_id: str | None = None
    #: the unit (delegation) whose leader or coach lodged it, and who signed it
    unit_id: str | None = None
    lodged_by: str
    #: amount received, in fen (1 CNY = 100 fen), and its currency and payment reference
    fee_fen: int = Field(ge=0)
    currency: str = "CNY"
    payment_reference: str = ""
    lodged_at: datetime


class AppealDecided(SectionEvent):
    """The committee decided an appeal. Upheld: ``refund_fen`` (the whole fee, NY 十(四)) goes
    back to the unit in registration's ledger; a changed result travels separately, through
    the arbiter path (``result.decided``, then standings and awards republished)."""

    TYPE: ClassVar[str] = "appeal.decided"
    VERSION: ClassVar[int] = 1
    appeal_id: str
    unit_id: str | None = None
    upheld: bool
    #: the committee's reasons, as written in its decision
    reasons: str
    refund_fen: int = Field(ge=0)
    currency: str = "CNY"
    #: whether the decision changed the result of the appealed pairing
    result_changed: bool = False
    decided_at: datetime


ALL_PAYLOADS: tuple[type[Payload], ...] = (
    EventConfigured,
    EventAccessChanged,
    EntryAccepted,
    EntryRefused,
    EntryWithdrawn,
    SectionClosed,
    RoundPaired,
    RoundRescheduled,
    StandingsUpdated,
    SectionCompleted,
    PlayoffRequired,
    GameCreated,
    GameStarted,
    GameFinished,
    ResultDecided,
    AwardsPublished,
    QualifiersSelected,
    PartnerRegistered,
    PartnerCredentialsRevoked,
    AppealLodged,
    AppealDecided,
    RatingsPublished,
    PeopleMerged,
    PeopleSplit,
)
