"""What every step of a run shares: the platform, the clock, the run's spec and configuration,
the field, what was registered and played so far, and the reads and bounded waits every step
uses. The steps themselves are in registering.py (the field entered, stages closed) and
sweeping.py (the games played), and driver.py puts them together."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from datetime import time as dtime
from typing import Any
from zoneinfo import ZoneInfo

from gomoku_shared.event_config import EventConfig

from .bots import GameView
from .client import ApiError, Platform
from .field import Application, build_field
from .run_spec import RunSpec, load_config, scaled_sizes, shifted_overrides
from .sim_clock import Progress, SimClock, StuckError
from .venue import Venue

#: entry statuses of registration that hold a place (REG-18: accepted while evidence awaits approval)
ACCEPTED = ("accepted", "accepted_pending_evidence")
PLAYING = (*ACCEPTED, "confirmed", None)

Quiet = Callable[[], Awaitable[None]]


def local_moment(config: EventConfig, day, hour: int, minute: int = 0) -> datetime:
    return datetime.combine(day, dtime(hour, minute), tzinfo=ZoneInfo(config.timezone)).astimezone(UTC)


@dataclass
class StageRun:
    stage: str
    sections: list[dict[str, Any]] = field(default_factory=list)


class DriverState:
    """The state of one run and the reads every step of it makes."""

    def __init__(self, platform: Platform, clock: SimClock, quiet: Quiet, spec: RunSpec) -> None:
        self.p = platform
        self.clock = clock
        self.quiet = quiet
        self.spec = spec
        self.code = spec.code
        self.overrides = (
            shifted_overrides(spec.preset_id, spec.shift_years, spec.overrides)
            if spec.shift_years
            else dict(spec.overrides)
        )
        self.config = load_config(spec.preset_id, self.overrides)
        self.sizes = spec.sizes or scaled_sizes(spec.preset_id)
        self.field: list[Application] = build_field(self.config, spec.seed, self.sizes)
        self.registrations: dict[str, dict[str, Any]] = {}
        #: the entrants people entered on the public form (form_entries.py): no partner app acts for them
        self.form_entrants: set[str] = set()
        self.unpaid: list[str] = []  # REG-14: entries left without their fees (sim.fees)
        self.stages: list[StageRun] = []
        self.progress = Progress(spec.progress)
        self.actions = 0
        self.clock_moves: list[str] = []
        self.deadline = time.monotonic() + spec.run_timeout_s
        self.finished_games = 0
        #: game id -> (seq, view): the server's view predicted after our own actions
        self.views: dict[str, tuple[Any, GameView]] = {}
        #: refused bot actions by error code (a game that changed under the bot)
        self.conflicts: dict[str, int] = {}
        #: PLAY-9 / PLAY-10: the games of offline sections, played at the venue (venue.py)
        self.venue = Venue(platform, spec.policy, spec.seed)

    # ------------------------------------------------------------------ helpers

    def _check_deadline(self, what: str) -> None:
        if time.monotonic() > self.deadline:
            raise StuckError(f"the run exceeded {self.spec.run_timeout_s:.0f}s while {what}")

    async def wait_for(self, what: str, probe: Callable[[], Awaitable[Any]], timeout: float | None = None) -> Any:
        """Poll ``probe`` until it returns a truthy value; raise StuckError naming ``what``."""
        timeout = timeout or self.spec.wait_timeout_s
        end = time.monotonic() + timeout
        delay = 0.05
        while True:
            value = await probe()
            if value:
                return value
            if time.monotonic() > end:
                raise StuckError(f"timed out after {timeout:.0f}s waiting for {what}")
            await self.quiet()
            await asyncio.sleep(delay)
            delay = min(delay * 1.5, 1.0)

    async def entries(self, stage_id: str) -> list[dict[str, Any]]:
        answer = await self.p.get("registration", f"/v1/events/{self.code}/entries", params={"stage": stage_id})
        return answer.get("entries", answer if isinstance(answer, list) else [])

    async def pairing_sections(self) -> list[dict[str, Any]]:
        answer = await self.p.get("pairing", f"/v1/events/{self.code}/sections")
        return answer.get("sections", [])

    async def active_games(self) -> list[dict[str, Any]]:
        games = await self.p.game_pages.games({"event_code": self.code, "status": "active"})
        return sorted(games, key=lambda g: g["game_id"])

    async def awards_status(self) -> dict[str, Any]:
        try:
            return await self.p.get("awards", f"/v1/events/{self.code}")
        except ApiError as exc:
            if exc.status == 404:
                return {"sections": []}
            raise

    async def stage_status(self, stage_id: str) -> dict[str, Any]:
        return await self.p.get("registration", f"/v1/events/{self.code}/stages/{stage_id}")
