"""The typed client against the real services, in one process (the embedded suite: every service
under /<service>, the in-memory bus, SQLite): tokens by the client-credentials grant, cached and
renewed; a partner's entry registered and read back; refusals as typed exceptions carrying the
common error body; 429 waited out after Retry-After, within bounds; the sync client alike.
(Games, their actions and the stream are proven by every simulation, whose bots act through
this client, and over the network by tests/distributed/test_partner_integration.py.)"""

from __future__ import annotations

import asyncio

import httpx
import pytest

from gomoku_client import (
    AsyncClient,
    Client,
    ClientCredentials,
    Forbidden,
    NotFound,
    RateLimited,
    RetryPolicy,
    TokenError,
    Unauthorized,
    Unreachable,
)
from gomoku_client import models as m
from gomoku_shared.embedded import EmbeddedSuite
from gomoku_shared.settings import ServiceSettings

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow

OP = {"x-api-key": "op-key"}
SZ_OPEN = "2022-10-26T10:00:00+08:00"


@pytest.fixture
async def suite(tmp_path):
    suite = EmbeddedSuite(
        ServiceSettings(
            DATA_DIR=str(tmp_path),
            DATA_KEY="k" * 32,
            API_KEYS="op-key=operator",
            CLOCK="fake",
            CLOCK_START=SZ_OPEN,
            LOG_JSON=False,
        ),
        only=["registration", "pairing", "gameplay", "awards", "partners"],
    )
    await suite.start()
    try:
        yield suite
    finally:
        await suite.stop()


def _http(suite) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=suite.app), base_url="http://platform", timeout=30)


async def _partner(http: httpx.AsyncClient, partner_id: str, scopes: list[str], **extra) -> ClientCredentials:
    body = {"partner_id": partner_id, "name": partner_id, "scopes": scopes, **extra}
    assert (await http.post("/partners/v1/partners", headers=OP, json=body)).status_code == 201
    cred = await http.post(f"/partners/v1/partners/{partner_id}/credentials", headers=OP, json={"label": "t"})
    assert cred.status_code == 201, cred.text
    return ClientCredentials(cred.json()["client_id"], cred.json()["client_secret"])


def _entry(n: int) -> m.EntryIn:
    return m.EntryIn(
        stage="online",
        section_id="men-free",
        player=m.PlayerIn.model_validate(
            {
                "name": f"Zhang Wei {n}",
                "gender": "male",
                "birth_date": "1991-03-07",
                "id_number": f"44030119910307{n:04d}",
                "external_id": f"app-user-{n}",
            }
        ),
        evidence=[m.EvidenceIn(kind="household_registration", document_ref=f"HK-{n:04d}", region="Shenzhen")],
        insurance=m.InsuranceIn(confirmed=True, document_ref=f"POL-{n:04d}"),
    )


async def test_a_partner_registers_and_reads_with_a_cached_token(suite):
    async with _http(suite) as http:
        created = await http.post(
            "/registration/v1/events", headers=OP, json={"preset_id": "sz-2022", "event_code": "sz22"}
        )
        assert created.status_code == 201, created.text
        one = await _partner(http, "app-one", ["entries:write", "results:read"])
        two = await _partner(http, "app-two", ["results:read"])
        async with AsyncClient("http://platform", credentials=one, http=http) as client:
            me = await client.whoami()
            assert (me.role, me.partner_id) == ("partner", "app-one")
            entry = await client.register("sz22", _entry(1), idempotency_key="entry-1")
            again = await client.register(
                "sz22", _entry(1), idempotency_key="entry-1"
            )  # replayed, not registered twice
            assert entry.entry_id == again.entry_id and entry.entrant_id
            listed = await client.entries("sz22")
            assert [e.entry_id for e in listed.entries] == [entry.entry_id]
            # the partner's own user id on its player: shown to it, and searchable
            assert listed.entries[0].players[0].external_id == "app-user-1"
            assert [e.entry_id for e in (await client.entries("sz22", external_id="app-user-1")).entries] == [
                entry.entry_id
            ]
            assert (await client.entries("sz22", external_id="app-user-2")).entries == []
            assert (await client.entry("sz22", entry.entry_id)).players[0].id_number.endswith("0001")
            assert one.tokens_obtained == 1  # one token for every request so far
            assert client.rate_limit is not None and client.rate_limit.policy == "partner"

            # the token is renewed before it expires (its lifetime here: made to have passed)
            one._expires_at = 0.0
            await client.whoami()
            assert one.tokens_obtained == 2

            # the service clock passes the token's expiry: the refusal is seen, a new token obtained
            assert (await http.post("/partners/v1/ops/clock", headers=OP, json={"advance_s": 600})).status_code == 200
            assert (await client.whoami()).partner_id == "app-one"
            assert one.tokens_obtained == 3

        async with AsyncClient("http://platform", credentials=two, http=http) as other:
            with pytest.raises(NotFound) as unseen:  # another partner's entry does not exist for it
                await other.entry("sz22", entry.entry_id)
            assert unseen.value.error is not None and unseen.value.status == 404
            with pytest.raises(Forbidden) as refused:
                await other.register("sz22", _entry(2))
            assert refused.value.code == "insufficient_scope"
            assert refused.value.details["required"] == ["entries:write"]
            assert refused.value.correlation_id

        bad = ClientCredentials(one.client_id, "not-the-secret")
        async with AsyncClient("http://platform", credentials=bad, http=http) as wrong:
            with pytest.raises(TokenError) as denied:
                await wrong.whoami()
            assert (denied.value.status, denied.value.error) == (401, "invalid_client")


