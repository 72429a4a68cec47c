"""Dates of an event as its regulation writes them: a registration that closes at 2022-11-01
00:00 (exclusive, as stored) closes "10月31日" — its last day is the day before, included."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from . import i18n

#: months as the English pages write a date in full ("31 October 2022")
MONTHS = "January February March April May June July August September October November December".split()


def _local(value: Any, zone: str) -> datetime | None:
    try:
        at = datetime.fromisoformat(str(value))
        tz = ZoneInfo(zone)
    except (TypeError, ValueError, KeyError):
        return None
    if at.tzinfo is None:  # the services answer in UTC
        at = at.replace(tzinfo=ZoneInfo("UTC"))
    return at.astimezone(tz)


def day_in_words(day: datetime, words: i18n.Words) -> str:
    if words.lang == "zh":
        return f"{day.year}年{day.month}月{day.day}日"
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def first_day(value: Any, zone: str, words: i18n.Words) -> str:
    """The day an instant falls on in the event's zone, in words; a dash when there is none."""
    local = _local(value, zone)
    return day_in_words(local, words) if local else "—"


def last_day(value: Any, zone: str, words: i18n.Words) -> str:
    """The last day before an exclusive end, in the event's zone: an end at midnight closes the
    day before (the whole of it included); an end during a day closes that day at that time."""
    local = _local(value, zone)
    if local is None:
        return "—"
    if local.timetz().replace(tzinfo=None) == time(0, 0):
        return day_in_words(local - timedelta(days=1), words)
    return day_in_words(local, words) + f" {local:%H:%M}"
