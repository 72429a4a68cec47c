"""The credential checks of an app's routes, for the tests that every staff route names the
action it takes (issue 29): ``require(...)`` records ``required_roles`` and ``required_action``
on its dependency."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from fastapi import FastAPI
from fastapi.routing import iter_route_contexts

#: staff routes about no event (every service's): they name no action, and take none
NOT_ABOUT_AN_EVENT = {("GET", "/v1/whoami")}


def guards(dependant: Any) -> Iterator[Any]:
    """Every ``require(...)`` dependency a route's dependencies reach (nested ones too)."""
    for sub in dependant.dependencies:
        if hasattr(sub.call, "required_roles"):
            yield sub.call
        yield from guards(sub)


def staff_routes(app: FastAPI) -> Iterator[tuple[tuple[str, str], str | None]]:
    """(method, path) of each route admitting arbiters, with the action it names (or None)."""
    for route in iter_route_contexts(app.routes):
        dependant = getattr(route, "dependant", None)
        if dependant is None:
            continue
        for guard in guards(dependant):
            if "arbiter" in guard.required_roles:
                for method in route.methods or ():
                    yield (method, str(route.path_format)), guard.required_action
