"""The staff console: arbiters and operators sign in with their own API key and act through the
services' APIs with it (entries, evidence review, check-in and no-shows, closing a stage,
entering and correcting results). A refusal is shown in words beside the form."""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import FastAPI, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from gomoku_shared.params import PathId, RoundNo

from . import i18n
from .sessions import SESSION_COOKIE, Sessions, StaffSession
from .site import Site

STAFF_ROLES = ("arbiter", "operator")
#: results an arbiter may enter, from the first-listed player's side (pairing's names)
RESULTS = ("first_wins", "second_wins", "draw", "first_forfeit_win", "second_forfeit_win", "double_forfeit")
#: error codes with words of their own; any other refusal is shown by its kind (status)
KNOWN_REFUSALS = (
    "forbidden_role",
    "invalid_api_key",
    "missing_api_key",
    "validation_error",
    "game_over",
    "round_not_found",
    "pairing_not_found",
    "unknown_stage",
    "stage_closed",
    "already_decided",
    "event_not_found",
)


def refusal(site: Site, request: Request, status: int, body: Any) -> dict[str, str]:
    """A service's refusal in words: a sentence of ours, and the service's own message."""
    words = site.words(request)
    error = body.get("error", {}) if isinstance(body, dict) else {}
    code = str(error.get("code", ""))
    if code in KNOWN_REFUSALS or i18n.known(f"refusal.{code}"):
        text = words.t(f"refusal.{code}")
    elif status == 403:
        text = words.t("refusal.forbidden_role")
    elif status == 404:
        text = words.t("refusal.not_found")
    elif status == 409:
        text = words.t("refusal.conflict")
    elif status == 422 or status == 400:
        text = words.t("refusal.validation_error")
    elif status >= 500:
        text = words.t("refusal.unavailable")
    else:
        text = words.t("refusal.other")
    detail = str(error.get("message", ""))[:300]
    return {"text": text, "detail": detail}


