"""What every registration route shares: the roles, the Idempotency-Key of writes, reads on a
session of their own and commands in one transaction on one locked event."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.responses import JSONResponse
from sqlalchemy.exc import IntegrityError

from gomoku_shared import idempotency
from gomoku_shared.api_docs import View, documented
from gomoku_shared.auth import EventOf, Principal, require
from gomoku_shared.errors import Conflict
from gomoku_shared.idempotency import IdemKey, IdempotencyStore, keyed_request, keyed_transaction
from gomoku_shared.runtime import ServiceRuntime

from ..adapters.repositories import Repositories
from ..service_layer.command import EventCommand
from ..service_layer.state import RegistrationState
from ..service_layer.unit_of_work import RegistrationUnitOfWork

__all__ = [
    "ANYONE",
    "READER",
    "REGISTRANT",
    "STAFF",
    "caller",
    "command",
    "documented",
    "keyed_write",
    "read",
]

log = logging.getLogger("registration.api")

#: who may call a route, by role (issue 29: a route of one event also names its staff action,
#: ``caller``; a staff account is the arbiter role and is authorised per event by that action)
REGISTRANT = ("partner", "operator")
ANYONE = ("partner", "operator", "arbiter")
#: the public event description: the read-only viewer key too (the web front)
READER = ("partner", "operator", "arbiter", "viewer")
STAFF = ("arbiter", "operator")


def caller(
    roles: tuple[str, ...], action: str | None = None, event: EventOf | None = None, *, people: bool = False
) -> Any:
    """The principal of a route: ``roles``, and with ``action`` every staff credential authorised
    for it in the event (``event``, by default the path's ``event_code``); ``people`` admits staff
    accounts to a route every caller may read (the public event description)."""
    return Annotated[Principal, Depends(require(*roles, action=action, event=event, people=people))]


async def _idempotency_key(key: str | None = IdemKey) -> str | None:
    return key


#: every write declares the Idempotency-Key header (validated and documented like the others)
KEYED = [Depends(_idempotency_key)]


def keyed_write(answer: type[View], status: int = 201, *error_statuses: int) -> dict[str, Any]:
    """Route keyword arguments of a write: the Idempotency-Key header, the status and the
    documented answer (``documented``: the handler's dict is not filtered through it)."""
    return {"dependencies": KEYED, "status_code": status, **documented(answer, status, *error_statuses)}


def state_of(request: Request) -> RegistrationState:
    return request.app.state.registration


async def read(request: Request, command: Callable[[Repositories, RegistrationState], Awaitable[Any]]) -> Any:
    """A read on a session of its own (no lock): the repositories and the service's context."""
    state = state_of(request)
    async with request.app.state.runtime.sessionmaker() as session:
        return await command(Repositories(session, state.protector), state)


async def command(
    request: Request,
    principal: Principal,
    code: str,
    command: Callable[[EventCommand], Awaitable[Any]],
    *,
    status: int = 201,
    body: Any = None,
) -> JSONResponse:
    """One command on one event (locked, loaded, visible to the caller as `EventCommand`)."""

    async def on_event(_uow: RegistrationUnitOfWork, cmd: EventCommand | None) -> Any:
        assert cmd is not None, "_run loads the command of every call that names an event"
        return await command(cmd)

    return await run(request, principal, code, on_event, status=status, body=body)


async def run(
    request: Request,
    principal: Principal,
    code: str | None,
    command: Callable[[RegistrationUnitOfWork, EventCommand | None], Awaitable[Any]],
    *,
    status: int = 201,
    body: Any = None,
) -> JSONResponse:
    """One command in one transaction. An Idempotency-Key is bound to the request
    (gomoku_shared.idempotency; the body digest is keyed: bodies carry personal data): a retry
    replays the stored answer, another request with the same key is refused."""
    runtime: ServiceRuntime = request.app.state.runtime
    state = state_of(request)
    store: IdempotencyStore = request.app.state.idempotency
    key = request.headers.get(idempotency.HEADER.lower())  # checked by the route (KEYED)
    keyed = keyed_request(request, principal, key, body, digest=state.protector.digest)
    cmd: EventCommand | None = None

    async def prepare(shared_uow: Any) -> RegistrationUnitOfWork:
        nonlocal cmd
        uow = RegistrationUnitOfWork(shared_uow, state.protector)
        if code is not None:
            cmd = await EventCommand.begin(uow, state, principal, code)
        else:
            await uow.events.lock_writes()
        return uow

    try:
        result = await keyed_transaction(
            lambda: runtime.transaction(correlation_id=code),
            store,
            keyed,
            lambda uow: command(uow, cmd),
            status=status,
            prepare=prepare,
            retry_twin=False,
        )
    except IntegrityError:
        log.warning("integrity error on %s", request.url.path)
        # a concurrent twin of this request won the race (same event code / idempotency key)
        raise Conflict("concurrent_duplicate", "an identical request was processed at the same time; retry") from None
    if isinstance(result, JSONResponse):
        return result  # the stored answer of this key, replayed
    if cmd is not None:
        state.committed(cmd)
        if cmd.access_changed:  # this replica's next check reads the new owner and partner apps
            request.app.state.event_access.forget(cmd.code)
    return JSONResponse(result, status_code=status)
