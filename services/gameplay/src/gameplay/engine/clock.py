"""Clock configuration (PLAY-5): sudden death or Fischer increment, in seconds.

The running clocks of the games the service plays are ``gameplay.domain.clocks.ClockState``;
this configuration describes the playoff stages' clocks (``rounds.PlayoffConfig``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass


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
