"""Event configuration: everything that varies from one event to the next (EVT-1..EVT-6).

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

Validation errors name the file (if any), the path (e.g. `stages[0].sections[2].clock.increment_s`)
and the problem: see `EventConfigError`.
"""
from __future__ import annotations

import json
import unicodedata
from collections.abc import Mapping
from datetime import date, datetime
from pathlib import Path
from typing import Annotated, Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

__all__ = [
    "AwardsConfig", "BestBoardAward", "BirthWindow", "ChangeRules", "CheckInConfig", "ClockConfig",
    "ClosingRules", "ConfigIssue", "EligibilityClause", "EventConfig", "EventConfigError",
    "FormatConfig", "Gender", "InsuranceRules", "OpeningConfig", "PlaceAward", "PlayoffConfig",
    "PendingEvidence", "PlayoffStage", "PrizeTable", "QualificationRule", "RegionConfig",
    "RegistrationWindow", "ResidencyOption",
    "ScoringConfig", "SectionConfig", "SeededSource", "StageConfig", "TeamComposition",
    "TeamMatchConfig", "TeamScoring", "TitleBand", "TwoGameRound", "UnitRules",
    "apply_overrides", "deep_merge", "grade_rank", "load_preset", "parse_event_config", "place_key",
    "strip_extension_keys",
]

Gender = Literal["male", "female"]
GenderRule = Literal["male", "female", "mixed"]
RuleTrack = Literal["free", "professional"]
SectionKind = Literal["individual", "team"]
FormatKind = Literal["swiss", "round_robin"]

#: tiebreak criteria known to the pairing service (PAIR-7 individual, PAIR-10 team)
IndividualTiebreak = Literal[
    "points",            # 大分 / 积分
    "buchholz",          # 小分 (SZ online) / 对手分: sum of opponents' points
    "buchholz_of_buchholz",  # 小小分: sum of opponents' buchholz
    "median_buchholz",   # 中间对手分: buchholz without highest and lowest
    "sonneborn_berger",  # round-robin 小分 (Decision in PAIR-7)
    "wins",              # 胜局
]
TeamTiebreak = Literal[
    "match_points", "opp_match_points", "median_opp_match_points", "total_game_points",
    "sonneborn_berger_match", "board_1_points", "board_2_points", "board_3_points",
]


class _Model(BaseModel):
    # Presets are strict (typos in a preset must fail loudly) and configs are values.
    model_config = ConfigDict(extra="forbid", frozen=True)


# --------------------------------------------------------------------------- time / ages

class BirthWindow(_Model):
    """REG-4: inclusive birth-date window; None = unbounded."""

    born_from: date | None = None
    born_to: date | None = None

    @model_validator(mode="after")
    def _ordered(self) -> BirthWindow:
        if self.born_from and self.born_to and self.born_from > self.born_to:
            raise ValueError(f"born_from {self.born_from} is after born_to {self.born_to}")
        return self

    def contains(self, birth_date: date) -> bool:
        return (self.born_from is None or birth_date >= self.born_from) and (
            self.born_to is None or birth_date <= self.born_to)


# --------------------------------------------------------------------------- play rules

class ClockConfig(_Model):
    """PLAY-5: sudden death (包干) or Fischer (每走一步加N秒). Seconds per player per game."""

    mode: Literal["sudden_death", "fischer"]
    base_s: Annotated[int, Field(gt=0)]
    increment_s: Annotated[int, Field(ge=0)] = 0

    @model_validator(mode="after")
    def _increment_matches_mode(self) -> ClockConfig:
        if self.mode == "sudden_death" and self.increment_s != 0:
            raise ValueError("increment_s must be 0 for a sudden_death clock")
        if self.mode == "fischer" and self.increment_s <= 0:
            raise ValueError("increment_s must be > 0 for a fischer clock")
        return self


class TwoGameRound(_Model):
    """PAIR-5 / PLAY-6: a round of two games, each player moving first once."""

    #: the player allotted the first move in game 1 plays black (DA: 先手方执黑); game 2 swaps
    first_mover_plays_black: bool = True
    game2_swaps_first_move: bool = True
    #: SZ: 30 min per player for the pair of games (15 per game): the shared budget, if any
    round_budget_s: Annotated[int, Field(gt=0)] | None = None
    #: PLAY-6 (SZ): a time loss in game 1 loses the whole round
    time_loss_in_game1_loses_round: bool = False


