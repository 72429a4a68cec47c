"""What the registration use cases are given: plain data, already validated at the edge (the
HTTP bodies of ``entrypoints/schemas.py``, ``roster_schemas.py`` and ``registry_schemas.py``
carry the constraints and are turned into these by ``entrypoints.schemas.form``). A form names
the fields of its body, with the same defaults."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Literal

Gender = Literal["male", "female"]


@dataclass(frozen=True)
class PlayerIn:
    name: str
    gender: Gender
    birth_date: date
    #: stored encrypted, shown only masked (REG-11)
    id_number: str | None = None
    #: a unit id, or the name of a unit (created for the caller if it does not exist)
    unit: str | None = None
    citizenship: str | None = "CN"
    #: REG-8: the unit the athlete holds an annual registration with
    registered_unit_id: str | None = None
    rating: int = 0
    #: the partner's own user id for this player (partners only)
    external_id: str | None = None


@dataclass(frozen=True)
class EvidenceIn:
    kind: str
    #: reference of the supporting document (stored encrypted)
    document_ref: str
    region: str | None = None
    issued_on: date | None = None
    months_paid: list[str] = field(default_factory=list)
    grade: str | None = None
    result_level: Literal["city", "provincial", "national"] | None = None
    result_place: int | None = None
    result_event: str | None = None
    officially_recognised: bool = True
    employer_unit_id: str | None = None
    employed_since: date | None = None


@dataclass(frozen=True)
class FactsIn:
    """Declared eligibility facts (the evidence records back them)."""

    #: REG-6 (4): intends to represent the region at the next National Mind Games
    intends_to_represent: bool = False
    #: REG-3 (NY): reference to the previous year's top-N result (outside the delegation quota)
    quota_exempt_ref: str | None = None


@dataclass(frozen=True)
class FactsCorrectionIn:
    """REG-18: declared facts corrected after submission; the entry is judged again."""

    intends_to_represent: bool


@dataclass(frozen=True)
class InsuranceIn:
    confirmed: bool = False
    document_ref: str | None = None


@dataclass(frozen=True)
class EntryIn:
    section_id: str
    player: PlayerIn
    stage: str | None = None
    facts: FactsIn = field(default_factory=FactsIn)
    evidence: list[EvidenceIn] = field(default_factory=list)
    insurance: InsuranceIn = field(default_factory=InsuranceIn)
    #: the items of the application this request delivers; None: all the event requires
    items: list[str] | None = None


@dataclass(frozen=True)
class MemberIn(PlayerIn):
    board: int = field(kw_only=True)
    evidence: list[EvidenceIn] = field(default_factory=list)
    facts: FactsIn = field(default_factory=FactsIn)


@dataclass(frozen=True)
class TeamIn:
    section_id: str
    unit: str
    #: boards 1..n, each once (REG-9)
    members: list[MemberIn]
    stage: str | None = None
    team_name: str | None = None
    insurance: InsuranceIn = field(default_factory=InsuranceIn)
    items: list[str] | None = None


@dataclass(frozen=True)
class BulkIn:
    entries: list[EntryIn]


@dataclass(frozen=True)
class EventIn:
    preset_id: str
    event_code: str
    overrides: dict[str, Any] = field(default_factory=dict)
    #: the organisation that owns the event (issue 29); None: the default organisation
    organisation: str | None = None


@dataclass(frozen=True)
class PartnersIn:
    """Issue 29: the partner apps that may register entries and act in the event; None: every partner."""

    partners: list[str] | None


@dataclass(frozen=True)
class EvidenceUploadIn(EvidenceIn):
    #: the person the evidence is about: a player id, or the entry it supports
    player_id: str | None = None
    entry_id: str | None = None


@dataclass(frozen=True)
class DecisionIn:
    decision: Literal["approve", "reject"]
    note: str = ""


@dataclass(frozen=True)
class ChangeIn:
    kind: Literal["substitute_player", "board_order", "section", "details"]
    details: str
    #: substitute_player: the player replaced and the substitute, with the evidence of the
    #: substitute's eligibility (REG-10: applied once approved)
    replaces_player_id: str | None = None
    substitute: PlayerIn | None = None
    substitute_evidence: list[EvidenceIn] = field(default_factory=list)


@dataclass(frozen=True)
class WithdrawIn:
    #: REG-10: a written reason (required after confirmation)
    reason: str = ""
    proof_ref: str | None = None


@dataclass(frozen=True)
class OfficialIn:
    role: Literal["leader", "coach", "acting_leader"]
    name: str
    person_id: str | None = None


@dataclass(frozen=True)
class UnitIn:
    name: str
    id: str | None = None
    kind: str = "club"
    region: str | None = None
    annual_registration: bool = True
    is_host: bool = False
    leader: str | None = None
    coaches: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class CheckInIn:
    entry_ids: list[str] = field(default_factory=list)
    no_show: list[str] = field(default_factory=list)
    #: documents shown by every entry checked in by this request (REG-11)
    documents_shown: list[str] = field(default_factory=list)
    #: per entry: the insurance policy shown at check-in (REG-13, NT)
    insurance_refs: dict[str, str] = field(default_factory=dict)
    #: the arbiter admits late check-in / missing documents
    override: bool = False


@dataclass(frozen=True)
class FormatChoiceIn:
    kind: Literal["swiss", "round_robin"]
    rounds: int | None = None
    #: PAIR-1: why the section plays more rounds than its maximum ("in principle", DA 七(四))
    over_max_reason: str | None = None


@dataclass(frozen=True)
class CloseIn:
    #: the arbiter's format choices where the preset leaves them open, by section id
    format_choices: dict[str, FormatChoiceIn] = field(default_factory=dict)
    #: REG-11: the decision on entries neither checked in nor marked absent, by entry id ...
    attendance: dict[str, Literal["present", "absent"]] = field(default_factory=dict)
    #: ... and for every other one (else the event's default, `check_in.undecided_at_close`)
    not_checked_in: Literal["present", "absent"] | None = None


@dataclass(frozen=True)
class SeededPlayerIn(PlayerIn):
    evidence: list[EvidenceIn] = field(default_factory=list)
    facts: FactsIn = field(default_factory=FactsIn)


@dataclass(frozen=True)
class SeededIn:
    source: str
    to_section: str
    qualifiers: list[SeededPlayerIn]
    substitutes: list[SeededPlayerIn] = field(default_factory=list)


@dataclass(frozen=True)
class LedgerLineIn:
    """REG-14: a payment received (or a correction of an earlier line), recorded by the operator."""

    #: a fee item of the event
    item: str
    #: fen (1 CNY = 100 fen): a payment > 0; a correction signed, naming the line it corrects
    amount_fen: int
    kind: Literal["payment", "correction"] = "payment"
    #: who paid: one entry, or a unit paying for its entries
    entry_id: str | None = None
    unit_id: str | None = None
    #: when the money was received (None: now); never in the future
    received_at: datetime | None = None
    #: the bank or receipt reference (stored encrypted, never shown)
    reference: str | None = None
    corrects: str | None = None
    note: str = ""


@dataclass(frozen=True)
class FeeAnnouncementIn:
    """REG-14 (NY, NT 十一: 另行通知): the organiser announces, or changes, a fee item's amount."""

    item: str
    #: fen, at the item's basis (per person per day for board and lodging)
    amount_fen: int
    #: the instant the amount applies from (None: now); earlier judgements keep the previous one
    applies_from: datetime | None = None
    note: str = ""


