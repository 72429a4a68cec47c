"""EVT-7: the cross-checks of the event's schedule (``schedule.EventSchedule``) against its stages,
sections and time zone; each problem names its path, like ``validation.cross_check``."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from typing import TYPE_CHECKING

from .errors import ConfigIssue
from .schedule import StageSchedule
from .validation import _check_tz

if TYPE_CHECKING:
    from .event_fields import EventFields

Report = Callable[[str, str], None]
CheckTz = Callable[[str, "datetime | None"], None]


def schedule_issues(event: EventFields) -> list[ConfigIssue]:
    """The cross-checks of EVT-7, each problem naming its path (like ``validation.cross_check``)."""
    issues: list[ConfigIssue] = []
    check_schedule(
        event,
        lambda path, value: _check_tz(path, value, event.timezone, issues),
        lambda path, message: issues.append(ConfigIssue(path, message)),
    )
    return issues


def check_schedule(event: EventFields, check_tz: CheckTz, add: Report) -> None:
    from zoneinfo import ZoneInfo

    try:
        zone = ZoneInfo(event.timezone)
    except Exception:  # reported by the caller
        return
    seen: set[str] = set()
    for index, stage_schedule in enumerate(event.schedule.stages):
        path = f"schedule.stages[{index}]"
        if stage_schedule.stage in seen:
            add(f"{path}.stage", f"stage {stage_schedule.stage!r} is scheduled twice")
        seen.add(stage_schedule.stage)
        try:
            stage = event.stage(stage_schedule.stage)
        except KeyError:
            add(f"{path}.stage", f"unknown stage {stage_schedule.stage!r}")
            continue
        check_tz(f"{path}.arrival_by", stage_schedule.arrival_by)
        check_tz(f"{path}.technical_meeting_at", stage_schedule.technical_meeting_at)
        _check_before_play(event, stage, stage_schedule, path, zone, add)
        _check_slots(stage, stage_schedule, path, zone, check_tz, add)


def _local_day(moment: datetime, zone) -> date:  # noqa: ANN001 - a tzinfo
    return moment.astimezone(zone).date()


def _check_before_play(event, stage, schedule: StageSchedule, path: str, zone, add: Report) -> None:  # noqa: ANN001
    first_slot = min((slot.starts_at for slot in schedule.slots if slot.starts_at.tzinfo), default=None)
    for name in ("arrival_by", "technical_meeting_at"):
        moment = getattr(schedule, name)
        if moment is None or moment.tzinfo is None:
            continue
        if _local_day(moment, zone) > stage.starts_on:
            add(f"{path}.{name}", f"{moment.isoformat()} is after the stage's first day {stage.starts_on}")
        if first_slot is not None and moment >= first_slot:
            add(f"{path}.{name}", "must be before the first round")
    arrival, meeting = schedule.arrival_by, schedule.technical_meeting_at
    if arrival and meeting and arrival.tzinfo and meeting.tzinfo and meeting < arrival:
        add(f"{path}.technical_meeting_at", "is before the arrival deadline")
    deadline = event.check_in.deadline
    if arrival and deadline and arrival != deadline:
        add(f"{path}.arrival_by", f"differs from check_in.deadline {deadline.isoformat()}")


def _check_slots(stage, schedule: StageSchedule, path: str, zone, check_tz: CheckTz, add: Report) -> None:  # noqa: ANN001
    sections = {section.id: section for section in stage.sections}
    rounds: dict[str, dict[int, datetime]] = {}
    for index, slot in enumerate(schedule.slots):
        slot_path = f"{path}.slots[{index}]"
        check_tz(f"{slot_path}.starts_at", slot.starts_at)
        if slot.starts_at.tzinfo is None:
            continue
        for section_id in slot.sections:
            section = sections.get(section_id)
            if section is None:
                add(f"{slot_path}.sections", f"unknown section {section_id!r} in stage {stage.id!r}")
                continue
            if not section.played:
                add(f"{slot_path}.sections", f"{section_id!r} plays no games of its own")
                continue
            first_day = section.starts_on or stage.starts_on
            day = _local_day(slot.starts_at, zone)
            if not first_day <= day <= stage.ends_on:
                add(f"{slot_path}.starts_at", f"{day} is outside {section_id}'s days {first_day}..{stage.ends_on}")
            of_section = rounds.setdefault(section_id, {})
            if slot.round in of_section:
                add(f"{slot_path}.round", f"round {slot.round} of {section_id!r} is scheduled twice")
            of_section[slot.round] = slot.starts_at
    for section_id, by_round in rounds.items():
        _check_rounds(sections[section_id], by_round, path, add)


def _check_rounds(section, by_round: dict[int, datetime], path: str, add: Report) -> None:  # noqa: ANN001
    numbers = sorted(by_round)
    if numbers != list(range(1, len(numbers) + 1)):
        add(f"{path}.slots", f"{section.id}: rounds {numbers} are not 1..{len(numbers)} without a gap")
        return
    starts = [by_round[number] for number in numbers]
    if any(later <= earlier for earlier, later in zip(starts, starts[1:])):
        add(f"{path}.slots", f"{section.id}: rounds do not start in order")
    fmt = section.format
    needed = (fmt.max_rounds or fmt.rounds) if fmt else None
    if needed is not None and len(numbers) < needed:
        add(f"{path}.slots", f"{section.id}: {len(numbers)} rounds scheduled of {needed} (all or none)")
