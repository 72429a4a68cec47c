"""``Idempotency-Key`` on every POST of the partners service, by the shared mechanism
(``gomoku_shared.idempotency``): the answer is stored in the transaction of the change it
answers, and a request whose key is stored gets the stored answer back (the route replays it).

Answers that show a secret once (a client secret, a webhook signing secret) are stored with the
secret sealed under PARTNERS_KEY, like every secret this service keeps, and opened for a replay."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from gomoku_shared.errors import Conflict
from gomoku_shared.idempotency import IdempotencyStore, KeyedRequest, KeyReused, Stored
from gomoku_shared.runtime import ServiceRuntime

from ..adapters.signing import KeyVault
from ..adapters.transactions import translating
from ..domain.errors import AlreadyStored
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

    async def run(
        self, keyed: KeyedRequest, command: Callable[[], Awaitable[Any]], status: int
    ) -> tuple[Any, Stored | None]:
        """(``command``'s answer, None), stored under the key in the transaction of its change;
        or (None, the stored answer) when a request with the key came first."""
        for attempt in (1, 2):
            try:
                async with translating(self.runtime.transaction()) as uow:
                    stored = await self.store.lookup(uow.session, keyed)
                    if stored is not None:
                        return None, _opened(stored, self.vault)
                    with joined(uow):
                        answer = await command()
                    await self.store.remember(uow.session, keyed, status, _sealed(answer, self.vault))
                return answer, None
            except AlreadyStored:
                if attempt == 2:
                    raise
                # a concurrent twin stored the same key first: its answer is replayed now
            except KeyReused:
                raise
            except Conflict:
                # a concurrent twin committed first and its change now conflicts with this one (a
                # duplicate subscription, a partner that exists): its stored answer is the answer
                async with self.runtime.transaction() as uow:
                    stored = await self.store.lookup(uow.session, keyed)
                if stored is None:
                    raise
                return None, _opened(stored, self.vault)
        raise AssertionError("unreachable")
