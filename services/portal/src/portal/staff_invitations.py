"""The invitation page (issue 29): ``/staff/invitations/{token}`` says who invites whom, to which
organisation, for which roles (in words, ``gomoku_shared.staff_roles.ROLE_WORDS``), asks for a
password twice and accepts the invitation at the identity API (the partners service), then leads
to the sign-in form. An expired or used link says so in words. A password-reset link is the same
page (the identity API says which it is).

There is no session yet: the form's token is bound to the browser's pre-session cookie, as the
sign-in form's is. The link's token goes to the identity API only; it is never logged."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import quote

from fastapi import FastAPI, Form, Path, Request
from fastapi.responses import HTMLResponse, Response

from gomoku_shared.staff_roles import STAFF_ROLES

from .staff_event_names import PLATFORM_ZONE, events_by_code, organisation_zone
from .staff_people import roles_list
from .staff_sign_in import IDENTITY, SignInForm

if TYPE_CHECKING:
    from .staff_pages import StaffPages

#: an invitation's or a reset link's token as the identity API makes them (URL-safe)
InvitationToken = Annotated[str, Path(min_length=8, max_length=200, pattern=r"^[A-Za-z0-9_\-]+$")]
#: the shortest password the page accepts before asking the identity API (which decides)
MIN_PASSWORD = 10


def describe(invitation: Any, lang: str, event_names: Mapping[str, str] | None = None) -> dict[str, Any]:
    """What the page says about an invitation: who is invited, by whom, to which organisation,
    with which roles (in words), in which events (by name: ``event_names``), and whether it
    resets a password."""
    event_names = event_names or {}
    inv: dict[str, Any] = invitation if isinstance(invitation, dict) else {}
    org = inv.get("organisation")
    if isinstance(org, dict):
        org_names: dict[str, Any] = org["names"] if isinstance(org.get("names"), dict) else {}
        zh = org.get("name_zh") if lang == "zh" else None
        org_name = org_names.get(lang) or zh or org.get("name") or org.get("organisation_id") or org.get("id") or "—"
    else:
        org_name = inv.get("organisation_name") or org or "—"
    names = inv.get("organisation_names")
    if isinstance(names, dict) and names.get(lang):
        org_name = names[lang]
    invited_by = inv.get("invited_by")
    if isinstance(invited_by, dict):
        invited_by = invited_by.get("name")
    roles = [r for r in inv.get("roles") or [] if r in STAFF_ROLES]
    events: dict[str, Any] = inv["events"] if isinstance(inv.get("events"), dict) else {}
    return {
        "name": str(inv.get("name") or ""),
        "login": str(inv.get("login") or ""),
        "organisation": str(org_name),
        "invited_by": str(invited_by or ""),
        "roles": roles_list(roles, lang) if roles else "",
        "events": [
            (event_names.get(str(code)) or str(code), roles_list(r if isinstance(r, list) else [], lang))
            for code, r in events.items()
        ],
        "reset": inv.get("kind") in ("password_reset", "reset") or bool(inv.get("password_reset")),
        "expires_at": str(inv.get("expires_at") or ""),
    }


def install(app: FastAPI, pages: StaffPages) -> None:
    form = SignInForm(pages)
    sessions = pages.sessions

    async def page(
        request: Request, token: str, problem: dict | None = None, accepted: bool = False, status: int = 200
    ) -> Response:
        code, body = await pages.upstream.as_person(IDENTITY, "GET", f"/v1/invitations/{quote(token)}", "")
        words = pages.site.words(request)
        if code != 200 and not accepted:
            refused = pages.refusal(request, code, body)
            refused.pop("detail", None)
            gone = code in (404, 409, 410)
            status = code if gone else 503 if code >= 500 else 400
            return form.render(
                request, "/staff", status, refused, template="staff/invitation.html", invitation=None, gone=gone
            )
        names, zone = await _named_events(body if code == 200 else None, words.lang)
        return form.render(
            request,
            "/staff",
            status,
            problem,
            template="staff/invitation.html",
            invitation=describe(body, words.lang, names) if code == 200 else None,
            accepted=accepted,
            path_token=token,
            zone=zone,
        )

    async def _named_events(invitation: Any, lang: str) -> tuple[dict[str, str], str]:
        """The names of the invitation's events, and the time zone its times are said in."""
        if not isinstance(invitation, dict):
            return {}, PLATFORM_ZONE
        codes = list(invitation["events"]) if isinstance(invitation.get("events"), dict) else []
        found = await events_by_code(pages.upstream, codes, lang)
        if found:
            return {c: e.name for c, e in found.items()}, next(iter(found.values())).timezone
        org = invitation.get("organisation")
        org_id = (org.get("id") or org.get("organisation_id")) if isinstance(org, dict) else org
        return {}, await organisation_zone(pages.upstream, str(org_id)) if org_id else PLATFORM_ZONE

    @app.get("/staff/invitations/{token}", response_class=HTMLResponse, name="staff_invitation")
    async def invitation(request: Request, token: InvitationToken) -> Response:
        return await page(request, token)

    @app.post("/staff/invitations/{token}", response_class=HTMLResponse)
    async def accept(
        request: Request,
        token: InvitationToken,
        password: str = Form("", max_length=500),
        password_again: str = Form("", max_length=500),
        csrf: str = Form("", max_length=300),
    ) -> Response:
        if not sessions.sign_in_token_ok(csrf, request):
            return pages.csrf_refused(request, None)
        words = pages.site.words(request)
        if password != password_again:
            return await page(request, token, {"text": words.t("people.passwords_differ")}, status=422)
        if len(password) < MIN_PASSWORD:
            return await page(request, token, {"text": words.t("people.password_short", n=MIN_PASSWORD)}, status=422)
        path = f"/v1/invitations/{quote(token)}/accept"
        code, body = await pages.upstream.as_person(IDENTITY, "POST", path, "", {"password": password})
        if code >= 400:
            refused = pages.refusal(request, code, body)
            refused.pop("detail", None)
            return await page(request, token, refused, status=code if code < 500 else 503)
        return form.render(request, "/staff", 201, None, template="staff/invitation.html", accepted=True)
