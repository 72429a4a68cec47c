"""The staff console's sign-in and sign-out: a person signs in with their own API key (only an
arbiter's or an operator's), and the session cookie carries them from page to page.

The form's token is bound to the browser's pre-session cookie (``sessions.PRE_SESSION_COOKIE``):
a page elsewhere cannot sign a browser in as someone else. Wrong keys are throttled per client
address and per key (``gomoku_shared.throttle``): after a few, the form answers 429 with
``Retry-After`` and the wait in words, without asking any service, until the wait is over."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from gomoku_shared.client_address import TrustedProxies
from gomoku_shared.throttle import FailureThrottle

from .sessions import PRE_SESSION_COOKIE, SESSION_COOKIE, SIGN_IN_TOKEN_MAX_AGE_S, Sessions

if TYPE_CHECKING:
    from .staff import StaffPages

STAFF_ROLES = ("arbiter", "operator")


class SignInForm:
    """The form (its token bound to the browser's pre-session cookie) and the throttled check of
    a key: the throttle's counts are per portal process."""

    def __init__(self, pages: StaffPages) -> None:
        self.pages = pages
        self.sessions, self.settings, self.upstream = pages.sessions, pages.settings, pages.upstream
        self.throttle = FailureThrottle(self.settings.credential_throttle())
        self.proxies = TrustedProxies(self.settings.forwarded_allow_ips)

    def render(self, request: Request, next_page: str, status: int = 200, problem: dict | None = None) -> Response:
        """The form with a token for this browser's pre-session cookie (set when it is new)."""
        pre = Sessions.pre_session(request)
        resp = self.pages.render(
            request,
            "staff/sign_in.html",
            None,
            http_status=status,
            token=self.sessions.sign_in_token(pre),
            next=_local(next_page),
            problem=problem,
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

    def throttled(self, request: Request, next_page: str, wait_s: int) -> Response:
        """429: the form again with the wait in words, and ``Retry-After``."""
        words = self.pages.site.words(request)
        problem = {"text": words.t("refusal.too_many_failures", retry_after_s=wait_s)}
        resp = self.render(request, next_page, status=429, problem=problem)
        resp.headers["retry-after"] = str(wait_s)
        return resp

    async def check(self, request: Request, key: str, next_page: str) -> tuple[str | None, Response | None]:
        """The staff role of ``key``; or the answer to give instead (the throttle's 429, the form
        with the refusal in words). A wrong key (401) counts as a failure of this address and key."""
        client = self.proxies.client(request.scope)
        tries = self.throttle.keys(client, key)
        wait = self.throttle.wait_s(tries)
        if wait:
            return None, self.throttled(request, next_page, wait)
        status, body = await self.upstream.as_person("registration", "GET", "/v1/whoami", key, client=client)
        if status == 429:  # the service's own count of this address's failures
            return None, self.throttled(request, next_page, _retry_after(body))
        role = body.get("role") if status == 200 and isinstance(body, dict) else None
        if role in STAFF_ROLES:
            return str(role), None
        if status == 401:
            self.throttle.failed(tries)
        # the form again with the refusal beside it (a page, not an error: 200)
        text_key = "refusal.not_staff" if status == 200 else "refusal.invalid_api_key"
        return None, self.render(request, next_page, problem={"text": self.pages.site.words(request).t(text_key)})


def install(app: FastAPI, pages: StaffPages) -> None:
    sessions, settings = pages.sessions, pages.settings
    form = SignInForm(pages)

    @app.get("/staff/sign-in", response_class=HTMLResponse, name="sign_in")
    async def sign_in_form(request: Request, next: str = Query("/staff", max_length=300)) -> Response:
        return form.render(request, next)

    @app.post("/staff/sign-in", response_class=HTMLResponse)
    async def sign_in(
        request: Request,
        api_key: str = Form("", max_length=200),
        csrf: str = Form("", max_length=300),
        next: str = Form("/staff", max_length=300),
    ) -> Response:
        if not sessions.sign_in_token_ok(csrf, request):
            return pages.csrf_refused(request, None)
        key = api_key.strip()
        role, refused = await form.check(request, key, next)
        if refused is not None or role is None:
            return refused or form.render(request, next)
        _session, cookie = await sessions.open(key, role)
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
        resp.delete_cookie(PRE_SESSION_COOKIE, path="/staff")
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


def _retry_after(body: Any) -> int:
    details = body.get("error", {}).get("details") if isinstance(body, dict) else None
    wait = details.get("retry_after_s") if isinstance(details, dict) else None
    return wait if isinstance(wait, int) and wait > 0 else 1


def _local(target: str) -> str:
    """Only a path on this site (never an address elsewhere) to go on to after signing in."""
    return target if target.startswith("/") and not target.startswith("//") and "\\" not in target else "/staff"
