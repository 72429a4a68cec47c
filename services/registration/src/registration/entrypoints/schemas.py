"""Request bodies of the registration API (pydantic, constrained); ``form`` turns a validated
body into the plain form the service layer takes (``service_layer.forms``, the same names)."""

from __future__ import annotations

import dataclasses
import types
import typing
from datetime import date
from typing import Annotated, Any, Literal, TypeVar

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, field_validator, model_validator

from gomoku_shared.text import Line, Prose

# names, units and references are one line; free text (notes, reasons) may span lines
Name = Annotated[Line, Field(min_length=1, max_length=200)]
Ref = Annotated[Line, Field(min_length=1, max_length=200)]
Slug = Annotated[str, Field(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.:-]*$")]
IdNumberStr = Annotated[str, Field(min_length=4, max_length=40, pattern=r"^[0-9A-Za-z]+$")]
EvidenceKindName = Literal[
    "household_registration",
    "residence_permit",
    "social_insurance",
    "student_status",
    "grade_certificate",
    "past_result",
    "employment",
]


T = TypeVar("T")


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PlayerIn(_In):
    name: Name
    gender: Literal["male", "female"]
    birth_date: date
    #: stored encrypted, shown only masked (REG-11)
    id_number: IdNumberStr | None = None
    #: a unit id, or the name of a unit (created for the caller if it does not exist)
    unit: Name | None = None
    citizenship: Annotated[Line, Field(min_length=2, max_length=3)] | None = "CN"
    #: REG-8: the unit the athlete holds an annual registration with
    registered_unit_id: Slug | None = None
    rating: Annotated[int, Field(ge=0, le=4000)] = 0
    #: the partner's own user id for this player (partners only): stored, searchable with
    #: ``?external_id=``, shown to that partner alone
    external_id: Annotated[str, Field(min_length=1, max_length=200, pattern=r"^[\x21-\x7e]+$")] | None = None


class EvidenceIn(_In):
    kind: EvidenceKindName
    #: reference of the supporting document (stored encrypted)
    document_ref: Ref
    region: Annotated[Line, Field(max_length=100)] | None = None
    issued_on: date | None = None
    months_paid: Annotated[list[Annotated[str, Field(pattern=r"^\d{4}-(0[1-9]|1[0-2])$")]], Field(max_length=600)] = []
    grade: Annotated[str, Field(max_length=10, pattern=r"^\d{1,2}\s*(k|kyu|d|dan)$")] | None = None
    result_level: Literal["city", "provincial", "national"] | None = None
    result_place: Annotated[int, Field(ge=1, le=10000)] | None = None
    result_event: Annotated[Line, Field(max_length=200)] | None = None
    officially_recognised: bool = True
    employer_unit_id: Slug | None = None
    employed_since: date | None = None


class FactsIn(_In):
    """Declared eligibility facts (the evidence records back them)."""

    #: REG-6 (4): intends to represent the region at the next National Mind Games
    intends_to_represent: bool = False
    #: REG-3 (NY): reference to the previous year's top-N result (outside the delegation quota)
    quota_exempt_ref: Ref | None = None


class FactsCorrectionIn(_In):
    """REG-18: declared facts corrected after submission; the entry is judged again."""

    #: REG-6 (4): intends to represent the region at the next National Mind Games
    intends_to_represent: bool


class InsuranceIn(_In):
    confirmed: bool = False
    document_ref: Ref | None = None


Items = Annotated[list[Annotated[Line, Field(min_length=1, max_length=50)]], Field(max_length=20)]


class EntryIn(_In):
    stage: Slug | None = None
    section_id: Slug
    player: PlayerIn
    facts: FactsIn = FactsIn()
    evidence: Annotated[list[EvidenceIn], Field(max_length=20)] = []
    insurance: InsuranceIn = InsuranceIn()
    #: the items of the application this request delivers; default: all the event requires
    items: Items | None = None


class MemberIn(PlayerIn):
    board: Annotated[int, Field(ge=1, le=20)]
    evidence: Annotated[list[EvidenceIn], Field(max_length=20)] = []
    facts: FactsIn = FactsIn()


class TeamIn(_In):
    stage: Slug | None = None
    section_id: Slug
    unit: Name
    team_name: Name | None = None
    members: Annotated[list[MemberIn], Field(min_length=1, max_length=20)]
    insurance: InsuranceIn = InsuranceIn()
    items: Items | None = None

    @field_validator("members")
    @classmethod
    def _boards(cls, members: list[MemberIn]) -> list[MemberIn]:
        boards = sorted(m.board for m in members)
        if boards != list(range(1, len(members) + 1)):
            raise ValueError("boards must be 1..n, each once (REG-9: board order declared at registration)")
        return members


class BulkIn(_In):
    entries: Annotated[list[EntryIn], Field(min_length=1, max_length=1000)]


#: an organisation's id (issue 29), as the identity part of the partners service names them
OrganisationId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")]


class EventIn(_In):
    preset_id: Slug
    event_code: Annotated[str, Field(min_length=1, max_length=60, pattern=r"^[a-z0-9][a-z0-9-]*$")]
    overrides: dict[str, Any] = {}
    #: the organisation that owns the event (issue 29); none: the default organisation
    organisation: OrganisationId | None = None


class PartnersIn(_In):
    """Issue 29: the partner apps that may register entries and act in the event; null: every partner."""

    partners: Annotated[list[Slug], Field(max_length=200)] | None


class EvidenceUploadIn(EvidenceIn):
    #: the person the evidence is about: a player id, or the entry it supports
    player_id: Slug | None = None
    entry_id: Annotated[Line, Field(min_length=1, max_length=200)] | None = None


class DecisionIn(_In):
    decision: Literal["approve", "reject"]
    note: Annotated[Prose, Field(max_length=1000)] = ""


class ChangeIn(_In):
    kind: Literal["substitute_player", "board_order", "section", "details"]
    details: Annotated[Prose, Field(min_length=1, max_length=2000)]
    #: substitute_player: the player replaced (a player id of the entry) and the substitute,
    #: with the evidence of the substitute's eligibility (REG-10: applied once approved)
    replaces_player_id: Slug | None = None
    substitute: PlayerIn | None = None
    substitute_evidence: Annotated[list[EvidenceIn], Field(max_length=20)] = []


class WithdrawIn(_In):
    #: REG-10: a written reason (required after confirmation)
    reason: Annotated[Prose, Field(max_length=2000)] = ""
    proof_ref: Ref | None = None


class OfficialIn(_In):
    role: Literal["leader", "coach", "acting_leader"]
    name: Name
    person_id: Slug | None = None


class UnitIn(_In):
    id: Slug | None = None
    name: Name
    kind: Annotated[Line, Field(min_length=1, max_length=50)] = "club"
    region: Annotated[Line, Field(max_length=100)] | None = None
    annual_registration: bool = True
    is_host: bool = False
    leader: Name | None = None
    coaches: Annotated[list[Name], Field(max_length=5)] = []


class CheckInIn(_In):
    entry_ids: Annotated[list[Annotated[Line, Field(max_length=200)]], Field(max_length=2000)] = []
    no_show: Annotated[list[Annotated[Line, Field(max_length=200)]], Field(max_length=2000)] = []
    #: documents shown by every entry checked in by this request (REG-11)
    documents_shown: Annotated[list[Annotated[Line, Field(max_length=50)]], Field(max_length=20)] = []
    #: per entry: the insurance policy shown at check-in (REG-13, NT)
    insurance_refs: dict[str, Ref] = {}
    #: the arbiter admits late check-in / missing documents
    override: bool = False


class FormatChoiceIn(_In):
    kind: Literal["swiss", "round_robin"]
    rounds: Annotated[int, Field(ge=1, le=50)] | None = None
    #: PAIR-1: why the section plays more rounds than its maximum, where the maximum holds only
    #: "in principle" (DA 七(四)); recorded with the close. A binding maximum takes no reason.
    over_max_reason: Annotated[Prose, Field(min_length=1, max_length=2000)] | None = None


class CloseIn(_In):
    #: the arbiter's format choices where the preset leaves them open, by section id
    format_choices: dict[str, FormatChoiceIn] = {}
    #: REG-11: the decision on entries neither checked in nor marked absent, by entry id ...
    attendance: Annotated[dict[str, Literal["present", "absent"]], Field(max_length=5000)] = {}
    #: ... and for every other one (else the event's default, `check_in.undecided_at_close`)
    not_checked_in: Literal["present", "absent"] | None = None


class SeededPlayerIn(PlayerIn):
    evidence: Annotated[list[EvidenceIn], Field(max_length=20)] = []
    facts: FactsIn = FactsIn()


class SeededIn(_In):
    source: Name
    to_section: Slug
    qualifiers: Annotated[list[SeededPlayerIn], Field(max_length=50)]
    substitutes: Annotated[list[SeededPlayerIn], Field(max_length=50)] = []


FenAmount = Annotated[int, Field(ge=-(10**12), le=10**12)]


class LedgerLineIn(_In):
    """REG-14: a payment received (or a correction of an earlier line), recorded by the operator."""

    kind: Literal["payment", "correction"] = "payment"
    #: a fee item of the event (GET /v1/events/{code}/fees lists them)
    item: Slug
    #: fen (1 CNY = 100 fen): a payment > 0; a correction signed, naming the line it corrects
    amount_fen: FenAmount
    #: who paid: one entry, or a unit paying for its entries
    entry_id: Annotated[Line, Field(min_length=1, max_length=200)] | None = None
    unit_id: Slug | None = None
    #: when the money was received (default: now); never in the future
    received_at: AwareDatetime | None = None
    #: the bank or receipt reference (stored encrypted, never shown)
    reference: Ref | None = None
    corrects: Annotated[Line, Field(min_length=1, max_length=200)] | None = None
    note: Annotated[Prose, Field(max_length=1000)] = ""


class FeeAnnouncementIn(_In):
    """REG-14 (NY, NT 十一: 另行通知): the organiser announces, or changes, a fee item's amount."""

    #: a fee item of the event (GET /v1/events/{code}/fees lists them)
    item: Slug
    #: fen (1 CNY = 100 fen), at the item's basis (per person per day for board and lodging)
    amount_fen: Annotated[int, Field(ge=0, le=10**12)]
    #: the instant the amount applies from (default: now); earlier judgements keep the previous one
    applies_from: AwareDatetime | None = None
    note: Annotated[Prose, Field(max_length=1000)] = ""


class FeeConfirmationIn(_In):
    """REG-14: the fee clerk confirms that an entry paid an item in full while the item's amount is
    not announced (or withdraws that confirmation: ``paid_in_full`` false)."""

    item: Slug
    paid_in_full: bool = True
    #: the instant the entry had paid in full (default: now); never in the future
    as_of: AwareDatetime | None = None
    note: Annotated[Prose, Field(max_length=1000)] = ""


class RefundRequestIn(_In):
    """REG-15: the written request, with its reason and the proof (a document reference)."""

    reason: Annotated[Prose, Field(min_length=1, max_length=2000)]
    proof_ref: Ref | None = None
    #: the absence or withdrawal is claimed as force majeure (自然灾害或不可抗拒的原因)
    force_majeure: bool = False


class RefundDecisionIn(_In):
    decision: Literal["grant", "refuse"]
    #: the amount refunded (grant), in fen
    amount_fen: Annotated[int, Field(ge=1, le=10**12)] | None = None
    #: the organiser accepts the force majeure claimed
    force_majeure: bool = False
    note: Annotated[Prose, Field(max_length=1000)] = ""
    #: when the refund was paid out (default: now)
    paid_at: AwareDatetime | None = None


class ListedPlayerIn(_In):
    """REG-16 (NY 七(三)): one line of the previous edition's final standings."""

    #: the previous edition's section as its results name it (e.g. junior-male, 少年男子组)
    section: Annotated[Line, Field(min_length=1, max_length=100)]
    place: Annotated[int, Field(ge=1, le=10000)]
    name: Name
    birth_date: date | None = None
    #: the strongest identifier: a claim is matched by it where the player has one
    id_number: IdNumberStr | None = None

    @model_validator(mode="after")
    def _identified(self) -> ListedPlayerIn:
        if self.id_number is None and self.birth_date is None:
            raise ValueError("a listed player needs an id_number or a birth_date (with the name)")
        return self


class ExemptionListIn(_In):
    """REG-16 (NY 七(三)): the list a quota exemption refers to, loaded by the organiser; a new load
    replaces the list in force (every load is kept as the audit)."""

    #: the edition the list is of, as the regulation names it (e.g. "2021")
    edition: Annotated[Line, Field(min_length=1, max_length=50)]
    #: where the list comes from (e.g. the published final standings)
    source: Name
    players: Annotated[list[ListedPlayerIn], Field(min_length=1, max_length=2000)]


# ---- issue 34: the public entry form

#: a phone number as people type it: digits, an optional leading +, spaces or hyphens between
Phone = Annotated[str, Field(min_length=6, max_length=24, pattern=r"^\+?[0-9][0-9 -]{4,21}[0-9]$")]


class ResidencyIn(_In):
    """How the player meets the section's residency clause (REG-6), as declared on the form."""

    kind: Literal["household_registration", "residence_permit", "student_status"]
    #: where (a district or the city, as people write it: REG-17)
    region: Annotated[Line, Field(min_length=1, max_length=100)]
    #: residence_permit: months of social insurance paid without a break until last month
    insurance_months: Annotated[int, Field(ge=0, le=600)] | None = None


class PublicEntryIn(_In):
    """One player entered on the public form: only what the section's clauses need."""

    section_id: Slug
    name: Name
    gender: Literal["male", "female"]
    birth_date: date
    #: stored encrypted, shown only masked (REG-11)
    id_number: IdNumberStr
    #: the guardian's (or the adult player's) phone: stored encrypted, shown masked
    guardian_phone: Phone
    residency: ResidencyIn | None = None
    #: REG-13: the insurance policy's number, where the participant insures before registering
    insurance_policy: Ref | None = None
    #: the signed sum of ``GET .../public-entries/challenge`` and its answer (when switched on)
    challenge: Annotated[str, Field(max_length=300)] | None = None
    answer: Annotated[int, Field(ge=0, le=100)] | None = None
    #: a field hidden from people on the form: anything in it marks a script
    website: Annotated[str, Field(max_length=200)] = ""


class ReissueIn(_In):
    """A new secret link for a public entry's registrant (the old one stops working)."""


def form(body: BaseModel, form_type: type[T]) -> T:
    """The service layer's plain form of a validated body (``service_layer.forms``): the form's
    fields read off the body, nested bodies as the forms the form's annotations name."""
    hints = typing.get_type_hints(form_type)
    fields = dataclasses.fields(form_type)  # type: ignore[arg-type]  # a form is a dataclass
    return form_type(**{f.name: _plain(getattr(body, f.name), hints[f.name]) for f in fields})


def _plain(value: Any, hint: Any) -> Any:
    """``value`` with the bodies in it as their forms (``hint``: its annotation on the form; a
    value the form leaves open, ``Any``, is kept as it is)."""
    if isinstance(value, BaseModel):
        return form(value, _form_in(hint))
    args = typing.get_args(_without_none(hint))
    if isinstance(value, list) and len(args) == 1:
        return [_plain(v, args[0]) for v in value]
    if isinstance(value, dict) and len(args) == 2:
        return {k: _plain(v, args[1]) for k, v in value.items()}
    return value


def _without_none(hint: Any) -> Any:
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    return args[0] if typing.get_origin(hint) in (typing.Union, types.UnionType) and len(args) == 1 else hint


def _form_in(hint: Any) -> type:
    hint = _without_none(hint)
    assert dataclasses.is_dataclass(hint) and isinstance(hint, type), hint
    return hint
