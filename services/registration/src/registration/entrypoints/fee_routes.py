"""Routes of the fee ledger and refunds (REG-14, REG-15; docs/api.md "Fees and refunds").

The operator records payments and decides refunds; a partner sees only its own entries' and
units' lines and files refund requests for its own entries. References and proofs are stored
encrypted and never returned.
"""

from __future__ import annotations

from fastapi import APIRouter

from gomoku_shared.pagination import sort_by

from ..service_layer import fees
from ..service_layer import schemas as s
from . import fee_views as fv
from .access import ANYONE, STAFF
from .routes import Command, Read, add_routes


def add_fee_routes(router: APIRouter) -> None:
    add_routes(
        router,
        "fees",
        [
            Read(
                "fees_report",
                "/events/{event_code}/fees",
                fees.fees_report,
                fv.FeesReport,
                "Fee items and what each entry owes and paid by the deadline (REG-14)",
            ),
            Command(
                "record_line",
                "/events/{event_code}/ledger",
                fees.record_line,
                s.LedgerLineIn,
                STAFF,
                fv.LedgerLineView,
                "Record a payment received, or correct a line with a new one (REG-14; append-only)",
                action="ledger.record",
                errors=(404,),
            ),
            *_announced_later(),
            Read(
                "ledger",
                "/events/{event_code}/ledger",
                fees.list_ledger,
                fv.Ledger,
                "Ledger lines (a partner sees those of its own entries and units)",
                pages=("lines", sort_by("seq", "line_id")),
            ),
            Command(
                "request_refund",
                "/events/{event_code}/entries/{entry_id}/refund-request",
                fees.request_refund,
                s.RefundRequestIn,
                ANYONE,
                fv.RefundView,
                "A written refund request with its reason and proof (REG-15)",
                action="ledger.record",
                errors=(404,),
            ),
            Read(
                "refunds",
                "/events/{event_code}/refunds",
                fees.list_refunds,
                fv.Refunds,
                "Refund requests and their decisions (a partner sees its own)",
                pages=("refunds", sort_by("refund_id")),
            ),
            Command(
                "decide_refund",
                "/refunds/{refund_id}/decision",
                fees.decide_refund_cmd,
                s.RefundDecisionIn,
                STAFF,
                fv.RefundView,
                "The organiser grants a refund (a refund line in the ledger) or refuses it (REG-15)",
                action="ledger.record",
                status=200,
                errors=(404,),
                event_of=fees.refund_event,
            ),
        ],
    )


def _announced_later() -> list[Command]:
    """REG-14 (NY, NT 十一: 另行通知): the organiser announces an amount; until then the fee clerk
    confirms each entry paid in full."""
    return [
        Command(
            "announce_fee",
            "/events/{event_code}/fees/announcements",
            fees.announce_fee,
            s.FeeAnnouncementIn,
            STAFF,
            fv.FeeAnnouncementView,
            "Announce or change a fee item's amount, from an instant on (另行通知; REG-14, audited)",
            action="event.configure",
            errors=(404, 409),
        ),
        Command(
            "confirm_paid",
            "/events/{event_code}/entries/{entry_id}/fees/confirmation",
            fees.confirm_paid,
            s.FeeConfirmationIn,
            STAFF,
            fv.FeeConfirmationView,
            "Confirm an entry paid an item in full while its amount is not announced (REG-14, audited)",
            action="ledger.record",
            errors=(404, 409),
        ),
    ]
