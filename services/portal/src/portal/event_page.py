"""The event's home page — its stages and sections, and its schedule (EVT-7: dates, arrival,
technical meeting, the rounds' start times by shared slot, delays) — and the schedule's
calendar (``.ics``), from registration's public schedule."""

from __future__ import annotations

import asyncio

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response

from gomoku_shared.params import PathId

from . import section_states
from .site import Site


def install(app: FastAPI, site: Site) -> None:
    upstream = site.upstream

    @app.get("/events/{code}", response_class=HTMLResponse, name="event_home")
    async def event_home(request: Request, code: PathId) -> HTMLResponse:
        event, sections, awards, schedule = await asyncio.gather(
            upstream.get("registration", f"/v1/events/{code}"),
            upstream.optional("pairing", f"/v1/events/{code}/sections"),
            upstream.optional("awards", f"/v1/events/{code}"),
            upstream.optional("registration", f"/v1/events/{code}/schedule"),
        )
        played = {s["section_id"]: s for s in (sections or {}).get("sections", [])}
        published = {s["section_id"]: s.get("publication_revision") for s in (awards or {}).get("sections", [])}
        timetable = {s["stage"]: s for s in (schedule or {}).get("stages", [])}
        names = (schedule or {}).get("sections", {})
        # issue 34: the form's link while the event takes public entries and registration is open
        form = None
        if event.get("registration", {}).get("public_entries"):
            form = await upstream.optional("registration", f"/v1/events/{code}/public-entries/form")
        door = None  # and the delegation door's, while units enter their rosters
        if event.get("registration", {}).get("public_delegations"):
            door = await upstream.optional("registration", f"/v1/events/{code}/delegations/form")
        return site.render(
            request,
            "event.html",
            event=event,
            played=played,
            published=published,
            timetable=timetable,
            names=names,
            closings=section_states.closings(schedule),
            enter_open=bool(form and form.get("accepting")),
            roster_open=bool(door and door.get("accepting")),
        )

    @app.get("/events/{code}/schedule.ics", name="event_calendar")
    async def event_calendar(request: Request, code: PathId) -> Response:
        """The event's schedule as iCalendar (registration's calendar), its summaries in the
        page's language (issue 28)."""
        lang = site.lang_of(request)
        body = await upstream.get_text("registration", f"/v1/events/{code}/schedule.ics", params={"lang": lang})
        headers = {"content-disposition": f'inline; filename="{code}.ics"'}
        return Response(body, media_type="text/calendar; charset=utf-8", headers=headers)
