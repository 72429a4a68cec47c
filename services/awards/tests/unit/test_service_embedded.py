"""Embedded mode (one process, in-memory bus, SQLite per service): the `event.configured` that
registration really emits configures the awards service (AWD-4 amounts over the embedded app)."""

from __future__ import annotations

import httpx
import pytest
from awards_kit import completed, da_open

from gomoku_shared.clock import FakeClock
from gomoku_shared.contracts import encode, envelope_for
from gomoku_shared.embedded import EmbeddedSuite
from gomoku_shared.settings import ServiceSettings

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow


async def test_registration_configures_awards_in_the_embedded_suite(tmp_path):
    suite = EmbeddedSuite(
        ServiceSettings(DATA_DIR=str(tmp_path), API_KEYS="op-key=operator", DATA_KEY="k" * 32), clock=FakeClock()
    )
    await suite.start()
    try:
        transport = httpx.ASGITransport(app=suite.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://suite") as client:
            r = await client.post(
                "/registration/v1/events",
                json={"preset_id": "da-2023", "event_code": "da-2023"},
                headers={"x-api-key": "op-key"},
            )
            assert r.status_code == 201, r.text
            await suite.drain()
            status = (await client.get("/awards/v1/events/da-2023")).json()
            assert status["configured"] and status["preset_id"] == "da-2023"
            env = envelope_for(completed("da-2023", "open", da_open()), correlation_id="da-2023")
            await suite.bus.publish([encode(env)])
            await suite.drain()
            prizes = (await client.get("/awards/v1/events/da-2023/sections/open/prizes")).json()["rows"]
            assert [r["amount"] for r in prizes if r["entrant_id"] == "o3"] == ["5000.00", "2000.00"]
    finally:
        await suite.stop()
