"""The staff console's home and an event's page: the events to choose from, an event's stages
and played sections, and closing a stage (with the format chosen per section where the event
configuration leaves the choice)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from gomoku_shared.params import PathId

from .console_teams import named_section, section_names
from .sessions import StaffSession
from .staff_event_names import named
from .staff_people import actions_offered, event_organisation
from .upstream import UpstreamError

if TYPE_CHECKING:
    from .staff_pages import StaffPages


def install(app: FastAPI, pages: StaffPages) -> None:
    sessions, upstream = pages.sessions, pages.upstream

    @app.get("/staff", response_class=HTMLResponse, name="staff_home")
    async def staff_home(request: Request, code: str | None = Query(None, max_length=64)) -> Response:
        session = await sessions.of(request)
        if session is None:
            return pages.to_sign_in(request)
        if code:
            return RedirectResponse(f"/staff/events/{code.strip()}", status_code=303)
        lang = pages.site.lang_of(request)
        if session.person is None:  # an API key: the configured events, by name, and the code box
            listed = await named(upstream, [{"event_code": c} for c in pages.settings.event_codes()], lang)
            return pages.render(request, "staff/home.html", session, events=listed)
        mine = await their_events(pages, session, lang)
        return pages.render(request, "staff/home.html", session, events=[], mine=mine)

    async def event_page(request: Request, session: StaffSession, code: str, **acted: Any) -> HTMLResponse:
        event = await pages.event_of(code)
        refused = pages.not_theirs(request, session, event, code, _first_action(session, event, code))
        if refused is not None:
            return refused
        sections = await upstream.optional("pairing", f"/v1/events/{code}/sections")
        # issue 28: sections by their name in the page's language, never by id
        names = section_names(event, pages.site.lang_of(request))
        return pages.render(
            request,
            "staff/event.html",
            session,
            event=event,
            code=code,
            played=[named_section(s, names) for s in (sections or {}).get("sections", [])],
            section_names=names,
            team_sections=team_sections(event),
            **acted,
        )

    @app.get("/staff/events/{code}", response_class=HTMLResponse, name="staff_event")
    async def staff_event(request: Request, code: PathId) -> Response:
        session = await sessions.of(request)
        if session is None:
            return pages.to_sign_in(request)
        return await event_page(request, session, code)

    @app.post("/staff/events/{code}/stages/{stage}/close", response_class=HTMLResponse)
    async def close_stage(request: Request, code: PathId, stage: PathId) -> Response:
        session, form, stop = await pages.posted_form(request)
        if stop is not None or session is None:
            return stop  # type: ignore[return-value]
        choices = _format_choices(form)
        status, body = await pages.call(
            session,
            "registration",
            "POST",
            f"/v1/events/{code}/stages/{stage}/close",
            {"format_choices": choices} if choices else {},
        )
        if status >= 400:
            body = in_teams(body, team_sections(await pages.event_of(code)))
        return await event_page(
            request,
            session,
            code,
            problem=pages.refusal(request, status, body) if status >= 400 else None,
            closed=body.get("sections") if status < 400 and isinstance(body, dict) else None,
            acted_stage=stage,
        )


async def their_events(pages: StaffPages, session: StaffSession, lang: str) -> list[dict[str, Any]]:
    """Issue 29: the events a person holds a role in (those of their organisations, from
    registration's list of an organisation's events, and those of their token), each by its
    name in ``lang`` with the roles they hold there."""
    upstream = pages.upstream
    person = session.person
    assert person is not None
    found: dict[str, dict[str, Any]] = {}
    for org in [o for o, roles in person.orgs.items() if roles][:20]:
        try:
            listed = await upstream.optional("registration", "/v1/events", {"organisation": org, "limit": 200})
        except UpstreamError:
            listed = None
        for event in (listed or {}).get("events", []):
            if isinstance(event, dict) and event.get("event_code"):
                found.setdefault(str(event["event_code"]), event)
    for code in list(person.events)[:200]:
        if code not in found:
            try:
                found[code] = await upstream.optional("registration", f"/v1/events/{code}") or {"event_code": code}
            except UpstreamError:
                found[code] = {"event_code": code}
    held = {code: person.held(event_organisation(event), code) for code, event in found.items()}
    theirs = [event for code, event in found.items() if held[code]]
    mine = [
        {"code": e.code, "name": e.name, "roles": sorted(held[e.code])} for e in await named(upstream, theirs, lang)
    ]
    return sorted(mine, key=lambda e: (e["name"], e["code"]))


def _first_action(session: StaffSession, event: Any, code: str) -> str:
    """The event page is the person's when they may take any action there (a recorder may not
    read the event in full but records its games); ``event.read`` names the refusal otherwise."""
    offered = actions_offered(session.person, event_organisation(event), code)
    return offered[0] if offered else "event.read"


def _format_choices(form: Any) -> dict[str, dict[str, Any]]:
    """The formats chosen in the close form (``format.<section>``), with the rounds where given
    (``rounds.<section>``: a whole number; registration refuses a Swiss the field cannot carry)
    and the reason for more rounds than an in-principle maximum (``reason.<section>``)."""
    choices: dict[str, dict[str, Any]] = {}
    for key, value in form.items():
        if not key.startswith("format.") or value not in ("swiss", "round_robin"):
            continue
        section_id = key[len("format.") :]
        choice: dict[str, Any] = {"kind": str(value)}
        rounds = str(form.get(f"rounds.{section_id}", "")).strip()
        if rounds.isdigit() and 1 <= int(rounds) <= 50:
            choice["rounds"] = int(rounds)
        # PAIR-1: the organiser's reason for rounds beyond an in-principle maximum (DA 七(四))
        reason = str(form.get(f"reason.{section_id}", "")).strip()
        if reason:
            choice["over_max_reason"] = reason[:2000]
        choices[section_id] = choice
    return choices


#: refusals at closing that count a section's field (PAIR-1, PAIR-2): a team field in teams
COUNTED = ("rounds_exceed_maximum", "swiss_rounds_exceed_field")


def team_sections(event: Any) -> set[str]:
    """The ids of the event's team sections (their fields are counted in teams, issue 28)."""
    stages = event.get("stages", []) if isinstance(event, dict) else []
    return {str(sec.get("id")) for st in stages for sec in st.get("sections", []) if sec.get("kind") == "team"}


def in_teams(body: Any, teams: set[str]) -> Any:
    """A refusal that counts a team section's field, as the one whose words say "9 队" / "9 teams"
    (``refusal.<code>_teams``) rather than players."""
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict) or error.get("code") not in COUNTED:
        return body
    details = error.get("details")
    if not isinstance(details, dict) or str(details.get("section_id")) not in teams:
        return body
    return {**body, "error": {**error, "code": f"{error['code']}_teams"}}
