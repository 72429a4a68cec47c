"""EVT-7: the schedule as iCalendar (RFC 5545), built with the ``icalendar`` package: one VEVENT
per session (a round of the sections starting together), the registration window, the arrival
deadline and the technical meeting. UIDs are stable, and a delayed round's SEQUENCE is raised,
so that a subscribed calendar updates the event in place."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta, tzinfo
from zoneinfo import ZoneInfo

from icalendar import Calendar, Event

from gomoku_shared.event_config import EventConfig

from ..domain.schedule import Session

PRODID = "-//Gomoku tournament platform//schedule//EN"


def _event(
    zone: tzinfo, uid: str, summary: str, start: datetime, end: datetime, stamp: datetime, **extra: object
) -> Event:
    """Times in the event's zone (TZID with its VTIMEZONE), never a bare UTC offset."""
    event = Event()
    event.add("uid", uid)
    event.add("summary", summary)
    event.add("dtstart", start.astimezone(zone))
    event.add("dtend", end.astimezone(zone))
    event.add("dtstamp", stamp)
    for name, value in extra.items():
        if value is not None:
            event.add(name.replace("_", "-"), value)
    return event


def calendar(
    config: EventConfig, sessions: Sequence[Session], stamp: datetime, *, title: str, stages: Sequence[str]
) -> bytes:
    """The .ics of ``sessions`` plus the dates of ``stages`` (registration, arrival, meeting)."""
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("x-wr-calname", title)
    cal.add("x-wr-timezone", config.timezone)
    code = config.id
    zone = ZoneInfo(config.timezone)
    window = config.registration
    if window.opens_at is not None:
        cal.add_component(
            _event(zone, f"{code}-registration@gomoku", "Registration (报名)", window.opens_at, window.closes_at, stamp)
        )
    for stage_id in stages:
        schedule = config.schedule.of_stage(stage_id)
        if schedule is None:
            continue
        if schedule.arrival_by is not None:
            at = schedule.arrival_by
            cal.add_component(
                _event(zone, f"{code}-{stage_id}-arrival@gomoku", "Arrival deadline (报到)", at, at, stamp)
            )
        if schedule.technical_meeting_at is not None:
            at = schedule.technical_meeting_at
            end = at + timedelta(hours=1)
            cal.add_component(
                _event(zone, f"{code}-{stage_id}-meeting@gomoku", "Technical meeting (技术会)", at, end, stamp)
            )
    for session in sessions:
        names = ", ".join(config.section(s).name for s in session.sections)
        uid = f"{code}-{session.stage}-r{session.round}-{'+'.join(session.sections)}@gomoku"
        note = f"delayed from {session.scheduled_at.isoformat()}: {session.delay_reason}" if session.delayed else None
        summary = f"{config.name}: round {session.round} ({names})"
        cal.add_component(
            _event(
                zone,
                uid,
                summary,
                session.starts_at,
                session.ends_at,
                stamp,
                description=note,
                sequence=1 if session.delayed else 0,
            )
        )
    cal.add_missing_timezones()
    return cal.to_ical()
