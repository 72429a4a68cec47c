"""``Idempotency-Key`` on every POST of the partners service (``service_layer.keyed_requests``):
the same key with the same request replays the first answer (``Idempotent-Replayed: true``),
with another request it is refused (409 ``idempotency_key_reused``). ``POST /oauth/token``
takes no key: its answer is a bearer token, which is never stored, and a new token for a retry
costs nothing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel

from gomoku_shared.auth import Principal
from gomoku_shared.idempotency import keyed_request

from ..service_layer.keyed_requests import KeyedRequests


async def keyed(
    request: Request,
    principal: Principal,
    key: str | None,
    body: BaseModel | None,
    command: Callable[[], Awaitable[Any]],
    *,
    status: int = 200,
) -> Any:
    """Run ``command`` (a use case of the service layer) once per Idempotency-Key."""
    if key is None:
        return await command()
    keyed_req = keyed_request(request, principal, key, body)
    assert keyed_req is not None
    requests: KeyedRequests = request.app.state.keyed_requests
    answer = await requests.run(keyed_req, command, status)
    return answer if isinstance(answer, Response) else JSONResponse(answer, status_code=status)
