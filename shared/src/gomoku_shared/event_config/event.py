"""The event aggregate: `EventConfig`, an event's fields and lookups (`event_fields`) validated in
full on construction (`validation.cross_check`, `schedule_checks.schedule_issues`)."""

from __future__ import annotations

from pydantic import model_validator

from .errors import _CrossCheckFailed
from .event_fields import EventFields, SectionConfig, StageConfig
from .schedule_checks import schedule_issues
from .validation import cross_check

__all__ = ["EventConfig", "SectionConfig", "StageConfig"]


class EventConfig(EventFields):
    """EVT-1..7: one event; see the package docstring for conventions."""

    @model_validator(mode="after")
    def _cross_checks(self) -> EventConfig:
        issues = cross_check(self) + schedule_issues(self)
        if issues:
            raise _CrossCheckFailed(issues)
        return self
