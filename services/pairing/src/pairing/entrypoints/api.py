"""HTTP API of the pairing service: public reads (sections, rounds, standings, cross table, TRF,
ties) and the arbiter's actions (results, pairings before a round starts, byes, withdrawals, tie
decisions), each audited. Paths follow docs/api.md."""

from __future__ import annotations

import csv
import io
from typing import Annotated, Any, Literal

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.responses import PlainTextResponse
from pydantic import BaseModel, Field
from sqlalchemy.exc import IntegrityError

from gomoku_shared import idempotency
from gomoku_shared.api_docs import documented, text_too
from gomoku_shared.auth import KeyRing, Principal, Staff
from gomoku_shared.contracts.common import Entrant
from gomoku_shared.errors import NotFound
from gomoku_shared.idempotency import (
    IdemKey,
    IdempotencyStore,
    KeyedRequest,
    fingerprint,
    principal_id,
    replay,
    route_path,
)
from gomoku_shared.params import PathId, RoundNo
from gomoku_shared.runtime import ServiceRuntime
from gomoku_shared.service import lifespan_for
from gomoku_shared.web import create_app

from ..adapters import orm
from ..adapters import repository as repo
from ..domain import Outcome, export_trf
from ..domain.standings import cross_table
from ..domain.teams import as_tournament
from ..service_layer import handlers
from ..service_layer import section as sec
from ..service_layer.pool import Pairer
from . import views as v

Id = Field(min_length=1, max_length=160)
EntrantId = Annotated[str, Field(min_length=1, max_length=160)]
SEC = "/v1/events/{event_code}/sections/{section_id}"
ResultName = Literal[
    "first_wins",
    "second_wins",
    "draw",
    "first_forfeit_win",
    "second_forfeit_win",
    "double_forfeit",
    "1-0",
    "0-1",
    "=-=",
    "+--",
    "--+",
    "---",
]


def _with_text(model, media_type: str) -> dict:
    """``responses=`` of an answer in JSON (``model``) or, on request, text."""
    return {200: {"model": model, **text_too(media_type)[200]}}


class ResultBody(BaseModel):
    pairing_id: str = Field(min_length=1, max_length=64)
    #: from the pairing's first player's side (first moves first in game 1)
    result: ResultName
    note: str = Field(default="", max_length=1000)


class BoardBody(BaseModel):
    first: str = Id
    second: str = Id


class ByeItem(BaseModel):
    entrant_id: str = Id
    kind: Literal["pairing", "requested", "forced", "absent"] = "pairing"


class PairingsBody(BaseModel):
    """Individual: boards are games (first moves first). Teams: boards are matches of teams
    (first = first-listed team, PAIR-9)."""

    boards: list[BoardBody] = Field(max_length=1000)
    byes: list[ByeItem] = Field(default_factory=list, max_length=1000)


class ByeBody(BaseModel):
    entrant_id: str = Id
    kind: Literal["requested", "forced"] = "requested"
    round: int | None = Field(default=None, ge=1, le=99)


class WithdrawalBody(BaseModel):
    entrant_id: str = Id
    #: not paired after this round (default: the last published round)
    after_round: int | None = Field(default=None, ge=0, le=99)
    reason: str = Field(default="", max_length=1000)


class LateEntryBody(BaseModel):
    entrant_id: str = Id
    name: str = Field(min_length=1, max_length=200)
    gender: Literal["male", "female"] | None = None
    unit: str | None = Field(default=None, max_length=200)
    rating: int = Field(default=0, ge=0, le=4000)
    partner_id: str | None = Field(default=None, max_length=120)


class HoldBody(BaseModel):
    hold: bool


class DecisionBody(BaseModel):
    #: the tied entrants best first; a nested list keeps those entrants sharing their places
    order: list[EntrantId | Annotated[list[EntrantId], Field(min_length=1, max_length=200)]] = Field(
        min_length=1, max_length=200
    )


# ---------------------------------------------------------------- helpers


async def _load(request: Request, ec: str, sid: str) -> repo.SectionState:
    runtime: ServiceRuntime = request.app.state.runtime
    async with runtime.sessionmaker() as s:
        st = await repo.load(s, ec, sid)
    if st is None:
        raise NotFound("section_not_found", f"no section {sid!r} in event {ec!r}")
    return st


