"""Value types shared by several event payloads."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

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


def birth_year_only(data: Any) -> Any:
    """Data minimisation (docs/privacy.md): a full birth date stays in registration. A payload
    from a publisher older than ``birth_year`` still carries ``birth_date``: it is read as its
    year and the date itself is dropped, so that no consumer stores or forwards it."""
    if isinstance(data, dict) and data.get("birth_date") is not None:
        data = dict(data)
        born = data.pop("birth_date")
        if data.get("birth_year") is None:
            year = str(born.year if isinstance(born, date) else born)[:4]
            data["birth_year"] = int(year) if year.isdigit() else None
    return data


#: the year of birth: all of a birth date that leaves registration
BirthYear = Field(default=None, ge=1000, le=9999, description="year of birth (full dates stay in registration)")
#: issue 32: the person in the registry of the event's organisation (one human across its events and
#: partner apps; null from publishers older than the registry)
RegistryId = Field(
    default=None,
    max_length=40,
    description="the person in the registry of people of the event's organisation (one human across its events)",
)
#: no longer sent (always null); a value from an older publisher is read as ``birth_year``
OldBirthDate = Field(default=None, description="no longer sent: see birth_year")


class Member(Model):
    """A player inside an entrant (a team member with a fixed board, REG-9)."""

    player_id: str
    name: str
    gender: Gender
    board: int | None = None
    unit: str | None = None
    birth_date: date | None = OldBirthDate
    birth_year: int | None = BirthYear
    partner_id: str | None = None
    registry_id: str | None = RegistryId

    _birth_year_only = model_validator(mode="before")(birth_year_only)


class Entrant(Model):
    """A participant of a section: one player, or a team with members on fixed boards."""

    entrant_id: str
    name: str
    gender: Gender | None = None
    unit: str | None = None
    rating: int = 0
    birth_date: date | None = OldBirthDate
    birth_year: int | None = BirthYear
    members: list[Member] = Field(default_factory=list)
    #: the partner platform that registered this entrant: only its key may act for it
    partner_id: str | None = None
    #: facts other stages need (e.g. eligibility clause that admitted the player)
    attributes: dict[str, Any] = Field(default_factory=dict)
    #: an individual entrant's person in the organisation's registry (a team's: its members')
    registry_id: str | None = RegistryId
    #: issue 32: an individual's published rating (the organisation's latest list) as registration
    #: judged it, whatever ``rating`` seeds by (that may be a qualifying order); None: none published
    #: (unrated) or a publisher before it. Rating-band prizes read it.
    published_rating: int | None = Field(default=None, ge=0, le=4000)

    _birth_year_only = model_validator(mode="before")(birth_year_only)


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
