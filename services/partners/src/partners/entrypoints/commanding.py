"""The routes' one way to change state: a command run by the service layer's handlers, on the
units of work and the services the composition root built (``app.state``)."""

from __future__ import annotations

from typing import Any

from fastapi import Request

from ..service_layer.handlers import handle


async def run(request: Request, command: Any) -> Any:
    state = request.app.state
    return await handle(command, state.units, state.services)
