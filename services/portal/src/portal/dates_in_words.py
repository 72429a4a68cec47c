"""Dates and times in words, the one way every page and printout says them (issue 28): an
event's days ("2022年11月5日至13日" / "5–13 Nov 2022"; a printout spells the month out,
"22–24 June 2023") and an instant in a time zone ("2023年8月26日 14:30（北京时间）" /
"26 Aug 2023, 14:30 (Beijing time)")."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from . import i18n

#: the time zone of the platform's events (the organisers' own): times are said in it where no
#: event's zone is known
PLATFORM_ZONE = "Asia/Shanghai"
MONTHS_SHORT = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
MONTHS_LONG = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def say_days(first: Any, last: Any, lang: str, long_months: bool = False) -> str:
    """The days from ``first`` to ``last`` (ISO dates; ``last`` may be None for one day) in words,
    the shared year and month said once; "" when ``first`` is not a date."""
    try:
        a, b = date.fromisoformat(str(first)[:10]), date.fromisoformat(str(last or first)[:10])
    except ValueError:
        return ""
    if lang == "zh":
        start = f"{a.year}年{a.month}月{a.day}日"
        if a == b:
            return start
        if (a.year, a.month) == (b.year, b.month):
            return f"{start}至{b.day}日"
        return f"{start}至{b.month}月{b.day}日" if a.year == b.year else f"{start}至{b.year}年{b.month}月{b.day}日"
    months = MONTHS_LONG if long_months else MONTHS_SHORT
    end = f"{b.day} {months[b.month - 1]} {b.year}"
    if a == b:
        return end
    if (a.year, a.month) == (b.year, b.month):
        return f"{a.day}–{end}"
    if a.year == b.year:
        return f"{a.day} {months[a.month - 1]} – {end}"
    return f"{a.day} {months[a.month - 1]} {a.year} – {end}"


def say_time(value: Any, zone: str | None, words: i18n.Words) -> str:
    """An ISO instant in words in ``zone``: "2023年8月26日 14:30（北京时间）" /
    "26 Aug 2023, 14:30 (Beijing time)"; a dash when there is none."""
    if value is None or value == "":
        return "—"
    zone = zone or PLATFORM_ZONE
    try:
        at = datetime.fromisoformat(str(value))
        tz = ZoneInfo(zone)
    except (TypeError, ValueError, KeyError):
        return "—"
    if at.tzinfo is None:  # the services answer in UTC
        at = at.replace(tzinfo=ZoneInfo("UTC"))
    local = at.astimezone(tz)
    zone_words = words.t(f"zone.{zone}") if i18n.known(f"zone.{zone}") else _offset(local)
    day = say_days(local.date().isoformat(), None, words.lang)
    return f"{day} {local:%H:%M}（{zone_words}）" if words.lang == "zh" else f"{day}, {local:%H:%M} ({zone_words})"


def _offset(local: datetime) -> str:
    """``UTC+8``, ``UTC+5:30``, ``UTC`` for a zone without words of its own."""
    delta = local.utcoffset()
    minutes = int(delta.total_seconds() // 60) if delta is not None else 0
    if not minutes:
        return "UTC"
    sign, minutes = ("+" if minutes > 0 else "-"), abs(minutes)
    return f"UTC{sign}{minutes // 60}" + (f":{minutes % 60:02d}" if minutes % 60 else "")