@dataclass(frozen=True)
class FeeConfirmationIn:
    """REG-14: an entry paid an item in full while its amount is not announced (or, with
    ``paid_in_full`` false, that confirmation withdrawn)."""

    item: str
    paid_in_full: bool = True
    as_of: datetime | None = None
    note: str = ""


@dataclass(frozen=True)
class RefundRequestIn:
    """REG-15: the written request, with its reason and the proof (a document reference)."""

    reason: str
    proof_ref: str | None = None
    #: the absence or withdrawal is claimed as force majeure (自然灾害或不可抗拒的原因)
    force_majeure: bool = False


@dataclass(frozen=True)
class RefundDecisionIn:
    decision: Literal["grant", "refuse"]
    #: the amount refunded (grant), in fen
    amount_fen: int | None = None
    #: the organiser accepts the force majeure claimed
    force_majeure: bool = False
    note: str = ""
    #: when the refund was paid out (None: now)
    paid_at: datetime | None = None


@dataclass(frozen=True)
class ListedPlayerIn:
    """REG-16 (NY 七(三)): one line of the previous edition's final standings (an id_number or a
    birth_date with the name)."""

    section: str
    place: int
    name: str
    birth_date: date | None = None
    #: the strongest identifier: a claim is matched by it where the player has one
    id_number: str | None = None


