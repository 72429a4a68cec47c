"""What the fee, ledger and refund routes answer (REG-14, REG-15), for the OpenAPI document."""

from __future__ import annotations

from gomoku_shared.api_docs import View
from gomoku_shared.pagination import Paged


class FeeItemView(View):
    id: str
    name: str
    basis: str
    #: the latest amount announced, else the preset's; None: still to be announced (另行通知)
    amount_fen: int | None
    room: str | None
    refundable_if_upheld: bool
    #: the preset leaves the amount to a later notice (另行通知); amount_fen is then the latest
    #: announced, null until the organiser announces it
    announced_later: bool


class ItemPaid(View):
    item: str
    due_fen: int | None
    paid_fen: int
    complete: bool
    #: an amount not announced: the fee clerk confirmed the entry paid the item in full
    confirmed: bool


class FeeAnnouncementView(View):
    announcement_id: str
    seq: int
    item: str
    amount_fen: int
    applies_from: str
    announced_at: str
    announced_by: str
    note: str


class FeeConfirmationView(View):
    confirmation_id: str
    seq: int
    entry_id: str
    item: str
    #: false: an earlier confirmation withdrawn
    paid_in_full: bool
    as_of: str
    recorded_at: str
    recorded_by: str
    note: str


class EntryFees(View):
    entry_id: str
    section_id: str
    unit_id: str | None
    status: str
    #: None while an item's amount is announced separately
    due_fen: int | None
    paid_by_deadline_fen: int
    #: REG-14: an entry is paired only when this is true at the stage close
    complete_by_deadline: bool
    paid_fen: int
    items: list[ItemPaid]


class FeesReport(View):
    event_code: str
    currency: str
    required_for_validity: bool
    due_by: str
    days: int | None
    items: list[FeeItemView]
    #: every announcement of an amount, in the order recorded (the audit)
    announcements: list[FeeAnnouncementView]
    #: the confirmations of the entries the caller may see, in the order recorded
    confirmations: list[FeeConfirmationView]
    entries: list[EntryFees]


class LedgerLineView(View):
    line_id: str
    seq: int
    kind: str
    item: str
    #: fen, signed: payments > 0, refunds < 0
    amount_fen: int
    currency: str
    entry_id: str | None
    unit_id: str | None
    received_at: str
    recorded_at: str
    recorded_by: str
    #: "[protected]" when a reference was recorded: never shown
    reference: str | None
    corrects: str | None
    source: str | None
    note: str


class Ledger(Paged):
    event_code: str
    currency: str
    lines: list[LedgerLineView]


class RefundView(View):
    refund_id: str
    entry_id: str
    state: str
    reason: str
    proof_ref: str | None
    force_majeure_claimed: bool
    requested_at: str
    requested_by: str
    granted_fen: int | None
    force_majeure_accepted: bool | None
    decided_by: str | None
    decided_at: str | None
    decision_note: str | None
    ledger_line_id: str | None


class Refunds(Paged):
    event_code: str
    refunds: list[RefundView]
