"""Shared helpers of the gameplay service tests: events, a harness around one service."""
from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

import httpx

from gomoku_shared.clock import FakeClock
from gomoku_shared.contracts import decode, encode, envelope_for
from gomoku_shared.contracts.common import ClockSpec, Ruleset
from gomoku_shared.contracts.events import PairingSpec, PlayoffRequired, ResultDecided, RoundPaired

KEYS = "op-key=operator,arb-key=arbiter,pa-key=partner:pa,pb-key=partner:pb"
OP = {"x-api-key": "op-key"}
ARB = {"x-api-key": "arb-key"}
PA = {"x-api-key": "pa-key"}
PB = {"x-api-key": "pb-key"}
START = datetime(2026, 5, 1, 9, 0, tzinfo=timezone.utc)


def pairing(pid: str, first: str, second: str, *, track: str = "free", games: int = 1, base_s: int = 900,
            increment_s: int = 0, fixed_n: int | None = None, round_clock: bool = False,
            forbidden_policy: str = "loss") -> PairingSpec:
    return PairingSpec(
        pairing_id=pid, first=first, second=second, games=games,
        ruleset=Ruleset(track=track, fixed_n=fixed_n, forbidden_policy=forbidden_policy),
        clock=ClockSpec(kind="fischer" if increment_s else "sudden_death", base_s=base_s, increment_s=increment_s),
        round_clock=round_clock, first_partner="pa", second_partner="pb")


def round_paired(*pairings: PairingSpec, rnd: int = 1, section: str = "S1", no_show_minutes: int = 15,
                 starts_at: datetime | None = START) -> RoundPaired:
    return RoundPaired(event_code="EV", stage="main", section_id=section, round=rnd, starts_at=starts_at,
                       no_show_minutes=no_show_minutes, pairings=list(pairings))


def decided(pid: str, first: str, second: str, outcome: str, *, sequence: int, rnd: int = 1,
            section: str = "S1", note: str = "") -> ResultDecided:
    """result.decided as pairing sends it when an arbiter enters or corrects a result."""
    reason = "no_show" if "forfeit" in outcome else "arbiter"
    return ResultDecided(event_code="EV", stage="main", section_id=section, round=rnd, pairing_id=pid, first=first,
                         second=second, outcome=outcome, reason=reason, sequence=sequence, decided_at=START,
                         note=note)


def playoff(*pairings: PairingSpec, decider: ClockSpec | None = None) -> PlayoffRequired:
    return PlayoffRequired(event_code="EV", stage="main", section_id="S1", playoff_id="po1", place_from=1,
                           place_to=2, entrant_ids=[p.first for p in pairings] + [p.second for p in pairings],
                           pairings=list(pairings), decider_clock=decider)


def message(payload, clock: FakeClock):
    return encode(envelope_for(payload, correlation_id="EV", occurred_at=clock.now()))


@dataclass
class Observed:
    events: list[Any] = field(default_factory=list)

    async def handler(self, message) -> None:
        self.events.append(decode(message))

    def of(self, type_: str) -> list[Any]:
        return [e.payload for e in self.events if e.type == type_]


class Api:
    """Thin client: actions of one game; raises nothing, returns the response."""

    def __init__(self, client: httpx.AsyncClient, prefix: str = "") -> None:
        self.c = client
        self.p = prefix

    async def get(self, path: str, headers=OP, **params):
        return await self.c.get(self.p + path, headers=headers, params=params)

    async def post(self, path: str, body: dict | None = None, headers=OP, **kw):
        return await self.c.post(self.p + path, json=body or {}, headers=headers, **kw)

    async def act(self, gid: str, what: str, player: str, headers=OP, **body):
        return await self.post(f"/v1/games/{gid}/{what}", {"player_id": player, **body}, headers=headers)

    async def join_both(self, gid: str, a: str, b: str) -> None:
        for p in (a, b):
            r = await self.act(gid, "join", p)
            assert r.status_code == 200, r.text

    async def game(self, gid: str) -> dict:
        r = await self.get(f"/v1/games/{gid}")
        assert r.status_code == 200, r.text
        return r.json()


async def eventually(pred, timeout: float = 10.0, step: float = 0.02):
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        value = await pred()
        if value:
            return value
        if loop.time() > end:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(step)
