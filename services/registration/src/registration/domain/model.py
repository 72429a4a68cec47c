"""Registration value objects: people, units, evidence, applications, entries, decisions."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from typing import Literal

from .personal_data import IdNumber

Gender = Literal["male", "female"]


class Verdict(str, enum.Enum):
    """What one rule says of an entry or a player (pairing's `Outcome` is a game's result)."""

    ADMITTED = "admitted"
    REFUSED = "refused"
    #: would be admitted once an arbiter approves something (evidence, quota, change)
    PENDING = "pending"


@dataclass(frozen=True)
class Decision:
    """One judged rule: which rule/clause admitted or refused, and why (human readable)."""

    rule: str  # rule id (docs/rules.md), e.g. "REG-6"
    clause: str  # the configured clause / option, e.g. "sz-residency/residence_permit"
    outcome: Verdict
    reason: str
    person_id: str | None = None
    #: the values the reason is made of, for words in other languages (e.g. the edition and the
    #: top N of a quota exemption): (name, value) pairs
    params: tuple[tuple[str, str | int], ...] = ()

    @property
    def admitted(self) -> bool:
        return self.outcome is Verdict.ADMITTED

    @property
    def refused(self) -> bool:
        return self.outcome is Verdict.REFUSED


def combine(decisions: list[Decision] | tuple[Decision, ...]) -> Verdict:
    """Refused if any is refused, else pending if any is pending, else admitted."""
    if any(d.outcome is Verdict.REFUSED for d in decisions):
        return Verdict.REFUSED
    if any(d.outcome is Verdict.PENDING for d in decisions):
        return Verdict.PENDING
    return Verdict.ADMITTED


@dataclass(frozen=True)
class Person:
    id: str
    name: str
    gender: Gender
    birth_date: date
    #: masked in repr; may be absent where the event does not require it
    id_number: IdNumber | None = None
    #: ISO country code of the identity document (REG-6 (4): PRC citizens, "CN")
    citizenship: str | None = None
    #: REG-8: the unit the athlete holds an annual registration with, if any
    registered_unit_id: str | None = None


@dataclass(frozen=True)
class Unit:
    """REG-3: 机关/企事业/协会/俱乐部/省队…"""

    id: str
    name: str
    kind: str = "club"  # e.g. province, club, school, industry_association, national_base
    #: the region its players represent (REG-8 household / residence / school), e.g. "Hubei"
    region: str | None = None
    #: REG-8: industry associations without annual registration may only send employees
    annual_registration: bool = True
    #: REG-3 (NY): the host delegation may exceed the quota with approval
    is_host: bool = False


class EvidenceKind(str, enum.Enum):
    HOUSEHOLD = "household_registration"  # 户籍
    RESIDENCE_PERMIT = "residence_permit"  # 居住证 (issued_on)
    SOCIAL_INSURANCE = "social_insurance"  # 社保 (months paid)
    STUDENT_STATUS = "student_status"  # 学籍
    GRADE_CERTIFICATE = "grade_certificate"  # 等级证书 (grade)
    PAST_RESULT = "past_result"  # 比赛成绩 (level, place)
    EMPLOYMENT = "employment"  # 劳动合同/纳税/社保 (employer, since)


class EvidenceStatus(str, enum.Enum):
    PENDING = "pending"
    APPROVED = "approved"
    REJECTED = "rejected"


@dataclass(frozen=True)
class Evidence:
    """A fact declared by a player with its supporting document; an arbiter may approve or
    reject it. Which fields matter depends on `kind`."""

    id: str
    person_id: str
    kind: EvidenceKind
    document_ref: str
    region: str | None = None
    submitted_at: datetime | None = None
    issued_on: date | None = None  # residence permit date (REG-8)
    months_paid: tuple[str, ...] = ()  # social insurance, "YYYY-MM" each
    grade: str | None = None  # "3k", "1d"
    result_level: Literal["city", "provincial", "national"] | None = None
    result_place: int | None = None
    result_event: str | None = None
    officially_recognised: bool = True
    employer_unit_id: str | None = None
    employed_since: date | None = None
    status: EvidenceStatus = EvidenceStatus.PENDING
    reviewed_by: str | None = None
    review_note: str | None = None
    reviewed_at: datetime | None = None

    def approve(self, arbiter: str, note: str | None = None, at: datetime | None = None) -> Evidence:
        return replace(self, status=EvidenceStatus.APPROVED, reviewed_by=arbiter, review_note=note, reviewed_at=at)

    def reject(self, arbiter: str, note: str, at: datetime | None = None) -> Evidence:
        if not note or not note.strip():
            raise ValueError("a rejection needs a reason")
        return replace(self, status=EvidenceStatus.REJECTED, reviewed_by=arbiter, review_note=note, reviewed_at=at)

    def arrived_before(self, t: datetime) -> bool:
        """Materials count by the time they arrive (REG-1, SZ 十三(二))."""
        return self.submitted_at is None or self.submitted_at < t


@dataclass(frozen=True)
class InsuranceConfirmation:
    """REG-13: per entry, a flag plus the reference of the policy document."""

    confirmed: bool = False
    document_ref: str | None = None


@dataclass(frozen=True)
class Application:
    """What arrives to register one entry (a player, or a team in board order)."""

    id: str
    section_id: str
    #: one player for an individual section; the team in board order (board 1 first)
    person_ids: tuple[str, ...]
    #: time each item of the application was received (REG-1: judged on the last one)
    items_received: Mapping[str, datetime]
    unit_id: str | None = None
    insurance: InsuranceConfirmation = InsuranceConfirmation()
    #: REG-6 (4): the player intends to represent the region at the next National Mind Games
    intends_to_represent: bool = False
    #: REG-3 (NY): reference to the previous year's top-N result putting a player outside quota,
    #: per person id
    quota_exempt_refs: Mapping[str, str] = field(default_factory=dict)
    team_name: str | None = None
    #: REG-16: the keyed index of each claiming player's ID number, per person id (a claim is
    #: matched against the loaded list by it, nothing decrypted)
    id_keys: Mapping[str, str] = field(default_factory=dict)
    #: issue 32 rating band: each player's published rating when the application is judged
    #: (person id → rating, of those who have one)
    published_ratings: Mapping[str, int] = field(default_factory=dict)
    #: REG-16 from the record (issue 32): the registry person each claiming player stands as
    registry_ids: Mapping[str, str] = field(default_factory=dict)

    def completed_at(self, required: list[str] | tuple[str, ...]) -> datetime | None:
        """When the application became complete, or None if an item is still missing."""
        if any(item not in self.items_received for item in required):
            return None
        times = [self.items_received[i] for i in required]
        return max(times) if times else min(self.items_received.values(), default=None)

    def missing(self, required: list[str] | tuple[str, ...]) -> list[str]:
        return [i for i in required if i not in self.items_received]


class EntryStatus(str, enum.Enum):
    ACCEPTED = "accepted"  # confirmed in the section
    PENDING_REVIEW = "pending"  # needs an arbiter/organiser decision (evidence, quota)
    WAITLISTED = "waitlisted"  # REG-2 Decision: beyond the cap, waiting-list enabled
    REFUSED = "refused"
    WITHDRAWN = "withdrawn"

    @property
    def holds_place(self) -> bool:
        """Counts against the section cap and the delegation quota."""
        return self in (EntryStatus.ACCEPTED, EntryStatus.PENDING_REVIEW)


@dataclass(frozen=True)
class Withdrawal:
    """REG-10: recorded with its written reason; the refund is recorded, not paid."""

    at: datetime
    reason: str
    proof_ref: str | None
    refund_requested: bool


@dataclass(frozen=True)
class Entry:
    id: str
    event_id: str
    section_id: str
    person_ids: tuple[str, ...]
    unit_id: str | None
    status: EntryStatus
    received_at: datetime | None
    decisions: tuple[Decision, ...] = ()
    #: board order 1..n (team sections with a fixed order: never changed once registered)
    insurance: InsuranceConfirmation = InsuranceConfirmation()
    quota_exempt: frozenset[str] = frozenset()
    waitlist_position: int | None = None
    checked_in_at: datetime | None = None
    no_show: bool = False
    withdrawal: Withdrawal | None = None
    application_id: str | None = None
    team_name: str | None = None

    @property
    def boards(self) -> dict[int, str]:
        return {i + 1: pid for i, pid in enumerate(self.person_ids)}

    @property
    def refusal_reasons(self) -> list[str]:
        return [d.reason for d in self.decisions if d.refused]

    @property
    def admitted_by(self) -> str:
        """The eligibility clause that admitted the entry (for `entry.accepted`): the
        residency/representation clause if the section has one, else the age/gender check."""
        for d in self.decisions:
            if d.admitted and d.rule in ("REG-6", "REG-7", "REG-8"):
                return d.clause
        return next((d.clause for d in self.decisions if d.admitted and d.rule == "REG-4"), "")

    @property
    def refused_by(self) -> Decision | None:
        """The first refusing decision (for `entry.refused`: its clause and reason); the
        re-judging log (REG-18) only says that a judgement changed, not why."""
        return next((d for d in self.decisions if d.refused and d.clause != REJUDGED), None)

    @property
    def pending_evidence(self) -> tuple[Decision, ...]:
        """REG-18: the admissions of an accepted entry that rest on evidence not yet approved."""
        if self.status is not EntryStatus.ACCEPTED:
            return ()
        return tuple(d for d in self.decisions if d.rule == "REG-18" and d.clause.endswith("/pending_evidence"))


#: clause of the decision recording that an entry was judged again (REG-18)
REJUDGED = "eligibility/rejudged"
