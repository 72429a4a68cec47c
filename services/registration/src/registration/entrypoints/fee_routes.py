"""Routes of the fee ledger and refunds (REG-14, REG-15; docs/api.md "Fees and refunds").

The operator records payments and decides refunds; a partner sees only its own entries' and
units' lines and files refund requests for its own entries. References and proofs are stored
encrypted and never returned.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from gomoku_shared.pagination import PageIn, paged, sort_by
from gomoku_shared.params import PathId

from ..service_layer import fees
from ..service_layer import schemas as s
from . import fee_views as fv
from .access import Anyone, OperatorKey, command, documented, keyed_write, read


def add_fee_routes(router: APIRouter) -> None:
    @router.get(
        "/events/{event_code}/fees",
        tags=["fees"],
        summary="Fee items and what each entry owes and paid by the deadline (REG-14)",
        **documented(fv.FeesReport),
    )
    async def fees_report(event_code: PathId, request: Request, principal: Anyone) -> dict:
        return await read(request, lambda repos, state: fees.fees_report(repos, state, principal, event_code))

    @router.post(
        "/events/{event_code}/ledger",
        **keyed_write(fv.LedgerLineView, 201, 404),
        tags=["fees"],
        summary="Record a payment received, or correct a line with a new one (REG-14; append-only)",
    )
    async def record_line(
        event_code: PathId, body: s.LedgerLineIn, request: Request, principal: OperatorKey
    ) -> JSONResponse:
        return await command(request, principal, event_code, lambda cmd: fees.record_line(cmd, body), body=body)

    @router.get(
        "/events/{event_code}/ledger",
        tags=["fees"],
        summary="Ledger lines (a partner sees those of its own entries and units)",
        **documented(fv.Ledger),
    )
    async def ledger(event_code: PathId, request: Request, principal: Anyone, page: PageIn) -> dict:
        found = await read(request, lambda repos, state: fees.list_ledger(repos, state, principal, event_code))
        return paged(found, "lines", sort_by("seq", "line_id"), page)

    @router.post(
        "/events/{event_code}/entries/{entry_id}/refund-request",
        **keyed_write(fv.RefundView, 201, 404),
        tags=["fees"],
        summary="A written refund request with its reason and proof (REG-15)",
    )
    async def request_refund(
        event_code: PathId, entry_id: PathId, body: s.RefundRequestIn, request: Request, principal: Anyone
    ) -> JSONResponse:
        return await command(
            request, principal, event_code, lambda cmd: fees.request_refund(cmd, entry_id, body), body=body
        )

    @router.get(
        "/events/{event_code}/refunds",
        tags=["fees"],
        summary="Refund requests and their decisions (a partner sees its own)",
        **documented(fv.Refunds),
    )
    async def refunds(event_code: PathId, request: Request, principal: Anyone, page: PageIn) -> dict:
        found = await read(request, lambda repos, state: fees.list_refunds(repos, state, principal, event_code))
        return paged(found, "refunds", sort_by("refund_id"), page)

    @router.post(
        "/refunds/{refund_id}/decision",
        **keyed_write(fv.RefundView, 200, 404),
        tags=["fees"],
        summary="The organiser grants a refund (a refund line in the ledger) or refuses it (REG-15)",
    )
    async def decide_refund(
        refund_id: PathId, body: s.RefundDecisionIn, request: Request, principal: OperatorKey
    ) -> JSONResponse:
        code = await read(request, lambda repos, _state: fees.refund_event(repos, refund_id))
        return await command(
            request, principal, code, lambda cmd: fees.decide_refund_cmd(cmd, refund_id, body), status=200, body=body
        )
