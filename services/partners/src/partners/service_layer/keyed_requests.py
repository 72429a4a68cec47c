"""``Idempotency-Key`` on every POST of the partners service, by the shared mechanism
(``gomoku_shared.idempotency``): the answer is stored in the transaction of the change it
answers, and a request whose key is stored gets the stored answer back (the route replays it).

Answers that show a secret once (a client secret, a webhook signing secret) are stored with the
secret sealed under PARTNERS_KEY, like every secret this service keeps, and opened for a replay."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from gomoku_shared.idempotency import IdempotencyStore, KeyedRequest, Stored, keyed_transaction
from gomoku_shared.runtime import ServiceRuntime

from ..adapters.signing import KeyVault
from .ambient import joined

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


class KeyedRequests:
    """Per process: the store of keyed answers and the vault that seals their secrets."""

    def __init__(self, runtime: ServiceRuntime, store: IdempotencyStore, vault: KeyVault) -> None:
        self.runtime = runtime
        self.store = store
        self.vault = vault

    async def run(self, keyed: KeyedRequest, command: Callable[[], Awaitable[Any]], status: int) -> Any:
        """``command``'s answer, stored under the key in the transaction of its change; or the
        replay of the stored answer when a request with the key came first (the shared keyed
        transaction: a concurrent twin that stored the key first is replayed too)."""

        async def work(uow: Any) -> Any:
            with joined(uow):
                return await command()

        return await keyed_transaction(
            self.runtime.transaction,
            self.store,
            keyed,
            work,
            status=status,
            seal=lambda answer: _sealed(answer, self.vault),
            unseal=lambda stored: _opened(stored, self.vault),
            # a concurrent twin committed first and its change now conflicts with this one (a
            # duplicate subscription, a partner that exists): its stored answer is the answer
            replay_after_conflict=True,
        )
