"""Routes of the fee ledger and refunds (REG-14, REG-15; docs/api.md "Fees and refunds").

The operator records payments and decides refunds; a partner sees only its own entries' and
units' lines and files refund requests for its own entries. References and proofs are stored
encrypted and never returned.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse

from gomoku_shared.pagination import PageIn, paged, sort_by
from gomoku_shared.params import PathId

from ..service_layer import commands, fees
from ..service_layer import forms as f
from . import fee_views as fv
from . import schemas as s
from .access import ANYONE, STAFF, Call, calling, documented, event_finder, event_named_by, keyed_write
from .schemas import form

EventReader = Annotated[Call, Depends(calling(ANYONE, "event.read"))]
Clerk = Annotated[Call, Depends(calling(STAFF, "ledger.record"))]
Refunder = Annotated[Call, Depends(calling(STAFF, "ledger.record", event_finder(fees.refund_event, "refund_id")))]
RefundAsker = Annotated[Call, Depends(calling(ANYONE, "ledger.record"))]
Configurer = Annotated[Call, Depends(calling(STAFF, "event.configure"))]


def add_fee_routes(router: APIRouter) -> None:
    @router.get(
        "/events/{event_code}/fees",
        tags=["fees"],
        summary="Fee items and what each entry owes and paid by the deadline (REG-14)",
        **documented(fv.FeesReport),
    )
    async def fees_report(event_code: PathId, call: EventReader) -> dict:
        return await call.read(lambda reads, state: fees.fees_report(reads, state, call.principal, event_code))

    @router.post(
        "/events/{event_code}/ledger",
        **keyed_write(fv.LedgerLineView, 201, 404),
        tags=["fees"],
        summary="Record a payment received, or correct a line with a new one (REG-14; append-only)",
    )
    async def record_line(event_code: PathId, body: s.LedgerLineIn, call: Clerk) -> JSONResponse:
        return await call.run(commands.RecordLine(event_code, form(body, f.LedgerLineIn)), body)

    _announced_later(router)

    @router.get(
        "/events/{event_code}/ledger",
        tags=["fees"],
        summary="Ledger lines (a partner sees those of its own entries and units)",
        **documented(fv.Ledger),
    )
    async def ledger(event_code: PathId, call: EventReader, page: PageIn) -> dict:
        found = await call.read(lambda reads, state: fees.list_ledger(reads, state, call.principal, event_code))
        return paged(found, "lines", sort_by("seq", "line_id"), page)

    _refund_routes(router)


def _refund_routes(router: APIRouter) -> None:
    @router.post(
        "/events/{event_code}/entries/{entry_id}/refund-request",
        **keyed_write(fv.RefundView, 201, 404),
        tags=["fees"],
        summary="A written refund request with its reason and proof (REG-15)",
    )
    async def request_refund(
        event_code: PathId, entry_id: PathId, body: s.RefundRequestIn, call: RefundAsker
    ) -> JSONResponse:
        return await call.run(commands.RequestRefund(event_code, entry_id, form(body, f.RefundRequestIn)), body)

    @router.get(
        "/events/{event_code}/refunds",
        tags=["fees"],
        summary="Refund requests and their decisions (a partner sees its own)",
        **documented(fv.Refunds),
    )
    async def refunds(event_code: PathId, call: EventReader, page: PageIn) -> dict:
        found = await call.read(lambda reads, state: fees.list_refunds(reads, state, call.principal, event_code))
        return paged(found, "refunds", sort_by("refund_id"), page)

    @router.post(
        "/refunds/{refund_id}/decision",
        **keyed_write(fv.RefundView, 200, 404),
        tags=["fees"],
        summary="The organiser grants a refund (a refund line in the ledger) or refuses it (REG-15)",
    )
    async def decide_refund(refund_id: PathId, body: s.RefundDecisionIn, call: Refunder) -> JSONResponse:
        code = await event_named_by(call.request, fees.refund_event, refund_id)
        return await call.run(commands.DecideRefund(code, refund_id, form(body, f.RefundDecisionIn)), body, status=200)


def _announced_later(router: APIRouter) -> None:
    """REG-14 (NY, NT 十一: 另行通知): the organiser announces an amount; until then the fee clerk
    confirms each entry paid in full."""

    @router.post(
        "/events/{event_code}/fees/announcements",
        **keyed_write(fv.FeeAnnouncementView, 201, 404, 409),
        tags=["fees"],
        summary="Announce or change a fee item's amount, from an instant on (另行通知; REG-14, audited)",
    )
    async def announce_fee(event_code: PathId, body: s.FeeAnnouncementIn, call: Configurer) -> JSONResponse:
        return await call.run(commands.AnnounceFee(event_code, form(body, f.FeeAnnouncementIn)), body)

    @router.post(
        "/events/{event_code}/entries/{entry_id}/fees/confirmation",
        **keyed_write(fv.FeeConfirmationView, 201, 404, 409),
        tags=["fees"],
        summary="Confirm an entry paid an item in full while its amount is not announced (REG-14, audited)",
    )
    async def confirm_paid(
        event_code: PathId, entry_id: PathId, body: s.FeeConfirmationIn, call: Clerk
    ) -> JSONResponse:
        return await call.run(commands.ConfirmPaid(event_code, entry_id, form(body, f.FeeConfirmationIn)), body)