def install(app: FastAPI, site: Site) -> None:
    settings, upstream = site.settings, site.upstream
    sessions = Sessions(settings.session_secret, settings.session_minutes, settings.database_url)
    app.state.sessions = sessions

    def render(request: Request, template: str, session: StaffSession | None, http_status: int = 200, **ctx: Any):
        resp = site.render(request, template, status=http_status, staff=session, **ctx)
        resp.headers["cache-control"] = "no-store"
        return resp

    def to_sign_in(request: Request) -> RedirectResponse:
        return RedirectResponse(f"/staff/sign-in?next={request.url.path}", status_code=303)

    def csrf_refused(request: Request, session: StaffSession | None) -> HTMLResponse:
        return render(request, "staff/refused.html", session, http_status=403, message_key="refusal.csrf")

    async def call(
        session: StaffSession, service: str, method: str, path: str, body: Any = None, params: Any = None
    ) -> tuple[int, Any]:
        return await upstream.as_person(
            service, method, path, session.api_key, body, params, idempotency_key=secrets.token_urlsafe(16)
        )

    # -- sign-in and sign-out ----------------------------------------------------------------

    @app.get("/staff/sign-in", response_class=HTMLResponse, name="sign_in")
    async def sign_in_form(request: Request, next: str = Query("/staff", max_length=300)) -> HTMLResponse:
        return render(request, "staff/sign_in.html", None, token=sessions.sign_in_token(), next=_local(next))

    @app.post("/staff/sign-in", response_class=HTMLResponse)
    async def sign_in(
        request: Request,
        api_key: str = Form("", max_length=200),
        csrf: str = Form("", max_length=300),
        next: str = Form("/staff", max_length=300),
    ) -> Response:
        if not sessions.sign_in_token_ok(csrf):
            return csrf_refused(request, None)
        status, body = await upstream.as_person("registration", "GET", "/v1/whoami", api_key.strip())
        role = body.get("role") if status == 200 and isinstance(body, dict) else None
        if role not in STAFF_ROLES:
            # the form again with the refusal beside it (a page, not an error: 200)
            problem = {
                "text": site.words(request).t("refusal.not_staff" if status == 200 else "refusal.invalid_api_key")
            }
            return render(
                request,
                "staff/sign_in.html",
                None,
                token=sessions.sign_in_token(),
                next=_local(next),
                problem=problem,
            )
        _session, cookie = await sessions.open(api_key.strip(), str(role))
        resp = RedirectResponse(_local(next), status_code=303)
        resp.set_cookie(
            SESSION_COOKIE,
            cookie,
            max_age=sessions.max_age_s,
            httponly=True,
            samesite="strict",
            secure=settings.secure_cookies,
            path="/",
        )
        return resp

    @app.post("/staff/sign-out")
    async def sign_out(request: Request, csrf: str = Form("", max_length=300)) -> Response:
        session = await sessions.of(request)
        if session is not None:
            if not Sessions.csrf_ok(session, csrf):
                return csrf_refused(request, session)
            await sessions.close(session)
        resp = RedirectResponse("/staff/sign-in", status_code=303)
        resp.delete_cookie(SESSION_COOKIE, path="/")
        return resp

    # -- pages -------------------------------------------------------------------------------

    @app.get("/staff", response_class=HTMLResponse, name="staff_home")
    async def staff_home(request: Request, code: str | None = Query(None, max_length=64)) -> Response:
        session = await sessions.of(request)
        if session is None:
            return to_sign_in(request)
        if code:
            return RedirectResponse(f"/staff/events/{code.strip()}", status_code=303)
        return render(request, "staff/home.html", session, events=settings.event_codes())

    async def event_of(code: str) -> dict[str, Any]:
        return await upstream.get("registration", f"/v1/events/{code}")

    @app.get("/staff/events/{code}", response_class=HTMLResponse, name="staff_event")
    async def staff_event(request: Request, code: PathId) -> Response:
        session = await sessions.of(request)
        if session is None:
            return to_sign_in(request)
        event = await event_of(code)
        sections = await upstream.optional("pairing", f"/v1/events/{code}/sections")
        return render(
            request, "staff/event.html", session, event=event, code=code, played=(sections or {}).get("sections", [])
        )

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
            return to_sign_in(request)
        return await entries_page(request, session, code, stage, section, status, unit, pending)

    async def entries_page(
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
    ) -> HTMLResponse:
        event = await event_of(code)
        stages = [s["id"] for s in event.get("stages", [])]
        stage = stage if stage in stages else (stages[0] if stages else "")
        code_status, body = await call(
            session, "registration", "GET", f"/v1/events/{code}/entries", params={"stage": stage}
        )
        rows = body.get("entries", []) if code_status == 200 else []
        problem = problem or (refusal(site, request, code_status, body) if code_status != 200 else None)
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
        section_names = {sec["id"]: sec.get("name") for st in event.get("stages", []) for sec in st.get("sections", [])}
        return render(
            request,
            "staff/entries.html",
            session,
            event=event,
            code=code,
            stages=stages,
            stage=stage,
            entries=shown,
            total=len(rows),
            units=units,
            statuses=statuses,
            sections=sections,
            section_names=section_names,
            filters={"section": section, "status": status, "unit": unit, "pending": pending},
            problem=problem,
            done=done,
        )

    @app.post("/staff/events/{code}/stages/{stage}/check-in", response_class=HTMLResponse)
    async def check_in(request: Request, code: PathId, stage: PathId) -> Response:
        session = await sessions.of(request)
        if session is None:
            return to_sign_in(request)
        form = await request.form()
        if not Sessions.csrf_ok(session, str(form.get("csrf", ""))):
            return csrf_refused(request, session)
        present = [str(v) for v in form.getlist("present")][:2000]
        absent = [str(v) for v in form.getlist("no_show")][:2000]
        status, body = await call(
            session,
            "registration",
            "POST",
            f"/v1/events/{code}/stages/{stage}/check-in",
            {
                "entry_ids": [e for e in present if e not in absent],
                "no_show": absent,
                "documents_shown": [d.strip() for d in str(form.get("documents", "")).split(",") if d.strip()][:20],
                "override": form.get("override") == "true",
            },
        )
        problem = refusal(site, request, status, body) if status >= 400 else None
        done = "" if problem else site.words(request).t("done.check_in", n=len(present), m=len(absent))
        return await entries_page(request, session, code, stage, "", "", "", False, problem, done)

    @app.post("/staff/events/{code}/stages/{stage}/close", response_class=HTMLResponse)
    async def close_stage(request: Request, code: PathId, stage: PathId) -> Response:
        session = await sessions.of(request)
        if session is None:
            return to_sign_in(request)
        form = await request.form()
        if not Sessions.csrf_ok(session, str(form.get("csrf", ""))):
            return csrf_refused(request, session)
        choices = {
            key[len("format.") :]: {"kind": str(value)}
            for key, value in form.items()
            if key.startswith("format.") and value in ("swiss", "round_robin")
        }
        status, body = await call(
            session,
            "registration",
            "POST",
            f"/v1/events/{code}/stages/{stage}/close",
            {"format_choices": choices} if choices else {},
        )
        event = await event_of(code)
        sections = await upstream.optional("pairing", f"/v1/events/{code}/sections")
        return render(
            request,
            "staff/event.html",
            session,
            event=event,
            code=code,
            played=(sections or {}).get("sections", []),
            problem=refusal(site, request, status, body) if status >= 400 else None,
            closed=body.get("sections") if status < 400 and isinstance(body, dict) else None,
            acted_stage=stage,
        )

    @app.get("/staff/events/{code}/evidence", response_class=HTMLResponse, name="staff_evidence")
    async def evidence_queue(request: Request, code: PathId, status: str = Query("pending", max_length=20)) -> Response:
        session = await sessions.of(request)
        if session is None:
            return to_sign_in(request)
        return await evidence_page(request, session, code, status)

    async def evidence_page(
        request: Request,
        session: StaffSession,
        code: str,
        status: str,
        problem: dict[str, str] | None = None,
        done: str = "",
    ) -> HTMLResponse:
        event = await event_of(code)
        params = {"status": status} if status in ("pending", "approved", "rejected") else None
        code_status, body = await call(session, "registration", "GET", f"/v1/events/{code}/evidence", params=params)
        records = body.get("evidence", []) if code_status == 200 else []
        entries_status, entries = await call(session, "registration", "GET", f"/v1/events/{code}/entries")
        by_entry = {e["entry_id"]: e for e in (entries.get("entries", []) if entries_status == 200 else [])}
        return render(
            request,
            "staff/evidence.html",
            session,
            event=event,
            code=code,
            records=records,
            by_entry=by_entry,
            shown=status,
            problem=problem or (refusal(site, request, code_status, body) if code_status != 200 else None),
            done=done,
        )

    @app.post("/staff/events/{code}/evidence/{evidence_id}/decision", response_class=HTMLResponse)
    async def decide_evidence(
        request: Request,
        code: PathId,
        evidence_id: PathId,
        decision: str = Form("", max_length=10),
        note: str = Form("", max_length=1000),
        csrf: str = Form("", max_length=300),
    ) -> Response:
        session = await sessions.of(request)
        if session is None:
            return to_sign_in(request)
        if not Sessions.csrf_ok(session, csrf):
            return csrf_refused(request, session)
        status, body = await call(
            session,
            "registration",
            "POST",
            f"/v1/evidence/{evidence_id}/decision",
            {"decision": decision, "note": note},
        )
        problem = refusal(site, request, status, body) if status >= 400 else None
        done = "" if problem else site.words(request).t(f"done.evidence_{decision}")
        return await evidence_page(request, session, code, "pending", problem, done)

    @app.get("/staff/events/{code}/sections/{sid}/rounds/{n}", response_class=HTMLResponse, name="staff_round")
    async def staff_round(request: Request, code: PathId, sid: PathId, n: RoundNo) -> Response:
        session = await sessions.of(request)
        if session is None:
            return to_sign_in(request)
        return await round_page(request, session, code, sid, n)

    async def round_page(
        request: Request,
        session: StaffSession,
        code: str,
        sid: str,
        n: int,
        problem: dict[str, str] | None = None,
        done: str = "",
        pairing_id: str = "",
    ) -> HTMLResponse:
        event, section = (
            await upstream.get("registration", f"/v1/events/{code}"),
            await upstream.get("pairing", f"/v1/events/{code}/sections/{sid}"),
        )
        rnd = await upstream.optional("pairing", f"/v1/events/{code}/sections/{sid}/rounds/{n}")
        names = {e["entrant_id"]: e for e in section.get("entrants", [])}
        return render(
            request,
            "staff/round.html",
            session,
            event=event,
            section=section,
            code=code,
            n=n,
            round=rnd,
            names=names,
            results=RESULTS,
            problem=problem,
            done=done,
            acted=pairing_id,
        )

    @app.post("/staff/events/{code}/sections/{sid}/rounds/{n}/results", response_class=HTMLResponse)
    async def enter_result(
        request: Request,
        code: PathId,
        sid: PathId,
        n: RoundNo,
        pairing_id: str = Form("", max_length=64),
        result: str = Form("", max_length=32),
        note: str = Form("", max_length=1000),
        csrf: str = Form("", max_length=300),
    ) -> Response:
        session = await sessions.of(request)
        if session is None:
            return to_sign_in(request)
        if not Sessions.csrf_ok(session, csrf):
            return csrf_refused(request, session)
        status, body = await call(
            session,
            "pairing",
            "POST",
            f"/v1/events/{code}/sections/{sid}/rounds/{n}/results",
            {"pairing_id": pairing_id, "result": result, "note": note},
        )
        problem = refusal(site, request, status, body) if status >= 400 else None
        done = "" if problem else site.words(request).t("done.result")
        return await round_page(request, session, code, sid, n, problem, done, pairing_id)


def _local(target: str) -> str:
    """Only a path on this site (never an address elsewhere) to go on to after signing in."""
    return target if target.startswith("/") and not target.startswith("//") and "\\" not in target else "/staff"
