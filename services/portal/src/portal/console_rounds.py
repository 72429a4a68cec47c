"""The staff console's round and section actions: hold the next rounds as drafts, review a draft
round, adjust its pairings (the pairing service checks them against the absolute criteria and
refuses an illegal pairing), publish it; byes, withdrawals and the arbiter's decision of a tie
(PAIR-8, PAIR-11). Every action goes to the pairing service's arbiter routes with the signed-in
person's own key; the portal holds no rule of its own, and a refusal is shown in words beside
the form it came from. The API has no "swap" command: a swap is an adjustment of the boards."""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from gomoku_shared.params import PathId, RoundNo

from .console_teams import named_section, section_names
from .sessions import Sessions, StaffSession
from .site import Site
from .staff_event_names import with_names
from .staff_pages import not_theirs_page, refusal

SEC = "/staff/events/{code}/sections/{sid}"
#: byes an arbiter may give (pairing's names): requested = half point, forced = full point
BYE_KINDS = ("requested", "forced")
#: byes of a draft round an adjustment may keep (pairing's names)
DRAFT_BYE_KINDS = ("pairing", "requested", "forced", "absent")


class _Console:
    """What every action of this module needs: the session, the form, the call, the page again."""

    def __init__(self, site: Site, sessions: Sessions) -> None:
        self.site, self.sessions, self.upstream = site, sessions, site.upstream

    def render(self, request: Request, template: str, session: StaffSession, http_status: int = 200, **ctx: Any):
        resp = self.site.render(request, template, status=http_status, staff=session, **ctx)
        resp.headers["cache-control"] = "no-store"
        return resp

    async def signed_in_form(self, request: Request) -> tuple[StaffSession | None, Any, Response | None]:
        """The session and the posted form; or the answer to give instead (sign in, CSRF refused)."""
        session = await self.sessions.of(request)
        if session is None:
            return None, None, RedirectResponse(f"/staff/sign-in?next={request.url.path}", status_code=303)
        form = await request.form()
        if not Sessions.csrf_ok(session, str(form.get("csrf", ""))):
            refused = self.render(request, "staff/refused.html", session, http_status=403, message_key="refusal.csrf")
            return session, form, refused
        return session, form, None

    async def act(self, session: StaffSession, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        return await self.upstream.as_person(
            "pairing", method, path, session.api_key, body, None, idempotency_key=secrets.token_urlsafe(16)
        )

    async def section_page(
        self,
        request: Request,
        session: StaffSession,
        code: str,
        sid: str,
        acted: str = "",
        status: int = 200,
        body: Any = None,
        done_key: str = "",
        outcome: tuple[dict[str, str] | None, str] | None = None,
    ) -> HTMLResponse:
        """The section console; ``outcome``: the action's refusal and done sentence, in words
        already (else said from ``status``, ``body`` and ``done_key``)."""
        base = f"/v1/events/{code}/sections/{sid}"
        event = await with_names(self.upstream, await self.upstream.get("registration", f"/v1/events/{code}"))
        refused = not_theirs_page(self.site, request, session, event, code, ("rounds.pair", "results.correct"))
        if refused is not None:  # issue 29: said in words
            return refused
        # issue 28: the event and the section by their names in the page's language
        lang = self.site.lang_of(request)
        section = named_section(await self.upstream.get("pairing", base), section_names(event, lang))
        ties = await self.upstream.optional("pairing", base + "/ties")
        byes = await self.upstream.optional("pairing", base + "/byes")
        times = await self.upstream.optional("pairing", base + "/round-times")
        current = int(section.get("current_round") or 0)
        rnd = await self.upstream.optional("pairing", f"{base}/rounds/{current}") if current else None
        names = {e["entrant_id"]: e for e in section.get("entrants", [])}
        if outcome is None:
            problem = refusal(self.site, request, status, body) if status >= 400 else None
            done = self.site.words(request).t(done_key) if done_key and not problem else ""
        else:
            problem, done = outcome
        return self.render(
            request,
            "staff/section.html",
            session,
            event=event,
            section=section,
            code=code,
            names=names,
            entrants=sorted(names.values(), key=lambda e: e.get("start_no") or 0),
            ties=(ties or {}).get("ties", []),
            byes=(byes or {}).get("byes", []),
            current=current,
            round=rnd,
            bye_kinds=BYE_KINDS,
            draft_bye_kinds=DRAFT_BYE_KINDS,
            times=(times or {}).get("rounds", []),
            acted=acted,
            problem=problem,
            done=done,
        )


def install(app: FastAPI, site: Site, sessions: Sessions) -> _Console:
    console = _Console(site, sessions)
    site.upstream.on_close.append(sessions.store.aclose)  # the sessions' database, if any
    _round_routes(app, console)
    _section_routes(app, console)
    return console


def _round_routes(app: FastAPI, console: _Console) -> None:
    @app.get(SEC, response_class=HTMLResponse, name="staff_section")
    async def staff_section(request: Request, code: PathId, sid: PathId) -> Response:
        session = await console.sessions.of(request)
        if session is None:
            return RedirectResponse(f"/staff/sign-in?next={request.url.path}", status_code=303)
        return await console.section_page(request, session, code, sid)

    @app.post(SEC + "/hold", response_class=HTMLResponse)
    async def hold(request: Request, code: PathId, sid: PathId) -> Response:
        session, form, stop = await console.signed_in_form(request)
        if stop is not None or session is None:
            return stop  # type: ignore[return-value]
        on = form.get("hold") == "true"
        status, body = await console.act(session, "POST", f"/v1/events/{code}/sections/{sid}/hold", {"hold": on})
        return await console.section_page(
            request, session, code, sid, "hold", status, body, "done.hold_on" if on else "done.hold_off"
        )

    @app.post(SEC + "/rounds/{n}/publish", response_class=HTMLResponse)
    async def publish(request: Request, code: PathId, sid: PathId, n: RoundNo) -> Response:
        session, _form, stop = await console.signed_in_form(request)
        if stop is not None or session is None:
            return stop  # type: ignore[return-value]
        status, body = await console.act(session, "POST", f"/v1/events/{code}/sections/{sid}/rounds/{n}/publish")
        return await console.section_page(request, session, code, sid, "draft", status, body, "done.published")

    @app.post(SEC + "/rounds/{n}/pairings", response_class=HTMLResponse)
    async def adjust(request: Request, code: PathId, sid: PathId, n: RoundNo) -> Response:
        session, form, stop = await console.signed_in_form(request)
        if stop is not None or session is None:
            return stop  # type: ignore[return-value]
        firsts = [str(v) for v in form.getlist("first")][:1000]
        seconds = [str(v) for v in form.getlist("second")][:1000]
        boards = [{"first": a, "second": b} for a, b in zip(firsts, seconds, strict=False) if a and b]
        bye_ids = [str(v) for v in form.getlist("bye_entrant")][:1000]
        bye_kinds = [str(v) for v in form.getlist("bye_kind")][:1000]
        byes = [
            {"entrant_id": e, "kind": k if k in DRAFT_BYE_KINDS else "pairing"}
            for e, k in zip(bye_ids, bye_kinds, strict=False)
            if e
        ]
        status, body = await console.act(
            session, "PUT", f"/v1/events/{code}/sections/{sid}/rounds/{n}/pairings", {"boards": boards, "byes": byes}
        )
        return await console.section_page(request, session, code, sid, "draft", status, body, "done.adjusted")


def _section_routes(app: FastAPI, console: _Console) -> None:
    @app.post(SEC + "/byes", response_class=HTMLResponse)
    async def bye(request: Request, code: PathId, sid: PathId) -> Response:
        session, form, stop = await console.signed_in_form(request)
        if stop is not None or session is None:
            return stop  # type: ignore[return-value]
        body: dict[str, Any] = {"entrant_id": str(form.get("entrant_id", ""))[:160], "kind": str(form.get("kind", ""))}
        if str(form.get("round", "")).strip().isdigit():
            body["round"] = int(str(form.get("round")).strip())
        status, answer = await console.act(session, "POST", f"/v1/events/{code}/sections/{sid}/byes", body)
        return await console.section_page(request, session, code, sid, "bye", status, answer, "done.bye")

    @app.post(SEC + "/withdrawals", response_class=HTMLResponse)
    async def withdrawal(request: Request, code: PathId, sid: PathId) -> Response:
        session, form, stop = await console.signed_in_form(request)
        if stop is not None or session is None:
            return stop  # type: ignore[return-value]
        body: dict[str, Any] = {
            "entrant_id": str(form.get("entrant_id", ""))[:160],
            "reason": str(form.get("reason", ""))[:1000],
        }
        if str(form.get("after_round", "")).strip().isdigit():
            body["after_round"] = int(str(form.get("after_round")).strip())
        status, answer = await console.act(session, "POST", f"/v1/events/{code}/sections/{sid}/withdrawals", body)
        return await console.section_page(request, session, code, sid, "withdrawal", status, answer, "done.withdrawn")

    @app.post(SEC + "/ties/{tie_id}/decision", response_class=HTMLResponse)
    async def decide(request: Request, code: PathId, sid: PathId, tie_id: PathId) -> Response:
        session, form, stop = await console.signed_in_form(request)
        if stop is not None or session is None:
            return stop  # type: ignore[return-value]
        # one select per place, best first; the same entrant twice is the service's to refuse
        order = [str(v) for v in form.getlist("place") if str(v)][:200]
        # the tie's revision the page showed: a tie opened again since is refused, in words
        seen = str(form.get("expected_revision", ""))[:8]
        body = {"order": order, "expected_revision": int(seen) if seen.isdigit() and int(seen) > 0 else None}
        status, answer = await console.act(
            session, "POST", f"/v1/events/{code}/sections/{sid}/ties/{tie_id}/decision", body
        )
        return await console.section_page(request, session, code, sid, f"tie:{tie_id}", status, answer, "done.tie")
