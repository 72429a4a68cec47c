"""What the public entry form's routes answer (issue 34), for the OpenAPI document; the
handlers build these as dicts (answers may carry more fields)."""

from __future__ import annotations

from gomoku_shared.api_docs import View

from .views import DocumentView, PendingEvidence


class FormRegion(View):
    name: str
    name_zh: str | None


class FormSection(View):
    stage: str
    section_id: str
    name: str
    name_zh: str | None
    gender: str
    born_from: str | None
    born_to: str | None
    #: the residency evidence kinds the section's clauses accept ([]: none asked)
    residency: list[str]
    region: FormRegion | None


class PublicForm(View):
    event_code: str
    #: the event takes public entries; ``accepting``: and its registration window is open now
    open: bool
    accepting: bool
    closes_at: str
    challenge: bool
    insurance_policy: bool
    sections: list[FormSection]


class PublicChallenge(View):
    """A sum for the form: answer ``a + b`` with ``challenge`` (needed when ``required``)."""

    required: bool
    a: int
    b: int
    challenge: str


class PublicEntryMade(View):
    """The entry made on the form: its status and the secret link's token, shown this once."""

    token: str
    event_code: str
    status: str


class RegistrantPlayer(View):
    name: str
    gender: str
    birth_year: int
    #: masked: the last four characters only
    id_number: str | None


class RegistrantEvidence(View):
    #: what an upload names to join this record (never shown on a page)
    evidence_id: str
    kind: str
    status: str
    submitted_at: str | None
    note: str | None


class RegistrantFees(View):
    currency: str
    due_by: str
    due_fen: int
    paid_fen: int
    complete: bool


class RegistrantEntry(View):
    """An entry as its registrant sees it by the secret link."""

    event_code: str
    entry_id: str
    entrant_id: str
    stage: str
    section_id: str
    status: str
    clause: str | None
    rule: str | None
    reason: str | None
    pending_evidence: PendingEvidence | None
    waitlist_position: int | None
    player: RegistrantPlayer
    #: masked: the first three and last four digits
    guardian_phone: str
    link_issued_at: str
    evidence: list[RegistrantEvidence]
    fees: RegistrantFees | None


class ReissuedLink(View):
    """A new secret link's token, shown this once; the old link stops working."""

    token: str
    entry_id: str


class RegistrantDocuments(View):
    """The documents of the registrant's own entry (metadata and review state, never bytes)."""

    documents: list[DocumentView]
