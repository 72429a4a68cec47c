"""Issue 34: the routes of the public entry form, which take no credential (the portal's form
calls them for people, forwarding their address), the registrant's read by secret link, and
the organiser's re-issue of a link.

The form's POST takes no Idempotency-Key: its answer holds the secret link, which is never
stored (a stored answer to replay would keep it). Each client address may send
``public_entries.per_address_per_hour`` entries an hour per event (429 ``rate_limited``).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Request
from fastapi.responses import JSONResponse

from gomoku_shared.api_docs import documented
from gomoku_shared.auth import Principal, RateLimited
from gomoku_shared.db import concurrent_duplicate_refused
from gomoku_shared.params import PathId
from gomoku_shared.ratelimit import LocalBuckets, Policy

from ..service_layer import commands, handlers, public_entries, registrant_page
from ..service_layer import forms as f
from ..service_layer.command import EventCommand
from ..service_layer.commands import Command
from ..service_layer.secret_links import Attempt
from ..service_layer.unit_of_work import RegistrationUnitOfWork
from . import public_views as v
from . import schemas as s
from .access import STAFF, Call, calling, keyed_write, read, state_of
from .schemas import form

TAG = "public entries"
Relinker = Annotated[Call, Depends(calling(STAFF, "registrants.relink"))]


def link_token(alias: str, description: str) -> Any:
    """A secret link's token, sent in a header so that no access log keeps it."""
    return Header(alias=alias, min_length=16, max_length=100, pattern=r"^[A-Za-z0-9_-]+$", description=description)


#: the 429 of a route taking a secret link
WRONG_LINKS = "Too many wrong secret links from this address (too_many_link_failures; see Retry-After)"


def link_attempt(request: Request) -> Attempt:
    """A secret link presented by the request's client (the portal forwards its address): wrong
    tokens are throttled per address (`secret_links`)."""
    address = request.app.state.keyring.proxies.client(request.scope)
    return Attempt(state_of(request).link_throttle, address)


RegistrantToken = Annotated[
    str,
    link_token("X-Registrant-Token", "The token of the registrant's secret link (shown once when the entry was made)"),
]


def public_router() -> APIRouter:
    router = APIRouter(prefix="/v1")

    @router.get(
        "/events/{event_code}/public-entries/form",
        tags=[TAG],
        summary="What the public form asks: the sections it enters (with their birth windows and the residency "
        "kinds their clauses accept), whether it takes entries now, the challenge and the insurance policy (issue 34)",
        **documented(v.PublicForm, 200),
    )
    async def public_entry_form(event_code: PathId, request: Request) -> dict[str, Any]:
        config = await read(request, lambda repos, state: state.config(repos, event_code))
        return public_entries.form_view(config, state_of(request).now())

    @router.get(
        "/events/{event_code}/public-entries/challenge",
        tags=[TAG],
        summary="A sum to solve on the public form (when the organiser switched the challenge on); signed, "
        "valid for 30 minutes (issue 34)",
        **documented(v.PublicChallenge, 200, 403),
    )
    async def public_entry_challenge(event_code: PathId, request: Request) -> dict[str, Any]:
        config = await read(request, lambda repos, state: state.config(repos, event_code))
        rules = config.registration.public_entries
        state = state_of(request)
        challenge = public_entries.new_challenge(state.protector, event_code, state.now())
        return {"required": rules.challenge != "none", **challenge}

    @router.post(
        "/events/{event_code}/public-entries",
        status_code=201,
        tags=[TAG],
        summary="Enter one player on the public form, without a credential: judged by the rules partners' entries "
        "are (REG-1..8, REG-13); a refusal keeps nothing (422 entry_refused with the clause); answers the "
        "registrant's secret link token, shown once (issue 34)",
        **documented(v.PublicEntryMade, 201, 403, 409, 429),
    )
    async def submit_public_entry(event_code: PathId, body: s.PublicEntryIn, request: Request) -> JSONResponse:
        config = await read(request, lambda repos, state: state.config(repos, event_code))
        _take_turn(request, event_code, config.registration.public_entries.per_address_per_hour)
        result = await on_event(request, commands.EnterPublicly(event_code, form(body, f.PublicEntryIn)))
        return JSONResponse(result, status_code=201)

    @router.get(
        "/registrant",
        tags=[TAG],
        summary="The registrant's entry, by its secret link: status, evidence and its review, fees (issue 34)",
        **documented(v.RegistrantEntry, 200, 404, 429),
    )
    async def registrant_entry(request: Request, token: RegistrantToken) -> dict[str, Any]:
        attempt = link_attempt(request)
        return await read(request, lambda repos, state: registrant_page.registrant_view(repos, state, token, attempt))

    @router.post(
        "/events/{event_code}/entries/{entry_id}/registrant-link",
        **keyed_write(v.ReissuedLink, 200),
        tags=[TAG],
        summary="A new secret link for the registrant of a public entry; the old one stops working (issue 34)",
    )
    async def reissue_registrant_link(
        event_code: PathId, entry_id: PathId, call: Relinker, body: s.ReissueIn | None = None
    ) -> JSONResponse:
        body = s.ReissueIn() if body is None else body  # an empty body stands for the body's defaults
        return await call.run(
            commands.ReissueRegistrantLink(event_code, entry_id, form(body, f.ReissueIn)), body, status=200
        )

    return router


def _take_turn(request: Request, code: str, per_hour: int) -> None:
    """The rate limit per client address (and event) of the public form."""
    app = request.app
    buckets: LocalBuckets | None = getattr(app.state, "public_entry_buckets", None)
    if buckets is None:
        buckets = app.state.public_entry_buckets = LocalBuckets()
    address = app.state.keyring.proxies.client(request.scope) or "unknown"
    decision = buckets.take(f"{code}|{address}", Policy(per_hour, 3600))
    if not decision.allowed:
        raise RateLimited(
            "rate_limited",
            f"too many entries from this address; retry in {decision.retry_after_s} s",
            {"retry_after_s": decision.retry_after_s},
            headers={"Retry-After": str(decision.retry_after_s)},
        )


async def on_event(request: Request, command: Command, principal: Principal | None = None) -> Any:
    """A command on its locked event (``handlers.handle``) as the registrant, with no idempotency
    store (see above): the form's caller, or (``principal``) the registrant a secret link proved."""
    state = state_of(request)
    code = handlers.event_of(command)
    assert code is not None, "the doors' commands act on one event"
    with concurrent_duplicate_refused(request.url.path):
        async with request.app.state.runtime.transaction(correlation_id=code) as shared_uow:
            uow = RegistrationUnitOfWork(shared_uow, state.protector)
            cmd = await EventCommand.begin(uow, state, principal or Principal.registrant(), code)
            result = await handlers.handle(command, uow, cmd)
    state.committed(cmd)
    return result