async def _act(
    request: Request, principal: Principal, key: str | None, correlation: str, fn, body: BaseModel | None = None
) -> Any:
    """Run an arbiter action in one transaction; an Idempotency-Key is bound to the request
    (gomoku_shared.idempotency): a retry replays the stored answer, another request with the
    same key is refused."""
    runtime: ServiceRuntime = request.app.state.runtime
    store: IdempotencyStore = request.app.state.idempotency
    keyed = None
    if key is not None:
        keyed = KeyedRequest(
            principal_id(principal),
            key,
            fingerprint(
                request.method, route_path(request.scope), body.model_dump(mode="json") if body is not None else None
            ),
        )
    for attempt in (1, 2):
        try:
            async with runtime.transaction(correlation_id=correlation) as uow:
                if keyed is not None:
                    stored = await store.lookup(uow.session, keyed)
                    if stored is not None:
                        return replay(stored)
                out = await fn(uow)
                if keyed is not None:
                    await store.remember(uow.session, keyed, 200, out)
            return out
        except IntegrityError:
            if keyed is None or attempt == 2:
                raise
            # a concurrent twin stored the same key first: its answer is replayed now
    raise AssertionError("unreachable")


def _tie_view(t: dict) -> dict:
    po = t["playoff"] or {}
    return {
        "tie_id": t["tie_id"],
        "gender": t["gender"],
        "place_from": t["place_from"],
        "place_to": t["place_to"],
        "entrant_ids": t["entrant_ids"],
        "action": t["action"],
        "status": t["status"],
        "decided": t["status"] == "decided",
        "decision": t["decision"],
        "decided_by": t["decided_by"],
        "playoff_id": po.get("playoff_id"),
        "playoff_stage": po.get("stage"),
        "matches": po.get("matches", []),
    }


def _standings(st: repo.SectionState) -> dict:
    rk = sec.ranked(st)
    rows = sec.contract_rows(st, rk, final=True)
    done = st.complete_rounds()
    return {
        "event_code": st.event_code,
        "section_id": st.section_id,
        "status": st.row["status"],
        "after_round": done[-1] if done else 0,
        "revision": st.row["revision"],
        "order": rk.names,
        "standings": [r.model_dump(mode="json") for r in rows],
    }


def _standings_csv(d: dict) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    names = [n for n in d["order"][1:]]
    w.writerow(
        [
            "place",
            "shared",
            "entrant_id",
            "name",
            "gender",
            "gender_place",
            "unit",
            "points",
            *names,
            "wins",
            "games_played",
            "decided_by",
        ]
    )
    for r in d["standings"]:
        w.writerow(
            [
                r["place"],
                int(r["shared"]),
                r["entrant_id"],
                r["name"],
                r["gender"] or "",
                r["gender_place"] or "",
                r["unit"] or "",
                _num(r["points"]),
                *[_num(r["tiebreaks"].get(n, "")) for n in names],
                r["wins"],
                r["games_played"],
                r["decided_by"] or "",
            ]
        )
    return buf.getvalue()


def _num(x: Any) -> str:
    if isinstance(x, float):
        return str(int(x)) if x.is_integer() else f"{x:g}"
    return str(x)


def _cross(st: repo.SectionState) -> dict:
    dom = sec.team_tournament(st) if st.team else sec.tournament(st)
    t = as_tournament(dom) if st.team else dom
    rows = sec.contract_rows(st, sec.ranked(st), final=True)
    ids = {no: e["entrant_id"] for no, e in st.entrants.items()}
    place = {r.entrant_id: r.place for r in rows}
    ct = cross_table(t)
    players = []
    for p in ct["players"]:
        eid = ids[p["id"]]
        players.append(
            {
                "entrant_id": eid,
                "start_no": p["id"],
                "name": p["name"],
                "place": place.get(eid),
                "points": p["points"],
                "rounds": [{**c, "opponent": ids.get(c["opponent"]) if c["opponent"] else None} for c in p["rounds"]],
            }
        )
    players.sort(key=lambda x: (x["place"] or 0, x["start_no"]))
    return {"section_id": st.section_id, "rounds": ct["rounds"], "players": players}


