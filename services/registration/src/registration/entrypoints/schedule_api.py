"""EVT-7: the published schedule over HTTP — per event and per player, as JSON (typed below for
the OpenAPI document) and as iCalendar (``.ics``, for calendar apps). Registration serves it: it
owns the event configuration the schedule is part of (published from the event's creation,
before any section is paired) and knows each player's sections; pairing announces the
arbiter's delays (``round.rescheduled``), which registration keeps."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response

from gomoku_shared.api_docs import View, documented, errors
from gomoku_shared.auth import Principal, require
from gomoku_shared.params import PathId

from ..service_layer import schedule
from ..service_layer.unit_of_work import Reads
from .access import read

#: the schedule is public: the web front's viewer key reads it too, and staff accounts (issue 29)
Reader = Annotated[Principal, Depends(require("partner", "operator", "arbiter", "viewer", people=True))]
#: a player's schedule: staff who may read the event in full, or the partner who registered the player
Anyone = Annotated[Principal, Depends(require("partner", "operator", "arbiter", action="event.read"))]
ICS = "text/calendar"
#: issue 28: the calendar's summaries in one language (the portal asks in its page's); none: both
CalendarLang = Annotated[
    Literal["zh", "en"] | None, Query(description="the summaries in Chinese or English (both when omitted)")
]


class ScheduleSession(View):
    round: int
    starts_at: datetime
    #: an estimate for calendars (the longest clock of the sections)
    ends_at: datetime
    #: the schedule's time (differs from starts_at when an arbiter delayed the round)
    scheduled_at: datetime
    #: the sections that start this round together
    sections: list[str]
    delayed: bool
    delay_reason: str | None


class ScheduleStage(View):
    stage: str
    name: str
    mode: str
    starts_on: str
    ends_on: str
    #: 报到: arrive (and check in) before this time
    arrival_by: datetime | None
    #: 赛前技术会
    technical_meeting_at: datetime | None
    sessions: list[ScheduleSession]


class RegistrationDates(View):
    opens_at: datetime | None
    #: exclusive
    closes_at: datetime


class SectionClosing(View):
    """REG-12: how the section closed with its stage (kept, merged into another, cancelled)."""

    #: ready | merged | cancelled | scored
    status: str
    #: the section a merged one plays in
    merged_into: str | None
    #: the entries it had at the close (a host: its whole merged field)
    entrants: int
    #: a merged men + women section ranks each gender separately
    rank_by_gender: bool


class SectionName(View):
    name: str
    name_zh: str | None
    #: once the section's stage has closed (None before)
    closed: SectionClosing | None = None


class Schedule(View):
    event_code: str
    name: str
    name_zh: str | None
    timezone: str
    registration: RegistrationDates
    sections: dict[str, SectionName]
    stages: list[ScheduleStage]


def _calendar(body: bytes, filename: str) -> Response:
    return Response(
        body, media_type=f"{ICS}; charset=utf-8", headers={"content-disposition": f'inline; filename="{filename}"'}
    )


#: a calendar answer in the OpenAPI document (text/calendar), or 404
ICS_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"content": {ICS: {"schema": {"type": "string"}}}},
    **errors(404),
}


def schedule_router() -> APIRouter:
    router = APIRouter(prefix="/v1", tags=["schedule"])

    def now(request: Request) -> datetime:
        return request.app.state.runtime.clock.now()

    @router.get(
        "/events/{event_code}/schedule",
        summary="The event's schedule (EVT-7): dates, arrival, technical meeting, round start times",
        **documented(Schedule, 200, 404),
    )
    async def event_schedule(event_code: PathId, request: Request, _: Reader) -> dict:
        async def with_closings(repos: Reads, state: Any) -> tuple[Any, Any, dict[str, Any]]:
            config, found = await schedule.event_schedule(repos, state, event_code)
            return config, found, await schedule.section_closings(repos, event_code)

        config, found, closed = await read(request, with_closings)
        return schedule.schedule_view(config, found, [stage.id for stage in config.stages], closed)

    @router.get(
        "/events/{event_code}/schedule.ics",
        summary="The event's schedule as iCalendar (EVT-7)",
        response_class=Response,
        response_model=None,
        responses=ICS_RESPONSES,
    )
    async def event_calendar(event_code: PathId, request: Request, _: Reader, lang: CalendarLang = None) -> Response:
        config, found = await read(request, lambda repos, state: schedule.event_schedule(repos, state, event_code))
        stages = [stage.id for stage in config.stages]
        title = (config.name_zh or config.name) if lang == "zh" else config.name
        body = schedule.ics(config, found, stages, now(request), title, lang)
        return _calendar(body, f"{event_code}.ics")

    @router.get(
        "/events/{event_code}/players/{player_id}/schedule",
        summary="One player's schedule (EVT-7): the rounds of their sections",
        **documented(Schedule, 200, 404),
    )
    async def player_schedule(event_code: PathId, player_id: PathId, request: Request, principal: Anyone) -> dict:
        config, found, stages = await read(
            request, lambda repos, state: schedule.player_schedule(repos, state, principal, event_code, player_id)
        )
        return schedule.schedule_view(config, found, stages)

    @router.get(
        "/events/{event_code}/players/{player_id}/schedule.ics",
        summary="One player's schedule as iCalendar (EVT-7)",
        response_class=Response,
        response_model=None,
        responses=ICS_RESPONSES,
    )
    async def player_calendar(event_code: PathId, player_id: PathId, request: Request, principal: Anyone) -> Response:
        config, found, stages = await read(
            request, lambda repos, state: schedule.player_schedule(repos, state, principal, event_code, player_id)
        )
        body = schedule.ics(config, found, stages, now(request), f"{config.name} — {player_id}")
        return _calendar(body, f"{event_code}-{player_id}.ics")

    return router