class FormatConfig(_Model):
    """PAIR-1: Swiss or round robin, fixed or chosen by the number of entries."""

    allowed: Annotated[list[FormatKind], Field(min_length=1)]
    #: fixed: allowed has one kind; by_entries: round robin up to round_robin_max_entries;
    #: arbiter: the chief arbiter chooses at closing (the seeds mostly say "视参赛人数而定")
    choice: Literal["fixed", "by_entries", "arbiter"] = "fixed"
    round_robin_max_entries: Annotated[int, Field(ge=2)] | None = None
    #: Swiss rounds when the seed fixes them (SZ online free 7 / pro 5); None = by entries
    rounds: Annotated[int, Field(ge=1)] | None = None
    max_rounds: Annotated[int, Field(ge=1)] | None = None
    games_per_round: Literal[1, 2] = 1
    two_game: TwoGameRound | None = None

    @model_validator(mode="after")
    def _consistent(self) -> FormatConfig:
        if len(set(self.allowed)) != len(self.allowed):
            raise ValueError("allowed lists a format twice")
        if self.choice == "fixed" and len(self.allowed) != 1:
            raise ValueError("choice 'fixed' needs exactly one allowed format")
        if self.choice == "by_entries":
            if set(self.allowed) != {"swiss", "round_robin"}:
                raise ValueError("choice 'by_entries' needs allowed = [swiss, round_robin]")
            if self.round_robin_max_entries is None:
                raise ValueError("choice 'by_entries' needs round_robin_max_entries")
        if (self.games_per_round == 2) != (self.two_game is not None):
            raise ValueError("two_game must be given exactly when games_per_round is 2")
        if self.rounds and self.max_rounds and self.rounds > self.max_rounds:
            raise ValueError(f"rounds {self.rounds} exceeds max_rounds {self.max_rounds}")
        return self


class OpeningConfig(_Model):
    """PLAY-1..3: free opening (自由开局) or designated opening (指定开局, RIF/China 2013)."""

    rule: Literal["free", "designated"]
    swap_after_three: bool = False
    #: N of 五手N打 fixed by the section (NY: 2); None = declared by tentative black
    fifth_move_offers: Annotated[int, Field(ge=1)] | None = None
    forbidden_moves_for_black: bool = False
    forbidden_move_policy: Literal["loss", "reject"] = "loss"
    #: free rules: six or more also wins (PLAY-1 Decision); False = exactly five
    overline_wins: bool = True

    @model_validator(mode="after")
    def _consistent(self) -> OpeningConfig:
        if self.rule == "free" and (self.swap_after_three or self.fifth_move_offers):
            raise ValueError("a free opening has no swap or fifth-move offers")
        if self.forbidden_moves_for_black and self.overline_wins:
            raise ValueError("overline_wins must be false when black has forbidden moves")
        return self


class ScoringConfig(_Model):
    """PAIR-4 game points; PAIR-9 match points (required for team matches)."""

    win: int
    draw: int
    loss: int
    match_win: int | None = None
    match_draw: int | None = None
    match_loss: int | None = None

    @model_validator(mode="after")
    def _ordered(self) -> ScoringConfig:
        if not (self.win > self.draw >= self.loss):
            raise ValueError("points must satisfy win > draw >= loss")
        match = (self.match_win, self.match_draw, self.match_loss)
        if any(m is not None for m in match):
            if any(m is None for m in match):
                raise ValueError("give all of match_win, match_draw, match_loss or none")
            if not (self.match_win > self.match_draw >= self.match_loss):
                raise ValueError("match points must satisfy win > draw >= loss")
        return self


class TeamMatchConfig(_Model):
    """PAIR-9: boards per match and which boards the first-listed team plays black on."""

    boards: Annotated[int, Field(ge=1)]
    first_team_black_on_boards: list[int]

    @model_validator(mode="after")
    def _boards_exist(self) -> TeamMatchConfig:
        bad = [b for b in self.first_team_black_on_boards if not 1 <= b <= self.boards]
        if bad:
            raise ValueError(f"first_team_black_on_boards has boards outside 1..{self.boards}: {bad}")
        return self


class PlayoffStage(_Model):
    games: Annotated[int, Field(ge=1)]
    clock: ClockConfig
    #: repeat single games until one is won (PLAY-PLAYOFF second phase)
    repeat_until_decided: bool = False


class PlayoffConfig(_Model):
    """PAIR-8 / PLAY-PLAYOFF."""

    #: playoff: play it; arbiter_decision: flag the tie for the arbiter (SZ online); shared: never
    policy: Literal["playoff", "arbiter_decision", "shared"]
    #: ties touching places 1..N are resolved (NY: medals only = 3); None = every awarded place
    places: Annotated[int, Field(ge=1)] | None = None
    #: ties at a qualification cut are also resolved
    qualification_cut: bool = True
    #: individual: the tied players; board_1: the teams' board-1 players (NT)
    played_by: Literal["individual", "board_1"] = "individual"
    stages: list[PlayoffStage] = []

    @model_validator(mode="after")
    def _stages_when_played(self) -> PlayoffConfig:
        if self.policy == "playoff" and not self.stages:
            raise ValueError("policy 'playoff' needs at least one playoff stage")
        return self


# --------------------------------------------------------------------------- teams

