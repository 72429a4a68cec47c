"""The fees ledger page (issue 29: a fee clerk's console): the event's ledger lines and a form to
record money received, through registration's ledger API with the person's own token (the
action ``ledger.record``; registration refuses anyone else, said in words). Who paid is chosen by
name (the event's units and entries), never typed as an id; the lines say who paid by name, when
in the event's time zone in words, and who recorded it by their name."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response

from gomoku_shared.params import PathId

from . import console_refunds
from .sessions import StaffSession
from .staff_entries import all_teams
from .yuan import fen_of

if TYPE_CHECKING:
    from .staff_pages import StaffPages


def _item_name(item: dict[str, Any], lang: str) -> str:
    """A fee item's name in the page's language (its Chinese name where registration gives one)."""
    return str((item.get("name_zh") if lang == "zh" else None) or item.get("name") or "")


def payer_of(form: Any) -> tuple[str, str]:
    """Who paid, from the form: ``unit:<id>`` or ``entry:<id>`` (the picker by name), else the
    kind chosen beside an id typed (when the event's entries could not be listed)."""
    chosen = str(form.get("payer", "")).strip()[:160]
    kind, _, ident = chosen.partition(":")
    if kind in ("unit", "entry") and ident:
        return kind, ident
    return ("unit" if form.get("payer_kind") == "unit" else "entry"), chosen


def entry_label(entry: dict[str, Any], lang: str) -> str:
    """An entry as a fee clerk knows it: its players' names (and its team's)."""
    names = ("、" if lang == "zh" else ", ").join(
        str(p.get("name")) for p in entry.get("players") or [] if isinstance(p, dict) and p.get("name")
    )
    team = str(entry.get("team_name") or "")
    if not (team and names):
        return names or team
    return f"{names}（{team}）" if lang == "zh" else f"{names} ({team})"


async def payers(pages: StaffPages, session: StaffSession, code: str, lang: str) -> dict[str, list[tuple[str, str]]]:
    """The event's units and entries by name, for the picker ({} when they cannot be read)."""
    got_units, units = await pages.call(session, "registration", "GET", f"/v1/events/{code}/units")
    got_entries, entries = await pages.call(session, "registration", "GET", f"/v1/events/{code}/entries")
    if got_units != 200 or got_entries != 200 or not isinstance(units, dict) or not isinstance(entries, dict):
        return {}
    unit_rows = [u for u in units.get("units", []) if isinstance(u, dict) and u.get("unit_id")]
    entry_rows = [e for e in entries.get("entries", []) if isinstance(e, dict) and e.get("entry_id")]
    return {
        "unit": sorted(((str(u["unit_id"]), str(u.get("name") or "—")) for u in unit_rows), key=lambda p: p[1]),
        "entry": sorted(((str(e["entry_id"]), entry_label(e, lang) or "—") for e in entry_rows), key=lambda p: p[1]),
    }


def install(app: FastAPI, pages: StaffPages) -> None:
    async def page(request: Request, session: StaffSession, code: str, status: int = 200, **acted: Any) -> Response:
        event = await pages.event_of(code)
        refused = pages.not_theirs(request, session, event, code, "ledger.record")
        if refused is not None:
            return refused
        listed, body = await pages.call(session, "registration", "GET", f"/v1/events/{code}/ledger")
        fees_status, fees = await pages.call(session, "registration", "GET", f"/v1/events/{code}/fees")
        fees = fees if fees_status == 200 and isinstance(fees, dict) else {}
        lang = pages.site.lang_of(request)
        who = await payers(pages, session, code, lang)
        # the fee items and the roster's optional services (DA 十二), both paid through the ledger
        offered = [*fees.get("items", []), *fees.get("services", [])]
        items = [(str(i["id"]), _item_name(i, lang)) for i in offered if isinstance(i, dict) and i.get("id")]
        refunds = await console_refunds.refund_requests(pages, session, code)
        return pages.render(
            request,
            "staff/ledger.html",
            session,
            http_status=status,
            event=event,
            code=code,
            lines=body.get("lines", []) if listed == 200 and isinstance(body, dict) else [],
            listed=pages.refusal(request, listed, body) if listed >= 400 else None,
            items=items,
            item_names=dict(items),
            payers=who,
            # issue 28: a team event's entries are teams, and the payers' list says so
            team_entries=all_teams(event),
            payer_names={ident: name for kind in who.values() for ident, name in kind},
            refunds=refunds,
            **acted,
        )

    @app.get("/staff/events/{code}/ledger", response_class=HTMLResponse, name="staff_ledger")
    async def ledger(request: Request, code: PathId) -> Response:
        session = await pages.sessions.of(request)
        if session is None:
            return pages.to_sign_in(request)
        return await page(request, session, code)

    @app.post("/staff/events/{code}/ledger", response_class=HTMLResponse)
    async def record(request: Request, code: PathId) -> Response:
        session, form, stop = await pages.posted_form(request)
        if stop is not None or session is None:
            return stop  # type: ignore[return-value]
        words = pages.site.words(request)
        fen = fen_of(str(form.get("amount_yuan", ""))[:20])
        kind, payer = payer_of(form)
        if fen is None or not payer:
            return await page(request, session, code, 422, problem={"text": words.t("people.ledger_incomplete")})
        body: dict[str, Any] = {
            "kind": "payment",
            "item": str(form.get("item", "")).strip()[:64],
            "amount_fen": fen,
            f"{kind}_id": payer,
        }
        for field in ("reference", "note"):
            value = str(form.get(field, "")).strip()[:500]
            if value:
                body[field] = value
        status, answer = await pages.call(session, "registration", "POST", f"/v1/events/{code}/ledger", body)
        problem, done = pages.outcome(request, status, answer, "people.ledger_recorded")
        return await page(request, session, code, problem=problem, done=done)

    console_refunds.install(app, pages, page)  # issue 28: refund requests decided in yuan
