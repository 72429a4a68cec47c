"""Server clock of one game kept per player side (``first`` / ``second``), in integer ms.

Stored as (remaining per side, running side, since) so that any replica, after any restart,
computes the same readings from the database row: remaining time of the running side is
``remaining - (now - since)``. Increments (Fischer, PLAY-5) are added when an action of the
side completes; increment 0 is sudden death. The professional opening has steps where the same
side acts twice in a row (white chooses move 5 then plays move 6), so the side to run next is
given explicitly instead of assuming alternation.
"""

from __future__ import annotations

from dataclasses import dataclass

SIDES = ("first", "second")


@dataclass(frozen=True)
class ClockState:
    first_ms: int
    second_ms: int
    increment_ms: int = 0
    running: str | None = None
    since_ms: int | None = None

    def stored(self, side: str) -> int:
        return self.first_ms if side == "first" else self.second_ms

    def remaining(self, side: str, now_ms: int) -> int:
        """Milliseconds left for ``side`` as of ``now_ms`` (may be negative: flag down)."""
        left = self.stored(side)
        if side == self.running and self.since_ms is not None:
            left -= max(0, now_ms - self.since_ms)
        return left

    def readings(self, now_ms: int) -> dict[str, int]:
        return {"first": max(0, self.remaining("first", now_ms)), "second": max(0, self.remaining("second", now_ms))}

    def flagged(self, now_ms: int) -> list[str]:
        return [side for side in SIDES if self.remaining(side, now_ms) <= 0]

    @property
    def flag_due_ms(self) -> int | None:
        """When the running side's flag falls if nobody acts."""
        if self.running is None or self.since_ms is None:
            return None
        return self.since_ms + self.stored(self.running)

    def _with(self, side: str, value: int) -> ClockState:
        # built directly rather than by dataclasses.replace: a move changes the clock three times
        if side == "first":
            return ClockState(value, self.second_ms, self.increment_ms, self.running, self.since_ms)
        return ClockState(self.first_ms, value, self.increment_ms, self.running, self.since_ms)

    def _running(self, side: str | None, since_ms: int | None) -> ClockState:
        return ClockState(self.first_ms, self.second_ms, self.increment_ms, side, since_ms)

    def settle(self, now_ms: int) -> ClockState:
        """Charge the running side for the time since it started."""
        if self.running is None:
            return self
        # a clock set to start later (EVT-7: the round's scheduled start) keeps that start
        since = now_ms if self.since_ms is None else max(now_ms, self.since_ms)
        return self._with(self.running, self.remaining(self.running, now_ms))._running(self.running, since)

    def start(self, side: str, now_ms: int) -> ClockState:
        return self.settle(now_ms)._running(side, now_ms)

    def complete(self, actor: str, next_side: str | None, now_ms: int) -> ClockState:
        """``actor`` completed an action at ``now_ms``: charge, add the increment, run ``next_side``."""
        state = self.settle(now_ms)
        if self.running == actor:
            state = state._with(actor, state.stored(actor) + self.increment_ms)
        return state._running(next_side, now_ms if next_side else None)

    def stop(self, now_ms: int) -> ClockState:
        return self.settle(now_ms)._running(None, None)

    def add(self, side: str, added_ms: int, now_ms: int) -> ClockState:
        """Arbiter correction: add (negative: deduct) time."""
        state = self.settle(now_ms)
        return state._with(side, state.stored(side) + added_ms)
