"""The staff console's entries of a stage: the list with its filters (section, status, unit,
pending evidence), and the check-in of the players present and the no-shows."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Query, Request
from fastapi.responses import HTMLResponse, Response

from gomoku_shared.params import PathId

from . import i18n
from .console_teams import section_names as section_names_of
from .held_titles import current_titles
from .sessions import StaffSession
from .staff_people import event_organisation

if TYPE_CHECKING:
    from .staff_pages import StaffPages


def documents_of(event: Any) -> list[str]:
    """The documents the event's check-in asks every player to show (REG-11; registration's
    ``check_in.documents`` from the preset, e.g. NT 十(二): the insurance policy only), ticked from
    a list in words; a kind the console has no words for is left out rather than shown as an id."""
    check_in = event.get("check_in") if isinstance(event, dict) else None
    listed = check_in.get("documents") if isinstance(check_in, dict) else None
    return [str(d) for d in listed or [] if i18n.known(f"document.{d}")][:20]


def all_teams(event: Any, stage: str | None = None) -> bool:
    """Whether every section of the stage (of the event when no stage is named) is a team section
    (its entries are teams, issue 28)."""
    stages = event.get("stages", []) if isinstance(event, dict) else []
    stages = [st for st in stages if stage is None or st.get("id") == stage]
    sections = [sec for st in stages for sec in st.get("sections", [])]
    return bool(sections) and all(sec.get("kind") == "team" for sec in sections)


def install(app: FastAPI, pages: StaffPages) -> None:
    sessions = pages.sessions

    @app.get("/staff/events/{code}/entries", response_class=HTMLResponse, name="staff_entries")
    async def staff_entries(
        request: Request,
        code: PathId,
        stage: str = Query("", max_length=64),
        section: str = Query("", max_length=64),
        status: str = Query("", max_length=40),
        unit: str = Query("", max_length=100),
        pending: bool = Query(False),
    ) -> Response:
        session = await sessions.of(request)
        if session is None:
            return pages.to_sign_in(request)
        return await entries_page(pages, request, session, code, stage, section, status, unit, pending)

    @app.post("/staff/events/{code}/stages/{stage}/check-in", response_class=HTMLResponse)
    async def check_in(request: Request, code: PathId, stage: PathId) -> Response:
        session, form, stop = await pages.posted_form(request)
        if stop is not None or session is None:
            return stop  # type: ignore[return-value]
        event = await pages.event_of(code)
        documents = documents_of(event)
        present = [str(v) for v in form.getlist("present")][:2000]
        absent = [str(v) for v in form.getlist("no_show")][:2000]
        status, body = await pages.call(
            session,
            "registration",
            "POST",
            f"/v1/events/{code}/stages/{stage}/check-in",
            {
                "entry_ids": [e for e in present if e not in absent],
                "no_show": absent,
                # issue 28: the documents ticked from the list in words, never typed as ids
                "documents_shown": [str(d) for d in form.getlist("document") if d in documents][:20],
                "override": form.get("override") == "true",
            },
        )
        # issue 28: a team stage's check-in counts teams
        said = "done.check_in_teams" if all_teams(event, stage) else "done.check_in"
        problem, done = pages.outcome(request, status, body, said, n=len(present), m=len(absent))
        return await entries_page(pages, request, session, code, stage, "", "", "", False, problem, done)


async def entries_page(
    pages: StaffPages,
    request: Request,
    session: StaffSession,
    code: str,
    stage: str,
    section: str,
    status: str,
    unit: str,
    pending: bool,
    problem: dict[str, str] | None = None,
    done: str = "",
    *,
    new_link: dict[str, str] | None = None,
) -> HTMLResponse:
    event = await pages.event_of(code)
    refused = pages.not_theirs(request, session, event, code, "entries.manage", "checkin.record", "event.read")
    if refused is not None:  # issue 29: said in words
        return refused
    stages = [s["id"] for s in event.get("stages", [])]
    stage = stage if stage in stages else (stages[0] if stages else "")
    code_status, body = await pages.call(
        session, "registration", "GET", f"/v1/events/{code}/entries", params={"stage": stage}
    )
    rows = body.get("entries", []) if code_status == 200 else []
    problem = problem or (pages.refusal(request, code_status, body) if code_status != 200 else None)
    units = sorted({(e.get("unit") or {}).get("name") or "" for e in rows} - {""})
    statuses = sorted({e.get("status") for e in rows if e.get("status")})
    sections = sorted({e.get("section_id") for e in rows if e.get("section_id")})
    shown = [
        e
        for e in rows
        if (not section or e.get("section_id") == section)
        and (not status or e.get("status") == status)
        and (not unit or (e.get("unit") or {}).get("name") == unit)
        and (not pending or e.get("pending_evidence"))
    ]
    # issue 32: each entrant's current title beside their name, one lookup for the page's people
    people = [str(p["registry_id"]) for e in shown for p in e.get("players") or [] if p.get("registry_id")]
    titles = await current_titles(pages.site.upstream, event_organisation(event), people)
    # issue 28: the sections by their name in the page's language
    section_names = section_names_of(event, pages.site.lang_of(request))
    # issue 34: the units that came through the delegation door, whose link staff may re-issue
    unit_status, unit_body = await pages.call(session, "registration", "GET", f"/v1/events/{code}/units")
    delegations = sorted(
        ((str(u["unit_id"]), str(u.get("name") or "—")) for u in unit_body.get("units", []) if u.get("delegation_link"))
        if unit_status == 200 and isinstance(unit_body, dict)
        else [],
        key=lambda pair: pair[1],
    )
    return pages.render(
        request,
        "staff/entries.html",
        session,
        event=event,
        code=code,
        stages=stages,
        stage=stage,
        entries=shown,
        titles=titles,
        total=len(rows),
        units=units,
        statuses=statuses,
        sections=sections,
        section_names=section_names,
        documents=documents_of(event),
        filters={"section": section, "status": status, "unit": unit, "pending": pending},
        problem=problem,
        done=done,
        new_link=new_link,  # issue 34: a registrant's re-issued link, shown this once (staff_relink)
        delegations=delegations,
    )
