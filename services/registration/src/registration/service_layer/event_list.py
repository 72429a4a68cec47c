"""The platform's events as a list (``GET /v1/events``): what the portal's home page shows of
each — its names in both languages, dates, place, organiser and where it stands — newest first,
of one organisation or all, found by a part of its name or code (issue 28)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from gomoku_shared.event_config import EventConfig

from ..adapters.repositories import Repositories
from .state import RegistrationState

#: where an event stands, by the service's clock in the event's own zone (the pages say it in words)
STATUSES = ("upcoming", "registration_open", "registration_closed", "under_way", "finished")


def newest_first(item: dict[str, Any]) -> tuple[int, str]:
    """The list's order (and its cursors' key): the latest first day first, then by code."""
    return (-date.fromisoformat(item["starts_on"]).toordinal(), item["event_code"])


def event_status(config: EventConfig, now: datetime, any_stage_closed: bool) -> str:
    starts_on = min(st.starts_on for st in config.stages)
    ends_on = max(st.ends_on for st in config.stages)
    today = now.astimezone(ZoneInfo(config.timezone)).date()
    if today > ends_on:
        return "finished"
    if today >= starts_on or any_stage_closed:
        return "under_way"
    window = config.registration
    if window.opens_at is not None and now < window.opens_at:
        return "upcoming"
    return "registration_open" if now < window.closes_at else "registration_closed"


def _matches(config: EventConfig, words: str | None) -> bool:
    if not words:
        return True
    wanted = words.casefold()
    return any(wanted in (text or "").casefold() for text in (config.id, config.name, config.name_zh))


async def list_events(
    repos: Repositories, state: RegistrationState, *, organisation: str | None, q: str | None = None
) -> dict[str, Any]:
    """Every event with its owner (the console lists an organisation's events, the home page all)."""
    now = state.now()
    listed = []
    for row in await repos.access.events(organisation):
        config = await state.config(repos, row.code)
        if not _matches(config, (q or "").strip()):
            continue
        closed = any(r.status == "closed" for r in (await repos.events.stages(row.code)).values())
        listed.append(
            {
                "event_code": row.code,
                "name": row.name,
                "name_zh": config.name_zh,
                "preset_id": row.preset_id,
                "organisation": row.organisation,
                "created_at": row.created_at.isoformat(),
                "starts_on": min(st.starts_on for st in config.stages).isoformat(),
                "ends_on": max(st.ends_on for st in config.stages).isoformat(),
                "timezone": config.timezone,
                "organiser": config.organiser,
                "organiser_zh": config.organiser_zh,
                "venue": config.venue,
                "venue_zh": config.venue_zh,
                "status": event_status(config, now, closed),
            }
        )
    return {"events": sorted(listed, key=newest_first)}
