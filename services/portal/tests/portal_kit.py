"""The portal's test kit: the web pages in the embedded process, reading the services' APIs as
in production (ADR 0001) with the read-only key the portal is given, and an operator who
creates events through registration (the browser tests, tests/browser, drive the same pages in
Chromium with their own kit)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from gomoku_shared.embedded import EmbeddedSuite
from gomoku_shared.settings import ServiceSettings

OP = {"x-api-key": "op-key"}
#: the operator's key and the viewer key the portal reads with (PORTAL_API_KEY)
KEYS = "op-key=operator,view-key=viewer"
PORTAL_KEY = "view-key"


@dataclass
class Pages:
    """The embedded process (pages at ``/``, each service under ``/<service>``) and a client."""

    suite: EmbeddedSuite
    client: httpx.AsyncClient

    async def create_event(self, preset_id: str, code: str, organisation: str | None = None) -> dict:
        """An event from a shipped preset, created by the operator through registration."""
        body = {"preset_id": preset_id, "event_code": code, **({"organisation": organisation} if organisation else {})}
        r = await self.client.post("/registration/v1/events", headers=OP, json=body)
        assert r.status_code == 201, r.text
        return r.json()


@contextlib.asynccontextmanager
async def pages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, events: Sequence[str] = (), keys: str = KEYS
) -> AsyncIterator[Pages]:
    """The embedded process with the portal reading as the viewer; ``events`` are the event codes
    its home page lists (PORTAL_EVENTS)."""
    monkeypatch.setenv("PORTAL_API_KEY", PORTAL_KEY)
    if events:
        monkeypatch.setenv("PORTAL_EVENTS", ",".join(events))
    suite = EmbeddedSuite(ServiceSettings(DATA_DIR=str(tmp_path), API_KEYS=keys, LOG_JSON=False))
    await suite.start()
    try:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=suite.app), base_url="http://test") as client:
            yield Pages(suite, client)
    finally:
        await suite.stop()
