"""EVT-7: the event's published schedule — its dates, the arrival deadline and technical meeting
where the regulation names them, and the rounds as sessions: the sections that start one round
together at one time. A round an arbiter delayed leaves its slot's session and forms its own at
the new time. Once a stage is closed, a section lists only the rounds it will play: the
arbiter may choose fewer rounds than the preset schedules (PAIR-1), and the preset's slots
beyond them are dropped; a section merged into another plays its host's rounds, a cancelled
one none (REG-12). Pure functions of the event configuration, the closed sections and the
delays known.

Decision: a session's end is an estimate for calendars (the longest clock of its sections: both
players' base time plus 30 increments each, per game of the round), not a rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

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


def rounds_to_play(closed: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """The rounds each section of a closed stage will play, from the close's summary of its
    sections (section_id, status, merged_into, rounds): ready → its rounds; merged → its host's;
    cancelled → none. A section without a number (scored from others) is not limited."""
    summary = {row["section_id"]: row for row in closed}
    out: dict[str, int] = {}
    for section_id, row in summary.items():
        host = summary.get(row.get("merged_into") or "") if row.get("status") == "merged" else row
        if row.get("status") == "cancelled":
            out[section_id] = 0
        elif host is not None and host.get("status") == "ready" and host.get("rounds"):
            out[section_id] = int(host["rounds"])
    return out


def sessions(
    config: EventConfig,
    delays: Mapping[tuple[str, int], Delay],
    only: Iterable[str] | None = None,
    rounds: Mapping[str, int] | None = None,
) -> list[Session]:
    """Every scheduled round of the event (of the sections in ``only``, if given), grouped in
    sessions in time order; a section in ``rounds`` (closed: rounds_to_play) only up to its
    number of rounds."""
    wanted = set(only) if only is not None else None
    limits = rounds or {}
    grouped: dict[tuple, list[str]] = {}
    reasons: dict[tuple, str | None] = {}
    for stage in config.schedule.stages:
        for slot in stage.slots:
            for section_id in slot.sections:
                if wanted is not None and section_id not in wanted:
                    continue
                if section_id in limits and slot.round > limits[section_id]:
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
