"""The organisation page for administrators (issue 29): ``/staff/organisation`` lists the
organisation's staff with their roles in words; an administrator invites a person (login, name,
roles as checkboxes in words, in every event of the organisation or only in the events ticked,
offered by name: ``staff_event_names``), changes
someone's roles, disables or enables an account, and resets a password (the page shows the
one-time link to pass on). Everything goes to the identity API (the partners service) with the
administrator's own token; each refusal is shown in words (``last_administrator``,
``unknown_role``, ``unknown_event``, ``not_your_organisation``, ...)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from fastapi import FastAPI, Query, Request
from fastapi.responses import HTMLResponse, Response

from gomoku_shared.params import PathId
from gomoku_shared.staff_roles import ROLE_WORDS, STAFF_ROLES

from .sessions import StaffSession
from .staff_event_names import organisation_events
from .staff_sign_in import IDENTITY

if TYPE_CHECKING:
    from .staff_pages import StaffPages

#: what an administrator may do to an account from the page (the identity API's paths)
ACCOUNT_ACTIONS = ("disable", "enable", "password-reset")
MAX_EVENTS = 20


def chosen_roles(form: Any) -> list[str]:
    """The roles ticked in a form (``role`` checkboxes), known ones only, in the table's order."""
    ticked = {str(v) for v in form.getlist("role")} if hasattr(form, "getlist") else set()
    return [r for r in STAFF_ROLES if r in ticked]


def chosen_events(form: Any) -> list[str]:
    """The events ticked in a form (``event`` checkboxes: the organisation's events by name)."""
    ticked = [str(v).strip()[:64] for v in form.getlist("event")] if hasattr(form, "getlist") else []
    return list(dict.fromkeys(c for c in ticked if c))[:MAX_EVENTS]


def assignment(roles: list[str], codes: list[str]) -> tuple[list[str], dict[str, list[str]]]:
    """Roles in every event of the organisation (no codes), or in the events named; an
    administrator is always one of the whole organisation."""
    if not codes:
        return roles, {}
    org_roles = [r for r in roles if r == "admin"]
    event_roles = [r for r in roles if r != "admin"]
    return org_roles, ({code: event_roles for code in codes} if event_roles else {})


def listed_member(member: dict[str, Any]) -> dict[str, Any]:
    """A staff member as the list shows them, with every role they hold (in the organisation or
    in some events) for the role editor's ticks."""
    listed = member.get("events")
    events: dict[str, Any] = listed if isinstance(listed, dict) else {}
    held = {str(r) for r in member.get("roles") or []}
    held |= {str(r) for roles in events.values() if isinstance(roles, list) for r in roles}
    return {**member, "events": events, "held_anywhere": [r for r in STAFF_ROLES if r in held]}


class OrganisationPages:
    """The organisation page drawn with its staff list, and who may see it."""

    def __init__(self, pages: StaffPages) -> None:
        self.pages = pages

    @staticmethod
    def link(request: Request, answer: Any) -> str:
        """The one-time link of an invitation or a password reset, whole, to pass on."""
        if not isinstance(answer, dict):
            return ""
        path = answer.get("accept_path") or (f"/staff/invitations/{answer['token']}" if answer.get("token") else "")
        if not isinstance(path, str) or not path:
            return ""
        if not path.startswith("/staff/"):  # the identity API's path of the token: the portal's page
            path = f"/staff/invitations/{quote(path.rstrip('/').split('/')[-1])}"
        return str(request.base_url).rstrip("/") + path

    async def page(
        self, request: Request, session: StaffSession, org: str, status: int = 200, **acted: Any
    ) -> HTMLResponse:
        code, body = await self.pages.call(session, IDENTITY, "GET", f"/v1/organisations/{quote(org)}/staff")
        lang = self.pages.site.lang_of(request)
        events = await organisation_events(self.pages.upstream, org, lang)
        staff = (body.get("items") or body.get("staff")) if code == 200 and isinstance(body, dict) else None
        listed = self.pages.refusal(request, code, body) if code >= 400 else None
        person = session.person
        return self.pages.render(
            request,
            "staff/organisation.html",
            session,
            http_status=status,
            org=org,
            org_name=person.org_name(org, lang) if person else org,
            orgs=person.administers() if person else [],
            staff_list=[listed_member(s) for s in staff or [] if isinstance(s, dict)],
            listed=listed,
            roles=[(r, ROLE_WORDS[r]) for r in STAFF_ROLES],
            events=events,
            event_names={e.code: e.name for e in events},
            **acted,
        )

    async def mine(self, request: Request, org: str | None) -> tuple[StaffSession | None, str, Response | None]:
        session = await self.pages.sessions.of(request)
        if session is None:
            return None, "", self.pages.to_sign_in(request)
        admin_of = session.person.administers() if session.person else []
        if not admin_of:
            words = self.pages.site.words(request)
            refused = self.pages.render(
                request,
                "staff/refused.html",
                session,
                http_status=403,
                message_text=words.t("refusal.not_your_organisation"),
            )
            return session, "", refused
        return session, org if org in admin_of else admin_of[0], None