class TeamComposition(_Model):
    """REG-9: who may form a team, and the board order."""

    size_min: Annotated[int, Field(ge=1)]
    #: None = no upper limit (SZ: a unit's whole squad; the score picks the best)
    size_max: Annotated[int, Field(ge=1)] | None = None
    male_min: int = 0
    male_max: int | None = None
    female_min: int = 0
    female_max: int | None = None
    #: board order declared at registration and never changed (NT)
    fixed_board_order: bool = False
    #: board number -> required gender (NT mixed team: {3: female})
    board_gender: dict[int, Gender] = {}
    #: the team is scored from its members' individual results (SZ, NY) rather than playing
    scored_from_individual_sections: list[str] = []

    @model_validator(mode="after")
    def _consistent(self) -> TeamComposition:
        if self.size_max is not None and self.size_min > self.size_max:
            raise ValueError(f"size_min {self.size_min} > size_max {self.size_max}")
        for lo, hi, what in ((self.male_min, self.male_max, "male"),
                             (self.female_min, self.female_max, "female")):
            if hi is not None and lo > hi:
                raise ValueError(f"{what}_min {lo} > {what}_max {hi}")
        if self.size_max is not None and self.male_min + self.female_min > self.size_max:
            raise ValueError("male_min + female_min exceeds size_max")
        if self.board_gender and self.size_max is None:
            raise ValueError("board_gender needs size_max")
        bad = [b for b in self.board_gender if self.size_max and not 1 <= b <= self.size_max]
        if bad:
            raise ValueError(f"board_gender names boards outside 1..{self.size_max}: {bad}")
        if self.board_gender and not self.fixed_board_order:
            raise ValueError("board_gender needs fixed_board_order")
        return self


class TeamScoring(_Model):
    """AWD-6: a unit's team score computed from individual results."""

    #: individual section ids whose results count (SZ: final men + women)
    source_sections: Annotated[list[str], Field(min_length=1)]
    picks: dict[Gender, Annotated[int, Field(ge=1)]]
    #: place_sum: lower is better (SZ); points_sum: higher is better (NY)
    metric: Literal["place_sum", "points_sum"]
    #: criteria after the metric: best_single_place (SZ), place_sum, male_place (NY)
    tiebreaks: list[Literal["best_single_place", "place_sum", "male_place"]] = []
    #: units without the full complement get no team score
    requires_full_complement: bool = True


# --------------------------------------------------------------------------- eligibility

class ResidencyOption(_Model):
    """One way to satisfy a residency/representation clause (REG-6, REG-8)."""

    kind: Literal[
        "household",                 # 户籍
        "residence_permit",          # 居住证 (+ social insurance months / issued before a date)
        "student_status",            # 学籍
        "wildcard",                  # 外卡 (REG-6 (4))
        "registered_athlete",        # REG-8: represents the registering unit
        "employment",                # REG-8: industry association employees
    ]
    #: residence_permit: minimum consecutive months of social insurance in the region
    min_consecutive_insurance_months: Annotated[int, Field(ge=1)] | None = None
    #: residence_permit: permit must be dated strictly before this date (NT: 2022-06-01)
    permit_issued_before: date | None = None
    #: wildcard: best grade accepted, e.g. "3k" (3rd kyu or better); "1d" = 1 dan
    min_grade: str | None = None
    #: wildcard: level -> worst place that counts (city 3, provincial 8, national 25)
    result_places: dict[Literal["city", "provincial", "national"], Annotated[int, Field(ge=1)]] = {}
    requires_citizenship: str | None = None
    requires_intent_to_represent: bool = False
    #: wildcard applications close on their own deadline (exclusive, like closes_at)
    deadline: datetime | None = None
    #: evidence for this option must be approved by an arbiter even in "declared" mode
    requires_approval: bool = False
    #: employment: minimum months employed (REG-8: 12); applies to units without annual registration
    min_employment_months: Annotated[int, Field(ge=1)] | None = None
    #: wildcard players must finish top N of a section of this track to keep a final place (REG-7)
    wildcard_track: RuleTrack | None = None
    wildcard_max_place: Annotated[int, Field(ge=1)] | None = None

    @model_validator(mode="after")
    def _consistent(self) -> ResidencyOption:
        if self.kind == "wildcard" and not (self.min_grade or self.result_places):
            raise ValueError("a wildcard option needs min_grade or result_places")
        if self.kind == "employment" and self.min_employment_months is None:
            raise ValueError("an employment option needs min_employment_months")
        if self.min_grade is not None:
            from_grade = _grade_rank(self.min_grade)
            if from_grade is None:
                raise ValueError(f"min_grade {self.min_grade!r} is not a grade like '3k' or '1d'")
        if self.deadline is not None and self.deadline.tzinfo is None:
            raise ValueError("deadline needs a UTC offset")
        return self


class PendingEvidence(_Model):
    """A `declared` clause admits on evidence not yet approved (REG-18): by when it must be
    approved, and what happens otherwise. Shown with every entry admitted that way."""

    #: the evidence must be approved before this time (exclusive)
    approve_by: datetime
    #: next_stage_place_passes_on: a qualifier whose evidence is still unapproved loses the
    #: place in the next stage to the next eligible qualifier (SZ 八(四), REG-7)
    otherwise: Literal["next_stage_place_passes_on"]
    #: the consequence as the organiser words it (shown to registrants)
    note: str


