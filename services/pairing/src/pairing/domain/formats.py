"""PAIR-1: a section's format follows its number of entries (thresholds are configuration)."""

from __future__ import annotations

from dataclasses import dataclass

SWISS = "swiss"
ROUND_ROBIN = "round_robin"


@dataclass(frozen=True)
class FormatRule:
    round_robin_max_entries: int  # up to this many entries: single round robin
    swiss_rounds: int  # rounds of the Swiss otherwise (e.g. 7 free / 5 professional)


def choose_format(entries: int, rule: FormatRule) -> tuple[str, int]:
    """(format, number of rounds): a round robin plays n−1 rounds (n rounds for odd n)."""
    if entries < 2:
        raise ValueError("a section needs at least 2 entries")
    if entries <= rule.round_robin_max_entries:
        return ROUND_ROBIN, entries - 1 + entries % 2
    return SWISS, min(rule.swiss_rounds, entries - 1 + entries % 2)
