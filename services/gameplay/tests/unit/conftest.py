"""A gameplay service on SQLite and the in-memory bus, driven by a fake clock (gameplay_kit.Harness)."""

from __future__ import annotations

import pytest
from gameplay_kit import KEYS, Harness

from gomoku_shared.settings import ServiceSettings


@pytest.fixture
async def gp(tmp_path):
    settings = ServiceSettings(
        DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path}/gameplay.sqlite", AMQP_URL=None, API_KEYS=KEYS
    )
    async with Harness(settings) as harness:
        yield harness
