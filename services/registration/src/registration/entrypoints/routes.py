"""The registration routes as data: a `Command` runs one command on one event (a keyed POST, in
one transaction on the locked event); a `Read` answers from a session of its own (no lock).
A route names its path, who may call it (its roles and, for staff, the action it is per event:
issue 29), its body and answer and the service-layer function that does the work; `add_routes` makes the FastAPI endpoints from them, their parameters (and
so the OpenAPI document) following the route: the path's ids, the body, the caller."""

from __future__ import annotations

import inspect
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from gomoku_shared.api_docs import View
from gomoku_shared.auth import Principal
from gomoku_shared.pagination import PageIn, SortKey, paged
from gomoku_shared.params import PathId

from ..adapters.repositories import Repositories
from .access import ANYONE, caller, command, documented, keyed_write, read

_PATH_IDS = re.compile(r"{(\w+)}")
_PLAIN = inspect.Parameter.POSITIONAL_OR_KEYWORD


@dataclass(frozen=True)
class Command:
    """POST (or `method`) `path`: `run(cmd, *the path's ids but event_code, body)` on the event of
    the path (`event_code`), or on the event `event_of(repos, first id)` names."""

    name: str  # the endpoint's name, and so its operationId
    path: str
    run: Callable[..., Awaitable[Any]]
    body: type[BaseModel]
    who: tuple[str, ...]  # the roles that may call it (access.REGISTRANT, ANYONE, STAFF, ...)
    answer: type[View]
    summary: str
    #: the staff action (gomoku_shared.staff_roles.ACTIONS) every staff credential must hold in the
    #: event; None: staff accounts are refused (a route for partner apps and the operator's keys)
    action: str | None = None
    status: int = 201
    errors: tuple[int, ...] = ()
    event_of: Callable[[Repositories, str], Awaitable[str]] | None = None
    #: an empty body stands for the body's defaults
    body_optional: bool = False
    method: str = "POST"

    def add_to(self, router: APIRouter, tag: str) -> None:
        ids = [name for name in _PATH_IDS.findall(self.path) if name != "event_code"]

        async def endpoint(request: Request, principal: Principal, body: Any, **path: str) -> JSONResponse:
            body = self.body() if body is None else body  # only an optional body is ever None
            args = [path[name] for name in ids]
            event_of = self.event_of
            code = path["event_code"] if event_of is None else await _event_named_by(request, event_of, args[0])
            return await command(
                request, principal, code, lambda cmd: self.run(cmd, *args, body), status=self.status, body=body
            )

        add = router.api_route(
            self.path,
            methods=[self.method],
            **keyed_write(self.answer, self.status, *self.errors),
            tags=[tag],
            summary=self.summary,
        )
        add(_named(endpoint, self.name, self._parameters(ids), JSONResponse))

    def _parameters(self, ids: list[str]) -> list[inspect.Parameter]:
        """The path's ids, the body and the caller; an optional body comes last (it has a default)."""
        event = None if self.event_of is None else _event_finder(self.event_of, ids[0])
        path, who = _path_parameters(self.path), _caller(caller(self.who, self.action, event))
        if self.body_optional:
            return [*path, *who, inspect.Parameter("body", _PLAIN, annotation=self.body | None, default=None)]
        return [*path, inspect.Parameter("body", _PLAIN, annotation=self.body), *who]


async def _event_named_by(
    request: Request, event_of: Callable[[Repositories, str], Awaitable[str]], resource_id: str
) -> str:
    """The event a record (an evidence record, a refund request) belongs to, read on a session of
    its own (once per request: the staff check may have read it already)."""
    known = getattr(request.state, "registration_event", None)
    if known is None:
        known = request.state.registration_event = await read(
            request, lambda repos, _state: event_of(repos, resource_id)
        )
    return known


def _event_finder(
    event_of: Callable[[Repositories, str], Awaitable[str]], id_name: str
) -> Callable[[Request], Awaitable[str | None]]:
    """For the staff check (issue 29): the event of the record the path names."""

    async def find(request: Request) -> str | None:
        return await _event_named_by(request, event_of, request.path_params[id_name])

    return find


@dataclass(frozen=True)
class Read:
    """GET `path`: `query(repos, state, principal, *the path's ids, **filters)` (without the
    principal where `personal` is False: the answer is the same for every caller)."""

    name: str
    path: str
    query: Callable[..., Awaitable[Any]]
    answer: type[View]
    summary: str
    #: the staff action of the read (issue 29; "event.read": staff reads in full); None with
    #: `people`: a public read (every caller, staff accounts too)
    action: str | None = "event.read"
    who: tuple[str, ...] = ANYONE
    people: bool = False
    #: query-string filters (`text_filter`, `filter_of`), passed to the query by name
    filters: tuple[inspect.Parameter, ...] = ()
    personal: bool = True
    #: a list answer: (its list's field, the sort key of an item) — the route takes ``limit`` and
    #: ``cursor`` and answers ``next_cursor`` (gomoku_shared.pagination)
    pages: tuple[str, Callable[[Any], SortKey]] | None = None

    def add_to(self, router: APIRouter, tag: str) -> None:
        ids = _PATH_IDS.findall(self.path)
        names = [parameter.name for parameter in self.filters]

        async def endpoint(request: Request, principal: Principal, **values: Any) -> Any:
            args = [values[name] for name in ids]
            chosen = {name: values[name] for name in names}
            caller = (principal,) if self.personal else ()
            found = await read(request, lambda repos, state: self.query(repos, state, *caller, *args, **chosen))
            return found if self.pages is None else paged(found, *self.pages, values["page"])

        paging = [inspect.Parameter("page", _PLAIN, annotation=PageIn)] if self.pages else []
        who = caller(self.who, self.action, people=self.people)
        parameters = [*_path_parameters(self.path), *_caller(who), *paging, *self.filters]
        router.get(self.path, tags=[tag], summary=self.summary, **documented(self.answer))(
            _named(endpoint, self.name, parameters, dict)
        )


def text_filter(name: str, max_length: int) -> inspect.Parameter:
    """A query-string filter: a string of at most `max_length` characters, or None."""
    return inspect.Parameter(name, _PLAIN, annotation=str | None, default=Query(None, max_length=max_length))


def filter_of(name: str, annotation: Any) -> inspect.Parameter:
    """A query-string filter declared by its annotation (``Annotated[str | None, Query(...)]``), None when absent."""
    return inspect.Parameter(name, _PLAIN, annotation=annotation, default=None)


def add_routes(router: APIRouter, tag: str, routes: Sequence[Command | Read]) -> None:
    """The routes of one tag, in the order given (the order of the OpenAPI document)."""
    for route in routes:
        route.add_to(router, tag)


def _path_parameters(path: str) -> list[inspect.Parameter]:
    return [inspect.Parameter(name, _PLAIN, annotation=PathId) for name in _PATH_IDS.findall(path)]


def _caller(who: Any) -> list[inspect.Parameter]:
    return [
        inspect.Parameter("request", _PLAIN, annotation=Request),
        inspect.Parameter("principal", _PLAIN, annotation=who),
    ]


def _named(
    endpoint: Callable[..., Awaitable[Any]], name: str, parameters: list[inspect.Parameter], returns: Any
) -> Callable[..., Awaitable[Any]]:
    """The endpoint under the route's name, with the route's parameters as its signature (FastAPI
    reads the parameters, and the OpenAPI document its operationId, from them)."""
    endpoint.__name__ = endpoint.__qualname__ = name
    endpoint.__signature__ = inspect.Signature(parameters, return_annotation=returns)  # type: ignore[attr-defined]
    return endpoint
