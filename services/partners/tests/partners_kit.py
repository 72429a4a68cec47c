"""The partners service's test kit: an operator creating partners and credentials, the
client-credentials grant as a partner's OAuth library sends it, and the running service —
alone (``harness``: the shared ``ServiceHarness`` on SQLite and the in-memory bus, every answer
checked against its OpenAPI document) or in the embedded process beside the services that
verify its tokens (``embedded``). The staff accounts' helpers are in ``staff_kit``, the
webhooks' in ``webhooks_kit``."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from gomoku_shared.clock import FakeClock
from gomoku_shared.embedded import EmbeddedSuite
from gomoku_shared.testing.documented_answers import check_answers
from gomoku_shared.testing.harness import ServiceHarness
from partners.bootstrap import build
from partners.config import PartnersSettings

OP = {"x-api-key": "op-key"}
KEYS = "op-key=operator,arb-key=arbiter"
#: seals the service's signing keys and webhook secrets in the tests (any 32 characters)
DATA_KEY = "k" * 32
START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


class Harness(ServiceHarness):
    """The partners service alone and every event it published; every successful answer is
    checked against the service's OpenAPI document."""

    async def start(self) -> Harness:
        await super().start()
        check_answers(self.client, self.service.app.openapi())
        return self

    async def partner(self, partner_id: str, scopes: list[str], **extra: Any) -> dict:
        """A partner made by the operator, with one credential (its secret shown once)."""
        return await new_partner(self.client, partner_id, scopes, **extra)

    async def token(self, credential: dict, scope: str | None = None) -> str:
        return await token(self.client, credential, scope=scope)


@contextlib.asynccontextmanager
async def harness(tmp_path: Path, start: datetime = START, **settings: Any) -> AsyncIterator[Harness]:
    """The harness on SQLite in ``tmp_path`` and a fake clock at ``start``; ``settings`` add to
    the service's settings (e.g. ``ACCESS_TOKEN_TTL_S=300``)."""
    config = PartnersSettings(
        DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path}/partners.sqlite",
        DATA_DIR=str(tmp_path),
        AMQP_URL=None,
        API_KEYS=KEYS,
        DATA_KEY=DATA_KEY,
        **settings,
    )
    async with Harness(build, config, clock=FakeClock(start), raise_app_exceptions=False) as running:
        yield running


@dataclass
class Embedded:
    """The embedded process (``/partners`` beside the other services' prefixes), an HTTP client
    to it and the fake clock every service runs on."""

    suite: EmbeddedSuite
    client: httpx.AsyncClient
    clock: FakeClock

    @property
    def partners(self) -> Any:
        """The partners service object (its repositories and signer, for white-box checks)."""
        return self.suite.services["partners"].extras["partners"]


@contextlib.asynccontextmanager
async def embedded(
    tmp_path: Path,
    *,
    only: Sequence[str] = ("partners",),
    clock: FakeClock | None = None,
    base_url: str = "http://embedded",
    keys: str = KEYS,
    **settings: Any,
) -> AsyncIterator[Embedded]:
    """The services named in ``only`` in one embedded process (in-memory bus, SQLite files in
    ``tmp_path``) on one fake clock; ``settings`` add to theirs."""
    config = PartnersSettings(DATA_DIR=str(tmp_path), API_KEYS=keys, DATA_KEY=DATA_KEY, **settings)
    fake = clock or FakeClock(START)
    suite = EmbeddedSuite(config, clock=fake, only=list(only))
    await suite.start()
    try:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=suite.app), base_url=base_url) as client:
            yield Embedded(suite, client, fake)
    finally:
        await suite.stop()


async def new_partner(
    client: httpx.AsyncClient, partner_id: str, scopes: list[str], *, prefix: str = "", **extra
) -> dict:
    r = await client.post(
        f"{prefix}/v1/partners",
        headers=OP,
        json={"partner_id": partner_id, "name": partner_id.title(), "scopes": scopes, **extra},
    )
    assert r.status_code == 201, r.text
    r = await client.post(f"{prefix}/v1/partners/{partner_id}/credentials", headers=OP, json={"label": "server"})
    assert r.status_code == 201, r.text
    return r.json()


async def token(client: httpx.AsyncClient, credential: dict, *, prefix: str = "", scope: str | None = None) -> str:
    form = {"grant_type": "client_credentials"}
    if scope:
        form["scope"] = scope
    r = await client.post(
        f"{prefix}/oauth/token", data=form, auth=(credential["client_id"], credential["client_secret"])
    )
    assert r.status_code == 200, r.text
    return r.json()["access_token"]


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}