class EligibilityClause(_Model):
    """A data-driven eligibility clause (REG-6, REG-7, REG-8); sections list the ids that apply.

    Age (REG-4) and gender (REG-5) come from the section itself and always apply.
    """

    id: str
    rule: str  # rule id for the decision record, e.g. "REG-6"
    kind: Literal["residency_any_of", "representation"]
    #: a region id of `EventConfig.regions` (or a plain name where the event lists none)
    region: str | None = None
    #: declared: facts + non-rejected evidence suffice; verified: approved evidence needed (REG-7)
    evidence: Literal["declared", "verified"] = "declared"
    #: declared clauses: the approval the admission still waits for (REG-18)
    pending_evidence: PendingEvidence | None = None
    options: Annotated[list[ResidencyOption], Field(min_length=1)]


def place_key(name: str) -> str:
    """A place name compared as people write it (REG-17): Unicode-normalised (full-width
    forms, compatibility characters), case-folded, without spaces and joining punctuation."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return "".join(ch for ch in folded if not ch.isspace() and ch not in "-_.·'’()（）")


class RegionConfig(_Model):
    """REG-17: a residency region and every name it is written under (Chinese, English, the
    areas it includes, e.g. 深圳市 含深汕特别合作区)."""

    id: str
    name: str
    name_zh: str | None = None
    #: other accepted spellings (the id, name and name_zh are accepted anyway)
    aliases: list[str] = []

    def names(self) -> list[str]:
        return [self.id, self.name, *([self.name_zh] if self.name_zh else []), *self.aliases]

    def matches(self, written: str | None) -> bool:
        return written is not None and place_key(written) in {place_key(n) for n in self.names()}


# --------------------------------------------------------------------------- closing / stages

class ClosingRules(_Model):
    """REG-12: merging and cancelling at the close of registration."""

    #: merge into merge_with when entries < merge_below (SZ free 8 / pro 6)
    merge_below: Annotated[int, Field(ge=1)] | None = None
    merge_with: str | None = None
    #: genders are ranked separately in a merged section
    rank_genders_separately: bool = True
    #: a section with at most this many entries that cannot be merged is cancelled (SZ: 4)
    cancel_at_most: Annotated[int, Field(ge=0)] | None = None

    @model_validator(mode="after")
    def _pair(self) -> ClosingRules:
        if (self.merge_below is None) != (self.merge_with is None):
            raise ValueError("merge_below and merge_with go together")
        return self


class QualificationRule(_Model):
    """AWD-QUAL: places that feed the next stage."""

    to_stage: str
    #: gender -> destination section id (merged sections send each gender to its own section)
    to_section: dict[Gender, str]
    top: Annotated[int, Field(ge=1)]
    #: ordered substitutes after the top places (SZ: places 5-8 -> 4)
    substitutes: Annotated[int, Field(ge=0)] = 0
    per_gender_when_merged: bool = True


class SeededSource(_Model):
    """Players seeded directly into a stage from another competition (SZ: 2022 Shenzhen Cup)."""

    name: str
    per_section: Annotated[int, Field(ge=1)]
    substitutes: Annotated[int, Field(ge=0)] = 0
    sections: list[str] = []  # empty = every section of the stage


# --------------------------------------------------------------------------- awards

class PlaceAward(_Model):
    from_place: Annotated[int, Field(ge=1)]
    to_place: Annotated[int, Field(ge=1)]
    items: Annotated[list[str], Field(min_length=1)]

    @model_validator(mode="after")
    def _ordered(self) -> PlaceAward:
        if self.from_place > self.to_place:
            raise ValueError(f"from_place {self.from_place} > to_place {self.to_place}")
        return self


class PlacesByField(_Model):
    """AWD-3: number of places awarded by field size (first band whose min_entries fits)."""

    min_entries: Annotated[int, Field(ge=0)]
    places: Annotated[int, Field(ge=1)]


class PrizeTable(_Model):
    """AWD-4: prize amounts by place (index 0 = 1st)."""

    id: str
    name: str
    currency: str = "CNY"
    amounts: Annotated[list[int], Field(min_length=1)]
    #: ranking among this gender only (women's prizes)
    gender: Gender | None = None
    #: 兼得: received in addition to a prize from another table
    combinable: bool = False
    non_increasing: bool = True
    before_tax: bool = True


class TitleBand(_Model):
    """AWD-5: title by place (DA junior)."""

    from_place: Annotated[int, Field(ge=1)]
    to_place: Annotated[int, Field(ge=1)]
    title: str


class BestBoardAward(_Model):
    """AWD-7: one award per board; eligibility by share of the board's games played."""

    min_participation_pct: Annotated[float, Field(gt=0, le=100)]
    order: list[Literal["score", "win_rate", "wins", "team_place"]]
    exclude_playoff_games: bool = True
    per_board: Annotated[int, Field(ge=1)]


class TrainingSquad(_Model):
    """AWD-QUAL (SZ): champion joins the squad, places 2..substitutes_to are squad substitutes."""

    members_to_place: Annotated[int, Field(ge=1)]
    substitutes_to_place: Annotated[int, Field(ge=1)]


