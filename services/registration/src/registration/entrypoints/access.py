"""What every registration route shares: the roles, its caller (``Call``), the Idempotency-Key
of writes, reads on a session of their own and commands (``handlers.handle``) in one
transaction, on their event locked first."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from fastapi import Depends, Request
from fastapi.responses import JSONResponse

from gomoku_shared import idempotency
from gomoku_shared.api_docs import View, documented
from gomoku_shared.auth import EventOf, Principal, require
from gomoku_shared.db import concurrent_duplicate_refused
from gomoku_shared.idempotency import IdemKey, IdempotencyStore, keyed_request, keyed_transaction
from gomoku_shared.runtime import ServiceRuntime

from ..service_layer import handlers
from ..service_layer.command import EventCommand
from ..service_layer.commands import Command
from ..service_layer.state import RegistrationState
from ..service_layer.unit_of_work import Reads, RegistrationUnitOfWork, on_own_session

__all__ = [
    "ANYONE",
    "READER",
    "REGISTRANT",
    "STAFF",
    "Call",
    "calling",
    "documented",
    "keyed_write",
    "read",
]


#: who may call a route, by role (issue 29: a route of one event also names its staff action,
#: ``calling``; a staff account is the arbiter role and is authorised per event by that action)
REGISTRANT = ("partner", "operator")
ANYONE = ("partner", "operator", "arbiter")
#: the public event description: the read-only viewer key too (the web front)
READER = ("partner", "operator", "arbiter", "viewer")
STAFF = ("arbiter", "operator")


@dataclass(frozen=True)
class Call:
    """A route's request and the caller its roles admitted: what the route reads and runs."""

    request: Request
    principal: Principal

    async def read(self, query: Callable[[Reads, RegistrationState], Awaitable[Any]]) -> Any:
        return await read(self.request, query)

    async def run(self, command: Command, body: Any, *, status: int = 201) -> JSONResponse:
        """The command's use case in one transaction (:func:`run`); ``body``: what the request's
        Idempotency-Key binds."""
        return await run(self.request, self.principal, command, status=status, body=body)


def calling(
    roles: tuple[str, ...], action: str | None = None, event: EventOf | None = None, *, people: bool = False
) -> Callable[..., Awaitable[Call]]:
    """The dependency of a route's :class:`Call`: the principal of ``roles``, and with ``action``
    every staff credential authorised for it in the event (``event``, by default the path's
    ``event_code``); ``people`` admits staff accounts to a route every caller may read (the
    public event description)."""
    guard = require(*roles, action=action, event=event, people=people)

    async def call(request: Request, principal: Principal = Depends(guard)) -> Call:
        return Call(request, principal)

    return call


async def event_named_by(request: Request, event_of: Callable[[Reads, str], Awaitable[str]], resource_id: str) -> str:
    """The event a record (an evidence record, a refund request) belongs to, read on a session of
    its own (once per request: the staff check may have read it already)."""
    known = getattr(request.state, "registration_event", None)
    if known is None:
        known = request.state.registration_event = await read(
            request, lambda reads, _state: event_of(reads, resource_id)
        )
    return known


def event_finder(event_of: Callable[[Reads, str], Awaitable[str]], id_name: str) -> EventOf:
    """For the staff check (issue 29): the event of the record the path's ``id_name`` names."""

    async def find(request: Request) -> str | None:
        return await event_named_by(request, event_of, request.path_params[id_name])

    return find


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


async def read(request: Request, command: Callable[[Reads, RegistrationState], Awaitable[Any]]) -> Any:
    """A read on a session of its own (no lock): the repositories and the service's context."""
    state = state_of(request)
    return await on_own_session(
        request.app.state.runtime.sessionmaker, state.protector, lambda reads: command(reads, state)
    )


async def run(
    request: Request, principal: Principal, command: Command, *, status: int = 201, body: Any = None
) -> JSONResponse:
    """One command in one transaction (``handlers.handle``), on its event locked and loaded first
    when it names one (else every write waits: ``lock_writes``). An Idempotency-Key is bound to the request
    (gomoku_shared.idempotency; the body digest is keyed: bodies carry personal data): a retry
    replays the stored answer, another request with the same key is refused."""
    runtime: ServiceRuntime = request.app.state.runtime
    state = state_of(request)
    store: IdempotencyStore = request.app.state.idempotency
    key = request.headers.get(idempotency.HEADER.lower())  # checked by the route (KEYED)
    keyed = keyed_request(request, principal, key, body, digest=state.protector.digest)
    code = handlers.event_of(command)
    cmd: EventCommand | None = None

    async def prepare(shared_uow: Any) -> RegistrationUnitOfWork:
        nonlocal cmd
        uow = RegistrationUnitOfWork(shared_uow, state.protector)
        if code is not None:
            cmd = await EventCommand.begin(uow, state, principal, code)
        else:
            await uow.events.lock_writes()
        return uow

    # a concurrent twin of this request may win the race (same event code / idempotency key): 409
    with concurrent_duplicate_refused(request.url.path):
        result = await keyed_transaction(
            lambda: runtime.transaction(correlation_id=code),
            store,
            keyed,
            lambda uow: handlers.handle(command, uow, state if cmd is None else cmd),
            status=status,
            prepare=prepare,
            retry_twin=False,
        )
    if isinstance(result, JSONResponse):
        return result  # the stored answer of this key, replayed
    if cmd is not None:
        state.committed(cmd)
        if cmd.access_changed:  # this replica's next check reads the new owner and partner apps
            request.app.state.event_access.forget(cmd.code)
    return JSONResponse(result, status_code=status)
