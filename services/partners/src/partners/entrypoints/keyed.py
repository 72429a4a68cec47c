"""``Idempotency-Key`` on every POST of the partners service, by the shared mechanism
(``gomoku_shared.idempotency``): the same key with the same request replays the first answer
(``Idempotent-Replayed: true``), with another request it is refused (409
``idempotency_key_reused``). The answer is stored in the transaction of the change it answers.

Answers that show a secret once (a client secret, a webhook signing secret) are stored with the
secret sealed under PARTNERS_KEY, like every secret this service keeps, and opened for a replay.
``POST /oauth/token`` takes no key: its answer is a bearer token, which is never stored, and a
new token for a retry costs nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel

from gomoku_shared.auth import Principal
from gomoku_shared.idempotency import IdempotencyStore, Stored, keyed_request, keyed_transaction

from ..adapters.signing import KeyVault
from ..service_layer.ambient import joined

#: fields of an answer that hold a secret shown once (an invitation link's token is one too)
SECRET_FIELDS = ("client_secret", "secret", "token", "accept_path")


def _sealed(answer: Any, vault: KeyVault) -> Any:
    if not isinstance(answer, dict):
        return answer
    return {k: vault.seal_secret(v) if k in SECRET_FIELDS and isinstance(v, str) else v for k, v in answer.items()}


def _opened(stored: Stored, vault: KeyVault) -> Stored:
    body = stored.body
    if isinstance(body, dict):
        body = {k: vault.open_secret(v) if k in SECRET_FIELDS and isinstance(v, str) else v for k, v in body.items()}
    return Stored(stored.status, body)


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
    store: IdempotencyStore = request.app.state.idempotency
    vault: KeyVault = request.app.state.vault
    runtime = request.app.state.runtime

    async def work(uow: Any) -> Any:
        with joined(uow):
            return await command()

    answer = await keyed_transaction(
        runtime.transaction,
        store,
        keyed_request(request, principal, key, body),
        work,
        status=status,
        seal=lambda answer: _sealed(answer, vault),
        unseal=lambda stored: _opened(stored, vault),
        # a concurrent twin committed first and its change now conflicts with this one (a
        # duplicate subscription, a partner that exists): its stored answer is the answer
        replay_after_conflict=True,
    )
    return answer if isinstance(answer, Response) else JSONResponse(answer, status_code=status)
