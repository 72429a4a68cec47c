"""The staff console's new event: a preset with overrides (the event's name in both languages, and
any other setting as a JSON object), created through registration's API with the signed-in
person's key (operators only: registration refuses anyone else, said in words)."""

from __future__ import annotations

import json
import secrets
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from gomoku_shared.staff_roles import may

from .console_rounds import _Console
from .staff_pages import refusal


def install(app: FastAPI, console: _Console) -> None:
    site, upstream = console.site, console.upstream

    async def page(request: Request, session: Any, problem: Any = None, form: Any = None) -> HTMLResponse:
        presets = await upstream.optional("registration", "/v1/presets")
        return console.render(
            request,
            "staff/new_event.html",
            session,
            presets=(presets or {}).get("presets", []),
            problem=problem,
            form=form or {},
        )

    @app.get("/staff/new-event", response_class=HTMLResponse, name="staff_new_event")
    async def new_event(request: Request) -> Response:
        session = await console.sessions.of(request)
        if session is None:
            return RedirectResponse(f"/staff/sign-in?next={request.url.path}", status_code=303)
        return await page(request, session)

    @app.post("/staff/new-event", response_class=HTMLResponse)
    async def create(request: Request) -> Response:
        session, form, stop = await console.signed_in_form(request)
        if stop is not None or session is None:
            return stop  # type: ignore[return-value]
        fields = {k: str(form.get(k, ""))[:20000] for k in ("preset_id", "event_code", "name", "name_zh", "overrides")}
        words = site.words(request)
        try:
            overrides = json.loads(fields["overrides"]) if fields["overrides"].strip() else {}
        except ValueError:
            overrides = None
        if not isinstance(overrides, dict):
            return await page(request, session, {"text": words.t("refusal.overrides_not_json")}, fields)
        for key in ("name", "name_zh"):
            if fields[key].strip():
                overrides[key] = fields[key].strip()
        body = {"preset_id": fields["preset_id"], "event_code": fields["event_code"].strip(), "overrides": overrides}
        if session.person is not None:  # issue 29: the event belongs to the organisation they organise for
            owners = [org for org, roles in session.person.orgs.items() if may(roles, "event.create")]
            if owners:
                body["organisation"] = sorted(owners)[0]
        status, answer = await upstream.as_person(
            "registration", "POST", "/v1/events", session.api_key, body, None, idempotency_key=secrets.token_urlsafe(16)
        )
        if status >= 400:
            return await page(request, session, refusal(site, request, status, answer), fields)
        return RedirectResponse(f"/staff/events/{body['event_code']}", status_code=303)
