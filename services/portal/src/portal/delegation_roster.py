"""Issue 34: a delegation's roster for units (NY, DA, NT: 各单位统一报名): the start page
(``/events/{code}/delegation``), the roster page (``/delegation/{token}/roster``) and the
delegation's page (``/delegation/{token}``).

Phone-first plain HTML forms judged on the server, as the public entry form: one card per
person (role, name, section, a team's name and board, an exemption claim, room, nights,
services). "More rows" and "check" post the form back and draw it again with what was typed
(the check answers each row's verdict without keeping anything); a small script only counts
the players against the quota as the roster fills (``static/roster.js``). A submitted roster
ends on the delegation's page, reached by its secret link (the token in the URL, sent to
registration in a header): each entry's verdict, the quota and exemptions, the fees due.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from gomoku_shared.client_address import TrustedProxies
from gomoku_shared.params import PathId

from . import delegation_upload, i18n, read_cache
from .entry_form import TOKEN_CHARS
from .link_upload import link_headers, link_refused, read_by_link
from .site import Site

#: a person's fields on the roster page (``p{n}_{field}``); services are ``p{n}_svc_{id}``
ROW_FIELDS = (
    "role",
    "name",
    "gender",
    "birth_date",
    "id_number",
    "section",
    "team_section",
    "team_name",
    "board",
    "exempt",
    "room",
    "nights",
    "person_id",
)
START_FIELDS = ("unit_name", "region", "leader_name", "leader_phone", "website")
BLANK_ROWS = 3
MAX_ROWS = 80


def install(app: FastAPI, site: Site) -> None:
    _install_start(app, site)
    _install_roster(app, site)


async def _door_of(site: Site, code: str) -> tuple[dict[str, Any], dict[str, Any]]:
    event = await site.upstream.get("registration", f"/v1/events/{code}")
    door = await site.upstream.get("registration", f"/v1/events/{code}/delegations/form")
    return event, door


def _install_start(app: FastAPI, site: Site) -> None:
    upstream = site.upstream
    proxies = TrustedProxies(site.settings.forwarded_allow_ips)

    @app.get("/events/{code}/delegation", response_class=HTMLResponse, name="delegation_start")
    async def delegation_start(request: Request, code: PathId) -> HTMLResponse:
        event, door = await _door_of(site, code)
        return site.render(request, "delegation_start.html", event=event, door=door, values={}, refusal=None)

    @app.post("/events/{code}/delegation", response_class=HTMLResponse, name="delegation_started")
    async def delegation_started(request: Request, code: PathId) -> Response:
        event, door = await _door_of(site, code)
        sent = await request.form()
        values = {k: str(sent.get(k, "")).strip() for k in START_FIELDS}
        missing = next((k for k in START_FIELDS[:4] if k != "region" and not values[k]), None)
        refusal = {"key": f"roster.missing.{missing}"} if missing else None
        if refusal is None:
            body = {k: v for k, v in values.items() if v or k == "website"}
            status, answer = await upstream.as_person(
                "registration", "POST", f"/v1/events/{code}/delegations", "", body, client=proxies.client(request.scope)
            )
            if status == 201:
                lang = site.lang_of(request)
                return RedirectResponse(f"/delegation/{answer['token']}/roster?new=1&lang={lang}", status_code=303)
            refusal = _refusal(answer)
        return site.render(request, "delegation_start.html", event=event, door=door, values=values, refusal=refusal)


def _install_roster(app: FastAPI, site: Site) -> None:
    upstream = site.upstream

    async def delegation_of(request: Request, token: str) -> tuple[dict[str, Any] | None, int]:
        if not 16 <= len(token) <= 100 or not set(token) <= TOKEN_CHARS:
            return None, 404
        return await read_by_link(site, request, "/v1/delegation", "x-delegation-token", token)

    async def page(request: Request, token: str, template: str, **ctx: Any) -> HTMLResponse:
        read_cache.note_unkeyed()  # one delegation's page: never kept for another
        delegation, status = await delegation_of(request, token)
        if delegation is None:
            return link_refused(site, request, status, "roster.unknown_link")
        event, door = await _door_of(site, delegation["event_code"])
        ctx.setdefault("rows", _rows_of(delegation, door))
        ctx.setdefault("upload", delegation_upload.upload_view(site, request, token, delegation))
        return site.render(request, template, event=event, door=door, d=delegation, token=token, money=_money, **ctx)

    @app.get("/delegation/{token}/roster", response_class=HTMLResponse, name="roster_form")
    async def roster_form(request: Request, token: str, new: int = 0) -> HTMLResponse:
        return await page(request, token, "roster.html", new=bool(new), verdicts={}, refusal=None, report=None)

    @app.post("/delegation/{token}/roster", response_class=HTMLResponse, name="roster_sent")
    async def roster_sent(request: Request, token: str) -> Response:
        sent = await request.form()
        rows = _rows_sent(sent)
        action = str(sent.get("step", "check"))
        if action == "more":
            rows += [_blank() for _ in range(BLANK_ROWS)]
            return await page(
                request, token, "roster.html", rows=rows, new=False, verdicts={}, refusal=None, report=None
            )
        body = _roster_body(rows, str(sent.get("insurance_policy", "")).strip())
        if not body["people"]:
            refusal: dict[str, Any] | None = {"key": "roster.empty"}
            return await page(
                request, token, "roster.html", rows=rows, new=False, verdicts={}, refusal=refusal, report=None
            )
        headers = link_headers(site, request, "x-delegation-token", token)
        client = upstream.clients["registration"]
        if action == "submit":
            r = await client.put("/v1/delegation/roster", json=body, headers=headers)
            if r.status_code == 200:
                lang = site.lang_of(request)
                return RedirectResponse(f"/delegation/{token}?sent=1&lang={lang}", status_code=303)
        else:
            r = await client.post("/v1/delegation/roster/check", json=body, headers=headers)
        answer = _json(r)
        report = answer if r.status_code == 200 else None
        details = ((answer or {}).get("error") or {}).get("details")
        if report is None and isinstance(details, dict) and "rows" in details:
            report = {"ok": False, "rows": details["rows"], "officials_refused": []}
        refusal = None if report is not None else _refusal(answer)
        verdicts = _verdicts(report)
        return await page(
            request, token, "roster.html", rows=rows, new=False, verdicts=verdicts, refusal=refusal, report=report
        )

    @app.get("/delegation/{token}", response_class=HTMLResponse, name="delegation_page")
    async def delegation_page(request: Request, token: str, sent: int = 0) -> HTMLResponse:
        return await page(request, token, "delegation.html", sent=bool(sent))


def _json(r: Any) -> Any:
    try:
        return r.json()
    except ValueError:
        return None


def _money(fen: int | None) -> str:
    """Fen as yuan, the way the regulation writes prices (45, 360, 3135.5)."""
    if fen is None:
        return "—"
    yuan, rest = divmod(fen, 100)
    return f"{yuan}" if not rest else f"{yuan}.{rest:02d}".rstrip("0")


def _blank() -> dict[str, str]:
    return {k: "" for k in ROW_FIELDS} | {"role": "player"}


def _rows_of(d: dict[str, Any], door: dict[str, Any]) -> list[dict[str, str]]:
    """The submitted roster as rows to amend (kept players by their person_id), else a leader,
    a coach and blank players."""
    teams = {s["section_id"] for s in door["sections"] if s["kind"] == "team"}
    rows = []
    for p in d.get("people", []):
        row = _blank() | {
            "role": p["role"],
            "name": p["name"],
            "room": p.get("room") or "",
            "person_id": p.get("person_id") or "",
        }
        row["nights"] = str(p.get("nights") or "")
        row["exempt"] = p.get("quota_exempt_ref") or ""
        row["gender"] = p.get("gender") or ""
        row["id_shown"] = p.get("id_number") or ""
        for chosen in p.get("sections", []):
            if chosen["section_id"] in teams:
                row |= {
                    "team_section": chosen["section_id"],
                    "team_name": chosen.get("team_name") or "",
                    "board": str(chosen.get("board") or ""),
                }
            else:
                row["section"] = chosen["section_id"]
        for sid, uses in (p.get("services") or {}).items():
            row[f"svc_{sid}"] = str(uses)
        rows.append(row)
    if not rows:
        rows = [_blank() | {"role": "leader"}, _blank() | {"role": "coach"}]
    return rows + [_blank() for _ in range(BLANK_ROWS)]


def _rows_sent(sent: Any) -> list[dict[str, str]]:
    count = min(int(str(sent.get("rows", "0"))) if str(sent.get("rows", "0")).isdigit() else 0, MAX_ROWS)
    rows = []
    for n in range(count):
        row = {k: str(sent.get(f"p{n}_{k}", "")).strip() for k in ROW_FIELDS}
        row |= {k[len(f"p{n}_") :]: str(v).strip() for k, v in sent.items() if k.startswith(f"p{n}_svc_")}
        row["id_shown"] = str(sent.get(f"p{n}_id_shown", ""))
        if str(sent.get(f"p{n}_remove", "")):
            continue
        rows.append(row)
    return rows


def _roster_body(rows: list[dict[str, str]], policy: str) -> dict[str, Any]:
    """The rows with a name, as registration's roster document."""
    people = []
    for row in rows:
        if not row["name"]:
            continue
        person: dict[str, Any] = {"role": row["role"] if row["role"] in ("leader", "coach", "player") else "player"}
        person["name"] = row["name"]
        if row["room"] and row["nights"].isdigit() and int(row["nights"]):
            person |= {"room": row["room"], "nights": int(row["nights"])}
        services = {k[4:]: int(v) for k, v in row.items() if k.startswith("svc_") and v.isdigit() and int(v)}
        if services:
            person["services"] = services
        if person["role"] == "player":
            person |= _player_fields(row)
        people.append(person)
    body: dict[str, Any] = {"people": people}
    if policy:
        body["insurance_policy"] = policy
    return body


