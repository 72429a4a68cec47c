"""The staff console's sign-in and sign-out.

A person signs in with their account (issue 29): login and password (and the code of their
authenticator app when the identity API answers ``totp_required``), checked by the partners
service's identity API; the portal keeps the access token, the session id and the refresh token
in its server-side session (``sessions.py``), never in the cookie, and calls the services with
the person's bearer token. Signing out ends the sign-in at the identity API too; "sign out
everywhere" ends every sign-in of the person (every token of theirs is refused from then on).

The platform operator signs in with an operator API key at ``/staff/sign-in/key`` (a small link
on the form); an arbiter's key still works there during the documented transition.

The form's token is bound to the browser's pre-session cookie (``sessions.PRE_SESSION_COOKIE``):
a page elsewhere cannot sign a browser in as someone else. Wrong keys and passwords are
throttled per client address and per key or login (``gomoku_shared.throttle``): after a few,
the form answers 429 with ``Retry-After`` and the wait in words, without asking any service,
until the wait is over."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from gomoku_shared.client_address import TrustedProxies
from gomoku_shared.throttle import FailureThrottle

from .sessions import PERSON_ROLE, PRE_SESSION_COOKIE, SESSION_COOKIE, SIGN_IN_TOKEN_MAX_AGE_S, Sessions
from .staff_people import StaffTokens, lifetime_s, person_of

if TYPE_CHECKING:
    from .staff_pages import StaffPages

STAFF_ROLES = ("arbiter", "operator")
#: the identity API (the partners service)
IDENTITY = "partners"


class SignInForm:
    """The forms (their token bound to the browser's pre-session cookie) and the throttled check
    of a key or a password: the throttle's counts are per portal process."""

    def __init__(self, pages: StaffPages) -> None:
        self.pages = pages
        self.sessions, self.settings, self.upstream = pages.sessions, pages.settings, pages.upstream
        self.throttle = FailureThrottle(self.settings.credential_throttle())
        self.proxies = TrustedProxies(self.settings.forwarded_allow_ips)

    def render(
        self,
        request: Request,
        next_page: str,
        status: int = 200,
        problem: dict | None = None,
        template: str = "staff/sign_in.html",
        **ctx: Any,
    ) -> Response:
        """A form with a token for this browser's pre-session cookie (set when it is new)."""
        pre = Sessions.pre_session(request)
        resp = self.pages.render(
            request,
            template,
            None,
            http_status=status,
            token=self.sessions.sign_in_token(pre),
            next=_local(next_page),
            problem=problem,
            **ctx,
        )
        if request.cookies.get(PRE_SESSION_COOKIE) != pre:
            resp.set_cookie(
                PRE_SESSION_COOKIE,
                pre,
                max_age=SIGN_IN_TOKEN_MAX_AGE_S,
                httponly=True,
                samesite="strict",
                secure=self.settings.secure_cookies,
                path="/staff",
            )
        return resp

    def key_form(self, request: Request, next_page: str, status: int = 200, problem: dict | None = None) -> Response:
        return self.render(request, next_page, status, problem, template="staff/sign_in_key.html")

    def throttled(self, request: Request, next_page: str, wait_s: int, key_form: bool = False, **ctx: Any) -> Response:
        """429: the form again with the wait in words, and ``Retry-After``."""
        words = self.pages.site.words(request)
        problem = {"text": words.t("refusal.too_many_failures", retry_after_s=wait_s)}
        if key_form:
            resp = self.key_form(request, next_page, status=429, problem=problem)
        else:
            resp = self.render(request, next_page, status=429, problem=problem, **ctx)
        resp.headers["retry-after"] = str(wait_s)
        return resp

    async def check(self, request: Request, key: str, next_page: str) -> tuple[str | None, Response | None]:
        """The staff role of ``key``; or the answer to give instead (the throttle's 429, the form
        with the refusal in words). A wrong key (401) counts as a failure of this address and key."""
        client = self.proxies.client(request.scope)
        tries = self.throttle.keys(client, key)
        wait = self.throttle.wait_s(tries)
        if wait:
            return None, self.throttled(request, next_page, wait, key_form=True)
        status, body = await self.upstream.as_person("registration", "GET", "/v1/whoami", key, client=client)
        if status == 429:  # the service's own count of this address's failures
            return None, self.throttled(request, next_page, _retry_after(body), key_form=True)
        role = body.get("role") if status == 200 and isinstance(body, dict) else None
        if role in STAFF_ROLES:
            return str(role), None
        if status == 401:
            self.throttle.failed(tries)
        # the form again with the refusal beside it (a page, not an error: 200)
        text_key = "refusal.not_staff" if status == 200 else "refusal.invalid_api_key"
        return None, self.key_form(request, next_page, problem={"text": self.pages.site.words(request).t(text_key)})

    async def password(
        self, request: Request, login: str, password: str, totp: str, next_page: str
    ) -> tuple[tuple[StaffTokens, Any] | None, Response | None]:
        """The person's tokens and ``/v1/staff/me``; or the form again with the refusal in words
        (the TOTP field shown when the account asks for it). Wrong passwords count as failures of
        this address and login; the identity API keeps its own count too (its 429 is passed on)."""
        client = self.proxies.client(request.scope)
        tries = self.throttle.keys(client, "login:" + login.casefold())
        wait = self.throttle.wait_s(tries)
        if wait:
            return None, self.throttled(request, next_page, wait, login=login)
        body_in: dict[str, Any] = {"login": login, "password": password}
        if totp:
            body_in["totp"] = totp
        status, body = await self.upstream.as_person(IDENTITY, "POST", "/v1/staff/sign-in", "", body_in, client=client)
        if status == 429:
            return None, self.throttled(request, next_page, _retry_after(body), login=login, ask_totp=bool(totp))
        if status == 200 and isinstance(body, dict) and isinstance(body.get("access_token"), str):
            tokens = StaffTokens(
                body["access_token"],
                str(body.get("session_id", "")),
                str(body.get("refresh_token", "")),
                time.time() + lifetime_s(body),
            )
            _s, me = await self.upstream.as_person(IDENTITY, "GET", "/v1/staff/me", tokens.access_token)
            account = body.get("account") if isinstance(body.get("account"), dict) else {}
            return (tokens, me if _s == 200 else {"account": account}), None
        code = _code(body)
        if status == 401 and code != "totp_required":
            self.throttle.failed(tries)
        ask_totp = code == "totp_required" or (bool(totp) and code == "sign_in_failed")
        problem = self.pages.refusal(request, status, body)
        problem.pop("detail", None)  # the identity API's words say no more than ours
        return None, self.render(request, next_page, problem=problem, login=login, ask_totp=ask_totp)


def install(app: FastAPI, pages: StaffPages) -> None:
    sessions = pages.sessions
    form = SignInForm(pages)

    async def refresh(session_id: str, refresh_token: str) -> tuple[int, Any]:
        body = {"session_id": session_id, "refresh_token": refresh_token}
        return await pages.upstream.as_person(IDENTITY, "POST", "/v1/staff/refresh", "", body)

    sessions.refresher = refresh

    @app.get("/staff/sign-in", response_class=HTMLResponse, name="sign_in")
    async def sign_in_form(request: Request, next: str = Query("/staff", max_length=300)) -> Response:
        return form.render(request, next)

    @app.get("/staff/sign-in/key", response_class=HTMLResponse, name="sign_in_key")
    async def key_sign_in_form(request: Request, next: str = Query("/staff", max_length=300)) -> Response:
        return form.key_form(request, next)

    @app.post("/staff/sign-in", response_class=HTMLResponse)
    async def sign_in(
        request: Request,
        login: str = Form("", max_length=200),
        password: str = Form("", max_length=500),
        totp: str = Form("", max_length=12),
        api_key: str = Form("", max_length=200),
        csrf: str = Form("", max_length=300),
        next: str = Form("/staff", max_length=300),
    ) -> Response:
        if not sessions.sign_in_token_ok(csrf, request):
            return pages.csrf_refused(request, None)
        if api_key.strip() and not login.strip():  # the key form (also posted here before issue 29)
            return await _with_key(request, api_key.strip(), next)
        if not login.strip() or not password:
            words = pages.site.words(request)
            return form.render(request, next, problem={"text": words.t("refusal.sign_in_failed")}, login=login)
        signed, refused = await form.password(request, login.strip(), password, totp.strip(), next)
        if refused is not None or signed is None:
            return refused or form.render(request, next)
        tokens, me = signed
        person = person_of(tokens.access_token, me, login.strip())
        _session, cookie = await sessions.open(tokens.access_token, PERSON_ROLE, person, tokens)
        return _signed_in(pages, cookie, next)

    @app.post("/staff/sign-in/key", response_class=HTMLResponse)
    async def sign_in_with_key(
        request: Request,
        api_key: str = Form("", max_length=200),
        csrf: str = Form("", max_length=300),
        next: str = Form("/staff", max_length=300),
    ) -> Response:
        if not sessions.sign_in_token_ok(csrf, request):
            return pages.csrf_refused(request, None)
        return await _with_key(request, api_key.strip(), next)

    async def _with_key(request: Request, key: str, next_page: str) -> Response:
        role, refused = await form.check(request, key, next_page)
        if refused is not None or role is None:
            return refused or form.key_form(request, next_page)
        _session, cookie = await sessions.open(key, role)
        return _signed_in(pages, cookie, next_page)

    install_sign_out(app, pages)


def install_sign_out(app: FastAPI, pages: StaffPages) -> None:
    """Signing out here, and at the identity API for a person (everywhere when asked)."""
    sessions = pages.sessions

    @app.post("/staff/sign-out")
    async def sign_out(request: Request, csrf: str = Form("", max_length=300)) -> Response:
        return await _sign_out(request, csrf, everywhere=False)

    @app.post("/staff/sign-out-everywhere")
    async def sign_out_everywhere(request: Request, csrf: str = Form("", max_length=300)) -> Response:
        return await _sign_out(request, csrf, everywhere=True)

    async def _sign_out(request: Request, csrf: str, everywhere: bool) -> Response:
        session = await sessions.of(request)
        if session is not None:
            if not Sessions.csrf_ok(session, csrf):
                return pages.csrf_refused(request, session)
            if session.tokens is not None:  # end the sign-in at the identity API too
                if everywhere:
                    path, body = "/v1/staff/sign-out-everywhere", None
                else:
                    path = "/v1/staff/sign-out"
                    body = {"session_id": session.tokens.session_id, "refresh_token": session.tokens.refresh_token}
                await pages.upstream.as_person(IDENTITY, "POST", path, session.api_key, body)
            await sessions.close(session)
        resp = RedirectResponse("/staff/sign-in", status_code=303)
        resp.delete_cookie(SESSION_COOKIE, path="/")
        return resp


def _signed_in(pages: StaffPages, cookie: str, next_page: str) -> Response:
    """Go on to ``next_page`` with the session cookie (and without the pre-session one)."""
    resp = RedirectResponse(_local(next_page), status_code=303)
    resp.set_cookie(
        SESSION_COOKIE,
        cookie,
        max_age=pages.sessions.max_age_s,
        httponly=True,
        samesite="strict",
        secure=pages.settings.secure_cookies,
        path="/",
    )
    resp.delete_cookie(PRE_SESSION_COOKIE, path="/staff")
    return resp


def _code(body: Any) -> str:
    error = body.get("error") if isinstance(body, dict) else None
    return str(error.get("code", "")) if isinstance(error, dict) else ""


def _retry_after(body: Any) -> int:
    details = body.get("error", {}).get("details") if isinstance(body, dict) else None
    wait = details.get("retry_after_s") if isinstance(details, dict) else None
    return wait if isinstance(wait, int) and wait > 0 else 1


def _local(target: str) -> str:
    """Only a path on this site (never an address elsewhere) to go on to after signing in."""
    return target if target.startswith("/") and not target.startswith("//") and "\\" not in target else "/staff"
