"""What the registration API answers, for its OpenAPI document (the handlers build these as
dicts; the fuzz tests check every answer against them). Answers may carry more fields."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import ConfigDict

from gomoku_shared.api_docs import View
from gomoku_shared.pagination import Paged


class Preset(View):
    id: str
    name: str


class Presets(View):
    presets: list[Preset]


class SectionInfo(View):
    id: str
    name: str
    #: issue 28: the name on Chinese pages (null: the preset gives none)
    name_zh: str | None = None
    kind: str


class StageInfo(View):
    id: str
    name: str
    name_zh: str | None = None
    status: str
    sections: list[SectionInfo]


class FeeItemName(View):
    """A fee item by name, for pages in either language."""

    id: str
    name: str
    name_zh: str | None = None


class CheckInInfo(View):
    """REG-11: the documents every player shows at check-in (the preset's ``check_in.documents``)."""

    documents: list[str] = []


class EventView(View):
    event_code: str
    preset_id: str
    #: issue 29: the organisation that owns the event (its staff act on it)
    organisation: str
    name: str
    #: issue 28: the event in Chinese, who holds it and where (null: not given / to be announced)
    name_zh: str | None = None
    organiser: str | None = None
    organiser_zh: str | None = None
    venue: str | None = None
    venue_zh: str | None = None
    #: its first and last day (the stages')
    starts_on: str
    ends_on: str
    fee_items: list[FeeItemName]
    timezone: str
    stages: list[StageInfo]
    check_in: CheckInInfo = CheckInInfo()


class PlayerView(View):
    player_id: str
    name: str
    #: masked: never the whole number
    id_number: str | None = None
    #: the partner's own user id for the player: shown to the partner that set it, else null
    external_id: str | None = None
    #: issue 32: the player's person in the organisation's registry: shown to staff, else null
    registry_id: str | None = None


class EntryView(View):
    entry_id: str
    entrant_id: str
    event_code: str
    stage: str
    section_id: str
    #: the entry's place in its stage's order: submission order, a later stage's field in its
    #: start order (seeded players first); lists are sorted by stage, section and this
    seq: int
    status: str
    clause: str | None
    reason: str | None
    players: list[PlayerView]
    received_at: datetime | None = None
    decisions: list[dict[str, Any]] = []
    #: issue 34: made on the public form (said to staff, whose console re-issues the registrant's link)
    public_form: bool = False


class Entries(Paged):
    entries: list[EntryView]


class Changes(Paged):
    changes: list[dict[str, Any]]


class EvidenceView(View):
    evidence_id: str
    status: str


class EvidenceList(Paged):
    evidence: list[EvidenceView]


class UnitView(View):
    unit_id: str
    name: str
    #: issue 34: the unit came through the delegation door (its link can be re-issued)
    delegation_link: bool = False


class Units(Paged):
    units: list[UnitView]


class StageSection(View):
    section_id: str
    name: str


class StageView(View):
    event_code: str
    stage: str
    status: str
    sections: list[StageSection]


# ---------------------------------------------------------------------- answers of the writes


class PendingEvidence(View):
    """REG-18: by when evidence must be approved and what happens otherwise."""

    approve_by: str
    otherwise: str
    players: list[str]
    clauses: list[str]


class SubmittedEntry(View):
    """A registered entry (or team) as its submitter sees it; `player_id` is the person of a
    one-player entry (null for a team), `entrant_id` the id pairing and gameplay use."""

    model_config = ConfigDict(
        extra="allow",
        json_schema_extra={
            "examples": [
                {
                    "entry_id": "e-7f3a",
                    "entrant_id": "e-7f3a",
                    "player_id": "p-91c2",
                    "stage": "final",
                    "section_id": "open",
                    "status": "accepted",
                    "clause": "sz-residency/household",
                    "reason": None,
                    "pending_evidence": None,
                    "waitlist_position": None,
                    "players": [{"player_id": "p-91c2", "name": "Li Wei", "id_number": "**************1234"}],
                    "decisions": [],
                }
            ]
        },
    )
    entry_id: str
    entrant_id: str
    player_id: str | None
    stage: str
    section_id: str
    status: str
    clause: str | None
    reason: str | None
    pending_evidence: PendingEvidence | None
    waitlist_position: int | None
    players: list[PlayerView]
    decisions: list[dict[str, Any]]


class BulkRow(View):
    row: int
    ok: bool
    entry_id: str | None = None
    entrant_id: str | None = None
    player_id: str | None = None
    status: str | None = None
    clause: str | None = None
    reason: str | None = None


class BulkReport(View):
    """Every row of an all-or-nothing batch, all registered."""

    registered: int
    rows: list[BulkRow]


class WithdrawnEntry(EntryView):
    #: the entry moved up from the waiting list into the freed place (REG-2)
    promoted: str | None


class ChangedEntry(View):
    entry_id: str
    status: str
    clause: str | None
    reason: str | None


class CorrectedEntry(EntryView):
    """The entry judged again, with every entry of the player whose standing changed (REG-18)."""

    entries: list[ChangedEntry]


class ChangeView(View):
    change_id: str
    entry_id: str
    kind: str
    #: what the request asks for, as sent (its shape depends on `kind`)
    details: Any
    state: str
    #: the arbiter's decision once made
    decision: Any
    decided_by: str | None
    requested_at: datetime
    #: REG-10: the player a substitution replaces, the substitute, and when it was applied
    replaces_player_id: str | None = None
    substitute_player_id: str | None = None
    applied_at: datetime | None = None


class UploadedEvidence(EvidenceView):
    """The record (its document never shown: `[protected]`) and the entries judged again."""

    player_id: str
    entry_id: str | None
    kind: str
    document: str
    entries: list[ChangedEntry]


class EvidenceDecision(View):
    evidence_id: str
    status: str
    clause: str | None
    entries: list[ChangedEntry]
    #: qualification stages rebuilt on verified evidence (REG-7)
    rebuilt_stages: list[str]


class Official(View):
    role: str
    name: str
    person_id: str | None


class UnitDetail(UnitView):
    kind: str
    region: str | None
    annual_registration: bool
    is_host: bool
    officials: list[Official]
    players: list[str]
    decisions: list[dict[str, Any]]


class CheckInResult(View):
    entry_id: str
    #: checked_in | refused | no_show
    status: str
    clause: str | None
    reason: str | None


class CheckInReport(View):
    stage: str
    results: list[CheckInResult]


class ClosedSection(View):
    section_id: str
    name: str
    #: how the section closed: kept, merged or cancelled (REG-12)
    status: str
    merged_into: str | None
    merged_from: list[str]
    entrants: int
    format: str | None
    rounds: int | None
    rank_by_gender: bool
    reason: str | None


class ClosedStage(View):
    event_code: str
    stage: str
    status: str
    sections: list[ClosedSection]
    unsettled: list[dict[str, Any]]
    pending_evidence: list[dict[str, Any]]
    #: REG-14: entries refused at the close because their fees were not received in time
    not_paired: list[dict[str, Any]] = []
    #: REG-11: the decisions on entries neither checked in nor marked absent
    attendance: list[dict[str, Any]] = []
    #: REG-16: what a delegation still has to settle (NT: a team without a leader)
    delegations: list[dict[str, Any]] = []


class SeededList(View):
    stage: str
    source: str
    to_section: str
    qualifiers: list[str]
    substitutes: list[str]
    #: whether the stage was rebuilt with the list
    rebuilt: bool


class ListedPlayerView(View):
    section: str
    place: int
    name: str
    #: the year only (REG-11)
    birth_year: int | None
    #: masked like every ID number
    id_number: str | None


class ExemptionLoad(View):
    """One load of the list (the audit): who loaded which edition's list, when."""

    revision: int
    edition: str
    source: str
    loaded_at: str
    loaded_by: str
    players: int
    #: lines placed beyond the event's top N, not kept
    beyond_top: int


class ExemptionList(View):
    """REG-16 (NY 七(三)): the list a quota exemption is checked against."""

    event_code: str
    #: the event's N: places 1..N exempt (null: the event exempts nobody)
    top: int | None
    #: the list in force (null: none loaded; every claim then counts in the quota)
    edition: str | None
    players: list[ListedPlayerView]
    loads: list[ExemptionLoad]
    #: after a load: the entries whose claims it judged otherwise (their exemption changed)
    rejudged: list[str] = []


class ListedEvent(View):
    """Issues 28, 29: an event as the home page lists it, and the organisation that owns it."""

    event_code: str
    name: str
    name_zh: str | None = None
    preset_id: str
    organisation: str
    created_at: datetime
    #: its first and last day, in its own time zone
    starts_on: str
    ends_on: str
    timezone: str
    organiser: str | None = None
    organiser_zh: str | None = None
    venue: str | None = None
    venue_zh: str | None = None
    #: upcoming, registration_open, registration_closed, under_way or finished (by the service's
    #: clock in the event's zone; under way once its first stage closed)
    status: str


class EventList(Paged):
    events: list[ListedEvent]


class PartnerChoice(View):
    """One choice of the event's partner apps (the audit): which, when, by whom."""

    #: null: every partner
    partners: list[str] | None
    chosen_at: datetime
    #: "<name> (acct:<account>)" for a staff account, "<role>:<key id>" for an API key
    chosen_by: str


class EventPartners(View):
    """Issue 29: the partner apps that may register entries and act in the event."""

    event_code: str
    organisation: str
    #: the partner ids chosen; null: every partner (the default)
    partners: list[str] | None
    choices: list[PartnerChoice]


class DocumentView(View):
    """Issue 34: a registrant's document, metadata only (its bytes: ``GET .../documents/{id}``)."""

    document_id: str
    entry_id: str
    evidence_id: str | None
    kind: str
    media_type: str
    size: int
    sha256: str
    #: the kind of principal that uploaded it (partner, staff)
    uploaded_by: str
    uploaded_at: datetime
    review_state: str
    #: the day after which it is deleted (the event's last day plus the retention)
    delete_after: str
    #: a delegation's document: its unit (entry_id is then "") and the person it is about, if any
    unit_id: str | None = None
    person_id: str | None = None


class Documents(Paged):
    documents: list[DocumentView]


class UnitDocuments(View):
    """Issue 34: the documents a delegation sent, as its leader sees them (metadata only)."""

    documents: list[DocumentView]
