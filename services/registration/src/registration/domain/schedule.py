"""EVT-7: the event's published schedule — its dates, the arrival deadline and technical meeting
where the regulation names them, and the rounds as sessions: the sections that start one round
together at one time. A round an arbiter delayed leaves its slot's session and forms its own at
the new time. Pure functions of the event configuration and the delays known.

Decision: a session's end is an estimate for calendars (the longest clock of its sections: both
players' base time plus 30 increments each, per game of the round), not a rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from gomoku_shared.event_config import EventConfig, SectionConfig

#: increments counted per player and game in the estimated length of a round
ESTIMATED_MOVES = 30


@dataclass(frozen=True)
class Delay:
    starts_at: datetime
    reason: str


@dataclass(frozen=True)
class Session:
    stage: str
    round: int
    starts_at: datetime
    ends_at: datetime
    #: the time in the schedule (differs from starts_at once the round was delayed)
    scheduled_at: datetime
    sections: tuple[str, ...]
    delay_reason: str | None = None

    @property
    def delayed(self) -> bool:
        return self.starts_at != self.scheduled_at


def round_length(section: SectionConfig) -> timedelta:
    """The estimated length of one round of a section (see the module's Decision)."""
    clock, fmt = section.clock, section.format
    if clock is None:
        return timedelta(hours=1)
    per_game = 2 * (clock.base_s + ESTIMATED_MOVES * (clock.increment_s or 0))
    return timedelta(seconds=per_game * (fmt.games_per_round if fmt else 1))


def sessions(
    config: EventConfig, delays: Mapping[tuple[str, int], Delay], only: Iterable[str] | None = None
) -> list[Session]:
    """Every scheduled round of the event (of the sections in ``only``, if given), grouped in
    sessions in time order."""
    wanted = set(only) if only is not None else None
    grouped: dict[tuple, list[str]] = {}
    reasons: dict[tuple, str | None] = {}
    for stage in config.schedule.stages:
        for slot in stage.slots:
            for section_id in slot.sections:
                if wanted is not None and section_id not in wanted:
                    continue
                delay = delays.get((section_id, slot.round))
                starts = delay.starts_at if delay else slot.starts_at
                key = (stage.stage, slot.round, starts, slot.starts_at)
                grouped.setdefault(key, []).append(section_id)
                reasons[key] = delay.reason if delay else None
    out = []
    for (stage_id, rnd, starts, scheduled), section_ids in grouped.items():
        length = max(round_length(config.section(section_id)) for section_id in section_ids)
        out.append(
            Session(
                stage_id,
                rnd,
                starts,
                starts + length,
                scheduled,
                tuple(section_ids),
                reasons[(stage_id, rnd, starts, scheduled)],
            )
        )
    return sorted(out, key=lambda s: (s.starts_at, s.stage, s.round, s.sections))
