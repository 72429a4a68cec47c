"""Helpers of the webhooks tests: bus events as the producers publish them, and a webhook
receiver served by uvicorn on 127.0.0.1 that records what it is sent."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import uvicorn

from gomoku_shared.contracts import encode, envelope_for
from gomoku_shared.contracts.common import ClockSpec, Ruleset
from gomoku_shared.contracts.envelope import Payload
from gomoku_shared.contracts.events import (
    AwardsPublished,
    GameFinished,
    GameStarted,
    PairingSpec,
    PlayoffRequired,
    RoundPaired,
)


def pairing(pairing_id: str, first: str, second: str, first_partner: str | None, second_partner: str | None):
    return PairingSpec(
        pairing_id=pairing_id,
        first=first,
        second=second,
        ruleset=Ruleset(track="free"),
        clock=ClockSpec(base_s=600),
        first_partner=first_partner,
        second_partner=second_partner,
    )


def round_paired(*pairings: PairingSpec, round_no: int = 1) -> RoundPaired:
    return RoundPaired(event_code="WH", stage="main", section_id="S1", round=round_no, pairings=list(pairings))


def playoff_required(*pairings: PairingSpec) -> PlayoffRequired:
    entrants = sorted({p.first for p in pairings} | {p.second for p in pairings})
    return PlayoffRequired(
        event_code="WH",
        stage="main",
        section_id="S1",
        playoff_id="po1",
        place_from=1,
        place_to=2,
        entrant_ids=entrants,
        pairings=list(pairings),
    )


def game_started(pairing_id: str, black: str, white: str) -> GameStarted:
    return GameStarted(
        event_code="WH",
        section_id="S1",
        round=1,
        pairing_id=pairing_id,
        game_id=f"{pairing_id}.g1",
        black=black,
        white=white,
    )


def game_finished(pairing_id: str, black: str, white: str) -> GameFinished:
    return GameFinished(
        event_code="WH",
        section_id="S1",
        round=1,
        pairing_id=pairing_id,
        game_id=f"{pairing_id}.g1",
        black=black,
        white=white,
        winner=black,
        result="black",
        reason="five",
        first=black,
        second=white,
    )


def awards_published() -> AwardsPublished:
    return AwardsPublished(
        event_code="WH",
        stage="main",
        section_id="S1",
        revision=1,
        places=[{"place": 1, "name": "Ann", "birth_date": "2001-02-03"}],
    )


def messages(*payloads: Payload):
    return [encode(envelope_for(p, correlation_id="webhooks-test")) for p in payloads]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Receiver:
    """Records every request; answers ``status`` (200 by default)."""

    port: int
    status: int = 200
    received: list[tuple[dict[str, str], bytes]] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def bodies(self) -> list[dict[str, Any]]:
        return [json.loads(body) for _, body in self.received]

    def ids(self) -> list[str]:
        return [headers["webhook-id"] for headers, _ in self.received]

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
        self.received.append((headers, body))
        await send({"type": "http.response.start", "status": self.status, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


@contextlib.asynccontextmanager
async def serving(app: Any, port: int) -> AsyncIterator[None]:
    """``app`` served by uvicorn on 127.0.0.1:``port`` for the block."""
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None, access_log=False))
    task = asyncio.create_task(server.serve())
    try:
        async with asyncio.timeout(30):
            while not server.started:
                await asyncio.sleep(0.02)
        yield
    finally:
        server.should_exit = True
        await task


def now() -> datetime:
    return datetime.now(UTC)
