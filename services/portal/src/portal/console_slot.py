"""The staff console's delay of a whole time slot (EVT-7): an arbiter delays round n of the
section's time slot by so many minutes, with a written reason — every section of the stage that
starts that round at the same time moves with it, all of them or none (pairing's
``…/rounds/{n}/delay-slot``, called with the person's own key; each section's delay is audited
and announced, so the games and the published schedule follow). The portal only turns the
minutes into the new start: the round's start as pairing holds it, plus the minutes. A refusal
is said in words beside the form, naming the section of the slot that was refused."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response

from gomoku_shared.params import PathId

from .console_rounds import SEC, _Console
from .console_teams import section_names
from .site import local_time
from .staff_pages import refusal

#: the longest delay the form takes at once (a day); a longer one is several delays
MAX_MINUTES = 24 * 60


def install(app: FastAPI, console: _Console) -> None:
    @app.post(SEC + "/delay-slot", response_class=HTMLResponse)
    async def delay_slot(request: Request, code: PathId, sid: PathId) -> Response:
        session, form, stop = await console.signed_in_form(request)
        if stop is not None or session is None:
            return stop  # type: ignore[return-value]
        rnd, minutes = _whole(form.get("round")), _whole(form.get("minutes"))
        if rnd is None or minutes is None or not 1 <= minutes <= MAX_MINUTES:
            return await console.section_page(request, session, code, sid, "slot", 422, _error("slot_minutes"))
        base = f"/v1/events/{code}/sections/{sid}"
        start = _start_of(await console.upstream.optional("pairing", base + "/round-times"), rnd)
        if start is None:
            return await console.section_page(request, session, code, sid, "slot", 422, _error("unscheduled_round"))
        body = {"starts_at": (start + timedelta(minutes=minutes)).isoformat(), "reason": str(form.get("reason", ""))}
        status, answer = await console.act(session, "POST", f"{base}/rounds/{rnd}/delay-slot", body)
        outcome = await _outcome(console, request, code, status, answer)
        return await console.section_page(request, session, code, sid, "slot", status, answer, outcome=outcome)


def _whole(value: Any) -> int | None:
    text = str(value or "").strip()
    return int(text) if text.isdigit() and len(text) <= 6 else None


def _error(code: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": ""}}


def _start_of(times: Any, rnd: int) -> datetime | None:
    """Round ``rnd``'s start as pairing holds it (its delay, else its schedule), or None."""
    for row in (times or {}).get("rounds", []):
        if row.get("round") == rnd and row.get("starts_at"):
            return datetime.fromisoformat(row["starts_at"])
    return None


async def _outcome(
    console: _Console, request: Request, code: str, status: int, answer: Any
) -> tuple[dict[str, str] | None, str]:
    """The refusal in words (naming the section refused), or the new start of every section."""
    site = console.site
    words = site.words(request)
    event = await console.upstream.get("registration", f"/v1/events/{code}")
    names = section_names(event, words.lang)
    if status >= 400:
        problem = refusal(site, request, status, answer)
        details = (answer.get("error", {}) if isinstance(answer, dict) else {}).get("details")
        refused = details.get("section_id") if isinstance(details, dict) else None
        if refused:
            problem["text"] = words.t("staff.slot_refused_in", section=names.get(refused, "—")) + problem["text"]
        return problem, ""
    moved = ("、" if words.lang == "zh" else ", ").join(
        names.get(s["section_id"], "—") for s in answer.get("sections", [])
    )
    at = local_time(answer.get("starts_at"), event.get("timezone") or "UTC")
    return None, words.t("done.slot_delayed", n=answer.get("round"), at=at, sections=moved)
