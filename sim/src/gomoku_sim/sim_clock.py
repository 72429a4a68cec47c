"""The simulation's clock and progress: the services' fake clock moved over /v1/ops/clock, a
one-line progress bar, and the error of a run that stopped progressing."""

from __future__ import annotations

import asyncio
import sys
import time
from datetime import datetime, timedelta

from .client import Platform


class StuckError(RuntimeError):
    """The event did not progress within a bounded wait; the message names what was awaited."""


class SimClock:
    """The simulation clock of the services (CLOCK=fake), moved over /v1/ops/clock."""

    def __init__(self, platform: Platform, services: tuple[str, ...]) -> None:
        self.platform = platform
        self.services = services
        #: held while time moves, and by a crash test while it restarts a service
        self.lock = asyncio.Lock()
        #: the simulation time last set on every service
        self.current: datetime | None = None

    async def now(self) -> datetime:
        answer = await self.platform.get(self.services[0], "/v1/ops/clock")
        return datetime.fromisoformat(answer["now"])

    async def set(self, when: datetime) -> datetime:
        now = await self.now()
        if when <= now:
            self.current = now
            return now
        for s in self.services:
            await self.platform.post(s, "/v1/ops/clock", {"set": when.isoformat()})
        self.current = when
        return when

    async def resync(self) -> None:
        """Bring every service to the simulation time (after one was restarted)."""
        if self.current is not None:
            for s in self.services:
                answer = await self.platform.get(s, "/v1/ops/clock")
                if datetime.fromisoformat(answer["now"]) < self.current:
                    await self.platform.post(s, "/v1/ops/clock", {"set": self.current.isoformat()})

    async def advance(self, seconds: float) -> datetime:
        return await self.set(await self.now() + timedelta(seconds=seconds))


class Progress:
    """A one-line progress bar on stderr (rounds done / rounds planned, games in play)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.tty = enabled and sys.stderr.isatty()
        self.last = 0.0
        self.started = time.monotonic()

    def due(self) -> bool:
        return self.enabled and time.monotonic() - self.last >= (0.3 if self.tty else 5.0)

    def show(
        self, stage: str, done: int, total: int, active: int, finished: int, note: str = "", force: bool = False
    ) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if not force and now - self.last < (0.2 if self.tty else 5.0):
            return
        self.last = now
        width = 30
        frac = 0.0 if total <= 0 else min(1.0, done / total)
        bar = "#" * int(frac * width) + "-" * (width - int(frac * width))
        line = (
            f"[{bar}] {stage}: rounds {done}/{total}  games in play {active:4d}  bot actions {finished:6d}"
            f"  {now - self.started:6.1f}s {note}"
        )
        if self.tty:
            sys.stderr.write("\r" + line[:150].ljust(150))
        else:
            sys.stderr.write(line + "\n")
        sys.stderr.flush()

    def log(self, text: str) -> None:
        if not self.enabled:
            return
        if self.tty:
            sys.stderr.write("\r" + " " * 150 + "\r")
        sys.stderr.write(text + "\n")
        sys.stderr.flush()
