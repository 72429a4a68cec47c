"""Webhook secrets at rest (issue 14): on PostgreSQL, a subscription's secrets are stored sealed
under PARTNERS_KEY, never in plain text; they are shown only when made (creation, rotation); a
subscription stored in plain text before sealing existed (revision 0003) is sealed by the
service at start with its real key and keeps signing; deliveries verify with the
``standardwebhooks`` library, and after a rotation both secrets verify during the grace."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import asyncpg
import httpx
from partners_kit import KEYS, bearer, new_partner, token
from standardwebhooks import Webhook
from webhooks_kit import Receiver, awards_published, free_port, messages, serving

from gomoku_shared.clock import FakeClock
from gomoku_shared.messaging.memory import InMemoryEventBus
from gomoku_shared.migrate import upgrade
from gomoku_shared.testing.bus import eventually
from partners.adapters.signing import SEALED_PREFIX
from partners.bootstrap import build
from partners.config import PartnersSettings

START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
HOOKS = "/v1/webhooks"
LEGACY_SECRET = "whsec_" + "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
LEGACY_PREVIOUS = "whsec_" + "QkRHVkRHVkRHVkRHVkRHVkRHVkRHVkRH"


def _dsn(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://")


async def _legacy_subscription(url: str, receiver_url: str) -> None:
    """A partner and its subscription as revision 0003 stored them: secrets in plain text."""
    conn = await asyncpg.connect(_dsn(url))
    try:
        await conn.execute(
            "INSERT INTO partners (partner_id, name, kind, scopes, rate_quota, rate_window_s, status, created_at) "
            "VALUES ('legacy-app', 'Legacy', 'partner', 'webhooks:manage', 600, 60, 'active', $1)",
            START,
        )
        await conn.execute(
            "INSERT INTO webhook_subscriptions (subscription_id, partner_id, url, event_types, description, secret,"
            " previous_secret, previous_valid_until, status, failure_streak, created_at) VALUES ('sub_legacy',"
            " 'legacy-app', $1, 'awards.published', '', $2, $3, $4, 'active', 0, $5)",
            receiver_url,
            LEGACY_SECRET,
            LEGACY_PREVIOUS,
            START + timedelta(days=1),
            START,
        )
    finally:
        await conn.close()


async def _stored(url: str) -> dict[str, tuple[str, str | None]]:
    conn = await asyncpg.connect(_dsn(url))
    try:
        rows = await conn.fetch("SELECT subscription_id, secret, previous_secret FROM webhook_subscriptions")
        return {r["subscription_id"]: (r["secret"], r["previous_secret"]) for r in rows}
    finally:
        await conn.close()


async def _column_types(url: str) -> dict[str, str]:
    conn = await asyncpg.connect(_dsn(url))
    try:
        rows = await conn.fetch(
            "SELECT column_name, data_type FROM information_schema.columns "
            "WHERE table_name = 'webhook_subscriptions' AND column_name IN ('secret', 'previous_secret')"
        )
        return {r["column_name"]: r["data_type"] for r in rows}
    finally:
        await conn.close()


def _no_plaintext(stored: dict[str, tuple[str, str | None]], *plain: str) -> bool:
    values = [v for pair in stored.values() for v in pair if v is not None]
    return all(v.startswith(SEALED_PREFIX) for v in values) and not any(p in v for p in plain for v in values)


async def test_secrets_are_sealed_at_rest_and_a_plaintext_row_from_before_is_sealed_and_signs(fresh_database):
    url = await fresh_database()
    await asyncio.to_thread(upgrade, "partners", url, "0003")
    receiver = Receiver(free_port())
    await _legacy_subscription(url, receiver.url)
    settings = PartnersSettings(
        DATABASE_URL=url,
        DATA_DIR="unused",
        API_KEYS=KEYS,
        PARTNERS_KEY="sealed-secrets-test-key",
        ACCESS_TOKEN_TTL_S=3600,
        WEBHOOK_POLL_S=0.05,
        WEBHOOK_ALLOW_LOOPBACK=True,  # the receiver is on 127.0.0.1
    )
    await asyncio.to_thread(upgrade, "partners", url)  # 0003 -> 0004: the columns widen, nothing sealed
    assert await _column_types(url) == {"secret": "text", "previous_secret": "text"}
    assert (await _stored(url))["sub_legacy"] == (LEGACY_SECRET, LEGACY_PREVIOUS)
    bus = InMemoryEventBus()
    service = build(settings, bus=bus, clock=FakeClock(START))
    await service.runtime.start()  # the webhook worker seals the plaintext row first
    try:
        await eventually(
            lambda: _sealed_now(url, LEGACY_SECRET, LEGACY_PREVIOUS), "the plaintext row sealed at start", timeout=60
        )
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=service.app), base_url="http://e") as client:
            cred = await new_partner(client, "app-one", ["webhooks:manage"])
            auth = bearer(await token(client, cred))
            body = {"url": receiver.url, "event_types": ["awards.published"]}
            created = await client.post(f"{HOOKS}/subscriptions", headers=auth, json=body)
            assert created.status_code == 201, created.text
            first = created.json()["secret"]
            path = f"{HOOKS}/subscriptions/{created.json()['subscription_id']}"
            # shown once: never again on a read
            assert "secret" not in (await client.get(path, headers=auth)).json()
            assert all(
                "secret" not in s for s in (await client.get(f"{HOOKS}/subscriptions", headers=auth)).json()["items"]
            )
            assert _no_plaintext(await _stored(url), first, LEGACY_SECRET, LEGACY_PREVIOUS)
            async with serving(receiver, receiver.port):
                await bus.publish(messages(awards_published()))
                await eventually(lambda: len(receiver.received) == 2, "both subscriptions' deliveries", timeout=60)
                by_secret = _verified_by(receiver.received, first, LEGACY_SECRET, LEGACY_PREVIOUS)
                # the legacy row signs with its current and (in grace) previous secret; the new one with its own
                assert by_secret == {first: 1, LEGACY_SECRET: 1, LEGACY_PREVIOUS: 1}
                rotated = await client.post(f"{path}/rotate-secret", headers=auth, json={"grace_s": 3600})
                assert rotated.status_code == 200, rotated.text
                second = rotated.json()["secret"]
                assert second != first
                assert _no_plaintext(await _stored(url), first, second, LEGACY_SECRET, LEGACY_PREVIOUS)
                receiver.arrivals.clear()
                await bus.publish(messages(awards_published()))
                await eventually(lambda: len(receiver.received) == 2, "the deliveries after the rotation", timeout=60)
            # during the grace the new subscription's delivery verifies with the old and the new secret
            assert _verified_by(receiver.received, first, second) == {first: 1, second: 1}
    finally:
        await service.runtime.stop()
        await bus.close()


async def _sealed_now(url: str, *plain: str) -> bool:
    return _no_plaintext(await _stored(url), *plain)


def _verified_by(received: list[tuple[dict[str, str], bytes]], *secrets: str) -> dict[str, int]:
    """For each secret, how many of the requests verify with it (standardwebhooks)."""
    counts = dict.fromkeys(secrets, 0)
    for headers, body in received:
        for secret in secrets:
            try:
                Webhook(secret).verify(body, headers)
            except Exception:  # noqa: BLE001, S112 - does not verify with this one
                continue
            counts[secret] += 1
    return counts
