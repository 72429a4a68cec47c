"""Event configuration: everything that varies from one event to the next (EVT-1..EVT-7).

An event is described by one `EventConfig` (normally a preset file plus overrides). Nothing
here does I/O except `load_preset(path)`; the `event.configured` and `section.closed` events
carry these models, so the module lives in the shared contracts package.

Conventions (Decisions, documented once here):
- Datetimes in a preset must carry their UTC offset; the event's `timezone` names the zone
  they are judged in (Asia/Shanghai for the seeds) and each offset is checked against it.
- `registration.closes_at` is *exclusive*: an application whose complete materials arrive at
  `t` is in time iff `opens_at <= t < closes_at` ("8月11日24:00前" -> 08-12T00:00+08:00).
- Birth-date windows are inclusive on both ends; `None` means unbounded.
- Change freeze: from 00:00 local of (stage start date - freeze_days) no change is accepted.
- Section ids are unique across the whole event (they travel alone in events).
- Schedule (EVT-7): round start times are datetimes with offsets like every other time; a
  round's games start at its slot's time, or at publication when the previous round ends later.

Validation errors name the file (if any), the path (e.g. `stages[0].sections[2].clock.increment_s`)
and the problem: see `EventConfigError`.
"""

from __future__ import annotations

# The configuration is a package by bounded context (play, registration, awards) plus the
# aggregate (its fields in event_fields, validated as event.EventConfig), its cross-checks
# (validation, schedule_checks: they read event_fields, so nothing imports back) and loading;
# this module re-exports it all so `from gomoku_shared.event_config import X` keeps working.
from .appeals import AppealRules, ArbitrationCommittee, HonourConfig, HonourKind, Signatory
from .awards import (
    AwardsConfig,
    BestBoardAward,
    PlaceAward,
    PlacesByField,
    PrizeTable,
    RatingBand,
    RatingSettings,
    TeamScoring,
    TitleBand,
    TrainingSquad,
)
from .base import FormatKind, Gender, GenderRule, IndividualTiebreak, RuleTrack, SectionKind, TeamTiebreak
from .errors import ConfigIssue, EventConfigError
from .event import EventConfig, SectionConfig, StageConfig
from .fees import FeeBasis, FeeItem, FeeRules, OptionalService
from .loading import apply_overrides, deep_merge, load_preset, parse_event_config, strip_extension_keys
from .play import (
    ClockConfig,
    FormatConfig,
    OpeningConfig,
    PlayoffConfig,
    PlayoffStage,
    ScoringConfig,
    TeamMatchConfig,
    TwoGameRound,
)
from .registration import (
    BirthWindow,
    ChangeRules,
    CheckInConfig,
    ClosingRules,
    EligibilityClause,
    InsuranceRules,
    PendingEvidence,
    PublicDelegations,
    QualificationRule,
    QuotaExemption,
    RegionConfig,
    RegistrationWindow,
    ResidencyOption,
    SeededSource,
    TeamComposition,
    UnitRules,
    grade_rank,
    place_key,
)
from .schedule import EventSchedule, StageSchedule, TimeSlot

__all__ = [
    "AppealRules",
    "ArbitrationCommittee",
    "AwardsConfig",
    "RatingBand",
    "RatingSettings",
    "BestBoardAward",
    "BirthWindow",
    "ChangeRules",
    "CheckInConfig",
    "ClockConfig",
    "ClosingRules",
    "ConfigIssue",
    "EligibilityClause",
    "EventConfig",
    "EventConfigError",
    "FeeBasis",
    "FeeItem",
    "OptionalService",
    "PublicDelegations",
    "FeeRules",
    "EventSchedule",
    "FormatConfig",
    "Gender",
    "HonourConfig",
    "HonourKind",
    "InsuranceRules",
    "OpeningConfig",
    "PlaceAward",
    "PlayoffConfig",
    "PendingEvidence",
    "PlayoffStage",
    "PrizeTable",
    "QualificationRule",
    "QuotaExemption",
    "RegionConfig",
    "RegistrationWindow",
    "ResidencyOption",
    "ScoringConfig",
    "SectionConfig",
    "SeededSource",
    "Signatory",
    "StageConfig",
    "StageSchedule",
    "TeamComposition",
    "TeamMatchConfig",
    "TeamScoring",
    "TimeSlot",
    "TitleBand",
    "TwoGameRound",
    "UnitRules",
    "apply_overrides",
    "deep_merge",
    "grade_rank",
    "load_preset",
    "parse_event_config",
    "place_key",
    "strip_extension_keys",
]