class AwardsConfig(_Model):
    """AWD-1..7 for one section."""

    #: fixed number of places awarded; or by field size; None = no place awards (qualifier)
    places: Annotated[int, Field(ge=1)] | None = None
    places_by_field: list[PlacesByField] = []
    #: SZ teams: with fewer entries than `places`, award (entries - 1) places
    fewer_entries_award_entries_minus: Annotated[int, Field(ge=0)] | None = None
    place_items: list[PlaceAward] = []
    finisher_items: list[str] = []
    prizes: list[PrizeTable] = []
    titles: list[TitleBand] = []
    titles_carry_down: bool = False
    training_squad: TrainingSquad | None = None
    best_board: BestBoardAward | None = None


# --------------------------------------------------------------------------- sections

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


# --------------------------------------------------------------------------- event-level

class RegistrationWindow(_Model):
    """REG-1. closes_at is exclusive; opens_at None = open from publication."""

    opens_at: datetime | None = None
    closes_at: datetime
    #: items that make an application complete (entry_form, id_card, insurance, fee_payment...)
    required_items: list[str] = ["entry_form"]
    #: ID numbers are required on the form (NY: for the organiser's insurance)
    id_number_required: bool = True


class UnitRules(_Model):
    """REG-3."""

    individual_entries_allowed: bool = False
    max_leaders: Annotated[int, Field(ge=0)]
    max_coaches: Annotated[int, Field(ge=0)]
    #: NT: +1 coach for a unit entering every team section
    extra_coaches_if_all_team_sections: Annotated[int, Field(ge=0)] = 0
    #: NY: a delegation has at most 20 players; None = unlimited
    delegation_max_players: Annotated[int, Field(ge=1)] | None = None
    #: NY: previous year's top-N finishers are outside the quota; None = no exemption
    quota_exempt_previous_top: Annotated[int, Field(ge=1)] | None = None
    #: NY: the host delegation may exceed the quota with the organiser's approval
    host_may_exceed_quota: bool = False
    #: NT: a team without a leader must name a player as acting leader
    player_may_act_as_leader: bool = False


class ChangeRules(_Model):
    """REG-10."""

    #: no change at all from (start - freeze_days) 00:00 local
    freeze_days: Annotated[int, Field(ge=0)]
    #: approval needed after the close (digest) or from submission (NY/DA/NT seeds)
    approval_required_from: Literal["submission", "close"] = "close"
    withdrawal_requires_reason: bool = True
    withdrawal_requires_proof: bool = False


class InsuranceRules(_Model):
    """REG-13."""

    required: bool = True
    provided_by: Literal["participant", "organiser"] = "participant"
    verified_at: Literal["registration", "check_in"] = "registration"
    #: NT: the policy must cover these dates
    cover_from: date | None = None
    cover_to: date | None = None


class CheckInConfig(_Model):
    """REG-11."""

    deadline: datetime | None = None
    documents: list[str] = []


class EventConfig(_Model):
    """EVT-1..6: one event; see module docstring for conventions."""

    schema_version: Literal[1] = 1
    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$")]
    name: str
    name_zh: str | None = None
    timezone: str = "Asia/Shanghai"
    registration: RegistrationWindow
    waiting_list: bool = False
    units: UnitRules
    changes: ChangeRules
    insurance: InsuranceRules
    check_in: CheckInConfig = CheckInConfig()
    #: REG-17: the residency regions the clauses name, with their accepted spellings
    regions: list[RegionConfig] = []
    eligibility: list[EligibilityClause] = []
    stages: Annotated[list[StageConfig], Field(min_length=1)]

    @model_validator(mode="after")
    def _cross_checks(self) -> EventConfig:
        issues = _cross_check(self)
        if issues:
            raise _CrossCheckFailed(issues)
        return self

    # ---- lookups used by every service

    def section(self, section_id: str) -> SectionConfig:
        for stage in self.stages:
            for s in stage.sections:
                if s.id == section_id:
                    return s
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
        for c in self.eligibility:
            if c.id == clause_id:
                return c
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

    def section_start(self, section_id: str) -> date:
        s = self.section(section_id)
        return s.starts_on or self.stage_of(section_id).starts_on

    @property
    def starts_on(self) -> date:
        return min(s.starts_on for s in self.stages)

    def team_sections(self, stage_id: str | None = None) -> list[SectionConfig]:
        stages = [self.stage(stage_id)] if stage_id else self.stages
        return [s for st in stages for s in st.sections if s.kind == "team"]


# --------------------------------------------------------------------------- grades

def _grade_rank(grade: str) -> int | None:
    """'3k' -> -3, '1d' -> 101: higher is better. Accepts '3k', '3kyu', '1d', '1dan'."""
    g = grade.strip().lower().replace("-", "").replace(" ", "")
    for suffix, sign in (("kyu", -1), ("k", -1), ("dan", 1), ("d", 1)):
        if g.endswith(suffix) and g[: -len(suffix)].isdigit():
            n = int(g[: -len(suffix)])
            if n < 1:
                return None
            return -n if sign < 0 else 100 + n
    return None


grade_rank = _grade_rank


# --------------------------------------------------------------------------- errors

class ConfigIssue(NamedTuple):
    path: str
    message: str


class _CrossCheckFailed(ValueError):
    def __init__(self, issues: list[ConfigIssue]):
        super().__init__("; ".join(f"{p}: {m}" for p, m in issues))
        self.issues = issues