def _player_fields(row: dict[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if row["person_id"]:
        out["person_id"] = row["person_id"]
    else:
        out |= {k: row[k] for k in ("gender", "birth_date") if row[k]}
        if row["id_number"]:
            out["id_number"] = row["id_number"].replace(" ", "").upper()
    sections: list[dict[str, Any]] = [{"section_id": row["section"]}] if row["section"] else []
    if row["team_section"]:
        team: dict[str, Any] = {"section_id": row["team_section"], "team_name": row["team_name"] or None}
        team["board"] = int(row["board"]) if row["board"].isdigit() else None
        sections.append(team)
    out["sections"] = sections
    if row["exempt"]:
        out["quota_exempt_ref"] = row["exempt"]
    return out


def _verdicts(report: dict[str, Any] | None) -> dict[str, list[dict[str, Any]]]:
    """Each person's verdicts in the report, by name (a row is an entry: a player or a team)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for row in (report or {}).get("rows", []):
        for name in row["names"]:
            out.setdefault(name, []).append(row)
    return out


def _refusal(answer: Any) -> dict[str, Any]:
    error = (answer or {}).get("error") or {}
    code = str(error.get("code", ""))
    key = f"refusal.{code}"
    if code == "validation_error":
        return {"key": "roster.invalid"}
    return {"key": key if i18n.known(key) else "enter.refused_other"}
