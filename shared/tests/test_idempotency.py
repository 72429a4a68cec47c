"""gomoku_shared.idempotency: one meaning of Idempotency-Key in every service (SQLite and PostgreSQL)."""

from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker, create_async_engine

from gomoku_shared.auth import Principal
from gomoku_shared.clock import FakeClock
from gomoku_shared.idempotency import (
    REPLAYED_HEADER,
    IdempotencyStore,
    KeyedRequest,
    KeyReused,
    Stored,
    fingerprint,
    idempotency_table,
    principal_id,
    replay,
    route_path,
)


@pytest.fixture
async def store(db_url):
    engine = create_async_engine(db_url)
    md = sa.MetaData()
    table = idempotency_table(md)
    async with engine.begin() as conn:
        await conn.run_sync(md.create_all)
    clock = FakeClock(datetime(2026, 1, 1, tzinfo=UTC))
    yield IdempotencyStore(table, clock, ttl_s=3600), async_sessionmaker(engine, expire_on_commit=False), clock
    await engine.dispose()


def _req(key: str = "k1", body: object = None, path: str = "/v1/games/b3/move", who: str = "operator:-:k1"):
    return KeyedRequest(who, key, fingerprint("POST", path, body if body is not None else {"point": "h8"}))


async def test_a_key_replays_its_request_refuses_any_other_and_expires(store):
    keys, sessions, clock = store
    async with sessions() as s, s.begin():
        assert await keys.lookup(s, _req()) is None
        await keys.remember(s, _req(), 200, {"seq": 3})
    async with sessions() as s, s.begin():
        assert await keys.lookup(s, _req()) == Stored(200, {"seq": 3})
        for other in (_req(body={"point": "i9"}), _req(path="/v1/games/b4/move")):
            with pytest.raises(KeyReused) as refused:
                await keys.lookup(s, other)
            assert refused.value.status == 409 and refused.value.code == "idempotency_key_reused"
        # another principal's key of the same name is its own
        assert await keys.lookup(s, _req(who="partner:p2:k4")) is None
    clock.advance(3600)
    async with sessions() as s, s.begin():
        assert await keys.lookup(s, _req(body={"point": "i9"})) is None  # expired: free for a new request
        await keys.remember(s, _req(body={"point": "i9"}), 201, {"seq": 9})
    async with sessions() as s:
        assert await keys.lookup(s, _req(body={"point": "i9"})) == Stored(201, {"seq": 9})


async def test_a_concurrent_twin_storing_the_key_first_fails_the_second_insert(store):
    keys, sessions, _ = store
    async with sessions() as s, s.begin():
        await keys.remember(s, _req(), 200, {"seq": 1})
    with pytest.raises(IntegrityError):
        async with sessions() as s, s.begin():
            await keys.remember(s, _req(), 200, {"seq": 1})


async def test_purge_deletes_only_expired_keys(store):
    keys, sessions, clock = store
    async with sessions() as s, s.begin():
        await keys.remember(s, _req("old"), 200, {})
    clock.advance(1800)
    async with sessions() as s, s.begin():
        await keys.remember(s, _req("new"), 200, {})
    clock.advance(1800)
    assert await keys.purge(sessions) == 1
    async with sessions() as s:
        left = (await s.execute(sa.select(keys.table.c.key))).scalars().all()
    assert left == ["new"]


def test_fingerprints_are_canonical_and_take_a_keyed_digest():
    assert fingerprint("post", "/v1/x", {"a": 1, "b": [1, 2]}) == fingerprint("POST", "/v1/x", {"b": [1, 2], "a": 1})
    assert fingerprint("POST", "/v1/x", {"a": 1}) != fingerprint("PUT", "/v1/x", {"a": 1})
    assert fingerprint("POST", "/v1/x", None) != fingerprint("POST", "/v1/x", {})

    def keyed(data: bytes) -> str:
        return hmac.new(b"secret", data, hashlib.sha256).hexdigest()

    plain = fingerprint("POST", "/v1/entries", {"name": "王秀英"})
    assert fingerprint("POST", "/v1/entries", {"name": "王秀英"}, digest=keyed) != plain
    assert len(plain) == 64


def test_keys_belong_to_role_partner_and_api_key_and_paths_ignore_the_mount():
    assert principal_id(Principal("partner", "p1", "k3")) != principal_id(Principal("partner", "p2", "k3"))
    assert principal_id(Principal("operator", None, "k1")) == "operator:-:k1"
    assert route_path({"path": "/gameplay/v1/games/g/move", "root_path": "/gameplay"}) == "/v1/games/g/move"
    assert route_path({"path": "/v1/games/g/move", "root_path": ""}) == "/v1/games/g/move"


def test_a_replay_answers_the_stored_status_and_body_with_the_header():
    r = replay(Stored(201, {"entry_id": "e1"}))
    assert r.status_code == 201 and r.body == b'{"entry_id":"e1"}' and r.headers[REPLAYED_HEADER] == "true"
