"""The event's fields: sections and stages combining play, registration and awards rules, and
`EventFields` with the lookups every service uses. `event.EventConfig` adds the cross-checks
(`validation`, `schedule_checks`), which read these fields: a leaf, so the checks need not import
the model that calls them."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from .appeals import AppealRules, HonourConfig
from .awards import AwardsConfig, RatingBand, RatingSettings, TeamScoring
from .base import FormatKind, GenderRule, RuleTrack, SectionKind, _Model
from .fees import FeeRules
from .play import ClockConfig, FormatConfig, OpeningConfig, PlayoffConfig, ScoringConfig, TeamMatchConfig
from .registration import (
    BirthWindow,
    ChangeRules,
    CheckInConfig,
    ClosingRules,
    EligibilityClause,
    InsuranceRules,
    QualificationRule,
    RegionConfig,
    RegistrationWindow,
    SeededSource,
    TeamComposition,
    UnitRules,
    place_key,
)
from .schedule import EventSchedule


class SectionConfig(_Model):
    """EVT-1: one section (组别) of one stage."""

    id: str
    name: str
    name_zh: str | None = None
    kind: SectionKind = "individual"
    gender: GenderRule
    birth: BirthWindow = BirthWindow()
    track: RuleTrack
    cap: Annotated[int, Field(ge=1)] | None = None
    #: overrides the stage start (SZ juniors play a day later)
    starts_on: date | None = None
    team: TeamComposition | None = None
    team_match: TeamMatchConfig | None = None
    team_scoring: TeamScoring | None = None
    eligibility: list[str] = []
    #: issue 32: only players whose published rating lies in this band may enter (judged at entry)
    rating_band: RatingBand | None = None
    closing: ClosingRules = ClosingRules()
    format: FormatConfig | None = None
    clock: ClockConfig | None = None
    opening: OpeningConfig | None = None
    #: required for sections that play games (PAIR-4 / PAIR-9)
    scoring: ScoringConfig | None = None
    tiebreaks: dict[FormatKind, list[str]] = {}
    playoffs: PlayoffConfig = PlayoffConfig(policy="shared")
    #: PAIR-6 / PLAY-7: forfeit after this many minutes; required for sections that play games
    no_show_minutes: Annotated[int, Field(ge=1)] | None = None
    awards: AwardsConfig = AwardsConfig()
    qualification: QualificationRule | None = None
    #: PAIR-2 extension: keep players of one unit apart where the event says so (SectionRules)
    separate_units: bool = False

    @property
    def played(self) -> bool:
        """False for team sections scored from individual results (no games of their own)."""
        return self.team_scoring is None


class StageConfig(_Model):
    """EVT-6: one stage; entries come from registration or from the previous stage."""

    id: str
    name: str
    #: issue 28: the stage's name on Chinese pages (the regulation's own words)
    name_zh: str | None = None
    mode: Literal["online", "offline"] = "offline"
    starts_on: date
    ends_on: date
    entry: Literal["registration", "qualification"] = "registration"
    #: stage that feeds this one (entry == qualification)
    fed_by: str | None = None
    cap_total: Annotated[int, Field(ge=1)] | None = None
    seeded: list[SeededSource] = []
    sections: Annotated[list[SectionConfig], Field(min_length=1)]

    @model_validator(mode="after")
    def _dates(self) -> StageConfig:
        if self.ends_on < self.starts_on:
            raise ValueError(f"ends_on {self.ends_on} is before starts_on {self.starts_on}")
        if (self.entry == "qualification") != (self.fed_by is not None):
            raise ValueError("fed_by is required exactly when entry is 'qualification'")
        return self


class EventFields(_Model):
    """EVT-1..7: one event's fields and lookups, not yet cross-checked (``event.EventConfig`` is)."""

    schema_version: Literal[1] = 1
    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$")]
    name: str
    name_zh: str | None = None
    #: issue 28: who holds the event (the regulation's 主办单位) and where it is played (its
    #: 竞赛地点), for the public pages; None: the regulation leaves it to be announced
    organiser: str | None = None
    organiser_zh: str | None = None
    venue: str | None = None
    venue_zh: str | None = None
    timezone: str = "Asia/Shanghai"
    registration: RegistrationWindow
    waiting_list: bool = False
    units: UnitRules
    changes: ChangeRules
    insurance: InsuranceRules
    check_in: CheckInConfig = CheckInConfig()
    #: REG-14, REG-15, AWD-10: fee items, the ledger's validity rule and refunds
    fees: FeeRules = FeeRules()
    #: REG-17: the residency regions the clauses name, with their accepted spellings
    regions: list[RegionConfig] = []
    eligibility: list[EligibilityClause] = []
    #: AWD-10: appeals to the arbitration committee (fee, committee); default: no fee
    appeals: AppealRules = AppealRules()
    #: AWD-9: the honorary awards the organiser gives (none unless the regulation names some)
    honours: list[HonourConfig] = []
    #: issue 32: whether the games count for the federation's ratings (default: not rated)
    ratings: RatingSettings = RatingSettings()
    #: issue 32: the event's level (市级/省级/全国), as a later event's wildcard clause weighs a
    #: place in it (SZ 六(4): city top 3, provincial top 8, national top 25); None: not said
    level: Literal["city", "provincial", "national"] | None = None
    stages: Annotated[list[StageConfig], Field(min_length=1)]
    #: EVT-7: arrival, technical meeting and round start times per stage and section
    schedule: EventSchedule = EventSchedule()

    # ---- lookups used by every service

    def section(self, section_id: str) -> SectionConfig:
        for stage in self.stages:
            for section in stage.sections:
                if section.id == section_id:
                    return section
        raise KeyError(section_id)

    def stage(self, stage_id: str) -> StageConfig:
        for stage in self.stages:
            if stage.id == stage_id:
                return stage
        raise KeyError(stage_id)

    def stage_of(self, section_id: str) -> StageConfig:
        for stage in self.stages:
            if any(s.id == section_id for s in stage.sections):
                return stage
        raise KeyError(section_id)

    def clause(self, clause_id: str) -> EligibilityClause:
        for clause in self.eligibility:
            if clause.id == clause_id:
                return clause
        raise KeyError(clause_id)

    def region(self, written: str) -> RegionConfig | None:
        """The configured region written as `written` (any accepted spelling), if any."""
        return next((r for r in self.regions if r.matches(written)), None)

    def same_region(self, required: str, written: str | None) -> bool:
        """REG-17: does a place as written (evidence, unit) lie in the required region?
        Configured regions accept all their spellings; other names compare normalised."""
        if written is None:
            return False
        region = self.region(required)
        if region is not None:
            return region.matches(written)
        return place_key(required) == place_key(written)

    def appeal_terms(self) -> dict[str, Any]:
        """AWD-10: what an appeal needs, as pairing receives it with section.closed: the fee is
        the fees' per_appeal item (NY 十(四): 50000 fen, refunded if upheld; 0 without one)."""
        item = self.fees.appeal_item
        return {
            "accepted": self.appeals.accepted,
            "fee_fen": (item.amount_fen or 0) if item is not None else 0,
            "currency": self.fees.currency,
            "refund_if_upheld": item.refundable_if_upheld if item is not None else True,
            "window_minutes": self.appeals.window_minutes,
            "signatories": list(self.appeals.signatories),
        }

    def honour(self, kind: str) -> HonourConfig | None:
        return next((h for h in self.honours if h.kind == kind), None)

    def section_start(self, section_id: str) -> date:
        section = self.section(section_id)
        return section.starts_on or self.stage_of(section_id).starts_on

    @property
    def starts_on(self) -> date:
        return min(s.starts_on for s in self.stages)

    def team_sections(self, stage_id: str | None = None) -> list[SectionConfig]:
        stages = [self.stage(stage_id)] if stage_id else self.stages
        return [s for st in stages for s in st.sections if s.kind == "team"]
