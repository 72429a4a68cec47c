"""Issue 34: the routes of the delegation door, which take no credential but the delegation's
secret link (the portal's roster page calls them for a unit's leader, forwarding their
address): what the roster asks, starting a delegation, the roster submitted or checked, and
the delegation's page. As the public form's, the POSTs take no Idempotency-Key: the start's
answer holds the secret link, never stored."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from gomoku_shared.api_docs import documented
from gomoku_shared.params import PathId

from ..service_layer import commands, delegation_door, delegation_page
from ..service_layer import forms as f
from ..service_layer.secret_links import Attempt
from . import delegation_views as v
from . import roster_schemas as r
from . import schemas as s
from .access import STAFF, Call, calling, keyed_write, read, state_of
from .public_api import _take_turn, link_attempt, link_token, on_event
from .schemas import form

TAG = "delegations"
Relinker = Annotated[Call, Depends(calling(STAFF, "registrants.relink"))]
DelegationToken = Annotated[
    str,
    link_token(
        "X-Delegation-Token", "The token of the delegation's secret link (shown once when the delegation was started)"
    ),
]


def delegation_router() -> APIRouter:
    router = APIRouter(prefix="/v1")

    @router.get(
        "/events/{event_code}/delegations/form",
        tags=[TAG],
        summary="What a delegation's roster asks: the sections, the rooms and their rates (DA 十一(一)), the "
        "optional services and their prices (DA 十二), the quota (REG-16) and the officials (REG-3) (issue 34)",
        **documented(v.DelegationDoor, 200),
    )
    async def delegation_form(event_code: PathId, request: Request) -> dict[str, Any]:
        config = await read(request, lambda repos, state: state.config(repos, event_code))
        return delegation_page.door_view(config, state_of(request).now())

    @router.post(
        "/events/{event_code}/delegations",
        status_code=201,
        tags=[TAG],
        summary="Start a delegation: its unit and its leader's contact; answers the delegation's secret link "
        "token, shown once (issue 34)",
        **documented(v.DelegationStarted, 201, 403, 409, 429),
    )
    async def start_delegation(event_code: PathId, body: r.DelegationStartIn, request: Request) -> JSONResponse:
        config = await read(request, lambda repos, state: state.config(repos, event_code))
        _take_turn(request, f"delegations:{event_code}", config.registration.public_delegations.per_address_per_hour)
        result = await on_event(request, commands.StartDelegation(event_code, form(body, f.DelegationStartIn)))
        return JSONResponse(result, status_code=201)

    @router.get(
        "/delegation",
        tags=[TAG],
        summary="The delegation by its secret link: each entry's verdict, the quota as it fills with the "
        "exemptions and why, the charges for lodging and services and the money received (issue 34)",
        **documented(v.DelegationPage, 200, 404, 429),
    )
    async def delegation(request: Request, token: DelegationToken) -> dict[str, Any]:
        attempt = link_attempt(request)
        return await read(request, lambda repos, state: delegation_page.delegation_view(repos, state, token, attempt))

    @router.put(
        "/delegation/roster",
        tags=[TAG],
        summary="Submit (or, before the close of registration, replace) the delegation's roster as one "
        "application, judged by the partners' rules (REG-3, REG-16, REG-1..9); all or nothing (422 "
        "roster_refused with each row); after the close 409 roster_closed: the changes process (issue 34)",
        **documented(v.RosterReport, 200, 403, 404, 409, 429),
    )
    async def submit_roster(request: Request, token: DelegationToken, body: r.RosterIn) -> dict[str, Any]:
        code, attempt = await _code_of(request, token)
        result: dict[str, Any] = await on_event(
            request, commands.SubmitRoster(code, token, attempt, form(body, f.RosterIn))
        )
        return result

    @router.post(
        "/delegation/roster/check",
        tags=[TAG],
        summary="Check a roster without submitting it: what each row would become, nothing kept (issue 34)",
        **documented(v.RosterReport, 200, 403, 404, 409, 429),
    )
    async def check_roster(request: Request, token: DelegationToken, body: r.RosterIn) -> dict[str, Any]:
        code, attempt = await _code_of(request, token)
        try:
            await on_event(request, commands.SubmitRoster(code, token, attempt, form(body, f.RosterIn), dry_run=True))
        except delegation_door.DryRun as checked:
            return checked.report
        raise AssertionError("a check always rolls back")  # pragma: no cover

    _staff_routes(router)
    return router


def _staff_routes(router: APIRouter) -> None:
    """The organiser's re-issue of a delegation's link (a lost or leaked one)."""

    @router.post(
        "/events/{event_code}/units/{unit_id}/delegation-link",
        **keyed_write(v.DelegationReissued, 200),
        tags=[TAG],
        summary="A new secret link for a delegation's leader; the old one stops working (issue 34)",
    )
    async def reissue_delegation_link(
        event_code: PathId, unit_id: PathId, call: Relinker, body: s.ReissueIn | None = None
    ) -> JSONResponse:
        body = s.ReissueIn() if body is None else body  # an empty body stands for the body's defaults
        return await call.run(
            commands.ReissueDelegationLink(event_code, unit_id, form(body, f.ReissueIn)), body, status=200
        )


async def _code_of(request: Request, token: str) -> tuple[str, Attempt]:
    """The event of the delegation the link proves, and the attempt (to verify it again in the command)."""
    attempt = link_attempt(request)
    link = await read(request, lambda repos, state: delegation_door.link_of(repos, token, attempt))
    return str(link.event_code), attempt