def _cross_csv(d: dict) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["place", "start_no", "entrant_id", "name", "points", *[f"R{r}" for r in range(1, d["rounds"] + 1)]])
    for p in d["players"]:
        cells = []
        for c in p["rounds"]:
            col = {"first": "f", "second": "s", None: ""}[c["colour"]]
            cells.append(f"{c['opponent'] or ''}{col}{c['result'].strip() or '.'}")
        w.writerow([p["place"] or "", p["start_no"], p["entrant_id"], p["name"], _num(float(p["points"])), *cells])
    return buf.getvalue()


def _round_view(st: repo.SectionState, r: int, games: list[dict]) -> dict:
    if r not in st.rounds:
        raise NotFound("round_not_found", f"round {r} of {st.section_id} is not paired")
    rd = st.rounds[r]
    if rd["status"] == "draft":
        pass  # drafts are shown: the arbiter reviews them here before publishing
    by_pairing: dict[str, list] = {}
    for g in games:
        if not g["playoff_id"] and g["round"] == r:
            by_pairing.setdefault(g["pairing_id"], []).append(
                {
                    "game_no": g["game_no"],
                    "game_id": g["game_id"],
                    "winner": g["winner"],
                    "result": g["result"],
                    "reason": g["reason"],
                }
            )
    pairings = []
    for p in st.pairings.get(r, []):
        o = Outcome(p["outcome"]) if p["outcome"] else None
        pairings.append(
            {
                "pairing_id": p["pairing_id"],
                "match_id": f"r{r}.m{p['match_no']}" if st.team else None,
                "board": p["board"] if st.team else p["match_no"],
                "first": p["first_id"],
                "second": p["second_id"],
                "first_team": p["first_team"],
                "second_team": p["second_team"],
                "games": p["games"],
                "result": sec.result_name(o) if o else None,
                "outcome": p["outcome"],
                "first_points": p["first_points"],
                "second_points": p["second_points"],
                "result_source": p["result_source"],
                "game_results": by_pairing.get(p["pairing_id"], []),
            }
        )
    byes = [b.model_dump() for b in sec.bye_specs(st, r)]
    return {
        "section_id": st.section_id,
        "round": r,
        "status": rd["status"],
        "paired_by": rd["paired_by"],
        "published_at": rd["published_at"].isoformat() if rd["published_at"] else None,
        "pairings": pairings,
        "byes": byes,
    }


# ---------------------------------------------------------------- routes


