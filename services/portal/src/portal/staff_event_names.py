"""Events by name, and times in words, for the pages people meet (issue 29).

The organisation page offers the organisation's events by name (registration's list of them,
``GET /v1/events?organisation=``), the staff list and the invitation say in which event a role
holds by the event's name, and the console's home lists a person's events by name: never by
code. The name is in the page's language (the event's schedule, ``GET /v1/events/{code}/schedule``,
carries its Chinese name and its time zone); a name nobody knows is shown as the code, the last
resort.

Times (an invitation's expiry, a payment's, a check-in's) are said in the event's time zone, or
the organisation's events' one, in words: "2023年8月26日 14:30（北京时间）" /
"26 Aug 2023, 14:30 (Beijing time)" (``dates_in_words.say_time``)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

# say_time is dates_in_words' (one way of saying times); named here too for the staff pages that import it from here
from .dates_in_words import PLATFORM_ZONE
from .dates_in_words import say_time as say_time
from .upstream import Upstream, UpstreamError

#: at most so many events are looked up by name for one page (the rest show registration's name)
MAX_NAMED = 40
#: at most so many of an organisation's events are listed
MAX_LISTED = 200


@dataclass(frozen=True)
class NamedEvent:
    """An event as a person reads it: its name in the page's language, its time zone."""

    code: str
    name: str
    timezone: str = PLATFORM_ZONE
    organisation: str = ""


async def _schedule(upstream: Upstream, code: str) -> Mapping[str, Any]:
    try:
        found = await upstream.optional("registration", f"/v1/events/{code}/schedule")
    except UpstreamError:
        return {}
    return found if isinstance(found, Mapping) else {}


async def with_names(upstream: Upstream, event: Any) -> Any:
    """Registration's event with its Chinese name (``name_zh``, from its schedule) beside its
    name, for the staff pages to say it in the page's language (``Site.html``)."""
    if not isinstance(event, Mapping) or event.get("name_zh") or not event.get("event_code"):
        return event
    schedule = await _schedule(upstream, str(event["event_code"]))
    return {**event, "name_zh": schedule.get("name_zh")} if schedule.get("name_zh") else event


def in_language(event: Any, lang: str) -> Any:
    """The event with ``name`` in ``lang`` (its Chinese name on a Chinese page, when known)."""
    if lang == "zh" and isinstance(event, Mapping) and event.get("name_zh"):
        return {**event, "name": event["name_zh"]}
    return event


def _named(event: Mapping[str, Any], schedule: Mapping[str, Any], lang: str) -> NamedEvent:
    code = str(event.get("event_code") or event.get("code") or schedule.get("event_code") or "")
    name_en = str(schedule.get("name") or event.get("name") or "")
    name_zh = str(schedule.get("name_zh") or event.get("name_zh") or "")
    name = (name_zh or name_en) if lang == "zh" else (name_en or name_zh)
    zone = str(schedule.get("timezone") or event.get("timezone") or PLATFORM_ZONE)
    return NamedEvent(code, name or code, zone, str(event.get("organisation") or ""))


async def named(upstream: Upstream, events: Iterable[Mapping[str, Any]], lang: str) -> list[NamedEvent]:
    """``events`` (registration's answers) with their names in ``lang``, in the same order."""
    listed = [e for e in events if isinstance(e, Mapping) and (e.get("event_code") or e.get("code"))]
    looked = await asyncio.gather(
        *(_schedule(upstream, str(e.get("event_code") or e.get("code"))) for e in listed[:MAX_NAMED])
    )
    schedules = list(looked) + [{}] * (len(listed) - len(looked))
    return [_named(e, s, lang) for e, s in zip(listed, schedules, strict=True)]


async def organisation_events(upstream: Upstream, org: str, lang: str) -> list[NamedEvent]:
    """The events the organisation owns, by name, in the order of their codes ([] when
    registration cannot be asked)."""
    try:
        listed = await upstream.optional("registration", "/v1/events", {"organisation": org, "limit": MAX_LISTED})
    except UpstreamError:
        listed = None
    events = (listed or {}).get("events", []) if isinstance(listed, Mapping) else []
    return await named(upstream, events, lang)


async def events_by_code(upstream: Upstream, codes: Iterable[str], lang: str) -> dict[str, NamedEvent]:
    """The events named by their codes (an invitation's, a person's), each by name."""
    wanted = list(dict.fromkeys(str(c) for c in codes if c))[:MAX_NAMED]
    return {e.code: e for e in await named(upstream, [{"event_code": c} for c in wanted], lang)}


async def organisation_zone(upstream: Upstream, org: str) -> str:
    """The time zone of the organisation's events (its first event's), else the platform's."""
    try:
        listed = await upstream.optional("registration", "/v1/events", {"organisation": org, "limit": 1})
    except UpstreamError:
        listed = None
    events = (listed or {}).get("events", []) if isinstance(listed, Mapping) else []
    return zone_of(await named(upstream, events[:1], "en"))


def zone_of(events: Iterable[NamedEvent]) -> str:
    """The time zone of an organisation's events (the first one's), else the platform's."""
    return next((e.timezone for e in events if e.timezone), PLATFORM_ZONE)


def who_acted(actor: Any) -> str:
    """Who acted, as an audit names them, for people: a staff member's name without their
    account id ("李组委 (acct:…)" -> "李组委"); an API key's id as it is; a dash for nobody."""
    text = str(actor or "").strip()
    if not text:
        return "—"
    cut = text.find(" (acct:")
    return text[:cut].strip() or "—" if cut > 0 else text
