"""Value types shared by several event payloads."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Gender = Literal["male", "female"]
RuleTrack = Literal["free", "professional"]


class Model(BaseModel):
    # validators built at first use, not at import (start-up time: a service uses a few of them)
    model_config = ConfigDict(extra="ignore", frozen=True, defer_build=True)


class ClockSpec(Model):
    """Server clock of one game (PLAY-5). ``kind`` sudden_death ignores increment_s."""

    kind: Literal["sudden_death", "fischer"] = "sudden_death"
    base_s: int = Field(gt=0)
    increment_s: int = Field(default=0, ge=0)


class Ruleset(Model):
    """Everything gameplay needs to judge one game (PLAY-1..PLAY-3)."""

    track: RuleTrack
    #: PLAY-1 variant: only exactly five wins (six+ is not a win) under free rules
    exact_five: bool = False
    #: PLAY-3: what a forbidden black move does under professional rules
    forbidden_policy: Literal["loss", "reject"] = "loss"
    #: PLAY-2: fifth-move offers fixed by the section (None: declared with the opening)
    fixed_n: int | None = None
    max_n: int = 10


class Points(Model):
    """Game points (PAIR-4); match points for teams (PAIR-9)."""

    win: int = 2
    draw: int = 1
    loss: int = 0


class Member(Model):
    """A player inside an entrant (a team member with a fixed board, REG-9)."""

    player_id: str
    name: str
    gender: Gender
    board: int | None = None
    unit: str | None = None
    birth_date: date | None = None
    partner_id: str | None = None


class Entrant(Model):
    """A participant of a section: one player, or a team with members on fixed boards."""

    entrant_id: str
    name: str
    gender: Gender | None = None
    unit: str | None = None
    rating: int = 0
    birth_date: date | None = None
    members: list[Member] = Field(default_factory=list)
    #: the partner platform that registered this entrant: only its key may act for it
    partner_id: str | None = None
    #: facts other stages need (e.g. eligibility clause that admitted the player)
    attributes: dict[str, Any] = Field(default_factory=dict)


Signatory = Literal["leader", "coach"]
SIGNATORIES: tuple[Signatory, ...] = ("leader", "coach")


class AppealTerms(Model):
    """AWD-10: the event's terms for appeals to its arbitration committee, as pairing needs them
    (from ``gomoku_shared.event_config.AppealRules``): the fee lodged with an appeal, in fen
    (NY 十(四): 500 CNY, refunded if upheld), the window, who may sign."""

    accepted: bool = True
    fee_fen: int = Field(default=0, ge=0)
    currency: str = "CNY"
    refund_if_upheld: bool = True
    #: minutes after the appealed round (or the section) completed; None: no deadline
    window_minutes: int | None = Field(default=None, ge=1)
    signatories: list[Signatory] = Field(default_factory=lambda: list(SIGNATORIES))


class SectionRules(Model):
    """The rules a section is played under; travels with section.closed / round.paired."""

    kind: Literal["individual", "team"] = "individual"
    format: Literal["swiss", "round_robin"] = "swiss"
    rounds: int = Field(ge=1)
    boards: int = 1
    #: PAIR-5: each round is two games, each player moving first once
    two_game_rounds: bool = False
    ruleset: Ruleset
    clock: ClockSpec
    #: PLAY-PLAYOFF clocks: the two-game playoff, then sudden-death single games
    playoff_clock: ClockSpec = ClockSpec(kind="fischer", base_s=300, increment_s=3)
    playoff_decider_clock: ClockSpec = ClockSpec(kind="fischer", base_s=180, increment_s=2)
    no_show_minutes: int = 15
    points: Points = Points()
    match_points: Points = Points()
    tiebreaks: list[str] = Field(default_factory=list)
    #: PAIR-8: how a tie on a place that matters is settled
    tie_policy: Literal["playoff", "arbiter", "share"] = "playoff"
    #: places that win a medal, money or qualification (PAIR-8)
    places_that_matter: int = 0
    #: merged sections rank each gender separately (REG-12)
    rank_by_gender: bool = False
    #: PAIR-2 extension: keep players of one unit apart where the event says so
    separate_units: bool = False
    #: unplayed-round rules of FIDE C.07 Article 16 (edition)
    tiebreak_edition: int = 2024
    #: EVT-7: the scheduled start of rounds 1..len (empty: rounds start when they are paired;
    #: a round beyond the list, or paired after its time, starts when it is published)
    round_starts: list[datetime] = Field(default_factory=list)
    #: PLAY-9: "offline" sections are played over the board at a venue (no server clock, results
    #: from arbiters' result slips, records entered after the game); the stage's ``mode``
    mode: Literal["online", "offline"] = "online"
