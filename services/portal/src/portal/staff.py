"""The staff console: arbiters and operators sign in with their own API key and act through the
services' APIs with it (entries, evidence review, check-in and no-shows, closing a stage,
entering and correcting results). A refusal is shown in words beside the form. The pages are in
one module per group (staff_sign_in, staff_event, staff_entries, staff_evidence, staff_round,
staff_appeals)."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from gomoku_shared.staff_roles import action_words, may, role_words, roles_for

from . import (
    i18n,
    staff_appeals,
    staff_entries,
    staff_event,
    staff_evidence,
    staff_honours,
    staff_invitations,
    staff_ledger,
    staff_organisation,
    staff_relink,
    staff_round,
    staff_sign_in,
)
from .sessions import Sessions, StaffSession
from .site import Site
from .staff_event_names import who_acted, with_names
from .staff_people import event_organisation, roles_list

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
    """A service's refusal in words: a sentence of ours for its code (words/refusals.toml and the
    other tables have one for every code a service answers, issue 28), else for its kind
    (status). The service's own message is English for programmers: never shown (``detail`` is
    kept empty for the templates)."""
    words = site.words(request)
    error = body.get("error", {}) if isinstance(body, dict) else {}
    code = str(error.get("code", ""))
    said = _said(error.get("details"), words.lang)
    if said:  # the service's own sentence in the page's language (issue 29: details.words)
        return {"text": said, "detail": ""}
    if code == "stale_revision":
        text = stale_result(words, error.get("details"))
    elif code == "forbidden" and status == 403:  # the web layer's 403, not the forbidden move
        text = words.t("refusal.forbidden_role")
    elif code in KNOWN_REFUSALS or i18n.known(f"refusal.{code}"):
        text = _filled(words.t(f"refusal.{code}"), error.get("details"))
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
    return {"text": text, "detail": ""}


def _said(details: Any, lang: str) -> str:
    """``details.words[lang]`` of a refusal that carries its own words (zh/en), else ""."""
    said = details.get("words") if isinstance(details, dict) else None
    text = said.get(lang) if isinstance(said, dict) else None
    return str(text)[:500] if isinstance(text, str) else ""


def stale_result(words: i18n.Words, details: Any) -> str:
    """409 ``stale_revision`` in words: another arbiter (or the game) changed the result since the
    page showed it, so the person's result was not saved; what the result is now, who set it
    and when, for them to look at before deciding again."""
    current = details.get("current") if isinstance(details, dict) else None
    if not isinstance(current, dict):
        return words.t("refusal.stale_revision_unknown")
    if "tie_id" in current:  # a tie opened again since the page showed it
        return words.t("refusal.stale_tie", revision=current.get("revision", "—"))
    source = current.get("result_source")
    who = (
        words.t("stale.by_game") if source == "game" else words.t("stale.by", who=who_acted(current.get("changed_by")))
    )
    return words.t(
        "refusal.stale_revision",
        result=words.v("result", current.get("result")),
        who=who,
        at=_when(current.get("changed_at")),
        revision=current.get("revision", "—"),
    )


def _when(text: Any) -> str:
    """A service's ISO 8601 instant as the console shows it (date, time, offset), else a dash."""
    try:
        return datetime.fromisoformat(str(text)).strftime("%Y-%m-%d %H:%M:%S %z")
    except ValueError:
        return "—"


def _filled(text: str, details: Any) -> str:
    """A refusal's words with the numbers of its details (e.g. ``{entrants}``); words without
    such fields, or details that do not fit them, stay as they are."""
    if not isinstance(details, dict):
        return text
    values = {str(key): value for key, value in details.items() if isinstance(value, str | int | float)}
    try:
        return text.format_map(values)
    except (KeyError, IndexError, ValueError):
        return text


def not_theirs_page(
    site: Site, request: Request, session: StaffSession, event: Any, code: str, actions: tuple[str, ...]
) -> HTMLResponse | None:
    """The 403 page that says, in words, why an event's page is not the person's (issue 29):
    ``not_your_event`` when they hold no role there, else which roles the first of ``actions``
    needs and which they hold; None when they may take any of ``actions`` (or for an API key)."""
    person = session.person
    if person is None:
        return None
    held = person.held(event_organisation(event), code)
    if any(may(held, a) for a in actions):
        return None
    words = site.words(request)
    if not held:
        text = words.t("refusal.not_your_event")
    else:
        text = words.t(
            "people.role_not_held_says",
            action=action_words(actions[0], words.lang),
            needs=role_words(roles_for(actions[0]), words.lang),
            holds=roles_list(held, words.lang),
        )
    resp = site.render(request, "staff/refused.html", status=403, staff=session, message_text=text)
    resp.headers["cache-control"] = "no-store"
    return resp


