"""EVT-7: the schedule as iCalendar (RFC 5545), built with the ``icalendar`` package: one VEVENT
per session (a round of the sections starting together), the registration window, the arrival
deadline and the technical meeting. UIDs are stable, and a delayed round's SEQUENCE is raised,
so that a subscribed calendar updates the event in place."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta, tzinfo
from typing import Literal
from zoneinfo import ZoneInfo

from icalendar import Calendar, Event

from gomoku_shared.event_config import EventConfig

from ..domain.schedule import Session

PRODID = "-//Gomoku tournament platform//schedule//EN"

#: the summaries of the calendar's dates: English, Chinese, and both (no language asked for)
WORDS = {
    "registration": ("Registration", "报名", "Registration (报名)"),
    "arrival": ("Arrival deadline", "报到截止", "Arrival deadline (报到)"),
    "meeting": ("Technical meeting", "赛前技术会", "Technical meeting (技术会)"),
}
Lang = Literal["zh", "en"]


def _say(key: str, lang: Lang | None) -> str:
    en, zh, both = WORDS[key]
    return {"en": en, "zh": zh}.get(lang or "", both)


def _session_summary(config: EventConfig, session: Session, lang: Lang | None) -> str:
    """``2022年深圳市五子棋锦标赛：第 1 轮（男子组（大众规则组）、…）`` in Chinese, else in English."""
    if lang == "zh":
        names = "、".join(config.section(s).name_zh or config.section(s).name for s in session.sections)
        return f"{config.name_zh or config.name}：第 {session.round} 轮（{names}）"
    names = ", ".join(config.section(s).name for s in session.sections)
    return f"{config.name}: round {session.round} ({names})"


def _delay_note(session: Session, zone: tzinfo, lang: Lang | None) -> str | None:
    if not session.delayed:
        return None
    if lang is None:
        return f"delayed from {session.scheduled_at.isoformat()}: {session.delay_reason}"
    was = session.scheduled_at.astimezone(zone).strftime("%Y-%m-%d %H:%M")
    if lang == "zh":
        return f"推迟，原定 {was}：{session.delay_reason}"
    return f"delayed from {was}: {session.delay_reason}"


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
    config: EventConfig,
    sessions: Sequence[Session],
    stamp: datetime,
    *,
    title: str,
    stages: Sequence[str],
    lang: Lang | None = None,
) -> bytes:
    """The .ics of ``sessions`` plus the dates of ``stages`` (registration, arrival, meeting),
    its summaries in ``lang`` (issue 28; both languages when none is asked for)."""
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
            _event(
                zone,
                f"{code}-registration@gomoku",
                _say("registration", lang),
                window.opens_at,
                window.closes_at,
                stamp,
            )
        )
    for stage_id in stages:
        schedule = config.schedule.of_stage(stage_id)
        if schedule is None:
            continue
        if schedule.arrival_by is not None:
            at = schedule.arrival_by
            cal.add_component(_event(zone, f"{code}-{stage_id}-arrival@gomoku", _say("arrival", lang), at, at, stamp))
        if schedule.technical_meeting_at is not None:
            at = schedule.technical_meeting_at
            end = at + timedelta(hours=1)
            cal.add_component(_event(zone, f"{code}-{stage_id}-meeting@gomoku", _say("meeting", lang), at, end, stamp))
    for session in sessions:
        uid = f"{code}-{session.stage}-r{session.round}-{'+'.join(session.sections)}@gomoku"
        note = _delay_note(session, zone, lang)
        summary = _session_summary(config, session, lang)
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
