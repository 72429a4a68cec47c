"""gomoku_shared.idempotency.keyed_transaction: the one helper every service's keyed routes run
their command through (issue 31) — look the key up, replay or work, remember the answer, all in
one transaction; a concurrent twin's stored answer replayed (SQLite and PostgreSQL)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker, create_async_engine

from gomoku_shared.clock import FakeClock
from gomoku_shared.errors import Conflict
from gomoku_shared.idempotency import (
    REPLAYED_HEADER,
    IdempotencyStore,
    KeyedRequest,
    KeyReused,
    Stored,
    fingerprint,
    idempotency_table,
    keyed_transaction,
)


@pytest.fixture
async def keyed(db_url):
    engine = create_async_engine(db_url)
    md = sa.MetaData()
    table = idempotency_table(md)
    async with engine.begin() as conn:
        await conn.run_sync(md.create_all)
    sessions = async_sessionmaker(engine, expire_on_commit=False)

    @asynccontextmanager
    async def transaction() -> AsyncIterator[Any]:
        async with sessions() as session, session.begin():
            yield SimpleNamespace(session=session)

    store = IdempotencyStore(table, FakeClock(datetime(2026, 1, 1, tzinfo=UTC)), ttl_s=3600)
    yield store, transaction, sessions
    await engine.dispose()


def _req(key: str = "k1", body: object = None) -> KeyedRequest:
    return KeyedRequest("operator:-:k1", key, fingerprint("POST", "/v1/things", body or {"n": 1}))


async def test_a_keyed_command_runs_once_and_its_answer_is_replayed(keyed):
    store, transaction, _ = keyed
    runs: list[Any] = []

    async def work(unit: Any) -> dict:
        runs.append(unit)
        return {"thing": len(runs)}

    async def prepare(uow: Any) -> str:
        return "the service's unit of work"

    first = await keyed_transaction(transaction, store, _req(), work, status=201, prepare=prepare)
    assert first == {"thing": 1} and runs == ["the service's unit of work"]
    again = await keyed_transaction(transaction, store, _req(), work, status=201, prepare=prepare)
    assert again.status_code == 201 and again.headers[REPLAYED_HEADER] == "true"
    assert again.body == b'{"thing":1}' and len(runs) == 1
    with pytest.raises(KeyReused):
        await keyed_transaction(transaction, store, _req(body={"n": 2}), work)
    # without a key: the same transaction, nothing looked up or remembered
    assert await keyed_transaction(transaction, store, None, work) == {"thing": 2}
    assert await keyed_transaction(transaction, store, None, work) == {"thing": 3}


async def test_a_sealed_answer_is_stored_sealed_and_opened_for_the_replay(keyed):
    store, transaction, sessions = keyed

    async def work(_uow: Any) -> dict:
        return {"secret": "s3cret"}

    options: dict[str, Any] = {
        "seal": lambda answer: {"secret": answer["secret"][::-1]},
        "unseal": lambda stored: Stored(stored.status, {"secret": stored.body["secret"][::-1]}),
    }
    assert await keyed_transaction(transaction, store, _req(), work, **options) == {"secret": "s3cret"}
    async with sessions() as session:
        assert await store.lookup(session, _req()) == Stored(200, {"secret": "terc3s"})
    replayed = await keyed_transaction(transaction, store, _req(), work, **options)
    assert replayed.body == b'{"secret":"s3cret"}'


async def _twin_stores_first(store: IdempotencyStore, sessions: Any, answer: dict, key: str = "k1") -> None:
    async with sessions() as session, session.begin():
        await store.remember(session, _req(key), 200, answer)


async def test_a_concurrent_twin_that_stored_the_key_first_has_its_answer_replayed(keyed):
    """The twin commits its answer after this request's look-up: this insert fails, and the
    retry replays the twin's answer (or, without retry_twin, the IntegrityError is the caller's)."""
    store, transaction, sessions = keyed
    runs = []

    async def work(_uow: Any) -> dict:
        runs.append(1)
        if len(runs) == 1:
            await _twin_stores_first(store, sessions, {"by": "twin"})
        return {"by": "me"}

    replayed = await keyed_transaction(transaction, store, _req(), work)
    assert replayed.body == b'{"by":"twin"}' and runs == [1]

    async def work_k2(_uow: Any) -> dict:
        await _twin_stores_first(store, sessions, {"by": "twin"}, "k2")
        return {"by": "me"}

    with pytest.raises(IntegrityError):
        await keyed_transaction(transaction, store, _req("k2"), work_k2, retry_twin=False)


async def test_a_refusal_caused_by_a_twin_replays_the_twins_answer_when_asked(keyed):
    """``replay_after_conflict``: the twin's change made this one conflict (a duplicate): its
    stored answer is the answer; a refusal without a stored twin stays a refusal."""
    store, transaction, sessions = keyed

    def duplicate_of_twin(key: str):
        async def duplicate(_uow: Any) -> dict:
            await _twin_stores_first(store, sessions, {"by": "twin"}, key)
            raise Conflict("duplicate_thing", "it exists")

        return duplicate

    replayed = await keyed_transaction(transaction, store, _req(), duplicate_of_twin("k1"), replay_after_conflict=True)
    assert replayed.body == b'{"by":"twin"}'

    async def refused(_uow: Any) -> dict:
        raise Conflict("duplicate_thing", "it exists")

    with pytest.raises(Conflict):
        await keyed_transaction(transaction, store, _req("k3"), refused, replay_after_conflict=True)
    with pytest.raises(Conflict):
        await keyed_transaction(transaction, store, _req("k4"), duplicate_of_twin("k4"))