def install(app: FastAPI, pages: StaffPages) -> None:
    org_pages = OrganisationPages(pages)
    page, link, mine = org_pages.page, org_pages.link, org_pages.mine

    @app.get("/staff/organisation", response_class=HTMLResponse, name="staff_organisation")
    async def organisation(request: Request, org: str | None = Query(None, max_length=64)) -> Response:
        session, chosen, stop = await mine(request, org)
        if stop is not None or session is None:
            return stop  # type: ignore[return-value]
        return await page(request, session, chosen)

    @app.post("/staff/organisation/{org}/invitations", response_class=HTMLResponse)
    async def invite(request: Request, org: PathId) -> Response:
        session, form, stop = await pages.posted_form(request)
        if stop is not None or session is None:
            return stop  # type: ignore[return-value]
        roles, events = assignment(chosen_roles(form), chosen_events(form))
        body = {
            "login": str(form.get("login", "")).strip()[:200],
            "name": str(form.get("name", "")).strip()[:200],
            "roles": roles,
            "events": events,
        }
        words = pages.site.words(request)
        if not body["login"] or not body["name"] or not (roles or events):
            problem = {"text": words.t("people.invite_incomplete")}
            return await page(request, session, org, 422, problem=problem, acted="invite", form=body)
        code, answer = await pages.call(session, IDENTITY, "POST", f"/v1/organisations/{quote(org)}/invitations", body)
        if code >= 400:
            problem = pages.refusal(request, code, answer)
            return await page(request, session, org, 200, problem=problem, acted="invite", form=body)
        done = words.t("people.invited", name=body["name"])
        return await page(request, session, org, done=done, acted="invite", one_time=link(request, answer))

    @app.post("/staff/organisation/{org}/staff/{account_id}/roles", response_class=HTMLResponse)
    async def set_roles(request: Request, org: PathId, account_id: PathId) -> Response:
        session, form, stop = await pages.posted_form(request)
        if stop is not None or session is None:
            return stop  # type: ignore[return-value]
        roles, events = assignment(chosen_roles(form), chosen_events(form))
        path = f"/v1/organisations/{quote(org)}/staff/{quote(account_id)}/roles"
        code, answer = await pages.call(session, IDENTITY, "PUT", path, {"roles": roles, "events": events})
        problem, done = pages.outcome(request, code, answer, "people.roles_saved")
        return await page(request, session, org, problem=problem, done=done, acted=account_id)

    @app.post("/staff/organisation/{org}/staff/{account_id}/{action}", response_class=HTMLResponse)
    async def account_action(request: Request, org: PathId, account_id: PathId, action: PathId) -> Response:
        session, _form, stop = await pages.posted_form(request)
        if stop is not None or session is None:
            return stop  # type: ignore[return-value]
        if action not in ACCOUNT_ACTIONS:
            return await page(request, session, org, 404, problem={"text": pages.site.words(request).t("not_found")})
        path = f"/v1/organisations/{quote(org)}/staff/{quote(account_id)}/{action}"
        code, answer = await pages.call(session, IDENTITY, "POST", path, {})
        problem, done = pages.outcome(request, code, answer, f"people.done_{action.replace('-', '_')}")
        one_time = link(request, answer) if code < 400 and action == "password-reset" else ""
        return await page(request, session, org, problem=problem, done=done, acted=account_id, one_time=one_time)
