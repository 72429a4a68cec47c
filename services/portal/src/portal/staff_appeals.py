"""The staff console's appeals page (AWD-10): the appeals of an event with their decisions, a form
to record a unit's written appeal with the fee received, and the committee's decision (upheld:
the fee refunded and, with a new result, the correction through the arbiter's path; rejected).
Issue 28: the unit and the appealed board are chosen from lists by their names ("第 3 轮 第 2 台
张三 对 李四"), never typed as ids; the fee is typed in yuan and sent in fen."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from fastapi import FastAPI, Form, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field

from gomoku_shared.params import PathId

from .console_teams import board_names, board_words, section_names
from .sessions import StaffSession
from .site import money
from .staff_round import change_words, revision
from .yuan import fen_of

if TYPE_CHECKING:
    from .staff_pages import StaffPages

SIGNATORIES = ("leader", "coach")


def board_choice(text: str) -> tuple[str, int | None, str | None]:
    """A board chosen from the list ("section|round|pairing"): the section, the round (None for a
    dispute not about a round) and the pairing (None for a whole round)."""
    sid, _, rest = text.partition("|")
    n, _, pairing = rest.partition("|")
    return sid, (int(n) if n.isdigit() else None), (pairing or None)


def _code(answer: Any) -> str:
    error = answer.get("error") if isinstance(answer, dict) else None
    return str(error.get("code", "")) if isinstance(error, dict) else ""


def form_problem(form: AppealForm, sid: str, fen: int | None) -> str:
    """What is wrong with a form before any call, as a refusal's key: a fee that is not an amount
    in yuan, a board of another section than the one chosen, a signatory not on the list."""
    if fen is None:
        return "refusal.console_fee_yuan"
    if form.section_id and sid != form.section_id:
        return "refusal.console_board_section"
    if form.signatory_role not in SIGNATORIES:
        return "refusal.console_signatory"
    return ""


class AppealForm(BaseModel):
    """The console's form of a written appeal (AWD-10), as pairing's body."""

    section_id: str = Field("", max_length=64)
    board: str = Field("", max_length=140)
    unit_id: str = Field("", max_length=160)
    signatory_role: str = Field("", max_length=10)
    signatory_name: str = Field("", max_length=200)
    grounds: str = Field("", max_length=4000)
    fee_yuan: str = Field("", max_length=20)
    payment_reference: str = Field("", max_length=120)
    csrf: str = Field("", max_length=300)

    def body(self, n: int | None, pairing_id: str | None, fen: int) -> dict[str, Any]:
        return {
            "unit_id": self.unit_id.strip(),
            "signatory_role": self.signatory_role,
            "signatory_name": self.signatory_name.strip(),
            "grounds": self.grounds.strip(),
            "round": n,
            "pairing_id": pairing_id,
            "fee_fen": fen,
            "payment_reference": self.payment_reference.strip(),
        }


def install(app: FastAPI, pages: StaffPages) -> None:
    @app.get("/staff/events/{code}/appeals", response_class=HTMLResponse, name="staff_appeals")
    async def appeals_page(request: Request, code: PathId) -> Response:
        session = await pages.sessions.of(request)
        if session is None:
            return pages.to_sign_in(request)
        return await appeals(pages, request, session, code)

    @app.post("/staff/events/{code}/appeals", response_class=HTMLResponse)
    async def lodge(request: Request, code: PathId, form: Annotated[AppealForm, Form()]) -> Response:
        session, stop = await pages.posted(request, form.csrf)
        if stop is not None or session is None:
            return stop or pages.to_sign_in(request)
        words = pages.site.words(request)
        sid, n, pairing_id = board_choice(form.board) if form.board else (form.section_id, None, None)
        fen = fen_of(form.fee_yuan[:20], zero=True)
        wrong = form_problem(form, sid, fen)
        if wrong or fen is None:
            said = {"text": words.t(wrong), "detail": ""}
            return await appeals(pages, request, session, code, said, "", form)
        status, answer = await pages.call(
            session, "pairing", "POST", f"/v1/events/{code}/sections/{sid}/appeals", form.body(n, pairing_id, fen)
        )
        problem, done = pages.outcome(request, status, answer, "done.appeal_lodged")
        if problem is not None and _code(answer) == "wrong_fee":  # the fee the regulation sets, in yuan
            fee = (await pages.event_of(code)).get("appeals", {}).get("fee_fen", 0)
            problem["text"] += words.t("console.fee_is", fee=money(fee))
        return await appeals(pages, request, session, code, problem, done, form if problem else None)

    @app.post("/staff/events/{code}/sections/{sid}/appeals/{appeal_id}/decision", response_class=HTMLResponse)
    async def decide(
        request: Request,
        code: PathId,
        sid: PathId,
        appeal_id: PathId,
        upheld: str = Form("", max_length=5),
        reasons: str = Form("", max_length=4000),
        result: str = Form("", max_length=24),
        expected_revision: str = Form("", max_length=8),
        confirm: str = Form("", max_length=3),
        csrf: str = Form("", max_length=300),
    ) -> Response:
        if upheld == "yes" and result and confirm != "yes":
            # issue 28: an upheld appeal that changes a result is named and confirmed first, as
            # a result's change on the round page (the board, its players, before and after)
            session, stop = await pages.posted(request, csrf)
            if stop is not None or session is None:
                return stop or pages.to_sign_in(request)
            if result not in pages.results:
                problem = {"text": pages.site.words(request).t("refusal.console_choose_result"), "detail": ""}
                return await appeals(pages, request, session, code, problem)
            asked = {
                "appeal_id": appeal_id,
                "section_id": sid,
                "reasons": reasons.strip(),
                "result": result,
                "expected_revision": expected_revision,
            }
            return await appeals(pages, request, session, code, confirming=asked)
        # a new result names the appealed result's revision the page showed (409 stale_revision
        # in words when an arbiter corrected it meanwhile)
        body = {
            "upheld": upheld == "yes",
            "reasons": reasons.strip(),
            "result": result or None,
            "expected_revision": revision(expected_revision) if result else None,
        }
        return await pages.act(
            request,
            csrf,
            "pairing",
            f"/v1/events/{code}/sections/{sid}/appeals/{appeal_id}/decision",
            body,
            "done.appeal_decided",
            lambda session, problem, done: appeals(pages, request, session, code, problem, done),
        )


async def question(
    pages: StaffPages, request: Request, code: str, appeal: dict[str, Any], result: str
) -> tuple[str, dict[str, str] | None]:
    """The confirmation's question of an upheld appeal's new result ("第 2 轮 第 1 台 甲 对 乙：
    把 先列胜 改为 和棋？"), or the refusal in words when there is nothing to confirm."""
    words = pages.site.words(request)
    sid, n = str(appeal.get("section_id")), appeal.get("round")
    rnd = await pages.upstream.optional("pairing", f"/v1/events/{code}/sections/{sid}/rounds/{n}") if n else None
    pairing = next(
        (p for p in (rnd or {}).get("pairings", []) if p.get("pairing_id") == appeal.get("pairing_id")), None
    )
    if pairing is None or not isinstance(n, int):
        return "", {"text": words.t("refusal.pairing_not_found"), "detail": ""}
    if pairing.get("result") == result:
        return "", {"text": words.t("refusal.console_same_result"), "detail": ""}
    section = await pages.upstream.get("pairing", f"/v1/events/{code}/sections/{sid}")
    return change_words(words, n, pairing, board_names(section), result), None


async def boards_of(
    pages: StaffPages, request: Request, session: StaffSession, code: str, played: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The boards an appeal may be about, by section and round, in words: each section with its
    rounds (``value`` "section|round|" for a whole round) and their boards ("section|round|pairing")."""
    words = pages.site.words(request)
    upstream = pages.upstream
    groups = []
    for s in played:
        if s.get("status") == "cancelled":
            continue
        sid = str(s["section_id"])
        section = await upstream.get("pairing", f"/v1/events/{code}/sections/{sid}")
        names = board_names(section)
        options = []
        for n in range(1, int(section.get("current_round") or 0) + 1):
            rnd = await upstream.optional("pairing", f"/v1/events/{code}/sections/{sid}/rounds/{n}")
            options.append({"value": f"{sid}|{n}|", "label": words.t("console.whole_round", n=n)})
            for p in (rnd or {}).get("pairings", []):
                first, second = (str((names.get(str(p.get(k))) or {}).get("name") or "—") for k in ("first", "second"))
                label = f"{board_words(words, n, p)} {words.t('console.versus_players', first=first, second=second)}"
                options.append({"value": f"{sid}|{n}|{p['pairing_id']}", "label": label, "pairing": p["pairing_id"]})
        groups.append({"section_id": sid, "name": s.get("name") or "—", "options": options})
    return groups


async def appeals(
    pages: StaffPages,
    request: Request,
    session: StaffSession,
    code: str,
    problem: dict[str, str] | None = None,
    done: str = "",
    form: AppealForm | None = None,
    confirming: dict[str, str] | None = None,
) -> HTMLResponse:
    """The appeals of an event with their decisions, and the forms (the outcome of the last one;
    a refused form keeps what was typed)."""
    upstream = pages.upstream
    event = await pages.event_of(code)
    # issue 29: an arbitration member decides, an arbiter lodges; anyone else is told why
    refused = pages.not_theirs(request, session, event, code, "appeals.decide", "appeals.lodge")
    if refused is not None:
        return refused
    sections = await upstream.optional("pairing", f"/v1/events/{code}/sections")
    named = section_names(event, pages.site.words(request).lang)
    played = [
        {**s, "name": named.get(s["section_id"], s.get("name") or "—")} for s in (sections or {}).get("sections", [])
    ]
    status, body = await pages.call(session, "pairing", "GET", f"/v1/events/{code}/appeals")
    # the units by name (a staff read: the person's own key)
    units_status, units = await pages.call(
        session, "registration", "GET", f"/v1/events/{code}/units", params={"limit": 200}
    )
    units = units if units_status == 200 and isinstance(units, dict) else {}
    groups = await boards_of(pages, request, session, code, played)
    listed = body.get("appeals", []) if status == 200 and isinstance(body, dict) else []
    asked = None
    if confirming is not None:
        appeal = next((a for a in listed if a.get("appeal_id") == confirming["appeal_id"]), None)
        if appeal is None or appeal.get("status") != "lodged":  # decided meanwhile, or not this event's
            problem = {"text": pages.site.words(request).t("refusal.console_appeal_gone"), "detail": ""}
        else:
            said, problem = await question(pages, request, code, appeal, confirming["result"])
            asked = {**confirming, "question": said} if said else None
    labels = {(g["section_id"], o.get("pairing")): o["label"] for g in groups for o in g["options"] if o.get("pairing")}
    return pages.render(
        request,
        "staff/appeals.html",
        session,
        event=event,
        code=code,
        appeals=listed,
        played=played,
        section_names=named,
        units=(units or {}).get("units", []),
        unit_names={u["unit_id"]: u.get("name") or "—" for u in (units or {}).get("units", [])},
        groups=groups,
        labels=labels,
        fee_fen=event.get("appeals", {}).get("fee_fen", 0),
        signatories=SIGNATORIES,
        form=form,
        results=pages.results,
        problem=problem or (pages.refusal(request, status, body) if status != 200 else None),
        done=done,
        asked=asked,
    )
