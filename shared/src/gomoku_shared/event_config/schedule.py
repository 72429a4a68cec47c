"""EVT-7: the event's schedule — per stage the arrival (报到) deadline and technical meeting where
the regulation names them, and the time slots in which the rounds start.

A time slot is one start time shared by the sections listed in it: every section of a slot
starts that round together. A section's rounds are either all scheduled (rounds 1..R, R at least
its fixed or maximum number of rounds) or not at all; a round beyond the schedule (a round robin
of a larger field than planned) starts when it is published.

Conventions (see the package docstring): every datetime carries its UTC offset, checked against
the event's timezone; a slot's local date lies inside its section's days (the section's
``starts_on`` or the stage's, through the stage's ``ends_on``) — checked in ``schedule_checks``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import Field

from .base import _Model


class TimeSlot(_Model):
    """EVT-7: round ``round`` of every section listed starts at ``starts_at`` (together)."""

    round: Annotated[int, Field(ge=1)]
    starts_at: datetime
    sections: Annotated[list[str], Field(min_length=1)]


class StageSchedule(_Model):
    """EVT-7: one stage's published times."""

    stage: str
    #: 报到: players arrive (and check in) before this time
    arrival_by: datetime | None = None
    #: 赛前技术会议
    technical_meeting_at: datetime | None = None
    slots: list[TimeSlot] = []


class EventSchedule(_Model):
    """EVT-7: the schedule of every stage that publishes one (stages not listed have none)."""

    stages: list[StageSchedule] = []

    def of_stage(self, stage_id: str) -> StageSchedule | None:
        return next((stage for stage in self.stages if stage.stage == stage_id), None)

    def round_starts(self, stage_id: str, section_id: str) -> list[datetime]:
        """The start of each scheduled round of a section, round 1 first ([] = unscheduled)."""
        stage = self.of_stage(stage_id)
        if stage is None:
            return []
        by_round = {slot.round: slot.starts_at for slot in stage.slots if section_id in slot.sections}
        return [by_round[number] for number in sorted(by_round)]
