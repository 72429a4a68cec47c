"""``Idempotency-Key``: one meaning in every service.

A key belongs to the principal that sent it (role, partner and API key) and is bound to the
request it first came with: its method, its path and a digest of its body (the fingerprint).

* the same key with the same request replays the stored answer: the stored status and body,
  with the header ``Idempotent-Replayed: true``; nothing is done again;
* the same key with any other request (another body, path or method) -> 409
  ``idempotency_key_reused``;
* a key expires ``IDEMPOTENCY_TTL_S`` seconds (service clock) after it was stored; after that
  it is free for a new request. Expired rows are deleted by a background task.

What is stored is the answer committed together with the request's change (same transaction);
a refused request changes nothing, stores nothing, and is judged again when retried.

Each service owns its ``idempotency_keys`` table (``idempotency_table``, created by the
service's own migration). A keyed command runs through ``keyed_transaction``, the one helper
every service's keyed routes use: look the key up, replay or do the work, remember the answer,
all in one transaction, and replay a concurrent twin's answer when it stored the key first.
One path does not: gameplay's player actions, whose moves many requests share one statement
(the group commit, ADR 0003); there the batch's statement stores the key with the move, and a
refused or replayed move goes through the same ``IdempotencyStore``. Bodies may carry personal
data: a service passes a keyed digest (registration: an HMAC under its data key) instead of the
default SHA-256.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any

from fastapi import Header
from fastapi.responses import JSONResponse
from sqlalchemy import JSON, BigInteger, Column, Index, Integer, MetaData, String, Table, delete, insert, select
from sqlalchemy.exc import IntegrityError

from .errors import Conflict
from .loops import idle

log = logging.getLogger("gomoku.idempotency")

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
KEY_MAX = 200

#: the route parameter every keyed write declares (documents the header in the OpenAPI)
IdemKey = Header(
    default=None,
    alias=HEADER,
    min_length=1,
    max_length=KEY_MAX,
    description="makes a retry safe: the same key with the same request replays the "
    "first answer (header Idempotent-Replayed: true); with another request "
    "-> 409 idempotency_key_reused; keys expire after IDEMPOTENCY_TTL_S",
)

Digest = Callable[[bytes], str]


def sha256_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def idempotency_table(metadata: MetaData) -> Table:
    table = Table(
        "idempotency_keys",
        metadata,
        Column("principal", String(200), primary_key=True),
        Column("key", String(KEY_MAX), primary_key=True),
        #: digest of method, path and body of the request the key came with
        Column("fingerprint", String(64), nullable=False),
        Column("status", Integer, nullable=False),
        Column("response", JSON, nullable=False),
        #: service clock, epoch milliseconds
        Column("created_ms", BigInteger, nullable=False),
    )
    Index("ix_idempotency_keys_created", table.c.created_ms)
    return table


def principal_id(principal: Any) -> str:
    """Who owns a key: role, partner and API key (another key never sees its answers)."""
    return f"{principal.role}:{principal.partner_id or '-'}:{principal.key_id}"


def route_path(scope: Mapping[str, Any]) -> str:
    """The path below the app's mount point: the same request has the same fingerprint whether
    the service is served alone or mounted in the embedded runner."""
    path, root = scope["path"], scope.get("root_path") or ""
    return path[len(root) :] if root and path.startswith(root) else path


def fingerprint(method: str, path: str, body: Any, digest: Digest = sha256_digest) -> str:
    """Digest of the request: ``body`` is the validated body as JSON data (or None), in a
    canonical form (sorted keys), so that equal requests match however they were serialised."""
    canonical = json.dumps([method.upper(), path, body], sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return digest(canonical.encode())


@dataclass(frozen=True)
class KeyedRequest:
    """A request that came with an Idempotency-Key."""

    principal: str
    key: str
    fingerprint: str


def keyed_request(
    request: Any, principal: Any, key: str | None, body: Any = None, digest: Digest = sha256_digest
) -> KeyedRequest | None:
    """An HTTP request's Idempotency-Key ``key`` bound to the request (its method, its path below
    the mount and ``body``, a pydantic model or None); None when it came without one."""
    if key is None:
        return None
    content = body.model_dump(mode="json") if body is not None else None
    return KeyedRequest(
        principal_id(principal), key, fingerprint(request.method, route_path(request.scope), content, digest)
    )


@dataclass(frozen=True)
class Stored:
    status: int
    body: Any


class KeyReused(Conflict):
    def __init__(self) -> None:
        super().__init__(
            "idempotency_key_reused", "this Idempotency-Key was used with another request (method, path or body)"
        )


class IdempotencyStore:
    """Look-ups and writes of one service's keys, inside the caller's transaction."""

    def __init__(self, table: Table, clock: Any, ttl_s: float) -> None:
        self.table = table
        self.clock = clock
        self.ttl_ms = int(ttl_s * 1000)

    def now_ms(self) -> int:
        return int(self.clock.now().timestamp() * 1000)

    async def lookup(self, session, req: KeyedRequest) -> Stored | None:
        """The stored answer of this request, None for a new (or expired) key; raises 409 when
        the key came with another request."""
        table = self.table
        row = (
            await session.execute(
                select(table.c.fingerprint, table.c.status, table.c.response, table.c.created_ms).where(
                    table.c.principal == req.principal, table.c.key == req.key
                )
            )
        ).first()
        if row is None:
            return None
        if row.created_ms + self.ttl_ms <= self.now_ms():
            await session.execute(delete(table).where(table.c.principal == req.principal, table.c.key == req.key))
            return None
        if row.fingerprint != req.fingerprint:
            raise KeyReused()
        return Stored(row.status, row.response)

    async def remember(self, session, req: KeyedRequest, status: int, body: Any) -> None:
        """Store the answer (a concurrent twin storing the same key first makes this insert
        fail: the caller's transaction rolls back and its retry finds the stored answer)."""
        await session.execute(
            insert(self.table).values(
                principal=req.principal,
                key=req.key,
                fingerprint=req.fingerprint,
                status=status,
                response=body,
                created_ms=self.now_ms(),
            )
        )

    async def purge(self, sessionmaker) -> int:
        async with sessionmaker() as session, session.begin():
            res = await session.execute(
                delete(self.table).where(self.table.c.created_ms + self.ttl_ms <= self.now_ms())
            )
        return res.rowcount or 0

    def purger(self, sessionmaker, every_s: float | None = None, stop: asyncio.Event | None = None):
        """A background task deleting expired keys (any replica may run it: deletes are idempotent),
        until ``stop`` is set."""
        interval = every_s or max(1.0, min(self.ttl_ms / 1000, 3600.0))

        async def purge_expired_idempotency_keys() -> None:
            while not await idle(stop, interval):
                try:
                    await self.purge(sessionmaker)
                except Exception:  # noqa: BLE001 - retried on the next tick
                    log.exception("purging expired idempotency keys failed")

        return purge_expired_idempotency_keys


def replay(stored: Stored) -> JSONResponse:
    return JSONResponse(stored.body, status_code=stored.status, headers={REPLAYED_HEADER: "true"})


async def keyed_transaction(
    transaction: Callable[[], AbstractAsyncContextManager[Any]],
    store: IdempotencyStore,
    keyed: KeyedRequest | None,
    work: Callable[[Any], Awaitable[Any]],
    *,
    status: int = 200,
    prepare: Callable[[Any], Awaitable[Any]] | None = None,
    seal: Callable[[Any], Any] | None = None,
    unseal: Callable[[Stored], Stored] | None = None,
    retry_twin: bool = True,
    replay_after_conflict: bool = False,
) -> Any:
    """Run ``work(uow)`` in one transaction (``transaction()``: the service's unit of work, with
    ``.session``) once per Idempotency-Key: the answer, or ``replay`` of the stored one.

    In the transaction: ``prepare(uow)`` (the locks a command takes before anything is read;
    what it returns is what ``work`` is given instead of the unit of work), the key's look-up (a stored answer is replayed, a key that came with another request is refused,
    409), ``work``, and the answer remembered with ``status`` (``seal``: what is stored instead,
    ``unseal`` opens it for a replay; a service's secrets are stored sealed). Without a key it
    is the same transaction without look-up or memory.

    A concurrent twin that stored the same key first fails this insert (IntegrityError): with
    ``retry_twin`` (and a key) the transaction runs once more and replays the twin's answer;
    otherwise the IntegrityError is the caller's. ``replay_after_conflict``: a refusal
    (``Conflict``, not a reused key) after which a twin's stored answer, if there is one, is the
    answer (the twin's change is what made this one conflict)."""
    attempts = 2 if keyed is not None and retry_twin else 1
    for attempt in range(1, attempts + 1):
        try:
            async with transaction() as uow:
                unit = await prepare(uow) if prepare is not None else uow
                if keyed is not None:
                    stored = await store.lookup(uow.session, keyed)
                    if stored is not None:
                        return replay(unseal(stored) if unseal else stored)
                answer = await work(unit)
                if keyed is not None:
                    await store.remember(uow.session, keyed, status, seal(answer) if seal else answer)
            return answer
        except IntegrityError:
            if attempt == attempts:
                raise
            # a concurrent twin stored the same key first: the next attempt replays its answer
        except Conflict as refusal:
            if keyed is None or not replay_after_conflict or isinstance(refusal, KeyReused):
                raise
            async with transaction() as uow:
                stored = await store.lookup(uow.session, keyed)
            if stored is None:
                raise
            return replay(unseal(stored) if unseal else stored)
    raise AssertionError("unreachable")


def for_runtime(runtime, table: Table) -> IdempotencyStore:
    """The store of a service, expiring keys after its IDEMPOTENCY_TTL_S, purged in the background."""
    store = IdempotencyStore(table, runtime.clock, runtime.settings.idempotency_ttl_s)
    runtime.background(store.purger(runtime.sessionmaker, stop=runtime.stopping))
    return store
