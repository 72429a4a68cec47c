"""Registration rules (REG-1..18): windows, birth windows, teams, eligibility clauses and
regions, units, changes, insurance, check-in, closing, qualification and seeding."""

from __future__ import annotations

import unicodedata
from datetime import date, datetime
from typing import Annotated, Literal

from pydantic import Field, model_validator

from .base import Gender, RuleTrack, _Model


def _grade_rank(grade: str) -> int | None:
    """'3k' -> -3, '1d' -> 101: higher is better. Accepts '3k', '3kyu', '1d', '1dan'."""
    normalised = grade.strip().lower().replace("-", "").replace(" ", "")
    for suffix, sign in (("kyu", -1), ("k", -1), ("dan", 1), ("d", 1)):
        if normalised.endswith(suffix) and normalised[: -len(suffix)].isdigit():
            number = int(normalised[: -len(suffix)])
            if number < 1:
                return None
            return -number if sign < 0 else 100 + number
    return None


grade_rank = _grade_rank


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
            self.born_to is None or birth_date <= self.born_to
        )


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
        for low, high, what in ((self.male_min, self.male_max, "male"), (self.female_min, self.female_max, "female")):
            if high is not None and low > high:
                raise ValueError(f"{what}_min {low} > {what}_max {high}")
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


class ResidencyOption(_Model):
    """One way to satisfy a residency/representation clause (REG-6, REG-8)."""

    kind: Literal[
        "household",  # 户籍
        "residence_permit",  # 居住证 (+ social insurance months / issued before a date)
        "student_status",  # 学籍
        "wildcard",  # 外卡 (REG-6 (4))
        "registered_athlete",  # REG-8: represents the registering unit
        "employment",  # REG-8: industry association employees
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
    #: wildcard: the federation's record proves it too (a title of min_grade or better granted
    #: at one of its events, or a place within result_places at an event of that level): such a
    #: claim is admitted without a document; one the record does not prove goes to the arbiter
    from_record: bool = False

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


class PublicEntries(_Model):
    """Issue 34: entries by people on the public form (no partner app). Off unless the event opts
    in (SZ 十三(一) registers individuals online)."""

    open: bool = False
    #: at most this many entries come through the form in the event (abuse: a flood of entries)
    cap: Annotated[int, Field(ge=1)] = 2000
    #: a sum the registrant solves (the organiser switches it on against scripted entries);
    #: every form also has a hidden field people leave empty (a honeypot)
    challenge: Literal["none", "arithmetic"] = "none"
    #: the form's entries per client address and hour (a rate limit)
    per_address_per_hour: Annotated[int, Field(ge=1)] = 20


class PublicDelegations(_Model):
    """Issue 34: a unit's leader enters the whole delegation (leader, coaches, players, lodging,
    optional services) as one roster through a secret link (NY, DA, NT: 各单位统一报名). Off
    unless the event opts in."""

    open: bool = False
    #: at most this many delegations are started through the door in the event
    cap: Annotated[int, Field(ge=1)] = 500
    #: delegations started per client address and hour (a rate limit)
    per_address_per_hour: Annotated[int, Field(ge=1)] = 20
    #: the most nights of lodging a person may book on the roster
    max_nights: Annotated[int, Field(ge=0, le=60)] = 10


class RegistrationWindow(_Model):
    """REG-1. closes_at is exclusive; opens_at None = open from publication."""

    opens_at: datetime | None = None
    closes_at: datetime
    #: items that make an application complete (entry_form, id_card, insurance, fee_payment...)
    required_items: list[str] = ["entry_form"]
    #: ID numbers are required on the form (NY: for the organiser's insurance)
    id_number_required: bool = True
    #: issue 34: the public entry form for individuals
    public_entries: PublicEntries = PublicEntries()
    #: issue 34: the delegation roster for units
    public_delegations: PublicDelegations = PublicDelegations()


class QuotaExemption(_Model):
    """REG-16 (NY 七(三)): a player placed in the top N of the previous edition, outside the
    delegation quota: as the published results list them."""

    #: the reference an application quotes, e.g. "2021/youth-male/3"
    ref: Annotated[str, Field(min_length=1, max_length=200)]
    #: the player's name as published in the results (compared as written, case and width folded)
    name: Annotated[str, Field(min_length=1, max_length=200)]
    place: Annotated[int, Field(ge=1)]


class UnitRules(_Model):
    """REG-3, REG-16."""

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
    #: NY: the published list of the previous top-N finishers; empty = a quoted reference is
    #: taken as given, else only a listed reference with the player's name exempts
    quota_exempt_list: list[QuotaExemption] = []
    #: issue 32: the previous edition ran on the platform (its event code): a claim is checked
    #: against its recorded places first (the loaded list stays the fallback)
    quota_exempt_previous_event: Annotated[str, Field(min_length=1, max_length=64)] | None = None
    #: the previous edition's sections whose places exempt; empty: every individual section
    quota_exempt_previous_sections: list[str] = []

    @model_validator(mode="after")
    def _exemptions(self) -> UnitRules:
        top = self.quota_exempt_previous_top
        if self.quota_exempt_list and top is None:
            raise ValueError("quota_exempt_list needs quota_exempt_previous_top")
        if self.quota_exempt_previous_event and top is None:
            raise ValueError("quota_exempt_previous_event needs quota_exempt_previous_top")
        beyond = [x.ref for x in self.quota_exempt_list if top is not None and x.place > top]
        if beyond:
            raise ValueError(f"quota_exempt_list names places beyond the top {top}: {beyond}")
        refs = [x.ref for x in self.quota_exempt_list]
        if len(refs) != len(set(refs)):
            raise ValueError("quota_exempt_list repeats a ref")
        return self


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
    #: documents every player shows at check-in (ID card, insurance policy, health certificate ...)
    documents: list[str] = []
    #: an accepted entry neither checked in nor marked absent when the stage closes: "ask" the
    #: arbiter (the close lists them and needs a decision for each), or play it ("present") or
    #: leave it out ("absent") as the event's default
    undecided_at_close: Literal["ask", "present", "absent"] = "present"
