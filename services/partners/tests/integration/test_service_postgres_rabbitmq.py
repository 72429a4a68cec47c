"""The partners service against the real PostgreSQL and RabbitMQ: a partner's lifecycle
publishes its contracts (partner.registered, partner.credentials_revoked), the revocation
reaches a broadcast subscriber as every replica of every service receives it, signing keys
are sealed at rest, and the distributed mode refuses to start without PARTNERS_KEY."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from partners_kit import KEYS, OP, bearer, new_partner, token
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from gomoku_shared.contracts import decode
from gomoku_shared.messaging.bus import Message
from gomoku_shared.messaging.rabbit import RabbitEventBus
from gomoku_shared.migrate import upgrade_async
from gomoku_shared.settings import SettingsError
from gomoku_shared.testing.bus import eventually
from partners.bootstrap import build
from partners.config import PartnersSettings


@pytest.fixture
async def running(fresh_database, amqp_url, bus_namespace) -> AsyncIterator[tuple]:
    url = await fresh_database()
    settings = PartnersSettings(
        DATABASE_URL=url,
        AMQP_URL=amqp_url,
        BUS_NAMESPACE=bus_namespace,
        API_KEYS=KEYS,
        PARTNERS_KEY="service-test-partners-key",
        RELAY_POLL_S=0.05,
    )
    await upgrade_async("partners", settings.database_url)
    service = build(settings)
    observer = RabbitEventBus(amqp_url, namespace=bus_namespace)
    seen: list[Message] = []
    heard: list[Message] = []

    async def record(message: Message) -> None:
        seen.append(message)

    async def hear(message: Message) -> None:
        heard.append(message)

    await observer.start()
    await observer.subscribe("observer", ["partner.*"], record, prefetch=1)
    await observer.subscribe_broadcast(["partner.credentials_revoked"], hear)
    try:
        async with service.running():
            transport = httpx.ASGITransport(app=service.app)
            async with httpx.AsyncClient(transport=transport, base_url="http://partners") as client:
                yield service, seen, heard, client, url
            await service.runtime.bus.delete_declared()
    finally:
        await observer.delete_declared()
        await observer.close()


async def test_lifecycle_events_and_a_revocation_broadcast(running):
    service, seen, heard, c, _ = running
    cred = await new_partner(c, "app-one", ["entries:write", "results:read"])
    tok = await token(c, cred)
    assert (await c.get("/v1/whoami", headers=bearer(tok))).status_code == 200
    r = await c.post(f"/v1/credentials/{cred['client_id']}/revoke", headers=OP, json={"reason": "leaked"})
    assert r.status_code == 200, r.text
    await eventually(lambda: any(m.routing_key == "partner.credentials_revoked" for m in seen), "the revocation event")
    await eventually(lambda: len(heard) == 1, "the revocation broadcast")
    registered = next(decode(m).payload for m in seen if m.routing_key == "partner.registered")
    assert (registered.partner_id, registered.role, registered.scopes) == (
        "app-one",
        "partner",
        ["entries:write", "results:read"],
    )
    revoked = decode(heard[0]).payload
    assert (revoked.partner_id, revoked.client_ids, revoked.reason) == ("app-one", [cred["client_id"]], "leaked")
    r = await c.get("/v1/whoami", headers=bearer(tok))
    assert r.status_code == 401 and r.json()["error"]["code"] == "revoked_token"
    # the list is for the services' verifiers and operators (issue 27 finding 6), not for anyone
    assert (await c.get("/v1/revocations")).status_code == 401
    assert (await c.get("/v1/revocations", headers=OP)).json()["revoked"].keys() == {cred["client_id"]}


async def test_secrets_and_signing_keys_are_never_stored_in_clear(running):
    _, _, _, c, url = running
    cred = await new_partner(c, "app-one", ["results:read"])
    await token(c, cred)
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            stored = (await conn.execute(text("SELECT secret_hash FROM credentials"))).scalar_one()
            sealed = (await conn.execute(text("SELECT private_key_enc FROM signing_keys"))).scalars().all()
            audit = " ".join((await conn.execute(text("SELECT details FROM audit_log"))).scalars().all())
    finally:
        await engine.dispose()
    assert stored.startswith("scrypt$") and cred["client_secret"] not in stored
    assert sealed and all("PRIVATE KEY" not in s for s in sealed)
    assert cred["client_secret"] not in audit


async def test_concurrent_token_requests_get_tokens_one_signing_key_verifies(running):
    import asyncio

    _, _, _, c, _ = running
    cred = await new_partner(c, "app-one", ["results:read"])
    tokens = await asyncio.gather(*(token(c, cred) for _ in range(4)))
    for tok in tokens:
        assert (await c.get("/v1/whoami", headers=bearer(tok))).status_code == 200


def test_the_distributed_mode_refuses_to_start_without_partners_key(tmp_path):
    settings = PartnersSettings(
        DATABASE_URL="postgresql+asyncpg://nobody@127.0.0.1:1/none",
        AMQP_URL="amqp://x@127.0.0.1:1/",
        DATA_DIR=str(tmp_path),
    )
    with pytest.raises(SettingsError, match="PARTNERS_KEY"):
        build(settings)