async def test_429_is_waited_out_after_retry_after_and_the_wait_is_bounded(suite):
    async with _http(suite) as http:
        limited = await _partner(http, "app-busy", ["results:read"], rate_limit={"quota": 2, "window_s": 2})
        async with AsyncClient("http://platform", credentials=limited, http=http) as client:
            await client.whoami()
            await client.whoami()  # the quota is spent
            sent = client.requests
            started = asyncio.get_running_loop().time()
            assert (await client.whoami()).partner_id == "app-busy"  # after a 429 and its Retry-After
            assert client.requests >= sent + 2 and asyncio.get_running_loop().time() - started >= 0.9
        await asyncio.sleep(2.2)  # the bucket is full again
        impatient = RetryPolicy(rate_limited_retries=0)
        async with AsyncClient("http://platform", credentials=limited, http=http, retry=impatient) as client:
            await client.whoami()
            await client.whoami()
            with pytest.raises(RateLimited) as limited_error:
                await client.whoami()
            assert limited_error.value.code == "rate_limited" and limited_error.value.retry_after_s >= 1


def test_the_sync_client_over_a_socket(tmp_path):
    """Client (blocking, generated from AsyncClient) against the suite served by uvicorn."""
    import socket
    import threading
    import time

    import uvicorn

    suite = EmbeddedSuite(
        ServiceSettings(DATA_DIR=str(tmp_path), DATA_KEY="k" * 32, API_KEYS="op-key=operator", LOG_JSON=False),
        only=["registration", "gameplay", "partners"],
    )
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(suite.app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
            time.sleep(0.05)
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base) as http:
            assert (
                http.post(
                    "/partners/v1/partners",
                    headers=OP,
                    json={"partner_id": "app-sync", "name": "s", "scopes": ["results:read"]},
                ).status_code
                == 201
            )
            cred = http.post("/partners/v1/partners/app-sync/credentials", headers=OP, json={"label": "t"}).json()
        creds = ClientCredentials(cred["client_id"], cred["client_secret"])
        with Client(base, credentials=creds) as client:
            assert client.whoami().partner_id == "app-sync"
            assert client.games(player="nobody").games == []
            with pytest.raises(NotFound) as missing:
                client.game("no-such-game")
            assert missing.value.code and missing.value.error is not None
            assert creds.tokens_obtained == 1
        with Client(
            f"http://127.0.0.1:{port + 1 if port < 65535 else 1}", credentials=creds, retry=RetryPolicy.none()
        ) as client:
            with pytest.raises(Unreachable):
                client.whoami()
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def test_sync_py_is_generated_from_aio_py():
    import importlib.util
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location("generate_sync", root / "generate_sync.py")
    assert spec is not None and spec.loader is not None
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    source = (root / "src/gomoku_client/aio.py").read_text()
    assert (root / "src/gomoku_client/sync.py").read_text() == generator.generate(source), (
        "run python clients/python/generate_sync.py"
    )


async def test_unauthorized_carries_the_common_error(suite):
    async with _http(suite) as http:
        from gomoku_client import ApiKey

        async with AsyncClient("http://platform", credentials=ApiKey("nope"), http=http) as client:
            with pytest.raises(Unauthorized) as refused:
                await client.game("g-1")
            assert refused.value.code == "invalid_api_key" and refused.value.error is not None