def routes(pairer: Pairer) -> APIRouter:
    router = APIRouter(tags=["pairing"])

    @router.get(
        "/v1/events/{event_code}/sections",
        summary="Sections of an event with status and current round",
        **documented(v.SectionList),
    )
    async def list_sections(event_code: PathId, request: Request) -> dict:
        runtime: ServiceRuntime = request.app.state.runtime
        async with runtime.sessionmaker() as s:
            rows = await repo.sections_of(s, event_code)
        return {
            "event_code": event_code,
            "sections": [
                {
                    "section_id": r["section_id"],
                    "stage": r["stage"],
                    "name": r["name"],
                    "status": r["status"],
                    "current_round": r["current_round"],
                    "rounds": r["rounds_planned"],
                    "format": r["format"],
                    "kind": r["kind"],
                    "revision": r["revision"],
                }
                for r in rows
            ],
        }

    @router.get(
        SEC, summary="A section: rules, entrants with start numbers, rounds, ties", **documented(v.SectionDetail)
    )
    async def section_detail(event_code: PathId, section_id: PathId, request: Request) -> dict:
        st = await _load(request, event_code, section_id)
        return {
            "event_code": event_code,
            "section_id": section_id,
            "stage": st.row["stage"],
            "name": st.row["name"],
            "status": st.row["status"],
            "kind": st.rules.kind,
            "format": st.rules.format,
            "rounds": st.rules.rounds,
            "current_round": st.row["current_round"],
            "revision": st.row["revision"],
            "hold": st.row["hold"],
            "note": st.row["note"],
            "rules": st.rules.model_dump(mode="json"),
            "entrants": [
                {
                    "start_no": no,
                    "entrant_id": e["entrant_id"],
                    "name": e["entrant"].name,
                    "gender": e["entrant"].gender,
                    "unit": e["entrant"].unit,
                    "rating": e["entrant"].rating,
                    "withdrawn_after": e["withdrawn_after"],
                }
                for no, e in sorted(st.entrants.items())
            ],
            "round_status": [{"round": r, "status": st.rounds[r]["status"]} for r in sorted(st.rounds)],
            "ties": [_tie_view(t) for t in st.ties if t["status"] != "void"],
        }

    @router.get(
        SEC + "/rounds/{n}",
        summary="Pairings of a round with their results (drafts included)",
        **documented(v.RoundView),
    )
    async def get_round(event_code: PathId, section_id: PathId, n: RoundNo, request: Request) -> dict:
        st = await _load(request, event_code, section_id)
        runtime: ServiceRuntime = request.app.state.runtime
        async with runtime.sessionmaker() as s:
            games = await repo.games_of(s, event_code, section_id)
        return _round_view(st, n, games)

    @router.get(
        SEC + "/standings",
        summary="Standings with every tiebreak value (JSON or ?format=csv)",
        response_model=None,
        responses=_with_text(v.Standings, "text/csv"),
    )
    async def get_standings(
        event_code: PathId, section_id: PathId, request: Request, format: Literal["json", "csv"] = Query("json")
    ) -> Any:
        d = _standings(await _load(request, event_code, section_id))
        if format == "csv":
            return PlainTextResponse(_standings_csv(d), media_type="text/csv")
        return d

    @router.get(
        SEC + "/crosstable",
        summary="Cross table (JSON or ?format=csv)",
        response_model=None,
        responses=_with_text(v.CrossTable, "text/csv"),
    )
    async def get_crosstable(
        event_code: PathId, section_id: PathId, request: Request, format: Literal["json", "csv"] = Query("json")
    ) -> Any:
        d = _cross(await _load(request, event_code, section_id))
        if format == "csv":
            return PlainTextResponse(_cross_csv(d), media_type="text/csv")
        return d

    @router.get(
        SEC + "/trf",
        summary="FIDE TRF-16 export (teams: teams as competitors)",
        response_model=None,
        response_class=PlainTextResponse,
        responses=text_too("text/plain"),
    )
    async def get_trf(event_code: PathId, section_id: PathId, request: Request) -> Any:
        st = await _load(request, event_code, section_id)
        dom = sec.team_tournament(st) if st.team else sec.tournament(st)
        return PlainTextResponse(export_trf(as_tournament(dom) if st.team else dom), media_type="text/plain")

    @router.get(
        SEC + "/ties",
        summary="Ties on places that matter (PAIR-8): playoffs and arbiter decisions",
        **documented(v.Ties),
    )
    async def get_ties(event_code: PathId, section_id: PathId, request: Request) -> dict:
        st = await _load(request, event_code, section_id)
        return {
            "section_id": section_id,
            "status": st.row["status"],
            "ties": [_tie_view(t) for t in st.ties if t["status"] != "void"],
        }

    @router.get(
        SEC + "/byes", summary="Requested and forced byes of rounds not yet paired or published", **documented(v.Byes)
    )
    async def get_byes(event_code: PathId, section_id: PathId, request: Request) -> dict:
        st = await _load(request, event_code, section_id)
        return {
            "byes": [
                {"entrant_id": st.entrants[r["start_no"]]["entrant_id"], "round": r["round"], "kind": r["kind"]}
                for r in st.requests
            ]
        }

    @router.get(SEC + "/audit", summary="Arbiter audit records (staff)", **documented(v.Audit))
    async def get_audit(event_code: PathId, section_id: PathId, request: Request, _p: Staff) -> dict:
        runtime: ServiceRuntime = request.app.state.runtime
        async with runtime.sessionmaker() as s:
            rows = await repo.audit_of(s, event_code, section_id)
        return {
            "audit": [{**{k: v for k, v in r.items() if k not in ("at",)}, "at": r["at"].isoformat()} for r in rows]
        }

    @router.post(SEC + "/rounds/{n}/results", summary="Enter or correct a result (audited; PAIR-11, AWD-8)")
    async def post_result(
        event_code: PathId,
        section_id: PathId,
        n: RoundNo,
        body: ResultBody,
        request: Request,
        p: Staff,
        key: str | None = IdemKey,
    ) -> dict:
        return await _act(
            request,
            p,
            key,
            event_code,
            lambda uow: handlers.enter_result(
                uow, event_code, section_id, n, body.pairing_id, body.result, p, pairer, body.note
            ),
            body,
        )

    @router.put(SEC + "/rounds/{n}/pairings", summary="Correct a draft round's pairings (checked, audited)")
    async def put_pairings(
        event_code: PathId,
        section_id: PathId,
        n: RoundNo,
        body: PairingsBody,
        request: Request,
        p: Staff,
        key: str | None = IdemKey,
    ) -> dict:
        return await _act(
            request,
            p,
            key,
            event_code,
            lambda uow: handlers.correct_pairings(
                uow,
                event_code,
                section_id,
                n,
                [(b.first, b.second) for b in body.boards],
                [(b.entrant_id, b.kind) for b in body.byes],
                p,
                pairer,
            ),
            body,
        )

    @router.post(SEC + "/rounds/{n}/publish", summary="Publish a reviewed draft round (then final)")
    async def post_publish(
        event_code: PathId, section_id: PathId, n: RoundNo, request: Request, p: Staff, key: str | None = IdemKey
    ) -> dict:
        return await _act(
            request, p, key, event_code, lambda uow: handlers.publish_round(uow, event_code, section_id, n, p)
        )

    @router.post(SEC + "/hold", summary="Hold the next rounds as drafts for review before publishing")
    async def post_hold(
        event_code: PathId, section_id: PathId, body: HoldBody, request: Request, p: Staff, key: str | None = IdemKey
    ) -> dict:
        return await _act(
            request, p, key, event_code, lambda uow: handlers.set_hold(uow, event_code, section_id, body.hold, p), body
        )

    @router.post(SEC + "/byes", summary="Requested (half point) or forced (full point) bye for a coming round")
    async def post_bye(
        event_code: PathId, section_id: PathId, body: ByeBody, request: Request, p: Staff, key: str | None = IdemKey
    ) -> dict:
        return await _act(
            request,
            p,
            key,
            event_code,
            lambda uow: handlers.add_bye(
                uow, event_code, section_id, body.entrant_id, body.kind, body.round, p, pairer
            ),
            body,
        )

    @router.post(SEC + "/withdrawals", summary="Withdraw a player (not paired after the given round)")
    async def post_withdrawal(
        event_code: PathId,
        section_id: PathId,
        body: WithdrawalBody,
        request: Request,
        p: Staff,
        key: str | None = IdemKey,
    ) -> dict:
        return await _act(
            request,
            p,
            key,
            event_code,
            lambda uow: handlers.withdraw(
                uow, event_code, section_id, body.entrant_id, body.after_round, body.reason, p, pairer
            ),
            body,
        )

    @router.post(SEC + "/entrants", summary="Late entry (Swiss): paired from the next unpublished round")
    async def post_late_entry(
        event_code: PathId,
        section_id: PathId,
        body: LateEntryBody,
        request: Request,
        p: Staff,
        key: str | None = IdemKey,
    ) -> dict:
        entrant = Entrant(**body.model_dump())
        return await _act(
            request,
            p,
            key,
            event_code,
            lambda uow: handlers.late_entry(uow, event_code, section_id, entrant, p, pairer),
            body,
        )

    @router.post(SEC + "/ties/{tie_id}/decision", summary="The arbiter's order for a tie (PAIR-8)")
    async def post_decision(
        event_code: PathId,
        section_id: PathId,
        tie_id: PathId,
        body: DecisionBody,
        request: Request,
        p: Staff,
        key: str | None = IdemKey,
    ) -> dict:
        return await _act(
            request,
            p,
            key,
            event_code,
            lambda uow: handlers.decide_tie(uow, event_code, section_id, tie_id, body.order, p),
            body,
        )

    return router


def create_api(runtime: ServiceRuntime, keyring: KeyRing, pairer: Pairer | None = None) -> FastAPI:
    app = create_app(
        "pairing",
        title="Gomoku pairing service",
        description="Swiss (FIDE Dutch) and round-robin (Berger) pairing, results, standings with tiebreaks, playoffs, the round lifecycle.",
        lifespan=lifespan_for(runtime),
        keyring=keyring,
        ready_checks={"database": runtime.db_ready, "bus": runtime.bus_ready},
        clock=runtime.clock,
    )
    app.state.runtime = runtime
    app.state.idempotency = idempotency.for_runtime(runtime, orm.idempotency_keys)
    app.include_router(routes(pairer or Pairer()))
    return app
