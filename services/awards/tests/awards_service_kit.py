"""Builders and a harness for the awards service tests (SQLite + in-memory bus, or
PostgreSQL + RabbitMQ): contract payloads of the events it consumes, and a running service
whose published events are recorded."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

import httpx

from awards.bootstrap import build
from gomoku_shared.clock import FakeClock
from gomoku_shared.contracts import decode, encode, envelope_for
from gomoku_shared.contracts.common import ClockSpec, Entrant, Ruleset, SectionRules
from gomoku_shared.contracts.envelope import Envelope, Payload
from gomoku_shared.contracts.events import BoardStat, EventConfigured, SectionCompleted, StandingRow
from gomoku_shared.messaging.bus import EventBus, Message
from gomoku_shared.migrate import upgrade_async
from gomoku_shared.settings import ServiceSettings
from gomoku_shared.topology import CONSUMES

SWISS_TB = ["points", "buchholz", "median_buchholz", "wins"]


def configured(preset_id: str, event_code: str | None = None, overrides: dict | None = None) -> EventConfigured:
    """`event.configured` for a shipped preset (as registration would send it)."""
    from registration import presets

    config = presets.load(preset_id, overrides=overrides)
    return EventConfigured(
        event_code=event_code or config.id, name=config.name, preset_id=preset_id, config=config.model_dump(mode="json")
    )


def row(
    place: int,
    entrant_id: str,
    *,
    gender: str | None = None,
    points: float = 0,
    unit: str | None = None,
    tiebreaks: dict[str, float] | None = None,
    wins: int = 0,
    games: int = 7,
    decided_by: str | None = None,
    name: str | None = None,
) -> StandingRow:
    return StandingRow(
        place=place,
        entrant_id=entrant_id,
        name=name or entrant_id.upper(),
        gender=gender,
        unit=unit,
        points=points,
        tiebreaks=tiebreaks or {},
        wins=wins,
        games_played=games,
        decided_by=decided_by,
    )


def rules(
    kind: str = "individual", tiebreaks: Sequence[str] = SWISS_TB, rank_by_gender: bool = False, boards: int = 1
) -> SectionRules:
    return SectionRules(
        kind=kind,
        rounds=7,
        boards=boards,
        ruleset=Ruleset(track="professional"),
        clock=ClockSpec(kind="fischer", base_s=3600, increment_s=30),
        tiebreaks=list(tiebreaks),
        rank_by_gender=rank_by_gender,
    )


def completed(
    event_code: str,
    section_id: str,
    standings: list[StandingRow],
    *,
    revision: int = 1,
    stage: str = "main",
    kind: str = "individual",
    rank_by_gender: bool = False,
    entrants: list[Entrant] | None = None,
    board_stats: list[BoardStat] | None = None,
    tiebreaks: Sequence[str] = SWISS_TB,
    name: str | None = None,
) -> SectionCompleted:
    return SectionCompleted(
        event_code=event_code,
        stage=stage,
        section_id=section_id,
        name=name or section_id,
        revision=revision,
        rules=rules(kind, tiebreaks, rank_by_gender, 3 if kind == "team" else 1),
        standings=standings,
        entrants=entrants or [],
        board_stats=board_stats or [],
        rounds_played=7,
    )


def ranked(n: int, prefix: str, *, gender: str | None = None, units: Sequence[str] = ()) -> list[StandingRow]:
    """n entrants on places 1..n, points falling, tiebreaks set."""
    return [
        row(
            i,
            f"{prefix}{i}",
            gender=gender,
            points=14 - i if i < 14 else 0,
            unit=units[(i - 1) % len(units)] if units else None,
            tiebreaks={"buchholz": 40 - i, "median_buchholz": 30 - i, "wins": max(0, 7 - i)},
        )
        for i in range(1, n + 1)
    ]


def da_open(n: int = 12) -> list[StandingRow]:
    """DA open: a woman on place 3 (overall top 8) and two women further down, a shared place 7."""
    out = ranked(n, "o", gender="male")
    women = {3, 10, 11}
    result = []
    for r in out:
        place = 7 if r.place == 8 else r.place  # places 7 and 8 shared
        result.append(
            r.model_copy(
                update={"gender": "female" if r.place in women else "male", "place": place, "shared": r.place in (7, 8)}
            )
        )
    return result


class Harness:
    """A running awards service, its bus and what it published."""

    def __init__(
        self,
        settings: ServiceSettings,
        bus: EventBus | None = None,
        observer_bus: EventBus | None = None,
        clock: FakeClock | None = None,
    ) -> None:
        self.settings = settings
        self.clock = clock or FakeClock()
        self.service = build(settings, bus=bus, clock=self.clock)
        self.bus = self.service.runtime.bus
        self.observer_bus = observer_bus or self.bus
        self.messages: list[Message] = []
        self.client: httpx.AsyncClient | None = None

    async def start(self) -> Harness:
        await upgrade_async("awards", self.settings.database_url_for("awards"))
        await self.service.runtime.start()

        async def record(message: Message) -> None:
            self.messages.append(message)

        async def ignore(message: Message) -> None:
            return None

        if self.observer_bus is not self.bus:
            await self.observer_bus.start()
        await self.observer_bus.subscribe("observer", ["awards.published", "qualifiers.selected"], record, prefetch=1)
        if self.observer_bus is self.bus:
            # the runtime declares every service's queue (gomoku_shared.topology); consume the
            # others here so that the in-memory bus can drain
            for queue, keys in CONSUMES.items():
                if queue != "awards":
                    await self.bus.subscribe(queue, list(keys), ignore, prefetch=1)
        self.client = httpx.AsyncClient(transport=httpx.ASGITransport(app=self.service.app), base_url="http://awards")
        return self

    async def stop(self) -> None:
        if self.client is not None:
            await self.client.aclose()
        await self.service.runtime.stop()
        if self.observer_bus is not self.bus or not self.service.runtime.owns_bus:
            await self.observer_bus.close()

    async def send(self, payload: Payload, event_id: uuid.UUID | None = None) -> Envelope[Any]:
        env = envelope_for(
            payload,
            correlation_id=getattr(payload, "event_code", "test"),
            occurred_at=self.clock.now(),
            event_id=event_id,
        )
        await self.bus.publish([encode(env)])
        return env

    async def settle(self) -> None:
        """In-memory bus: until no outbox row is pending and nothing is queued."""
        drain = getattr(self.bus, "drain", None)
        assert drain is not None, "settle() is for the in-memory bus"
        for _ in range(100):
            await drain()
            if await self.service.runtime.relay.publish_pending() == 0:
                await drain()
                if await self.service.runtime.relay.publish_pending() == 0:
                    return
        raise AssertionError("the service did not become quiet")

    def events(self, event_type: str | None = None) -> list[Envelope[Any]]:
        envs = [decode(m) for m in self.messages]
        return [e for e in envs if event_type is None or e.type == event_type]

    def published(self, section_id: str | None = None) -> list[Any]:
        return [
            e.payload
            for e in self.events("awards.published")
            if section_id is None or e.payload.section_id == section_id
        ]

    def qualifiers(self) -> list[Any]:
        return [e.payload for e in self.events("qualifiers.selected")]
