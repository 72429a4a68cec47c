"""Issue 34: the public entry form (``/events/{code}/enter``) and the registrant's page
(``/entry/{token}``).

Phone-first and script-free, for the in-app browsers people open from a WeChat article: plain
HTML forms judged on the server. Step 1 chooses a section (those registration's form offers,
with their age and gender in words), step 2 asks what that section's clauses need. Registration
judges the entry by the partners' rules; its refusals are shown in words (``enter.*`` and
``refusal.*``), the form keeps what was typed. A made entry ends on the registrant's page,
reached by its secret link (the token in the URL, sent to registration in a header).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from gomoku_shared.client_address import TrustedProxies
from gomoku_shared.params import PathId

from . import i18n, read_cache, registrant_upload, section_states
from . import names as who_is_who
from .link_upload import link_refused, read_by_link
from .site import Site

#: the form's fields, as the page names them (registration's body fields)
FIELDS = ("name", "gender", "birth_date", "id_number", "guardian_phone", "region", "residency", "insurance_months")
#: what the token of a link looks like (anything else is not asked for)
TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def install(app: FastAPI, site: Site) -> None:
    upstream = site.upstream
    proxies = TrustedProxies(site.settings.forwarded_allow_ips)

    async def form_of(code: str) -> tuple[dict[str, Any], dict[str, Any]]:
        event = await upstream.get("registration", f"/v1/events/{code}")
        form = await upstream.get("registration", f"/v1/events/{code}/public-entries/form")
        return event, form

    async def challenge_of(code: str, form: dict[str, Any]) -> dict[str, Any] | None:
        if not form["challenge"]:
            return None
        return await upstream.get("registration", f"/v1/events/{code}/public-entries/challenge")

    @app.get("/events/{code}/enter", response_class=HTMLResponse, name="entry_form")
    async def entry_form(request: Request, code: PathId, section: str | None = None) -> HTMLResponse:
        event, form = await form_of(code)
        chosen = _section(form, section)
        challenge = await challenge_of(code, form) if chosen else None
        return site.render(
            request, "enter.html", event=event, form=form, chosen=chosen, values={}, challenge=challenge, refusal=None
        )

    @app.post("/events/{code}/enter", response_class=HTMLResponse, name="entry_form_sent")
    async def entry_form_sent(request: Request, code: PathId) -> Response:
        event, form = await form_of(code)
        sent = await request.form()
        values = {k: str(sent.get(k, "")).strip() for k in (*FIELDS, "section_id", "insurance_policy", "website")}
        chosen = _section(form, values["section_id"])
        if chosen is None:
            return RedirectResponse(f"/events/{code}/enter", status_code=303)
        refusal = _missing(values, chosen, form)
        if refusal is None:
            body = _body(values, chosen, sent)
            status, answer = await upstream.as_person(
                "registration",
                "POST",
                f"/v1/events/{code}/public-entries",
                "",
                body,
                client=proxies.client(request.scope),
            )
            if status == 201:
                lang = site.lang_of(request)
                return RedirectResponse(f"/entry/{answer['token']}?new=1&lang={lang}", status_code=303)
            refusal = _refusal(answer)
        challenge = await challenge_of(code, form)
        # the form again with the refusal (200: a page to read, as browsers show it without complaint)
        return site.render(
            request,
            "enter.html",
            event=event,
            form=form,
            chosen=chosen,
            values=values,
            challenge=challenge,
            refusal=refusal,
        )

    @app.get("/entry/{token}", response_class=HTMLResponse, name="registrant_page")
    async def registrant_page(request: Request, token: str, new: int = 0) -> HTMLResponse:
        read_cache.note_unkeyed()  # one registrant's page: never kept for another
        entry, status = await _registrant_entry(site, request, token)
        if entry is None:
            return link_refused(site, request, status, "entry.unknown_link")
        event = await upstream.get("registration", f"/v1/events/{entry['event_code']}")
        form = await upstream.get("registration", f"/v1/events/{entry['event_code']}/public-entries/form")
        section = _section(form, entry["section_id"]) or {"name": "", "name_zh": None}
        played = await _where_played(site, entry)
        parts = await registrant_upload.page_parts(site, request, token, entry)  # its documents (issue 34)
        return site.render(
            request, "entry.html", event=event, entry=entry, section=section, new=bool(new), played=played, **parts
        )


async def _registrant_entry(site: Site, request: Request, token: str) -> tuple[dict[str, Any] | None, int]:
    if not 16 <= len(token) <= 100 or not set(token) <= TOKEN_CHARS:
        return None, 404
    return await read_by_link(site, request, "/v1/registrant", "x-registrant-token", token)


async def _where_played(site: Site, entry: dict[str, Any]) -> dict[str, Any] | None:
    """Once the entry's stage has closed (REG-12): the player's page in the section they play in
    (a merged section's host), or that the section was cancelled; None before."""
    upstream = site.upstream
    code, sid, eid = entry["event_code"], entry["section_id"], entry["entrant_id"]
    closing = (await section_states.of_event(upstream, code))[1].get(sid)
    if closing is None:
        return None
    if closing["status"] == "cancelled":
        return {"cancelled": True}
    host = closing.get("merged_into") or sid if closing["status"] == "merged" else sid
    section = await upstream.optional("pairing", f"/v1/events/{code}/sections/{host}")
    if section is None or eid not in who_is_who.by_id(section):
        return None
    return {"href": f"/events/{code}/sections/{host}/players/{eid}"}


def _section(form: dict[str, Any], section_id: str | None) -> dict[str, Any] | None:
    return next((s for s in form["sections"] if s["section_id"] == section_id), None)


def _missing(values: dict[str, str], chosen: dict[str, Any], form: dict[str, Any]) -> dict[str, Any] | None:
    """The first field left empty or not in its form (checked here so the page answers in words
    before registration judges the rest)."""
    needed = ["name", "gender", "birth_date", "id_number", "guardian_phone"]
    if chosen["residency"]:
        needed += ["residency", "region"]
    if form["insurance_policy"]:
        needed.append("insurance_policy")
    for field in needed:
        if not values.get(field):
            return {"key": f"enter.missing.{field}", "field": field}
    try:
        date.fromisoformat(values["birth_date"])
    except ValueError:
        return {"key": "enter.missing.birth_date", "field": "birth_date"}
    return None


def _body(values: dict[str, str], chosen: dict[str, Any], sent: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "section_id": chosen["section_id"],
        "name": values["name"],
        "gender": values["gender"],
        "birth_date": values["birth_date"],
        "id_number": values["id_number"].replace(" ", "").upper(),
        "guardian_phone": values["guardian_phone"],
        "website": values["website"],
    }
    if chosen["residency"]:
        residency: dict[str, Any] = {"kind": values["residency"], "region": values["region"]}
        if values["residency"] == "residence_permit":
            months = values["insurance_months"]
            residency["insurance_months"] = int(months) if months.isdigit() else 0
        body["residency"] = residency
    if values["insurance_policy"]:
        body["insurance_policy"] = values["insurance_policy"]
    challenge = str(sent.get("challenge", ""))
    if challenge:
        answer = str(sent.get("answer", "")).strip()
        body["challenge"] = challenge
        body["answer"] = int(answer) if answer.isdigit() and len(answer) < 4 else 0
    return body


def _refusal(answer: Any) -> dict[str, Any]:
    """Registration's refusal as the page says it: a judged entry by its rule, a field by name,
    anything else by its code."""
    error = (answer or {}).get("error") or {}
    code = str(error.get("code", ""))
    details = error.get("details")
    if code == "entry_refused" and isinstance(details, dict):
        key = f"enter.rule.{details.get('rule', '')}"
        return {"key": key if i18n.known(key) else "enter.rule.other", "field": None}
    if code == "validation_error" and isinstance(details, list) and details:
        loc = [str(part) for part in details[0].get("loc", [])]
        field = next((part for part in reversed(loc) if part in (*FIELDS, "insurance_policy")), None)
        if field == "kind":
            field = "residency"
        if field is not None:
            return {"key": f"enter.invalid.{field}", "field": field}
    key = f"refusal.{code}"
    return {"key": key if i18n.known(key) else "enter.refused_other", "field": None}
