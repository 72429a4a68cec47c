"""The staff console's round page: a round's pairings with their results, and an arbiter entering
or correcting a result (through pairing's arbiter route, with the person's own key). The form
starts at the board's current result; saving first shows a confirmation naming the change
("第 3 轮 第 2 台 张三 对 李四：把 先列胜 改为 和棋？") and only the confirmed form is sent (issue 28).
The form carries the result's revision it showed, so a result another arbiter changed meanwhile
is never overwritten: the refusal says what it is now, who set it and when. In a team event each
board names its players and their teams (console_teams)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Form, Request
from fastapi.responses import HTMLResponse, Response

from gomoku_shared.params import PathId, RoundNo

from .console_teams import board_names, board_words, named_section, section_names
from .sessions import StaffSession

if TYPE_CHECKING:
    from .staff_pages import StaffPages


def install(app: FastAPI, pages: StaffPages) -> None:
    @app.get("/staff/events/{code}/sections/{sid}/rounds/{n}", response_class=HTMLResponse, name="staff_round")
    async def staff_round(request: Request, code: PathId, sid: PathId, n: RoundNo) -> Response:
        session = await pages.sessions.of(request)
        if session is None:
            return pages.to_sign_in(request)
        return await round_page(pages, request, session, code, sid, n)

    @app.post("/staff/events/{code}/sections/{sid}/rounds/{n}/results", response_class=HTMLResponse)
    async def enter_result(
        request: Request,
        code: PathId,
        sid: PathId,
        n: RoundNo,
        pairing_id: str = Form("", max_length=64),
        result: str = Form("", max_length=32),
        note: str = Form("", max_length=1000),
        expected_revision: str = Form("", max_length=8),
        confirm: str = Form("", max_length=3),
        csrf: str = Form("", max_length=300),
    ) -> Response:
        if confirm != "yes":  # issue 28: the change named and confirmed before it is saved
            session, stop = await pages.posted(request, csrf)
            if stop is not None or session is None:
                return stop or pages.to_sign_in(request)
            if result not in pages.results:
                problem = {"text": pages.site.words(request).t("refusal.console_choose_result"), "detail": ""}
                return await round_page(pages, request, session, code, sid, n, problem, "", pairing_id)
            asked = {"pairing_id": pairing_id, "result": result, "note": note, "expected_revision": expected_revision}
            return await round_page(pages, request, session, code, sid, n, pairing_id=pairing_id, confirming=asked)
        path = f"/v1/events/{code}/sections/{sid}/rounds/{n}/results"
        # the result's revision the page showed: pairing refuses the write (409 stale_revision,
        # shown in words with the current result) if another arbiter changed it meanwhile
        body = {
            "pairing_id": pairing_id,
            "result": result,
            "note": note,
            "expected_revision": revision(expected_revision),
        }
        return await pages.act(
            request,
            csrf,
            "pairing",
            path,
            body,
            "done.result",
            lambda session, problem, done: round_page(pages, request, session, code, sid, n, problem, done, pairing_id),
        )


def revision(text: str) -> int | None:
    """A form's revision field as pairing takes it (a page without one sends none)."""
    text = text.strip()
    return int(text) if text.isdigit() else None


def change_words(words: Any, n: int, pairing: dict[str, Any], names: dict[str, Any], result: str) -> str:
    """The confirmation's question: which board, who plays, the result now and the one chosen."""

    def name(eid: Any) -> str:
        return str((names.get(str(eid)) or {}).get("name") or "—")

    where = board_words(words, n, pairing)
    players = words.t("console.versus_players", first=name(pairing.get("first")), second=name(pairing.get("second")))
    after = words.v("result", result)
    if not pairing.get("result"):
        return words.t("console.confirm_enter", where=where, players=players, after=after)
    before = words.v("result", pairing.get("result"))
    return words.t("console.confirm_change", where=where, players=players, before=before, after=after)


async def round_page(
    pages: StaffPages,
    request: Request,
    session: StaffSession,
    code: str,
    sid: str,
    n: int,
    problem: dict[str, str] | None = None,
    done: str = "",
    pairing_id: str = "",
    confirming: dict[str, str] | None = None,
) -> HTMLResponse:
    upstream = pages.upstream
    event = await pages.event_of(code)
    # issue 29: a round of an event not theirs says why (a recorder may see it: slips)
    refused = pages.not_theirs(request, session, event, code, "results.enter", "event.read", "slips.enter")
    if refused is not None:
        return refused
    section = await upstream.get("pairing", f"/v1/events/{code}/sections/{sid}")
    rnd = await upstream.optional("pairing", f"/v1/events/{code}/sections/{sid}/rounds/{n}")
    names = board_names(section)
    words = pages.site.words(request)
    section = named_section(section, section_names(event, words.lang))
    pairings = (rnd or {}).get("pairings", [])
    asked = None
    if confirming is not None:
        pairing = next((p for p in pairings if p.get("pairing_id") == confirming["pairing_id"]), None)
        if pairing is None:  # not a board of this round: said in words, nothing to confirm
            problem = {"text": words.t("refusal.pairing_not_found"), "detail": ""}
        elif pairing.get("result") == confirming["result"]:  # nothing would change: nothing to confirm
            problem = {"text": words.t("refusal.console_same_result"), "detail": ""}
        else:
            asked = {**confirming, "question": change_words(words, n, pairing, names, confirming["result"])}
    return pages.render(
        request,
        "staff/round.html",
        session,
        event=event,
        section=section,
        code=code,
        n=n,
        round=rnd,
        names=names,
        boards={p["pairing_id"]: board_words(words, n, p) for p in pairings},
        results=pages.results,
        problem=problem,
        done=done,
        acted=pairing_id,
        asked=asked,
    )