class EventConfigError(ValueError):
    """Raised by `parse_event_config` / `load_preset`: names the file, each path and problem."""

    def __init__(self, issues: list[ConfigIssue], source: str | None = None):
        self.issues = issues
        self.source = source
        head = f"invalid event configuration{f' in {source}' if source else ''}"
        super().__init__(head + ":\n" + "\n".join(f"  {p or '<root>'}: {m}" for p, m in issues))


def _loc_to_path(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def _issues_from(exc: ValidationError) -> list[ConfigIssue]:
    issues: list[ConfigIssue] = []
    for err in exc.errors():
        cause = (err.get("ctx") or {}).get("error")
        if isinstance(cause, _CrossCheckFailed):
            issues.extend(cause.issues)
            continue
        msg = err["msg"]
        if msg.startswith("Value error, "):
            msg = msg[len("Value error, "):]
        issues.append(ConfigIssue(_loc_to_path(tuple(err["loc"])), msg))
    return issues


# --------------------------------------------------------------------------- cross checks

def _check_tz(path: str, value: datetime | None, tz_name: str, issues: list[ConfigIssue]) -> None:
    if value is None:
        return
    if value.tzinfo is None:
        issues.append(ConfigIssue(path, "datetime needs a UTC offset"))
        return
    try:
        from zoneinfo import ZoneInfo
        zone = ZoneInfo(tz_name)
    except Exception:  # unknown zone is reported once by the caller
        return
    if value.utcoffset() != value.astimezone(zone).utcoffset():
        issues.append(ConfigIssue(path, f"offset {value.utcoffset()} does not match timezone {tz_name}"))


def _cross_check(ev: EventConfig) -> list[ConfigIssue]:
    issues: list[ConfigIssue] = []
    add = lambda p, m: issues.append(ConfigIssue(p, m))  # noqa: E731

    try:
        from zoneinfo import ZoneInfo
        ZoneInfo(ev.timezone)
    except Exception:
        add("timezone", f"unknown timezone {ev.timezone!r}")

    reg = ev.registration
    _check_tz("registration.opens_at", reg.opens_at, ev.timezone, issues)
    _check_tz("registration.closes_at", reg.closes_at, ev.timezone, issues)
    _check_tz("check_in.deadline", ev.check_in.deadline, ev.timezone, issues)
    if reg.opens_at and reg.closes_at.tzinfo and reg.opens_at.tzinfo and reg.opens_at >= reg.closes_at:
        add("registration.opens_at", "must be before registration.closes_at")
    if ev.insurance.cover_from and ev.insurance.cover_to and ev.insurance.cover_from > ev.insurance.cover_to:
        add("insurance.cover_from", "is after insurance.cover_to")

    clause_ids: dict[str, int] = {}
    for i, c in enumerate(ev.eligibility):
        if c.id in clause_ids:
            add(f"eligibility[{i}].id", f"duplicate clause id {c.id!r}")
        clause_ids[c.id] = i
        for j, opt in enumerate(c.options):
            _check_tz(f"eligibility[{i}].options[{j}].deadline", opt.deadline, ev.timezone, issues)
        if c.pending_evidence is not None:
            _check_tz(f"eligibility[{i}].pending_evidence.approve_by", c.pending_evidence.approve_by,
                      ev.timezone, issues)
            if c.evidence != "declared":
                add(f"eligibility[{i}].pending_evidence", "only a declared clause admits on pending evidence")
        if ev.regions and c.region is not None and ev.region(c.region) is None:
            add(f"eligibility[{i}].region", f"unknown region {c.region!r} (regions: "
                f"{', '.join(r.id for r in ev.regions)})")

    spelled: dict[str, str] = {}
    for i, r in enumerate(ev.regions):
        for n in r.names():
            k = place_key(n)
            if not k:
                add(f"regions[{i}]", f"empty place name {n!r}")
            elif spelled.setdefault(k, r.id) != r.id:
                add(f"regions[{i}]", f"{n!r} names both {spelled[k]!r} and {r.id!r}")

    stage_ids: dict[str, int] = {}
    for si, st in enumerate(ev.stages):
        if st.id in stage_ids:
            add(f"stages[{si}].id", f"duplicate stage id {st.id!r}")
        stage_ids[st.id] = si

    # section ids are event-wide unique
    where: dict[str, tuple[int, int]] = {}
    for si, st in enumerate(ev.stages):
        for xi, sec in enumerate(st.sections):
            if sec.id in where:
                add(f"stages[{si}].sections[{xi}].id", f"duplicate section id {sec.id!r}")
            else:
                where[sec.id] = (si, xi)

    for si, st in enumerate(ev.stages):
        sp = f"stages[{si}]"
        if st.fed_by is not None:
            if st.fed_by not in stage_ids:
                add(f"{sp}.fed_by", f"unknown stage {st.fed_by!r}")
            elif stage_ids[st.fed_by] >= si:
                add(f"{sp}.fed_by", f"stage {st.fed_by!r} must come before {st.id!r}")
        for k, seed in enumerate(st.seeded):
            for sid in seed.sections:
                if where.get(sid, (None,))[0] != si:
                    add(f"{sp}.seeded[{k}].sections", f"unknown section {sid!r} in stage {st.id!r}")
        local = {s.id: s for s in st.sections}
        for xi, sec in enumerate(st.sections):
            p = f"{sp}.sections[{xi}]"
            _check_section(ev, st, sec, p, local, clause_ids, stage_ids, where, add)
    return issues


def _check_section(ev, st, sec, p, local, clause_ids, stage_ids, where, add) -> None:  # noqa: C901
    if sec.starts_on and not (st.starts_on <= sec.starts_on <= st.ends_on):
        add(f"{p}.starts_on", f"{sec.starts_on} is outside the stage {st.starts_on}..{st.ends_on}")
    for k, cid in enumerate(sec.eligibility):
        if cid not in clause_ids:
            add(f"{p}.eligibility[{k}]", f"unknown eligibility clause {cid!r}")
    # team shape
    if sec.kind == "team":
        if sec.team is None:
            add(f"{p}.team", "a team section needs a team composition")
        if sec.team_match is None and sec.team_scoring is None:
            add(p, "a team section needs team_match (played) or team_scoring (from individual results)")
        if sec.team and sec.gender in ("male", "female"):
            other = "female" if sec.gender == "male" else "male"
            if getattr(sec.team, f"{other}_min") > 0:
                add(f"{p}.team.{other}_min", f"a {sec.gender} section cannot require {other} players")
        if sec.team_match and sec.team and sec.team_match.boards != sec.team.size_max:
            add(f"{p}.team_match.boards", f"{sec.team_match.boards} boards but teams of up to {sec.team.size_max}")
    else:
        for f in ("team", "team_match", "team_scoring"):
            if getattr(sec, f) is not None:
                add(f"{p}.{f}", "only team sections have this")
    if sec.team_scoring:
        for k, src in enumerate(sec.team_scoring.source_sections):
            if src not in where:
                add(f"{p}.team_scoring.source_sections[{k}]", f"unknown section {src!r}")
            elif ev.section(src).kind != "individual":
                add(f"{p}.team_scoring.source_sections[{k}]", f"{src!r} is not an individual section")
    # played sections need play rules
    if sec.played:
        for f in ("format", "clock", "opening", "scoring", "no_show_minutes"):
            if getattr(sec, f) is None:
                add(f"{p}.{f}", "required for a section that plays games")
        if sec.team_match and sec.scoring and sec.scoring.match_win is None:
            add(f"{p}.scoring", "team matches need match_win, match_draw, match_loss (PAIR-9)")
        if sec.format:
            for fk in sec.format.allowed:
                if fk not in sec.tiebreaks:
                    add(f"{p}.tiebreaks", f"no tiebreak order for format {fk!r}")
        if sec.format and sec.format.games_per_round == 2 and sec.kind == "team":
            add(f"{p}.format.games_per_round", "two-game rounds are for individual sections")
    allowed = set(IndividualTiebreak.__args__) if sec.kind == "individual" else set(TeamTiebreak.__args__)
    for fk, order in sec.tiebreaks.items():
        if not order:
            add(f"{p}.tiebreaks.{fk}", "empty tiebreak order")
        for k, name in enumerate(order):
            if name not in allowed:
                add(f"{p}.tiebreaks.{fk}[{k}]", f"unknown {sec.kind} tiebreak {name!r}")
        if len(set(order)) != len(order):
            add(f"{p}.tiebreaks.{fk}", "a criterion is listed twice")
    # gender rule vs birth window are independent; merging
    cl = sec.closing
    if cl.merge_with is not None:
        partner = local.get(cl.merge_with)
        if partner is None:
            add(f"{p}.closing.merge_with", f"unknown section {cl.merge_with!r} in stage {st.id!r}")
        elif partner.id == sec.id:
            add(f"{p}.closing.merge_with", "a section cannot merge with itself")
        else:
            if partner.track != sec.track:
                add(f"{p}.closing.merge_with", f"partner {partner.id!r} is on another rule track")
            if partner.kind != sec.kind:
                add(f"{p}.closing.merge_with", f"partner {partner.id!r} is of another kind")
            if partner.birth != sec.birth:
                add(f"{p}.closing.merge_with", f"partner {partner.id!r} has another age window")
            if partner.closing.merge_with != sec.id:
                add(f"{p}.closing.merge_with",
                    f"partner {partner.id!r} must name {sec.id!r} as its merge_with (merging is mutual)")
    # awards
    aw = sec.awards
    if aw.places is not None and aw.places_by_field:
        add(f"{p}.awards", "give places or places_by_field, not both")
    bands = [b.min_entries for b in aw.places_by_field]
    if bands != sorted(bands, reverse=True):
        add(f"{p}.awards.places_by_field", "bands must be ordered by min_entries, largest first")
    max_places = aw.places or max((b.places for b in aw.places_by_field), default=None)
    covered: set[int] = set()
    for k, pa in enumerate(aw.place_items):
        rng = set(range(pa.from_place, pa.to_place + 1))
        if rng & covered:
            add(f"{p}.awards.place_items[{k}]", "overlaps an earlier band")
        covered |= rng
        if max_places is not None and pa.to_place > max_places:
            add(f"{p}.awards.place_items[{k}].to_place", f"beyond the {max_places} places awarded")
    ids: set[str] = set()
    for k, pt in enumerate(aw.prizes):
        if pt.id in ids:
            add(f"{p}.awards.prizes[{k}].id", f"duplicate prize table {pt.id!r}")
        ids.add(pt.id)
        if pt.non_increasing and any(a < b for a, b in zip(pt.amounts, pt.amounts[1:])):
            add(f"{p}.awards.prizes[{k}].amounts", "must be non-increasing by place")
        if any(a < 0 for a in pt.amounts):
            add(f"{p}.awards.prizes[{k}].amounts", "amounts must be >= 0")
        if pt.gender and sec.gender != "mixed" and pt.gender != sec.gender:
            add(f"{p}.awards.prizes[{k}].gender", f"a {sec.gender} section has no {pt.gender} ranking")
    last = 0
    for k, tb in enumerate(aw.titles):
        if tb.from_place != last + 1 or tb.to_place < tb.from_place:
            add(f"{p}.awards.titles[{k}]", f"bands must be contiguous from place 1 (expected from_place {last + 1})")
        last = tb.to_place
    if aw.best_board and sec.kind != "team":
        add(f"{p}.awards.best_board", "best-board awards are for team sections")
    # qualification
    q = sec.qualification
    if q is not None:
        if q.to_stage not in stage_ids:
            add(f"{p}.qualification.to_stage", f"unknown stage {q.to_stage!r}")
        else:
            target = ev.stages[stage_ids[q.to_stage]]
            if target.fed_by != st.id:
                add(f"{p}.qualification.to_stage", f"stage {q.to_stage!r} is not fed by {st.id!r}")
            tids = {s.id for s in target.sections}
            for g, sid in q.to_section.items():
                if sid not in tids:
                    add(f"{p}.qualification.to_section.{g}", f"unknown section {sid!r} in stage {q.to_stage!r}")
        genders = {"male", "female"} if sec.gender == "mixed" or cl.merge_with else {sec.gender}
        missing = genders - set(q.to_section)
        if missing:
            add(f"{p}.qualification.to_section", f"no destination for {sorted(missing)}")


# --------------------------------------------------------------------------- parse / overrides

def parse_event_config(data: Mapping[str, Any], source: str | None = None) -> EventConfig:
    """Validate a dict into an EventConfig; raise EventConfigError naming source and paths."""
    try:
        return EventConfig.model_validate(data)
    except ValidationError as exc:
        raise EventConfigError(_issues_from(exc), source) from None


def deep_merge(base: Any, overrides: Any) -> Any:
    """Merge overrides into base (neither is modified).

    dict into dict merges by key; a dict into a list of dicts with `id` merges by id
    (e.g. `{"sections": {"men-free": {"cap": 8}}}`); anything else replaces.
    """
    if isinstance(base, Mapping) and isinstance(overrides, Mapping):
        out = dict(base)
        for k, v in overrides.items():
            out[k] = deep_merge(base[k], v) if k in base else v
        return out
    if isinstance(base, list) and isinstance(overrides, Mapping) and all(
            isinstance(x, Mapping) and "id" in x for x in base):
        ids = [x["id"] for x in base]
        unknown = [k for k in overrides if k not in ids]
        if unknown:
            raise EventConfigError([ConfigIssue("<overrides>", f"no list item with id {unknown}")])
        return [deep_merge(x, overrides[x["id"]]) if x["id"] in overrides else x for x in base]
    return overrides


def apply_overrides(config: EventConfig | Mapping[str, Any], overrides: Mapping[str, Any] | None,
                    source: str | None = None) -> EventConfig:
    """An event from a preset plus overrides: merged, then re-validated in full."""
    base = config.model_dump(mode="json") if isinstance(config, EventConfig) else config
    merged = deep_merge(base, dict(overrides or {}))
    return parse_event_config(merged, source=f"{source or 'preset'} + overrides")


def load_preset(path: str | Path) -> EventConfig:
    """Read a YAML or JSON preset file and validate it (the module's only I/O)."""
    p = Path(path)
    text = p.read_text(encoding="utf-8")
    try:
        if p.suffix.lower() == ".json":
            data = json.loads(text)
        else:
            import yaml
            data = yaml.safe_load(text)
    except Exception as exc:  # syntax errors: still name the file
        raise EventConfigError([ConfigIssue("<file>", f"cannot parse: {exc}")], str(p)) from None
    if not isinstance(data, Mapping):
        raise EventConfigError([ConfigIssue("<root>", "a preset must be a mapping")], str(p))
    return parse_event_config(strip_extension_keys(data), source=str(p))


def strip_extension_keys(data: Mapping[str, Any]) -> dict[str, Any]:
    """Drop top-level `x-…` keys: YAML anchor holders for blocks shared between sections."""
    return {k: v for k, v in data.items() if not str(k).startswith("x-")}