class StaffPages:
    """What every staff page needs: the page with the person signed in, the way to the sign-in
    form, the CSRF refusal, a call to a service with the person's own key, a refusal in words."""

    #: results an arbiter may enter (the round page's form)
    results = RESULTS

    def __init__(self, site: Site, sessions: Sessions) -> None:
        self.site, self.sessions = site, sessions
        self.settings, self.upstream = site.settings, site.upstream

    def render(self, request: Request, template: str, session: StaffSession | None, http_status: int = 200, **ctx: Any):
        resp = self.site.render(request, template, status=http_status, staff=session, **ctx)
        resp.headers["cache-control"] = "no-store"
        return resp

    def to_sign_in(self, request: Request) -> RedirectResponse:
        lang = request.query_params.get("lang")
        chosen = f"&lang={lang}" if lang in i18n.LANGS else ""  # the language asked for goes along
        return RedirectResponse(f"/staff/sign-in?next={request.url.path}{chosen}", status_code=303)

    def csrf_refused(self, request: Request, session: StaffSession | None) -> HTMLResponse:
        return self.render(request, "staff/refused.html", session, http_status=403, message_key="refusal.csrf")

    async def posted(self, request: Request, csrf: str) -> tuple[StaffSession | None, Response | None]:
        """The person who posted a form; or the answer to give instead (sign in, CSRF refused)."""
        session = await self.sessions.of(request)
        if session is None:
            return None, self.to_sign_in(request)
        if not Sessions.csrf_ok(session, csrf):
            return session, self.csrf_refused(request, session)
        return session, None

    async def posted_form(self, request: Request) -> tuple[StaffSession | None, Any, Response | None]:
        """The person who posted a form, and the form; or the answer to give instead."""
        session = await self.sessions.of(request)
        if session is None:
            return None, None, self.to_sign_in(request)
        form = await request.form()
        if not Sessions.csrf_ok(session, str(form.get("csrf", ""))):
            return session, form, self.csrf_refused(request, session)
        return session, form, None

    async def act(
        self,
        request: Request,
        csrf: str,
        service: str,
        path: str,
        body: Any,
        done_key: str,
        page: Callable[[StaffSession, dict[str, str] | None, str], Awaitable[Response]],
    ) -> Response:
        """A staff form's action: the person who posted it POSTs ``body`` to ``service`` with their
        own key, and ``page`` shows the refusal in words or the sentence saying it is done; the
        sign-in form or the CSRF refusal instead when the post is not theirs."""
        session, stop = await self.posted(request, csrf)
        if stop is not None or session is None:
            return stop or self.to_sign_in(request)
        status, answer = await self.call(session, service, "POST", path, body)
        problem, done = self.outcome(request, status, answer, done_key)
        return await page(session, problem, done)

    async def call(
        self, session: StaffSession, service: str, method: str, path: str, body: Any = None, params: Any = None
    ) -> tuple[int, Any]:
        status, answer = await self.upstream.as_person(
            service, method, path, session.api_key, body, params, idempotency_key=secrets.token_urlsafe(16)
        )
        if status == 401 and session.tokens is not None:
            # issue 29: the person's token is refused (signed out everywhere, account disabled):
            # the sign-in is over here too, and the page says so in words
            await self.sessions.close(session)
            return 401, {"error": {"code": "session_ended", "message": "", "details": {}}}
        return status, answer

    async def event_of(self, code: str) -> dict[str, Any]:
        """Registration's event, with its Chinese name for the pages (issue 29: in words)."""
        return await with_names(self.upstream, await self.upstream.get("registration", f"/v1/events/{code}"))

    def not_theirs(
        self, request: Request, session: StaffSession, event: Any, code: str, action: str = "event.read", *more: str
    ) -> HTMLResponse | None:
        """Issue 29: the page of an event the person may not see (or an action they may not
        take there: ``action`` or any of ``more``), in words and with 403; None when it is theirs
        (or an API key's session: the services answer for a key)."""
        return not_theirs_page(self.site, request, session, event, code, (action, *more))

    def refusal(self, request: Request, status: int, body: Any) -> dict[str, str]:
        return refusal(self.site, request, status, body)

    def outcome(
        self, request: Request, status: int, body: Any, done_key: str, **values: Any
    ) -> tuple[dict[str, str] | None, str]:
        """An action's answer for the page: the refusal in words, or the sentence saying it is done."""
        problem = self.refusal(request, status, body) if status >= 400 else None
        return problem, "" if problem else self.site.words(request).t(done_key, **values)


def install(app: FastAPI, site: Site) -> None:
    settings = site.settings
    sessions = Sessions(settings.session_secret, settings.session_minutes, settings.database_url)
    app.state.sessions = sessions
    pages = StaffPages(site, sessions)
    staff_sign_in.install(app, pages)
    staff_event.install(app, pages)
    staff_entries.install(app, pages)
    staff_relink.install(app, pages)  # issue 34
    staff_evidence.install(app, pages)
    staff_round.install(app, pages)
    staff_appeals.install(app, pages)  # AWD-10
    staff_honours.install(app, pages)  # AWD-9
    staff_invitations.install(app, pages)  # issue 29
    staff_organisation.install(app, pages)  # issue 29
    staff_ledger.install(app, pages)  # issue 29: the fee clerk's console
