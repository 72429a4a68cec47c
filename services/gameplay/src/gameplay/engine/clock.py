"""Server-kept game clocks (PLAY-5): sudden death or Fischer increment.

Pure Python; the time comes from an injected ``time_source`` (a callable returning monotonic
seconds), so tests and simulations drive it. Remaining time is computed on demand from the
moment the running side's clock was started, so a flag is seen whenever anyone asks -- the
server decides time forfeits, never a client report.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field

from .errors import ClockError

TimeSource = Callable[[], float]
Side = Hashable


@dataclass(frozen=True)
class ClockConfig:
    """``initial`` seconds per side; ``increment`` seconds added after each completed move
    (Fischer, 每走一步加N秒); increment 0 is sudden death (包干)."""

    initial: float
    increment: float = 0.0

    def __post_init__(self) -> None:
        if not (self.initial > 0 and math.isfinite(self.initial)):
            raise ValueError(f"initial time must be a positive number of seconds, not {self.initial!r}")
        if not (self.increment >= 0 and math.isfinite(self.increment)):
            raise ValueError(f"increment must be zero or more seconds, not {self.increment!r}")

    @property
    def kind(self) -> str:
        return "fischer" if self.increment else "sudden_death"


@dataclass(frozen=True)
class FlagStatus:
    """Which sides have no time left. One flag: that side loses on time; both: a draw (PLAY-4)."""

    flagged: tuple[Side, ...] = ()

    @property
    def any(self) -> bool:
        return bool(self.flagged)

    @property
    def both(self) -> bool:
        return len(self.flagged) == 2

    @property
    def loser(self) -> Side | None:
        return self.flagged[0] if len(self.flagged) == 1 else None


@dataclass(frozen=True)
class ClockSnapshot:
    """Serialisable state, for records and for restoring a clock after a restart."""

    remaining: dict = field(default_factory=dict)
    running: Side | None = None
    paused: Side | None = None
    moves: dict = field(default_factory=dict)


class GameClock:
    """A two-sided clock. ``sides`` are any labels: colours, or ``first``/``second``."""

    def __init__(
        self, config: ClockConfig, time_source: TimeSource, sides: Sequence[Side] = ("black", "white")
    ) -> None:
        if len(sides) != 2 or sides[0] == sides[1]:
            raise ValueError("a game clock has exactly two distinct sides")
        self.config = config
        self._now = time_source
        self.sides = tuple(sides)
        self._remaining = {s: float(config.initial) for s in self.sides}
        self._moves = {s: 0 for s in self.sides}
        self._running: Side | None = None
        self._since: float | None = None
        self._paused: Side | None = None
        self._stopped = False

    # -- state -----------------------------------------------------------------------------

    def _check_side(self, side: Side) -> None:
        if side not in self._remaining:
            raise ClockError("bad_side", f"unknown clock side {side!r}; sides are {self.sides}")

    def _raw(self, side: Side) -> float:
        r = self._remaining[side]
        if side == self._running and self._since is not None:
            r -= self._now() - self._since
        return r

    def remaining(self, side: Side) -> float:
        """Seconds left for ``side`` as of now (never below zero)."""
        self._check_side(side)
        return max(0.0, self._raw(side))

    def readings(self) -> dict:
        return {s: self.remaining(s) for s in self.sides}

    @property
    def running(self) -> Side | None:
        return self._running

    @property
    def is_paused(self) -> bool:
        return self._paused is not None

    def other(self, side: Side) -> Side:
        self._check_side(side)
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def flag_status(self) -> FlagStatus:
        return FlagStatus(tuple(s for s in self.sides if self._raw(s) <= 0))

    # -- operations ------------------------------------------------------------------------

    def _settle(self) -> None:
        """Charge the running side for the time since its clock started."""
        if self._running is not None and self._since is not None:
            now = self._now()
            self._remaining[self._running] -= now - self._since
            self._since = now

    def start(self, side: Side) -> None:
        """Start ``side``'s clock (the first mover) at the beginning of the game."""
        self._check_side(side)
        if self._running is not None or self._paused is not None or self._stopped or any(self._moves.values()):
            raise ClockError("already_started", "the clock has already been started")
        self._running = side
        self._since = self._now()

    def press(self, side: Side) -> Side:
        """``side`` completes a move: charge its time, add the increment, start the opponent.

        A press after the flag fell is refused (``flagged``): the time ran out first."""
        self._check_side(side)
        if self._running != side:
            raise ClockError("not_running", f"{side!r}'s clock is not running")
        self._settle()
        if self._remaining[side] <= 0:
            raise ClockError("flagged", f"{side!r} ran out of time before the move", side=side)
        self._remaining[side] += self.config.increment
        self._moves[side] += 1
        self._running = self.other(side)
        return self._running

    def pause(self) -> None:
        if self._running is None:
            raise ClockError("not_running", "no clock is running")
        self._settle()
        self._paused, self._running, self._since = self._running, None, None

    def resume(self) -> None:
        if self._paused is None:
            raise ClockError("not_paused", "the clock is not paused")
        self._running, self._paused, self._since = self._paused, None, self._now()

    def stop(self) -> dict:
        """End of game: freeze both clocks; returns the final readings."""
        self._settle()
        self._running, self._since, self._paused, self._stopped = None, None, None, True
        return self.readings()

    def add_time(self, side: Side, seconds: float) -> float:
        """Arbiter correction: add (or, if negative, deduct) ``seconds``; returns the new reading."""
        self._check_side(side)
        if not math.isfinite(seconds) or seconds == 0:
            raise ClockError("bad_amount", f"add a non-zero finite number of seconds, not {seconds!r}")
        self._settle()
        self._remaining[side] += seconds
        return self.remaining(side)

    # -- persistence -----------------------------------------------------------------------

    def snapshot(self) -> ClockSnapshot:
        return ClockSnapshot({s: self._raw(s) for s in self.sides}, self._running, self._paused, dict(self._moves))

    @classmethod
    def restore(
        cls, config: ClockConfig, time_source: TimeSource, snapshot: ClockSnapshot, sides: Sequence[Side] | None = None
    ) -> GameClock:
        clock = cls(config, time_source, tuple(sides) if sides else tuple(snapshot.remaining))
        clock._remaining.update({s: float(v) for s, v in snapshot.remaining.items()})
        clock._moves.update(snapshot.moves)
        clock._paused = snapshot.paused
        if snapshot.running is not None:
            clock._running, clock._since = snapshot.running, time_source()
        return clock
