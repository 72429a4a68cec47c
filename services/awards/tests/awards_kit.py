"""The awards service's test kit: contract payloads of the events it consumes, and the
service harness (gomoku_shared.testing.harness) on SQLite + in-memory bus, or PostgreSQL +
RabbitMQ."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from awards.bootstrap import build
from gomoku_shared.clock import FakeClock
from gomoku_shared.contracts.common import ClockSpec, Entrant, Ruleset, SectionRules
from gomoku_shared.contracts.events import BoardStat, EventConfigured, SectionCompleted, StandingRow
from gomoku_shared.messaging.bus import EventBus
from gomoku_shared.settings import ServiceSettings
from gomoku_shared.testing.harness import ServiceHarness

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


class Harness(ServiceHarness):
    """The awards service, its bus and what it published (awards.published, qualifiers.selected)."""

    def __init__(
        self,
        settings: ServiceSettings,
        bus: EventBus | None = None,
        observer_bus: EventBus | None = None,
        clock: FakeClock | None = None,
    ) -> None:
        super().__init__(
            build,
            settings,
            bus=bus,
            observer_bus=observer_bus,
            clock=clock,
            observe=["awards.published", "qualifiers.selected", "ratings.published"],
        )

    def published(self, section_id: str | None = None) -> list[Any]:
        return self.payloads("awards.published", section_id)

    def qualifiers(self) -> list[Any]:
        return self.payloads("qualifiers.selected")
