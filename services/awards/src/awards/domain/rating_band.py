"""Issue 32 rating band (ADR 0012) in awards: the published ratings a prize table ranks ("best
under 1600"). The rating is the one registration carried when the section closed (the
organisation's latest published list then), not a rating computed after the event."""

from __future__ import annotations

from dataclasses import dataclass

from .config_error import ConfigError


@dataclass(frozen=True)
class RatingBand:
    """Published ratings from ``at_least`` (inclusive) to ``under`` (exclusive); a player
    without a published rating (None or 0) is inside only when ``include_unrated``. A
    provisional rating counts like any other (ADR 0012)."""

    at_least: int | None = None
    under: int | None = None
    include_unrated: bool = False

    def __post_init__(self) -> None:
        if self.at_least is None and self.under is None:
            raise ConfigError("RatingBand: set at_least or under")
        if self.at_least is not None and self.under is not None and self.under <= self.at_least:
            raise ConfigError(f"RatingBand: under {self.under} must be above at_least {self.at_least}")

    def admits(self, rating: int | None) -> bool:
        if not rating:
            return self.include_unrated
        return (self.at_least is None or rating >= self.at_least) and (self.under is None or rating < self.under)
