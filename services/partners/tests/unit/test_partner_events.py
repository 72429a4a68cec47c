"""What the partners service tells the others on the bus (docs/architecture.md, "Bus events"),
through the partners kit's harness (the service alone, SQLite, in-memory bus): a new partner is
announced once, with no secret in it; a revoked credential is announced at once to every
replica, so that none accepts its tokens until they expire."""

from __future__ import annotations

import pytest
from partners_kit import OP, START, harness

# the whole service through its API (seconds a test): make test-fast leaves it out
pytestmark = pytest.mark.slow


async def test_a_new_partner_is_announced_once_and_no_event_carries_its_secret(tmp_path):
    async with harness(tmp_path) as service:
        credential = await service.partner("app-one", ["entries:write", "results:read"])
        await service.settle()
        registered = service.payloads("partner.registered")
        assert [(p.partner_id, p.role, sorted(p.scopes)) for p in registered] == [
            ("app-one", "partner", ["entries:write", "results:read"])
        ]
        assert all(credential["client_secret"].encode() not in message.body for message in service.messages)


async def test_a_revoked_credential_is_announced_with_its_client_id_and_time(tmp_path):
    async with harness(tmp_path) as service:
        credential = await service.partner("app-one", ["results:read"])
        assert await service.token(credential)
        service.clock.advance(90)
        r = await service.client.post(f"/v1/credentials/{credential['client_id']}/revoke", headers=OP, json={})
        assert r.status_code == 200, r.text
        await service.settle()
        revoked = service.payloads("partner.credentials_revoked")
        assert [(p.partner_id, p.client_ids) for p in revoked] == [("app-one", [credential["client_id"]])]
        assert revoked[0].revoked_at.timestamp() == START.timestamp() + 90
