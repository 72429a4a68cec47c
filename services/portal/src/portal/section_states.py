"""How the sections of an event closed (REG-12), for the pages to say so in words: a section kept
and played, merged into another because too few entered (its players play in the host and, for a
men + women pair, are ranked by gender there), or cancelled. Read from registration's public
schedule (the ``closed`` part each section carries once its stage has closed)."""

from __future__ import annotations

from typing import Any

from .upstream import Upstream


def closings(schedule: dict[str, Any] | None) -> dict[str, dict[str, Any]]:
    """Each closed section by id (from registration's public schedule): its ``status`` (ready |
    merged | cancelled | scored), ``merged_into``, ``entrants`` and ``rank_by_gender``. A section
    whose stage has not closed is not there."""
    return {
        sid: {**known["closed"], "section_id": sid}
        for sid, known in ((schedule or {}).get("sections") or {}).items()
        if known.get("closed")
    }


async def of_event(upstream: Upstream, code: str) -> tuple[dict[str, Any] | None, dict[str, dict[str, Any]]]:
    """The event's public schedule and its sections' closings."""
    schedule = await upstream.optional("registration", f"/v1/events/{code}/schedule")
    return schedule, closings(schedule)


def section_names(event: dict[str, Any], schedule: dict[str, Any] | None) -> dict[str, dict[str, Any]]:
    """Each section's names (``name``, ``name_zh``): the schedule's carry the Chinese name."""
    names = {sec["id"]: {"name": sec.get("name")} for st in event.get("stages", []) for sec in st.get("sections", [])}
    for sid, known in ((schedule or {}).get("sections") or {}).items():
        names.setdefault(sid, {}).update(known)
    return names


def players_from(host: dict[str, Any], merged: dict[str, Any]) -> list[dict[str, Any]]:
    """The players of a merged section in its host's field: those of its gender when it has one
    (women merged into the men's section), else the whole field."""
    gender = merged.get("gender")
    field = host.get("entrants", [])
    if gender in ("male", "female"):
        return [e for e in field if e.get("gender") == gender]
    return list(field)