@dataclass(frozen=True)
class ExemptionListIn:
    """REG-16 (NY 七(三)): the list a quota exemption refers to; a new load replaces the one in force."""

    #: the edition the list is of, as the regulation names it (e.g. "2021")
    edition: str
    #: where the list comes from (e.g. the published final standings)
    source: str
    players: list[ListedPlayerIn]


# ---- issue 34: the public entry form and the delegation door


@dataclass(frozen=True)
class ResidencyIn:
    """How the player meets the section's residency clause (REG-6), as declared on the form."""

    kind: Literal["household_registration", "residence_permit", "student_status"]
    #: where (a district or the city, as people write it: REG-17)
    region: str
    #: residence_permit: months of social insurance paid without a break until last month
    insurance_months: int | None = None


@dataclass(frozen=True)
class PublicEntryIn:
    """One player entered on the public form: only what the section's clauses need."""

    section_id: str
    name: str
    gender: Gender
    birth_date: date
    #: stored encrypted, shown only masked (REG-11)
    id_number: str
    #: the guardian's (or the adult player's) phone: stored encrypted, shown masked
    guardian_phone: str
    residency: ResidencyIn | None = None
    #: REG-13: the insurance policy's number, where the participant insures before registering
    insurance_policy: str | None = None
    #: the signed sum of the form's challenge and its answer (when switched on)
    challenge: str | None = None
    answer: int | None = None
    #: a field hidden from people on the form: anything in it marks a script
    website: str = ""


@dataclass(frozen=True)
class ReissueIn:
    """A new secret link for a registrant or a delegation's leader (the old one stops working)."""


@dataclass(frozen=True)
class DelegationStartIn:
    """A unit's leader starts its delegation: the answer is the delegation's secret link."""

    unit_name: str
    leader_name: str
    #: stored encrypted, shown masked
    leader_phone: str
    region: str | None = None
    #: a field hidden from people on the page: anything in it marks a script
    website: str = ""


@dataclass(frozen=True)
class RosterSectionIn:
    """A section a player enters: for a team section, the team's name and the player's fixed board (REG-9)."""

    section_id: str
    team_name: str | None = None
    board: int | None = None


@dataclass(frozen=True)
class RosterPersonIn:
    role: Literal["leader", "coach", "player"]
    name: str
    #: a player of the delegation's previous roster, kept with the details stored for them
    person_id: str | None = None
    gender: Gender | None = None
    birth_date: date | None = None
    #: stored encrypted, shown only masked (REG-11)
    id_number: str | None = None
    sections: list[RosterSectionIn] = field(default_factory=list)
    #: REG-8: the player's annual registration is with this delegation's unit
    registered_with_unit: bool = False
    #: REG-16 (NY 七(三)): the quoted place in the previous edition's top N
    quota_exempt_ref: str | None = None
    #: lodging (DA 十一(一)): a room of the event's and the nights booked
    room: str | None = None
    nights: int = 0
    #: optional services (DA 十二) by id: the uses booked
    services: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class RosterIn:
    """The whole delegation as one document; a submission replaces the previous one."""

    people: list[RosterPersonIn]
    #: REG-13: the delegation's insurance policy, where the participants insure (DA 十三(一))
    insurance_policy: str | None = None


# ---- issue 32: the registry's staff actions (each names its reason, kept in the audit)


@dataclass(frozen=True)
class MergeIn:
    """The other registry person, merged into the one kept."""

    person_id: str
    reason: str


@dataclass(frozen=True)
class SplitIn:
    """A merge undone (``person_id``), or an event person (``event_code`` and ``player_id``) split out."""

    reason: str
    person_id: str | None = None
    event_code: str | None = None
    player_id: str | None = None


@dataclass(frozen=True)
class CorrectionIn:
    """The corrected details of a registry person (at least one)."""

    reason: str
    name: str | None = None
    gender: Gender | None = None
    birth_date: date | None = None


@dataclass(frozen=True)
class ExportIn:
    """Why the person's data is exported (e.g. the reference of their request)."""

    reason: str
