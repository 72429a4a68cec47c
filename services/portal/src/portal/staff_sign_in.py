"""The staff console's sign-in and sign-out: a person signs in with their own API key (only an
arbiter's or an operator's), and the session cookie carries them from page to page."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fastapi import FastAPI, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from .sessions import SESSION_COOKIE, Sessions

if TYPE_CHECKING:
    from .staff import StaffPages

STAFF_ROLES = ("arbiter", "operator")


def install(app: FastAPI, pages: StaffPages) -> None:
    sessions, settings, upstream = pages.sessions, pages.settings, pages.upstream

    @app.get("/staff/sign-in", response_class=HTMLResponse, name="sign_in")
    async def sign_in_form(request: Request, next: str = Query("/staff", max_length=300)) -> HTMLResponse:
        return pages.render(request, "staff/sign_in.html", None, token=sessions.sign_in_token(), next=_local(next))

    @app.post("/staff/sign-in", response_class=HTMLResponse)
    async def sign_in(
        request: Request,
        api_key: str = Form("", max_length=200),
        csrf: str = Form("", max_length=300),
        next: str = Form("/staff", max_length=300),
    ) -> Response:
        if not sessions.sign_in_token_ok(csrf):
            return pages.csrf_refused(request, None)
        status, body = await upstream.as_person("registration", "GET", "/v1/whoami", api_key.strip())
        role = body.get("role") if status == 200 and isinstance(body, dict) else None
        if role not in STAFF_ROLES:
            # the form again with the refusal beside it (a page, not an error: 200)
            problem = {
                "text": pages.site.words(request).t("refusal.not_staff" if status == 200 else "refusal.invalid_api_key")
            }
            return pages.render(
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
                return pages.csrf_refused(request, session)
            await sessions.close(session)
        resp = RedirectResponse("/staff/sign-in", status_code=303)
        resp.delete_cookie(SESSION_COOKIE, path="/")
        return resp


def _local(target: str) -> str:
    """Only a path on this site (never an address elsewhere) to go on to after signing in."""
    return target if target.startswith("/") and not target.startswith("//") and "\\" not in target else "/staff"
